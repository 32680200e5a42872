/**
 * @module Issue 14 item 7: the operator's grants are exactly the verbs its own client calls use. Every scenario the
 * operator knows (install, every option, blue/green and in-place reloads, rollback, both reclaim policies, a namespace
 * deletion, leader election, the watches) runs through a client that records each call as the RBAC verb and resource
 * the API server would check; the test fails on a grant nobody used and on a use nobody granted.
 */
import { expect } from 'chai';
import type { CoreV1Event } from '@kubernetes/client-node';
import pino from 'pino';
import { Registry } from 'prom-client';
import type { Middleware } from '../../../src/operator/api/middleware-types.ts';
import { ROLLBACK_ANNOTATION } from '../../../src/operator/controller/bluegreen.ts';
import type {
  ApplyOptions,
  DeleteOptions,
  KubeClient,
  KubeError,
  KubeObject,
  ListOptions,
  ObjectRef,
  WatchEvent,
  WatchHandle,
  WatchRequest,
} from '../../../src/operator/kube/client.ts';
import { KubeError as KubeErrorClass, refOf } from '../../../src/operator/kube/client.ts';
import type { FakeKube } from '../../../src/operator/kube/fake.ts';
import { OperatorRuntime } from '../../../src/operator/runtime/main.ts';
import { OPERATOR_PERMISSIONS, leaderElectionRules, writerLeaseRules } from '../../../src/operator/specs/rbac.ts';
import { eventually } from '../kube/contract.ts';
import { Harness, MW_REF, exampleMiddleware } from '../e2e/harness.ts';
import { aFullMiddleware, olderWriterLeaseBinding } from './fixtures.ts';

/** RESOURCES maps a kind to its API group and resource name, as RBAC rules name them. */
const RESOURCES: Record<string, [string, string]> = {
  Middleware: ['middleware.aeternity.io', 'middlewares'],
  Deployment: ['apps', 'deployments'],
  Job: ['batch', 'jobs'],
  Service: ['', 'services'],
  ServiceAccount: ['', 'serviceaccounts'],
  Role: ['rbac.authorization.k8s.io', 'roles'],
  RoleBinding: ['rbac.authorization.k8s.io', 'rolebindings'],
  PodDisruptionBudget: ['policy', 'poddisruptionbudgets'],
  HorizontalPodAutoscaler: ['autoscaling', 'horizontalpodautoscalers'],
  Ingress: ['networking.k8s.io', 'ingresses'],
  ServiceMonitor: ['monitoring.coreos.com', 'servicemonitors'],
  Lease: ['coordination.k8s.io', 'leases'],
  Event: ['', 'events'],
  Namespace: ['', 'namespaces'],
  Pod: ['', 'pods'],
};

/** RecordingKube notes every call as `group|resource|verb` (the check the API server makes), then passes it on. */
class RecordingKube implements KubeClient {
  readonly used = new Set<string>();
  readonly #inner: FakeKube;
  constructor(inner: FakeKube) {
    this.#inner = inner;
  }
  #note(kind: string, verb: string, subresource = ''): void {
    const [group, resource] = RESOURCES[kind] ?? ['?', kind];
    this.used.add(`${group}|${resource}${subresource}|${verb}`);
  }
  get<T extends KubeObject>(ref: ObjectRef): Promise<T | undefined> {
    this.#note(ref.kind, 'get');
    return this.#inner.get(ref);
  }
  list<T extends KubeObject>(apiVersion: string, kind: string, namespace?: string, options?: ListOptions) {
    this.#note(kind, 'list');
    return this.#inner.list<T>(apiVersion, kind, namespace, options);
  }
  watch<T extends KubeObject>(
    request: WatchRequest,
    onEvent: (e: WatchEvent<T>) => void,
    onDone: (err?: KubeError) => void,
  ): Promise<WatchHandle> {
    this.#note(request.kind, 'watch');
    return this.#inner.watch(request, onEvent, onDone);
  }
  apply<T extends KubeObject>(obj: T, fieldManager: string, options?: ApplyOptions): Promise<T> {
    this.#note(obj.kind, 'patch');
    // server-side apply of an object that does not exist yet is also checked as create
    if (this.#inner.peek(refOf(obj)) === undefined) this.#note(obj.kind, 'create');
    return this.#inner.apply(obj, fieldManager, options);
  }
  create<T extends KubeObject>(obj: T): Promise<T> {
    this.#note(obj.kind, 'create');
    return this.#inner.create(obj);
  }
  replace<T extends KubeObject>(obj: T): Promise<T> {
    this.#note(obj.kind, 'update');
    return this.#inner.replace(obj);
  }
  patchStatus<T extends KubeObject>(ref: ObjectRef, status: unknown, rv?: string): Promise<T> {
    this.#note(ref.kind, 'patch', '/status');
    return this.#inner.patchStatus(ref, status, rv);
  }
  patchMerge<T extends KubeObject>(ref: ObjectRef, patch: unknown): Promise<T> {
    this.#note(ref.kind, 'patch');
    return this.#inner.patchMerge(ref, patch);
  }
  delete(ref: ObjectRef, opts?: DeleteOptions): Promise<boolean> {
    this.#note(ref.kind, 'delete');
    return this.#inner.delete(ref, opts);
  }
  createEvent(event: CoreV1Event): Promise<void> {
    this.#note('Event', 'create');
    return this.#inner.createEvent(event);
  }
}

/** passes reconciles n times, playing the Job and Deployment controllers and moving the clock between passes. */
async function passes(h: Harness, reconcile: (key: string) => Promise<unknown>, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await reconcile('chain/mainnet').catch((err: unknown) => {
      if (!(err instanceof KubeErrorClass)) throw err;
    });
    h.completeJobs();
    h.readyDeployments();
    h.clock.advance(61_000);
  }
}

/** Every scenario the reconciler has, through one recording client. */
async function reconcilerUses(): Promise<Set<string>> {
  const used = new Set<string>();
  const full = aFullMiddleware();
  const example = exampleMiddleware();
  const variants: Middleware[] = [
    { ...example, spec: { ...full.spec, reload: undefined, reclaimPolicy: 'Delete' } },
    { ...example, spec: { ...example.spec, reclaimPolicy: 'Retain' } },
  ];
  for (const mw of variants) {
    const h = new Harness();
    const recording = new RecordingKube(h.kube);
    const reconcile = h.newReconciler(recording);
    await h.apply({ ...mw, metadata: { ...example.metadata } });
    // an upgrade: the binding an older version made is pruned
    await h.kube.create(olderWriterLeaseBinding(h.middleware()));
    h.probe.set('mainnet', 100, 0);
    h.probe.set('mainnet-preview', 100, 0);
    await passes(h, reconcile, 6);
    // a blue/green reload through promotion, then a rollback
    h.kube.userPatch(MW_REF, { spec: { reload: { id: 'bg', strategy: 'BlueGreen', retainPrevious: '1h' } } });
    await passes(h, reconcile, 8);
    h.kube.userPatch(MW_REF, { metadata: { annotations: { [ROLLBACK_ANNOTATION]: 'bg' } } });
    await passes(h, reconcile, 6);
    // an in-place reload
    h.kube.userPatch(MW_REF, { spec: { reload: { id: 'ip', strategy: 'InPlace', heights: '1-5' } } });
    await passes(h, reconcile, 4);
    // the options turned off again: their objects are pruned
    h.kube.userPatch(MW_REF, {
      spec: { server: { ingress: null, autoscaling: null, pdb: { enabled: false } }, metrics: null },
    });
    await passes(h, reconcile, 2);
    // an invalid spec (as an older CRD let in: the API server refuses it now), then paused
    h.kube.legacyPatch(MW_REF, { spec: { nodeUrls: [] } });
    await passes(h, reconcile, 1);
    h.kube.userPatch(MW_REF, { spec: { nodeUrls: ['http://ae-node.chain.svc:3013'], paused: true } });
    await passes(h, reconcile, 1);
    h.kube.userPatch(MW_REF, { spec: { paused: false } });
    await passes(h, reconcile, 2);
    // deletion: drop Jobs whose pod cannot start (the Secret is gone), then the namespace goes
    await h.kube.delete(MW_REF);
    await passes(h, reconcile, 2);
    for (const job of h.names('Job')) {
      const pod = { apiVersion: 'v1', kind: 'Pod', namespace: 'chain', name: `${job}-p` };
      await h.kube.create({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: pod.name, namespace: 'chain', labels: { 'batch.kubernetes.io/job-name': job } },
      });
    }
    await passes(h, reconcile, 3);
    for (const u of recording.used) used.add(u);
  }
  return used;
}

/** The runtime: watches and leader election, for a few hundred milliseconds. */
async function runtimeUses(): Promise<Set<string>> {
  const h = new Harness();
  await h.apply();
  const recording = new RecordingKube(h.kube);
  const op = new OperatorRuntime({
    kube: recording,
    log: pino({ level: 'silent' }),
    registry: new Registry(),
    identity: 'op-1',
    namespace: 'chain',
    leaderElection: { leaseDurationMs: 300, renewDeadlineMs: 200, retryPeriodMs: 20 },
    reconcile: async () => ({}),
  });
  await op.start();
  await eventually(async () => expect(op.isLeader()).to.equal(true));
  await new Promise((resolve) => setTimeout(resolve, 100)); // a few renewals
  await op.stop();
  return recording.used;
}

/** granted turns rules into `group|resource|verb` strings. */
function granted(rules: readonly { apiGroups?: string[]; resources?: string[]; verbs: string[] }[]): Set<string> {
  const out = new Set<string>();
  for (const r of rules)
    for (const g of r.apiGroups ?? [])
      for (const res of r.resources ?? []) for (const v of r.verbs) out.add(`${g}|${res}|${v}`);
  return out;
}

describe('operator RBAC against the calls the operator makes (issue 14)', () => {
  let reconciler: Set<string>;
  let runtime: Set<string>;
  before(async function () {
    this.timeout(60_000);
    reconciler = await reconcilerUses();
    runtime = await runtimeUses();
  });

  // Grants no call of the operator's own needs, each for a reason outside its calls:
  const WHY_MORE = new Map<string, string>([
    // setting blockOwnerDeletion on a child's ownerReference is checked as update of the owner's finalizers
    ['middleware.aeternity.io|middlewares/finalizers|update', 'blockOwnerDeletion on owned children'],
    // creating a RoleBinding to a ClusterRole whose verbs one does not hold is checked as bind on that ClusterRole
    ['rbac.authorization.k8s.io|clusterroles|bind', 'the writer-Lease RoleBindings'],
  ]);

  it('grants every verb the reconciler and the watches use, on the operand role', () => {
    const rules = granted(
      OPERATOR_PERMISSIONS.map((p) => ({ apiGroups: [p.apiGroup], resources: [p.resource], verbs: [...p.verbs] })),
    );
    const uses = [...reconciler, ...[...runtime].filter((u) => !u.startsWith('coordination.k8s.io|'))];
    expect(uses.filter((u) => !rules.has(u)).sort(), 'used but not granted').to.deep.equal([]);
  });

  it('grants nothing beyond what is used (or named with its reason)', () => {
    const rules = granted(
      OPERATOR_PERMISSIONS.map((p) => ({ apiGroups: [p.apiGroup], resources: [p.resource], verbs: [...p.verbs] })),
    );
    const uses = new Set([...reconciler, ...runtime, ...WHY_MORE.keys()]);
    expect([...rules].filter((g) => !uses.has(g)).sort(), 'granted but never used').to.deep.equal([]);
  });

  it('elects the leader with exactly the leader-election rules', () => {
    const leases = [...runtime].filter((u) => u.startsWith('coordination.k8s.io|'));
    expect(leases.sort()).to.deep.equal([...granted(leaderElectionRules())].sort());
  });

  it("grants populators, through the writer-Lease ClusterRole, exactly what a Lease holder's election uses", () => {
    const leases = [...runtime].filter((u) => u.startsWith('coordination.k8s.io|'));
    expect([...granted(writerLeaseRules())].sort()).to.deep.equal(leases.sort());
  });
});
