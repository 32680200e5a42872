/**
 * @module A stand-in for the kubelet of one node (no kubelet runs here): it registers the node and renews its Lease,
 * binds unscheduled pods to it (there is no scheduler either), runs each container of the middleware's image as a
 * process of this checkout (`node bin/mdw.js <args>`) with the pod's environment, reports Running, Ready (from the
 * readiness probe; not ready after failureThreshold failures in a row, as a kubelet), restarts and, for a Job's pod,
 * Succeeded or Failed by the exit code with the termination message, and stops the process when the pod is deleted
 * (SIGTERM, then SIGKILL once the pod's grace period is over, as a kubelet: gracePeriodMs). Init containers run first,
 * one after the other, as processes too; one that fails fails a pod that is not restarted (restartPolicy Never).
 * Service names are resolved by its proxy (service-proxy.ts).
 *
 * Where a process cannot be what a container is, the agent maps it, and says so here:
 * - network: each pod gets an address of its own in the agent's 127.77.<subnet>.0/24 (one no other agent on the machine
 *   holds: the test files' clusters run side by side); a listener on all addresses (HTTP_HOST unset,
 *   `0.0.0.0:<port>` in a variable) is moved to that address, as the pod's network namespace would confine it;
 * - credentials: the pod's ServiceAccount token (TokenRequest, bound to the pod) comes as a kubeconfig in
 *   KUBECONFIG, since a process cannot have its own /var/run/secrets;
 * - files: /tmp is a directory of the pod's own (TMPDIR, HOME), and the termination message path is a file there;
 *   an argument under another volume's mountPath names a directory instead: an emptyDir's is the pod's own, shared by
 *   its containers, a PersistentVolumeClaim's is claimDir(namespace, claim), where a test puts what the volume holds;
 *   V8's compile cache (bin/mdw.js keeps it in TMPDIR) is the test run's instead (NODE_COMPILE_CACHE), since every
 *   pod runs the same checkout: in a new TMPDIR each pod's start compiled every module again, about a second of CPU.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { V1Container, V1ContainerStatus, V1EnvVar, V1Pod, V1Probe } from '@kubernetes/client-node';
import type { ControlPlane } from './control-plane.ts';
import { PodCache } from './pod-cache.ts';
import { stopProcess, tail } from './control-plane.ts';
import { KubeRestError } from './rest.ts';
import type { KubeRest } from './rest.ts';

/** NodeAgentOptions: the cluster, the node's name, the checkout whose bin/mdw.js runs, the images it may run. */
export interface NodeAgentOptions {
  plane: ControlPlane;
  rest: KubeRest;
  nodeName: string;
  checkout: string;
  /** the images the agent runs as processes of the checkout; another image's pod fails as an image it cannot pull */
  runsImage: (image: string) => boolean;
  /** the service proxy's URL, given to every process as HTTP_PROXY */
  proxyUrl: string;
  /**
   * the first third octet tried for the pods' addresses (127.77.<subnet>.<n>); the agent takes the first one no other
   * agent on this machine holds (reserveSubnet), so two clusters side by side never give two pods one address
   */
  subnet?: number;
}

/** Running is one pod's process and what the agent last reported of it. */
interface Running {
  uid: string;
  child: ChildProcess | undefined;
  ip: string;
  dir: string;
  log: string;
  terminationFile: string;
  restarts: number;
  ready: boolean;
  /** failed readiness probes in a row */
  failures: number;
  nextProbeMs: number;
  startedAt: string;
  exited?: { code: number; at: string };
  /** the exit was reported (not ready, terminated) while the restart waits for its back-off */
  exitReported?: boolean;
  stopping?: Promise<void>;
  /** from SIGTERM to SIGKILL when the process is stopped: the pod's grace period (gracePeriodMs) */
  graceMs: number;
  /** frozen: crashed and never restarted nor reported (freeze) */
  frozen?: boolean;
  /** the init containers that ended with 0, in order, as reported: the next one (or the main container) runs now */
  inits: V1ContainerStatus[];
}

const TICK_MS = 250;
const LEASE_RENEW_MS = 10_000;
/** RESERVE_PORT: the port an agent listens on at 127.77.<subnet>.1 while it runs, holding its subnet machine-wide */
const RESERVE_PORT = 7707;

/** NodeAgent is the kubelet of one node, from start() until stop(). */
export class NodeAgent {
  readonly #opts: NodeAgentOptions;
  readonly #pods = new Map<string, Running>();
  readonly #ipsInUse = new Set<string>();
  #subnet: { readonly octet: number; readonly held: Server } | undefined;
  #timer: NodeJS.Timeout | undefined;
  #tick: Promise<void> = Promise.resolve();
  #lastLeaseMs = 0;
  #stopped = true;
  /** the pods as the last list and its watch told them; no watch running, the next tick lists them again */
  readonly #cache = new PodCache();
  #watch: { stop(): void } | undefined;
  /** errors the agent met (a refused status update, a process that could not start): a test reads them. */
  readonly errors: string[] = [];

  constructor(opts: NodeAgentOptions) {
    this.#opts = opts;
  }

  get nodeName(): string {
    return this.#opts.nodeName;
  }

  /** logOf is the log of a pod's process (namespace/name), undefined when the agent never ran it. */
  logOf(namespace: string, name: string): string | undefined {
    return this.#pods.get(`${namespace}/${name}`)?.log;
  }

  /** claimDir is the directory a PersistentVolumeClaim's volume is on this node (created): a test fills it. */
  claimDir(namespace: string, claim: string): string {
    const dir = join(this.#opts.plane.dir, 'claims', namespace, claim);
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  /** podLogs lists the logs of every pod the agent ran whose name starts with prefix, in namespace. */
  podLogs(namespace: string, prefix = ''): Array<{ pod: string; log: string }> {
    return [...this.#pods.entries()]
      .filter(([key]) => key.startsWith(`${namespace}/${prefix}`))
      .map(([key, r]) => ({ pod: key.slice(namespace.length + 1), log: r.log }));
  }

  /**
   * freeze ends a pod's process with SIGKILL and starts it no more, as when its node hangs: nothing is released, and
   * the pod stays as the API server last saw it until it is deleted.
   */
  freeze(namespace: string, name: string): void {
    const run = this.#pods.get(`${namespace}/${name}`);
    if (run?.child === undefined) throw new Error(`no process runs for ${namespace}/${name}`);
    run.frozen = true;
    run.child.kill('SIGKILL');
  }

  async start(): Promise<void> {
    this.#subnet = await reserveSubnet(this.#opts.subnet ?? 1);
    this.#stopped = false;
    process.once('exit', () => {
      for (const run of this.#pods.values()) run.child?.kill('SIGKILL');
    });
    await this.#register();
    const loop = () => {
      this.#tick = this.#reconcile()
        .catch((err: unknown) => this.#error(`tick: ${String(err)}`))
        .finally(() => {
          if (!this.#stopped) this.#timer = setTimeout(loop, TICK_MS);
        });
    };
    loop();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#watch?.stop();
    await this.#tick;
    await Promise.all(
      [...this.#pods.values()].map((r) => (r.child === undefined ? undefined : stopProcess(r.child, r.graceMs))),
    );
    const held = this.#subnet?.held;
    if (held !== undefined) await new Promise((resolve) => held.close(resolve));
  }

  /** #register creates the Node (Ready, with room for every pod) and its Lease in kube-node-lease. */
  async #register(): Promise<void> {
    const { rest, nodeName } = this.#opts;
    const node = {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: nodeName, labels: { 'kubernetes.io/hostname': nodeName, 'kubernetes.io/os': 'linux' } },
    };
    await rest.call('POST', '/api/v1/nodes', node).catch(ignoreConflict);
    await this.#reportNode();
  }

  async #reportNode(): Promise<void> {
    const { rest, nodeName } = this.#opts;
    const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    const capacity = { cpu: '16', memory: '64Gi', pods: '250', 'ephemeral-storage': '100Gi' };
    const condition = (type: string, status: string, reason: string) => ({
      type,
      status,
      reason,
      message: reason,
      lastHeartbeatTime: now,
      lastTransitionTime: now,
    });
    await rest.call(
      'PATCH',
      `/api/v1/nodes/${nodeName}/status`,
      {
        status: {
          capacity,
          allocatable: capacity,
          conditions: [
            condition('Ready', 'True', 'KubeletReady'),
            condition('MemoryPressure', 'False', 'KubeletHasSufficientMemory'),
            condition('DiskPressure', 'False', 'KubeletHasNoDiskPressure'),
            condition('PIDPressure', 'False', 'KubeletHasSufficientPID'),
          ],
          addresses: [
            { type: 'InternalIP', address: '127.0.0.1' },
            { type: 'Hostname', address: nodeName },
          ],
          nodeInfo: nodeInfo(),
        },
      },
      'application/strategic-merge-patch+json',
    );
    const leasePath = `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${nodeName}`;
    const renewTime = new Date().toISOString().replace(/Z$/, '000Z');
    const spec = { holderIdentity: nodeName, leaseDurationSeconds: 40, renewTime };
    try {
      const lease = await rest.get<{ metadata: object }>(leasePath);
      await rest.call('PUT', leasePath, { ...lease, spec });
    } catch (err) {
      if (!(err instanceof KubeRestError && err.status === 404)) throw err;
      const body = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: nodeName }, spec };
      await rest.call('POST', '/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases', body);
    }
    this.#lastLeaseMs = Date.now();
  }

  async #reconcile(): Promise<void> {
    if (Date.now() - this.#lastLeaseMs > LEASE_RENEW_MS) await this.#reportNode();
    const items = await this.#currentPods();
    const seen = new Set<string>();
    for (const pod of items) {
      const key = `${pod.metadata?.namespace}/${pod.metadata?.name}`;
      if (this.#stopped) return;
      try {
        if ((pod.spec?.nodeName ?? '') === '') await this.#bind(pod);
        else if (pod.spec?.nodeName === this.#opts.nodeName) {
          seen.add(key);
          await this.#sync(key, pod);
        }
      } catch (err) {
        this.#error(`${key}: ${String(err)}`);
      }
    }
    // a pod removed without the agent seeing its deletion (force-deleted): its process goes too
    for (const [key, r] of this.#pods) {
      if (!seen.has(key) && r.child !== undefined && r.child.exitCode === null && r.stopping === undefined) {
        r.stopping = stopProcess(r.child, r.graceMs);
      }
    }
  }

  /**
   * #currentPods are the pods as the watch told them, listed again (and watched from there) when no watch runs: at
   * the start, and when the API server ended the last one (its request timeout, a minute or two; a version compacted
   * away), which also bounds what a lost event could cost.
   */
  async #currentPods(): Promise<V1Pod[]> {
    if (this.#watch !== undefined) return this.#cache.pods;
    const list = await this.#opts.rest.get<{ items: V1Pod[]; metadata: { resourceVersion: string } }>('/api/v1/pods');
    this.#cache.reset(list.items);
    // from the list's version: no change between the list and the watch's start is missed
    const watch = this.#opts.rest.watch(
      `/api/v1/pods?watch=1&resourceVersion=${list.metadata.resourceVersion}`,
      (chunk) => {
        if (this.#watch === watch) this.#cache.feed(chunk);
      },
      () => {
        if (this.#watch === watch) this.#watch = undefined;
      },
    );
    this.#watch = watch;
    return this.#cache.pods;
  }

  async #bind(pod: V1Pod): Promise<void> {
    if (pod.metadata?.deletionTimestamp !== undefined) return;
    const { namespace, name } = pod.metadata ?? {};
    await this.#opts.rest.call('POST', `/api/v1/namespaces/${namespace}/pods/${name}/binding`, {
      apiVersion: 'v1',
      kind: 'Binding',
      metadata: { name, namespace },
      target: { apiVersion: 'v1', kind: 'Node', name: this.#opts.nodeName },
    });
    // the answer is a Status: the next tick runs the pod (bound here) before the watch's event of it comes
    this.#cache.put({
      ...pod,
      spec: { ...pod.spec, containers: pod.spec?.containers ?? [], nodeName: this.#opts.nodeName },
    });
  }

  async #sync(key: string, pod: V1Pod): Promise<void> {
    const uid = pod.metadata?.uid ?? '';
    let run = this.#pods.get(key);
    if (run !== undefined && run.uid !== uid) {
      // a new pod of the same name (a StatefulSet's, a recreated Job pod): the old process is gone with the old pod
      if (run.child !== undefined) await stopProcess(run.child, run.graceMs);
      this.#ipsInUse.delete(run.ip);
      this.#pods.delete(key);
      run = undefined;
    }
    if (pod.metadata?.deletionTimestamp !== undefined) return this.#finishDeletion(key, pod, run);
    const phase = pod.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') return;
    const main = pod.spec?.containers[0];
    if (main === undefined) return;
    if (run === undefined) {
      if (!this.#opts.runsImage(main.image ?? '')) return this.#refuseImage(pod, main);
      run = this.#newRun(key, uid, gracePeriodMs(pod));
      this.#pods.set(key, run);
      await this.#launch(pod, currentContainer(pod, run), run);
      return;
    }
    const container = currentContainer(pod, run);
    if (run.frozen === true) return;
    if (run.exited !== undefined) return this.#afterExit(pod, container, run);
    if (run.child !== undefined && Date.now() >= run.nextProbeMs) await this.#probe(pod, container, run);
  }

  #newRun(key: string, uid: string, graceMs: number): Running {
    const dir = join(this.#opts.plane.dir, 'pods', key.replace('/', '_'), uid.slice(0, 8));
    mkdirSync(join(dir, 'tmp'), { recursive: true });
    return {
      uid,
      child: undefined,
      ip: this.#allocateIp(),
      dir,
      log: join(dir, 'container.log'),
      terminationFile: join(dir, 'termination-log'),
      restarts: 0,
      ready: false,
      failures: 0,
      nextProbeMs: 0,
      startedAt: new Date().toISOString(),
      inits: [],
      graceMs,
    };
  }

  #allocateIp(): string {
    const subnet = this.#subnet?.octet ?? 1;
    for (let n = 2; n < 255; n++) {
      const ip = `127.77.${subnet}.${n}`;
      if (!this.#ipsInUse.has(ip)) {
        this.#ipsInUse.add(ip);
        return ip;
      }
    }
    throw new Error('no pod address left');
  }

  async #launch(pod: V1Pod, container: V1Container, run: Running): Promise<void> {
    const env = await this.#environment(pod, container, run);
    const args = (container.args ?? []).map((a) =>
      a === container.terminationMessagePath ? run.terminationFile : this.#onVolume(pod, container, run, a),
    );
    const out = createWriteStream(run.log, { flags: 'a' });
    const child = spawn(process.execPath, [join(this.#opts.checkout, 'bin', 'mdw.js'), ...args], {
      cwd: join(run.dir, 'tmp'),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(out);
    child.stderr.pipe(out);
    run.child = child;
    run.exited = undefined;
    run.exitReported = false;
    run.ready = false;
    run.failures = 0;
    run.startedAt = new Date().toISOString();
    run.nextProbeMs = Date.now() + 1000 * (container.readinessProbe?.initialDelaySeconds ?? 0);
    child.once('exit', (code, signal) => {
      run.exited = { code: code ?? (signal === null ? 1 : 128 + signalNumber(signal)), at: new Date().toISOString() };
      run.child = undefined;
    });
    await this.#reportStatus(pod, container, run);
  }

  /** #onVolume maps a path under one of the container's volume mounts (but /tmp's) to that volume's directory here. */
  #onVolume(pod: V1Pod, container: V1Container, run: Running, arg: string): string {
    for (const mount of container.volumeMounts ?? []) {
      const at = mount.mountPath;
      if (at === '/tmp' || (arg !== at && !arg.startsWith(`${at}/`))) continue;
      const volume = pod.spec?.volumes?.find((v) => v.name === mount.name);
      const claim = volume?.persistentVolumeClaim?.claimName;
      const dir =
        claim !== undefined
          ? this.claimDir(pod.metadata?.namespace ?? 'default', claim)
          : join(run.dir, 'volumes', mount.name);
      mkdirSync(dir, { recursive: true });
      return `${dir}${arg.slice(at.length)}`;
    }
    return arg;
  }

  /** #environment is what the container would see: its env and envFrom resolved, and the agent's mappings. */
  async #environment(pod: V1Pod, container: V1Container, run: Running): Promise<NodeJS.ProcessEnv> {
    const namespace = pod.metadata?.namespace ?? 'default';
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: join(run.dir, 'tmp'),
      TMPDIR: join(run.dir, 'tmp'),
      HOSTNAME: pod.metadata?.name,
      NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? join(tmpdir(), 'node-compile-cache'),
    };
    for (const from of container.envFrom ?? []) {
      const data = await this.#dataOf(namespace, from.secretRef?.name, from.configMapRef?.name, true);
      for (const [k, v] of Object.entries(data)) env[`${from.prefix ?? ''}${k}`] = v;
    }
    for (const variable of container.env ?? []) {
      const value = await this.#valueOf(pod, container, variable, run);
      if (value !== undefined) env[variable.name] = value;
    }
    for (const [k, v] of Object.entries(env)) {
      if (v !== undefined && /^0\.0\.0\.0:\d+$/.test(v)) env[k] = v.replace('0.0.0.0', run.ip);
    }
    env.HTTP_HOST ??= run.ip;
    env.HTTP_PROXY = this.#opts.proxyUrl;
    env.NO_PROXY = 'localhost,127.0.0.1';
    if (pod.spec?.automountServiceAccountToken !== false)
      env.KUBECONFIG = await this.#serviceAccountKubeconfig(pod, run);
    return env;
  }

  async #valueOf(pod: V1Pod, c: V1Container, v: V1EnvVar, run: Running): Promise<string | undefined> {
    if (v.valueFrom === undefined) return v.value ?? '';
    const { fieldRef, secretKeyRef, configMapKeyRef, resourceFieldRef } = v.valueFrom;
    if (fieldRef !== undefined) return fieldOf(pod, fieldRef.fieldPath, run.ip);
    if (resourceFieldRef !== undefined) return resourceOf(c, resourceFieldRef.resource, resourceFieldRef.divisor);
    const namespace = pod.metadata?.namespace ?? 'default';
    const ref = secretKeyRef ?? configMapKeyRef;
    const data = await this.#dataOf(namespace, secretKeyRef?.name, configMapKeyRef?.name, ref?.optional === true);
    const value = data[ref?.key ?? ''];
    if (value === undefined && ref?.optional !== true) throw new Error(`${v.name}: key ${ref?.key} not found`);
    return value;
  }

  async #dataOf(
    namespace: string,
    secret: string | undefined,
    configMap: string | undefined,
    optional: boolean,
  ): Promise<Record<string, string>> {
    try {
      if (secret !== undefined) {
        const s = await this.#opts.rest.get<{ data?: Record<string, string> }>(
          `/api/v1/namespaces/${namespace}/secrets/${secret}`,
        );
        return Object.fromEntries(
          Object.entries(s.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
        );
      }
      const cm = await this.#opts.rest.get<{ data?: Record<string, string> }>(
        `/api/v1/namespaces/${namespace}/configmaps/${configMap}`,
      );
      return cm.data ?? {};
    } catch (err) {
      if (optional && err instanceof KubeRestError && err.status === 404) return {};
      throw err;
    }
  }

  /** #serviceAccountKubeconfig asks a token of the pod's ServiceAccount, bound to the pod, as the kubelet does. */
  async #serviceAccountKubeconfig(pod: V1Pod, run: Running): Promise<string> {
    const namespace = pod.metadata?.namespace ?? 'default';
    const sa = pod.spec?.serviceAccountName ?? 'default';
    const answer = await this.#opts.rest.call<{ status: { token: string } }>(
      'POST',
      `/api/v1/namespaces/${namespace}/serviceaccounts/${sa}/token`,
      {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: {
          expirationSeconds: 86_400,
          boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: pod.metadata?.name, uid: pod.metadata?.uid },
        },
      },
    );
    return this.#opts.plane.kubeconfigWithToken(join(run.dir, 'kubeconfig'), answer.status.token, namespace);
  }

  async #probe(pod: V1Pod, container: V1Container, run: Running): Promise<void> {
    const probe = container.readinessProbe;
    const passed = probe === undefined ? true : await httpProbe(probe, container, run.ip);
    const { ready, failures } = nextReadiness(run, passed, probe?.failureThreshold);
    run.nextProbeMs = Date.now() + probePeriodMs(probe, ready);
    run.failures = failures;
    if (ready !== run.ready || pod.status?.podIP !== run.ip) {
      run.ready = ready;
      await this.#reportStatus(pod, container, run);
    }
  }

  async #afterExit(pod: V1Pod, container: V1Container, run: Running): Promise<void> {
    const exited = run.exited as { code: number; at: string };
    if (container !== pod.spec?.containers[0] && exited.code === 0) {
      // an init container done: the next one, or the main container, starts
      run.inits.push(containerStatus(container, run, terminatedState(container, run, exited)));
      await this.#launch(pod, currentContainer(pod, run), run);
      return;
    }
    const policy = pod.spec?.restartPolicy ?? 'Always';
    const restart = policy === 'Always' || (policy === 'OnFailure' && exited.code !== 0);
    if (!restart) {
      await this.#reportStatus(pod, container, run);
      return;
    }
    // CrashLoopBackOff, shortened: 1 s doubling to 10 s. Meanwhile the pod is not ready, as a kubelet reports a
    // container's death at once: a Service must not send requests to a process that is gone.
    const backoffMs = Math.min(10_000, 1000 * 2 ** run.restarts);
    if (Date.now() - Date.parse(exited.at) < backoffMs) {
      if (run.exitReported !== true) await this.#reportStatus(pod, container, run);
      run.exitReported = true;
      return;
    }
    run.restarts += 1;
    await this.#launch(pod, container, run);
  }

  async #finishDeletion(key: string, pod: V1Pod, run: Running | undefined): Promise<void> {
    if (run?.child !== undefined) {
      // the process is told to stop and the pod deleted in a later tick, once it exited: a server's shutdown delay
      // must not hold up the node's other pods meanwhile, as a kubelet stops each pod on its own
      run.stopping ??= stopProcess(run.child, gracePeriodMs(pod));
      return;
    }
    if (run !== undefined) this.#ipsInUse.delete(run.ip);
    this.#pods.delete(key);
    const { namespace, name, uid } = pod.metadata ?? {};
    await this.#opts.rest
      .call('DELETE', `/api/v1/namespaces/${namespace}/pods/${name}`, {
        apiVersion: 'v1',
        kind: 'DeleteOptions',
        gracePeriodSeconds: 0,
        preconditions: { uid },
      })
      .catch(ignoreNotFound);
    this.#cache.remove(pod);
    if (run !== undefined) this.#pods.set(`${key}#deleted-${run.uid}`, run); // its log stays readable
  }

  async #refuseImage(pod: V1Pod, container: V1Container): Promise<void> {
    if (pod.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'ErrImagePull') return;
    await this.#patchStatus(pod, {
      phase: 'Pending',
      containerStatuses: [
        {
          name: container.name,
          image: container.image,
          imageID: '',
          ready: false,
          restartCount: 0,
          state: { waiting: { reason: 'ErrImagePull', message: `the node agent runs only the middleware's image` } },
        },
      ],
    });
  }

  async #reportStatus(pod: V1Pod, container: V1Container, run: Running): Promise<void> {
    const now = new Date().toISOString();
    const exited = run.child === undefined ? run.exited : undefined;
    const policy = pod.spec?.restartPolicy ?? 'Always';
    const final = exited !== undefined && !(policy === 'Always' || (policy === 'OnFailure' && exited.code !== 0));
    const phase = final ? (exited.code === 0 ? 'Succeeded' : 'Failed') : 'Running';
    const ready = phase === 'Running' && run.ready && run.child !== undefined;
    const state =
      exited === undefined
        ? { running: { startedAt: run.startedAt as never } }
        : terminatedState(container, run, exited);
    // while an init container runs the main container waits, and the pod is Pending (Initialized False)
    const main = pod.spec?.containers[0] ?? container;
    const initializing = container !== main;
    const status = { ...containerStatus(container, run, state), ready, started: run.child !== undefined };
    const initStatuses = [...run.inits, ...(initializing ? [status] : [])];
    const condition = (type: string, status: boolean) => ({
      type,
      status: status ? 'True' : 'False',
      lastTransitionTime: now,
      lastProbeTime: null,
    });
    await this.#patchStatus(pod, {
      phase: initializing && phase === 'Running' ? 'Pending' : phase,
      hostIP: '127.0.0.1',
      hostIPs: [{ ip: '127.0.0.1' }],
      podIP: run.ip,
      podIPs: [{ ip: run.ip }],
      startTime: pod.status?.startTime ?? now,
      conditions: [
        condition('PodScheduled', true),
        condition('Initialized', !initializing),
        condition('ContainersReady', ready),
        condition('Ready', ready),
      ],
      ...(initStatuses.length === 0 ? {} : { initContainerStatuses: initStatuses }),
      containerStatuses: [
        initializing
          ? {
              name: main.name,
              image: main.image,
              imageID: '',
              ready: false,
              restartCount: 0,
              state: { waiting: { reason: 'PodInitializing' } },
            }
          : status,
      ],
    });
  }

  async #patchStatus(pod: V1Pod, status: object): Promise<void> {
    const { namespace, name } = pod.metadata ?? {};
    const written = await this.#opts.rest
      .call<V1Pod>(
        'PATCH',
        `/api/v1/namespaces/${namespace}/pods/${name}/status`,
        { status },
        'application/merge-patch+json',
      )
      .catch(ignoreNotFound);
    // the next tick judges the pod as written, not as it was before (its watch event may come later)
    if (written !== undefined) this.#cache.put(written);
  }

  #error(message: string): void {
    if (this.errors.length < 1000) this.errors.push(message);
  }
}

function ignoreConflict(err: unknown): void {
  if (!(err instanceof KubeRestError && err.status === 409)) throw err;
}

function ignoreNotFound(err: unknown): void {
  if (!(err instanceof KubeRestError && err.status === 404)) throw err;
}

function nodeInfo(): Record<string, string> {
  return {
    machineID: 'mdw-node-agent',
    systemUUID: 'mdw-node-agent',
    bootID: 'mdw-node-agent',
    kernelVersion: '',
    osImage: 'mdw node agent',
    containerRuntimeVersion: 'process://node',
    kubeletVersion: 'v1.37.2',
    kubeProxyVersion: '',
    operatingSystem: 'linux',
    architecture: 'amd64',
  };
}

/** fieldOf reads a downward-API field of the pod. */
function fieldOf(pod: V1Pod, path: string, ip: string): string {
  const label = /^metadata\.labels\['(.+)'\]$/.exec(path);
  if (label !== null) return pod.metadata?.labels?.[label[1] as string] ?? '';
  const annotation = /^metadata\.annotations\['(.+)'\]$/.exec(path);
  if (annotation !== null) return pod.metadata?.annotations?.[annotation[1] as string] ?? '';
  const fields: Record<string, string | undefined> = {
    'metadata.name': pod.metadata?.name,
    'metadata.namespace': pod.metadata?.namespace,
    'metadata.uid': pod.metadata?.uid,
    'spec.nodeName': pod.spec?.nodeName,
    'spec.serviceAccountName': pod.spec?.serviceAccountName,
    'status.podIP': ip,
    'status.hostIP': '127.0.0.1',
  };
  if (!(path in fields)) throw new Error(`fieldRef ${path} is not known to the node agent`);
  return fields[path] ?? '';
}

/** resourceOf is a container's limit or request in the divisor's unit (the node's allocatable when unset). */
function resourceOf(c: V1Container, resource: string, divisor: string | undefined): string {
  const [kind, name] = resource.split('.') as ['limits' | 'requests', string];
  const set = (kind === 'limits' ? c.resources?.limits : c.resources?.requests)?.[name];
  const value = quantity(set ?? (name === 'cpu' ? '16' : '64Gi'));
  return String(Math.ceil(value / quantity(divisor ?? '1')));
}

/** quantity reads a Kubernetes quantity (binary and decimal suffixes, millis). */
function quantity(q: string): number {
  const m = /^([0-9.]+)(m|Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(q);
  if (m === null) throw new Error(`quantity ${q} is not known to the node agent`);
  const factor: Record<string, number> = {
    m: 1e-3,
    k: 1e3,
    M: 1e6,
    G: 1e9,
    T: 1e12,
    Ki: 2 ** 10,
    Mi: 2 ** 20,
    Gi: 2 ** 30,
    Ti: 2 ** 40,
  };
  return Number(m[1]) * (m[2] === undefined ? 1 : (factor[m[2]] as number));
}

/**
 * reserveSubnet holds the first subnet from `first` on whose .1 address RESERVE_PORT is free, by listening there until
 * the agent stops (or its process ends): a lock no other agent on the machine, in any process, can take meanwhile.
 */
export async function reserveSubnet(first: number): Promise<{ octet: number; held: Server }> {
  for (let octet = first; octet < 255; octet++) {
    const held = createServer();
    const taken = await new Promise<boolean>((resolve, reject) => {
      held.once('error', (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' ? resolve(true) : reject(err)));
      held.listen(RESERVE_PORT, `127.77.${octet}.1`, () => resolve(false));
    });
    if (!taken) return { octet, held: held.unref() };
  }
  throw new Error('every subnet of 127.77.0.0/16 is held by another node agent');
}

/** DEFAULT_GRACE_SECONDS: a pod's terminationGracePeriodSeconds when its spec has none (Kubernetes' default). */
const DEFAULT_GRACE_SECONDS = 30;

/**
 * gracePeriodMs is how long a pod's process has from SIGTERM to SIGKILL, as a kubelet gives it: a deleted pod's
 * deletion grace period (which the API server sets from the DELETE's, else from the spec), else the spec's
 * terminationGracePeriodSeconds, else 30 s: a server pod's 45 s hold its SHUTDOWN_DELAY_MS and its drain.
 */
export function gracePeriodMs(pod: V1Pod): number {
  const seconds =
    pod.metadata?.deletionGracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? DEFAULT_GRACE_SECONDS;
  return 1000 * seconds;
}

/** Readiness is a container's readiness as its probes judged it: ready or not, and the failed probes in a row. */
export interface Readiness {
  readonly ready: boolean;
  readonly failures: number;
}

/**
 * nextReadiness judges one readiness probe as the kubelet's prober does: a ready container is marked not ready only
 * after failureThreshold failed probes in a row (the probe's, 3 by default), one probe that passes makes it ready
 * (successThreshold 1, the default no pod here changes). One slow answer of a loaded server does not take it out of
 * its Services. The agent probes a pod not ready every 2 s at most (faster than a kubelet, so pods start sooner), a
 * ready one at its periodSeconds (probePeriodMs).
 */
export function nextReadiness(before: Readiness, passed: boolean, failureThreshold = 3): Readiness {
  if (passed) return { ready: true, failures: 0 };
  const failures = before.failures + 1;
  return { ready: before.ready && failures < failureThreshold, failures };
}

/**
 * probePeriodMs is when a container's readiness is probed next: at its periodSeconds (10 s by default) once ready, as a
 * kubelet probes; every 2 s at most while not ready, so that a pod starting (or coming back) is ready sooner than a
 * kubelet would say. Every 2 s for ready pods too was a request a second to the pods of a cluster for nothing.
 */
export function probePeriodMs(probe: V1Probe | undefined, ready: boolean): number {
  const period = probe?.periodSeconds ?? 10;
  return 1000 * (ready ? period : Math.min(period, 2));
}

/** httpProbe runs an httpGet probe against the pod's address; other probe kinds count as passing. */
async function httpProbe(probe: V1Probe, c: V1Container, ip: string): Promise<boolean> {
  const get = probe.httpGet;
  if (get === undefined) return true;
  const port =
    typeof get.port === 'number' ? get.port : (c.ports ?? []).find((p) => p.name === get.port)?.containerPort;
  if (port === undefined) return false;
  try {
    const res = await fetch(`http://${ip}:${port}${get.path ?? '/'}`, {
      signal: AbortSignal.timeout(1000 * (probe.timeoutSeconds ?? 1)),
    });
    await res.body?.cancel();
    return res.status >= 200 && res.status < 400;
  } catch {
    return false;
  }
}

/** currentContainer is the container of the pod that runs now: its next init container, else its main one. */
function currentContainer(pod: V1Pod, run: Running): V1Container {
  return pod.spec?.initContainers?.[run.inits.length] ?? (pod.spec?.containers[0] as V1Container);
}

/** containerStatus is a container's status as the kubelet reports it, in `state`. */
function containerStatus(c: V1Container, run: Running, state: V1ContainerStatus['state']): V1ContainerStatus {
  return {
    name: c.name,
    image: c.image ?? '',
    imageID: `mdw-checkout://${c.image}`,
    containerID: `process://${run.child?.pid ?? 0}`,
    ready: false,
    restartCount: run.restarts,
    state,
  };
}

/** terminatedState is the state of a container that exited. */
function terminatedState(
  c: V1Container,
  run: Running,
  exited: { code: number; at: string },
): V1ContainerStatus['state'] {
  return {
    terminated: {
      exitCode: exited.code,
      reason: exited.code === 0 ? 'Completed' : 'Error',
      message: terminationMessage(c, run, exited.code),
      startedAt: run.startedAt as never,
      finishedAt: exited.at as never,
    },
  };
}

/** terminationMessage is what the container left at its termination path, or its log's end on a failure. */
function terminationMessage(c: V1Container, run: Running, code: number): string | undefined {
  const written = existsSync(run.terminationFile) ? readFileSync(run.terminationFile, 'utf8') : '';
  if (written !== '') return written.slice(0, 4096);
  if (c.terminationMessagePolicy === 'FallbackToLogsOnError' && code !== 0) return tail(run.log, 80).slice(-2048);
  return undefined;
}

function signalNumber(signal: NodeJS.Signals): number {
  return ({ SIGKILL: 9, SIGTERM: 15, SIGINT: 2 } as Record<string, number>)[signal] ?? 1;
}
