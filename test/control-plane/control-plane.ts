/**
 * @module A real Kubernetes control plane on 127.0.0.1: etcd, kube-apiserver and kube-controller-manager built from
 * the Go modules by build.sh, with credentials made at start (certs.ts), RBAC on and the API server's default
 * admission. No kubelet, scheduler or kube-proxy: node-agent.ts stands in for them. Every listener is on loopback.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { freePort } from '../../src/cli/free-port.ts';
import { makeCerts } from './certs.ts';
import type { ClusterCerts } from './certs.ts';

const HERE = new URL('.', import.meta.url).pathname;

/** versions are the pinned versions (the file build.sh reads too). */
function versions(): { kube: string; etcd: string } {
  const text = readFileSync(join(HERE, 'versions'), 'utf8');
  const read = (name: string) => new RegExp(`^${name}=(\\S+)$`, 'm').exec(text)?.[1] ?? '';
  return { kube: read('KUBE_VERSION'), etcd: read('ETCD_VERSION') };
}

/** controlPlaneBin is the directory holding the built binaries, or undefined when build.sh has not run here. */
export function controlPlaneBin(): string | undefined {
  const v = versions();
  const cache = process.env.MDW_KUBE_CACHE ?? join(homedir(), '.cache', 'mdw-control-plane');
  const bin = join(cache, `k8s-${v.kube}-etcd-${v.etcd}`, 'bin');
  const all = ['etcd', 'kube-apiserver', 'kube-controller-manager'].every((b) => existsSync(join(bin, b)));
  return all ? bin : undefined;
}

/**
 * CONTROLLERS are the controllers the controller manager runs: those whose work the operator's resources and the tests
 * need, not all of them (each is informers and resyncs: the controller manager and the API server's watches and
 * writes for it). Deployments make ReplicaSets make pods; Jobs make pods and report completion; the garbage collector
 * deletes what an owner reference ties to a deleted owner (a Middleware's children, a Deployment's ReplicaSets, a Job's
 * pods); the namespace controller empties and removes a deleted namespace (a test deletes one); the service account
 * controller makes each namespace's `default` ServiceAccount, without which the API server refuses a pod that names
 * none. Left out, since nothing here needs them: Endpoints and EndpointSlices (the service proxy finds a Service's
 * ready pods by its selector itself, and the operator reads neither), the PodDisruptionBudget status (nothing evicts;
 * the operator reads no status of its PDBs), node lifecycle, taints and pod GC (the node agent's node never goes away),
 * ttl-after-finished (the operator's Jobs set no TTL: they stay as the record of their step), the root CA ConfigMap
 * (the agent gives pods the CA in their kubeconfig), legacy token Secrets (the controllers' own credentials come from
 * TokenRequest), quotas, and kinds no test makes (CronJob, DaemonSet, StatefulSet, HPA, volumes, certificates, DRA).
 */
const CONTROLLERS = [
  'deployment-controller',
  'replicaset-controller',
  'job-controller',
  'garbage-collector-controller',
  'namespace-controller',
  'serviceaccount-controller',
];

/** ControlPlaneOptions: where the binaries are, and how quickly etcd compacts (watch 410s within a test). */
export interface ControlPlaneOptions {
  bin: string;
  /** how often the API server compacts etcd; default 1 min (a watch older than that is 410 Gone). */
  compactionInterval?: string;
  /** keep the run directory (logs, certificates) after stop, for a look after a failure. */
  keep?: boolean;
}

/** A process of the control plane: its name and log file. */
interface Component {
  name: string;
  child: ChildProcess;
  log: string;
}

/** ControlPlane starts etcd, the API server and the controller manager, and stops them; start() waits for readyz. */
export class ControlPlane {
  readonly dir: string;
  readonly #opts: ControlPlaneOptions;
  readonly #components: Component[] = [];
  #certs: ClusterCerts | undefined;
  #url = '';
  #etcdUrl = '';

  constructor(opts: ControlPlaneOptions) {
    this.#opts = opts;
    this.dir = mkdtempSync(join(tmpdir(), 'mdw-control-plane-'));
  }

  /** url is the API server's https URL. */
  get url(): string {
    return this.#url;
  }

  /** certs are the credentials made at start. */
  get certs(): ClusterCerts {
    if (this.#certs === undefined) throw new Error('control plane not started');
    return this.#certs;
  }

  /** adminKubeconfig is the path of a kubeconfig for the cluster admin (system:masters). */
  get adminKubeconfig(): string {
    return join(this.dir, 'admin.kubeconfig');
  }

  /** logOf is the log file of a component (etcd, kube-apiserver, kube-controller-manager). */
  logOf(name: string): string {
    return join(this.dir, `${name}.log`);
  }

  async start(): Promise<void> {
    process.once('exit', () => this.#killAll());
    const certs = makeCerts(this.dir);
    this.#certs = certs;
    const [etcdClient, etcdPeer, apiPort] = [await freePort(), await freePort(), await freePort()];
    this.#etcdUrl = `http://127.0.0.1:${etcdClient}`;
    this.#url = `https://127.0.0.1:${apiPort}`;
    const peer = `http://127.0.0.1:${etcdPeer}`;
    this.#spawn('etcd', 'etcd', [
      `--data-dir=${join(this.dir, 'etcd')}`,
      `--listen-client-urls=${this.#etcdUrl}`,
      `--advertise-client-urls=${this.#etcdUrl}`,
      `--listen-peer-urls=${peer}`,
      `--initial-advertise-peer-urls=${peer}`,
      `--initial-cluster=default=${peer}`,
      '--unsafe-no-fsync',
      '--log-level=warn',
    ]);
    this.#spawn('kube-apiserver', 'kube-apiserver', [
      `--etcd-servers=${this.#etcdUrl}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      `--secure-port=${apiPort}`,
      '--endpoint-reconciler-type=none',
      `--cert-dir=${join(this.dir, 'apiserver-certs')}`,
      `--tls-cert-file=${certs.serverCert}`,
      `--tls-private-key-file=${certs.serverKey}`,
      `--client-ca-file=${certs.caCert}`,
      `--service-account-key-file=${certs.serviceAccountPub}`,
      `--service-account-signing-key-file=${certs.serviceAccountKey}`,
      '--service-account-issuer=https://kubernetes.default.svc',
      '--authorization-mode=RBAC',
      // numbers nobody dials: nothing here routes a ClusterIP (the node agent's proxy reaches Services by name)
      '--service-cluster-ip-range=10.96.0.0/16',
      `--etcd-compaction-interval=${this.#opts.compactionInterval ?? '1m'}`,
      '--min-request-timeout=60',
      `--audit-log-path=${join(this.dir, 'audit.log')}`,
      `--audit-policy-file=${this.#auditPolicy()}`,
      '--v=1',
    ]);
    this.#writeKubeconfig(this.adminKubeconfig, certs.adminCert, certs.adminKey);
    await this.#waitReady();
    const kcm = join(this.dir, 'controller-manager.kubeconfig');
    this.#writeKubeconfig(kcm, certs.controllerManagerCert, certs.controllerManagerKey);
    this.#spawn('kube-controller-manager', 'kube-controller-manager', [
      `--kubeconfig=${kcm}`,
      `--authentication-kubeconfig=${kcm}`,
      `--authorization-kubeconfig=${kcm}`,
      '--use-service-account-credentials=true',
      `--service-account-private-key-file=${certs.serviceAccountKey}`,
      `--root-ca-file=${certs.caCert}`,
      '--leader-elect=false',
      '--bind-address=127.0.0.1',
      `--secure-port=${await freePort()}`,
      `--controllers=${CONTROLLERS.join(',')}`,
      '--v=1',
    ]);
  }

  /** kubeConfig is a client configuration for the admin. */
  kubeConfig(): KubeConfig {
    const kc = new KubeConfig();
    kc.loadFromFile(this.adminKubeconfig);
    return kc;
  }

  /** kubeconfigWithToken writes a kubeconfig for a bearer token (a ServiceAccount's) and returns its path. */
  kubeconfigWithToken(file: string, token: string, namespace: string): string {
    writeFileSync(file, this.#kubeconfigText({ token }, namespace), { mode: 0o600 });
    return file;
  }

  async stop(): Promise<void> {
    for (const c of [...this.#components].reverse()) await stopProcess(c.child);
    this.#components.length = 0;
    if (this.#opts.keep !== true) rmSync(this.dir, { recursive: true, force: true });
  }

  #killAll(): void {
    for (const c of this.#components) c.child.kill('SIGKILL');
  }

  #spawn(name: string, binary: string, args: string[]): void {
    const log = this.logOf(name);
    const out = createWriteStream(log);
    // Go collects garbage when the heap has grown by GOGC % over what the last collection kept: 100 by default, which
    // cost the API server a tenth of its CPU here. A test cluster's heaps are small (tens of MB kept), so four times
    // as much garbage between collections costs memory nobody misses.
    const env = { ...process.env, GOGC: '400' };
    const child = spawn(join(this.#opts.bin, binary), args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(out);
    child.stderr.pipe(out);
    this.#components.push({ name, child, log });
  }

  async #waitReady(): Promise<void> {
    const deadline = Date.now() + 90_000;
    let last = '';
    while (Date.now() < deadline) {
      const dead = this.#components.find((c) => c.child.exitCode !== null);
      if (dead !== undefined) throw new Error(`${dead.name} exited: ${tail(dead.log)}`);
      try {
        const { status, body } = await this.#get('/readyz');
        if (status === 200) return;
        last = body;
      } catch (err) {
        last = String(err);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`kube-apiserver not ready in 90 s: ${last}\n${tail(this.logOf('kube-apiserver'))}`);
  }

  #get(path: string): Promise<{ status: number; body: string }> {
    const certs = this.certs;
    return new Promise((resolve, reject) => {
      const req = request(
        `${this.#url}${path}`,
        {
          ca: readFileSync(certs.caCert),
          cert: readFileSync(certs.adminCert),
          key: readFileSync(certs.adminKey),
          timeout: 5000,
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', reject);
      req.end();
    });
  }

  #writeKubeconfig(file: string, cert: string, key: string): void {
    writeFileSync(file, this.#kubeconfigText({ cert, key }, 'default'), { mode: 0o600 });
  }

  #kubeconfigText(user: { cert?: string; key?: string; token?: string }, namespace: string): string {
    const userLines =
      user.token === undefined
        ? [`    client-certificate: ${user.cert ?? ''}`, `    client-key: ${user.key ?? ''}`]
        : [`    token: ${user.token}`];
    return [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: test',
      '  cluster:',
      `    server: ${this.#url}`,
      `    certificate-authority: ${this.certs.caCert}`,
      'users:',
      '- name: user',
      '  user:',
      ...userLines,
      'contexts:',
      '- name: test',
      '  context:',
      '    cluster: test',
      '    user: user',
      `    namespace: ${namespace}`,
      'current-context: test',
      '',
    ].join('\n');
  }

  /**
   * #auditPolicy logs every request's metadata once it is answered: who did what, with which answer (a test can read
   * the verbs used). Not its receipt too (a second line for each, which no test reads), nor the API server's own
   * requests to itself (its bootstrap: roles, priority levels, OpenAPI).
   */
  #auditPolicy(): string {
    const file = join(this.dir, 'audit-policy.yaml');
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(
      file,
      [
        'apiVersion: audit.k8s.io/v1',
        'kind: Policy',
        'omitStages: [RequestReceived]',
        'rules:',
        '- level: None',
        '  users: [system:apiserver]',
        '- level: Metadata',
        '',
      ].join('\n'),
    );
    return file;
  }
}

/** stopProcess ends a child: SIGTERM, then SIGKILL after its grace period (10 s unless told). */
export async function stopProcess(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** tail is the end of a log file, for an error message. */
export function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}
