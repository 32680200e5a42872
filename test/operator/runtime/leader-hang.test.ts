/**
 * @module Issue 43 item 3: a leader whose Lease requests hang (a half-open connection: accepted, never answered) steps
 * down at its renew deadline, before another replica takes the Lease over, though its client's own request timeout is
 * far longer; and only the leader exports the per-Middleware series (a standby's stale reload state would alert).
 * Two OperatorRuntimes with the real reconciler, each over the real client and HTTP to one FakeKube.
 */
import { V1MicroTime } from '@kubernetes/client-node';
import { expect } from 'chai';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { KubeConfig } from '@kubernetes/client-node';
import { API_VERSION, KIND } from '../../../src/operator/api/middleware-types.ts';
import { createReconciler } from '../../../src/operator/controller/reconcile.ts';
import type { KubeClient } from '../../../src/operator/kube/client.ts';
import { createKubeClient } from '../../../src/operator/kube/real-client.ts';
import { OperatorRuntime } from '../../../src/operator/runtime/main.ts';
import { LEADER_LEASE_NAME } from '../../../src/operator/specs/rbac.ts';
import { createOperatorMetrics } from '../../../src/operator/runtime/metrics.ts';
import { Harness, IMAGE, ScriptedProbe } from '../e2e/harness.ts';
import { eventually } from '../kube/contract.ts';
import { startFakeApiServer } from '../kube/fake-apiserver.ts';
import { startHangingProxy, type HangingProxy } from '../kube/hanging-proxy.ts';

const log = pino({ level: process.env.DEBUG_LOG ?? 'silent' });
const NS = 'chain';
/** the per-Middleware series: none may come from a replica that does not lead */
const PER_MIDDLEWARE = ['mdw_operator_middleware_condition', 'mdw_operator_middleware_reload_state'];
const TIMINGS = { leaseDurationMs: 1500, renewDeadlineMs: 800, retryPeriodMs: 50 };

function clientOf(server: string): KubeClient {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'f', server, skipTLSVerify: true }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'f', cluster: 'f', user: 'u', namespace: NS }],
    currentContext: 'f',
  });
  // far beyond the renew deadline: what ends a hung renewal must be the elector's own bound
  return createKubeClient(kc, { requestTimeoutMs: 120_000 });
}

/** Replica is one operator process: its runtime and the registry its /metrics would serve. */
interface Replica {
  readonly op: OperatorRuntime;
  readonly registry: Registry;
}

function replica(identity: string, kube: KubeClient): Replica {
  const registry = new Registry();
  const metrics = createOperatorMetrics(registry);
  const probe = new ScriptedProbe();
  const reconcile = createReconciler({
    kube,
    log,
    metrics,
    probe: probe.probe,
    clock: () => new Date(),
    config: { image: IMAGE },
  });
  const op = new OperatorRuntime({
    kube,
    log,
    registry,
    metrics,
    identity,
    namespace: NS,
    leaderElection: TIMINGS,
    reconcile,
  });
  return { op, registry };
}

/** seriesOf lists the per-Middleware series a replica's /metrics would show, as `name{type/state}`. */
async function seriesOf(r: Replica): Promise<string[]> {
  const out: string[] = [];
  for (const name of PER_MIDDLEWARE) {
    const metric = r.registry.getSingleMetric(name);
    for (const v of (await metric?.get())?.values ?? [])
      out.push(`${name}{${String(v.labels.middleware)},${String(v.labels.type ?? v.labels.state)}}`);
  }
  return out;
}

/** untilReported plays the Job and Deployment controllers until r exports the Middleware's reload-state series. */
async function untilReported(h: Harness, r: Replica): Promise<void> {
  await eventually(async () => {
    h.completeJobs();
    h.readyDeployments();
    expect(await seriesOf(r)).to.include('mdw_operator_middleware_reload_state{mainnet,Failed}');
  }, 20_000);
}

describe('a leader whose Lease requests hang (issue 43 item 3)', function () {
  this.timeout(60_000);
  let h: Harness;
  let api: { url: string; stop(): Promise<void> };
  let proxy: HangingProxy;
  let replicas: Replica[];

  beforeEach(async () => {
    h = new Harness();
    api = await startFakeApiServer(h.kube, [
      { apiVersion: API_VERSION, kind: KIND, plural: 'middlewares' },
      { apiVersion: 'apps/v1', kind: 'Deployment', plural: 'deployments' },
      { apiVersion: 'batch/v1', kind: 'Job', plural: 'jobs' },
      { apiVersion: 'v1', kind: 'Service', plural: 'services' },
      { apiVersion: 'v1', kind: 'ServiceAccount', plural: 'serviceaccounts' },
      { apiVersion: 'v1', kind: 'Event', plural: 'events' },
      { apiVersion: 'v1', kind: 'Pod', plural: 'pods' },
      { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', plural: 'poddisruptionbudgets' },
      { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', plural: 'horizontalpodautoscalers' },
      { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', plural: 'ingresses' },
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', plural: 'rolebindings' },
      { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', plural: 'leases' },
    ]);
    proxy = await startHangingProxy(api.url);
    replicas = [];
    await h.apply();
  });
  afterEach(async () => {
    await proxy.stop(); // first: a replica's release of a Lease behind a hung proxy then fails at once
    await Promise.all(replicas.map((r) => r.op.stop()));
    await api.stop();
  });

  it('steps down at its renew deadline, before the standby takes over, and leaves no per-Middleware series', async () => {
    const a = replica('a', clientOf(proxy.url));
    replicas.push(a);
    await a.op.start();
    await untilReported(h, a);
    const b = replica('b', clientOf(api.url));
    replicas.push(b);
    await b.op.start();
    await new Promise((resolve) => setTimeout(resolve, TIMINGS.retryPeriodMs * 4)); // b has tried, and waits
    expect(b.op.isLeader()).to.equal(false);
    expect(await seriesOf(b), 'a standby exports no per-Middleware series').to.deep.equal([]);

    // every later Lease request of a is accepted and never answered; everything else still flows
    proxy.hang((req) => (req.url ?? '').includes('/leases/'));
    // the moment b leads, a must already have stepped down: two leaders never reconcile together
    await eventually(async () => {
      const [aLeads, bLeads] = [a.op.isLeader(), b.op.isLeader()];
      if (bLeads) expect(aLeads, 'a still leads when b took over').to.equal(false);
      expect(bLeads).to.equal(true);
    }, 20_000);
    expect(proxy.held()).to.be.greaterThan(0);
    // its session ends right after it stepped down (the reconciles in flight are cancelled first)
    await eventually(async () =>
      expect(await seriesOf(a), 'the deposed leader exports no per-Middleware series').to.deep.equal([]),
    );
    await untilReported(h, b);
  });

  it('a replica that loses the Lease to another drops its per-Middleware series', async () => {
    const a = replica('a', clientOf(api.url));
    replicas.push(a);
    await a.op.start();
    await untilReported(h, a);
    // another replica renews the Lease as its own (as after a partition that a's renewals did not survive)
    const lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace: NS, name: LEADER_LEASE_NAME };
    h.kube.userPatch(lease, { spec: { holderIdentity: 'other', renewTime: new V1MicroTime() } });
    await eventually(async () => expect(a.op.isLeader()).to.equal(false), 20_000);
    await eventually(async () => expect(await seriesOf(a)).to.deep.equal([]));
  });
});
