/** @module OperatorRuntime on FakeKube: spec changes reconcile once, status writes do not, leader gating, metrics, probes. */
import { expect } from 'chai';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import type { KubeObject, ObjectRef } from '../../../src/operator/kube/client.ts';
import { FakeKube } from '../../../src/operator/kube/fake.ts';
import { OperatorRuntime, type OperatorOptions } from '../../../src/operator/runtime/main.ts';
import { API_VERSION, KIND } from '../../../src/operator/api/middleware-types.ts';
import { eventually } from '../kube/contract.ts';

const log = pino({ level: 'silent' });
const NS = 'apps';
const mwRef: ObjectRef = { apiVersion: API_VERSION, kind: KIND, namespace: NS, name: 'mw' };
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const CHILD_LABELS = {
  'app.kubernetes.io/name': 'aeternity-middleware',
  'app.kubernetes.io/managed-by': 'mdw-operator',
};
const fastLeases = { leaseDurationMs: 300, renewDeadlineMs: 200, retryPeriodMs: 30 };

describe('OperatorRuntime', () => {
  let kube: FakeKube;
  let operators: OperatorRuntime[];
  let calls: string[];

  const start = async (extra: Partial<OperatorOptions> = {}): Promise<OperatorRuntime> => {
    const op = new OperatorRuntime({
      kube,
      log,
      registry: new Registry(),
      identity: 'op-1',
      namespace: NS,
      leaderElection: fastLeases,
      reconcile: async (key) => {
        calls.push(key);
        return {};
      },
      ...extra,
    });
    await op.start();
    operators.push(op);
    return op;
  };

  beforeEach(async () => {
    kube = new FakeKube();
    operators = [];
    calls = [];
    await kube.create({
      apiVersion: API_VERSION,
      kind: KIND,
      metadata: { name: 'mw', namespace: NS },
      spec: { replicas: 1 },
    });
  });
  afterEach(async () => {
    await Promise.all(operators.map((o) => o.stop()));
  });

  it('reconciles every Middleware once at start, then exactly once per spec change, never for status writes', async () => {
    await start();
    await eventually(async () => expect(calls).to.deep.equal([`${NS}/mw`]));
    await kube.patchMerge(mwRef, { spec: { replicas: 3 } });
    await eventually(async () => expect(calls).to.have.length(2));
    await kube.patchStatus(mwRef, { phase: 'Ready', observedGeneration: 2 });
    await sleep(100);
    expect(calls).to.deep.equal([`${NS}/mw`, `${NS}/mw`]);
  });

  it('reconciles the owner when an owned Deployment changes status; objects without its labels are not watched', async () => {
    await start();
    await eventually(async () => expect(calls).to.have.length(1));
    const owner = kube.peek<KubeObject>(mwRef);
    const deployment = (name: string, labels: Record<string, string>) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name,
        namespace: NS,
        labels,
        ownerReferences: [
          { apiVersion: API_VERSION, kind: KIND, name: 'mw', uid: owner?.metadata.uid ?? '', controller: true },
        ],
      },
      spec: { replicas: 1 },
    });
    // someone else's Deployment (even one claiming the owner) is outside the informers' label selector
    await kube.create(deployment('other', { 'app.kubernetes.io/managed-by': 'Helm' }));
    await sleep(100);
    expect(calls).to.have.length(1);
    const dep = await kube.create(deployment('mw-server', CHILD_LABELS));
    await eventually(async () => expect(calls).to.have.length(2));
    kube.markDeploymentReady({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      namespace: NS,
      name: dep.metadata.name ?? '',
    });
    await eventually(async () => expect(calls).to.have.length(3));
  });

  it('only the leader reconciles; after it stops, the standby takes over and reconciles', async () => {
    const a = await start({ identity: 'a' });
    await eventually(async () => expect(a.isLeader()).to.equal(true));
    const bCalls: string[] = [];
    const b = await start({
      identity: 'b',
      reconcile: async (key) => {
        bCalls.push(key);
        return {};
      },
    });
    await kube.patchMerge(mwRef, { spec: { replicas: 2 } });
    await eventually(async () => expect(calls).to.have.length(2));
    expect(bCalls).to.deep.equal([]);
    await a.stop();
    await eventually(async () => expect(b.isLeader()).to.equal(true), 3000);
    await eventually(async () => expect(bCalls).to.deep.equal([`${NS}/mw`]));
    const lease = kube.peek<KubeObject>({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      namespace: NS,
      name: 'mdw-operator-leader',
    });
    expect((lease?.spec as { holderIdentity: string }).holderIdentity).to.equal('b');
  });

  it('retries a failing reconcile with backoff and counts it in the metrics', async () => {
    let n = 0;
    const registry = new Registry();
    const op = await start({
      registry,
      leaderElection: false,
      queue: { baseDelayMs: 5 },
      reconcile: async () => {
        n++;
        if (n < 3) throw new Error('apply failed');
        return { requeueAfterMs: 60_000 };
      },
    });
    await eventually(async () => expect(n).to.equal(3));
    const text = await registry.metrics();
    expect(text).to.match(/mdw_operator_reconcile_total\{result="error"\} 2/);
    expect(text).to.match(/mdw_operator_reconcile_total\{result="requeue"\} 1/);
    expect(text).to.match(/mdw_operator_reconcile_errors_total 2/);
    expect(text).to.match(/mdw_operator_workqueue_retries_total 2/);
    expect(text).to.match(/mdw_operator_managed_resources\{kind="Middleware"\} 1/);
    expect(text).to.match(/mdw_operator_leader 1/);
    expect(op.isLeader()).to.equal(true);
  });

  it('re-enqueues every Middleware each resync period', async () => {
    await start({ leaderElection: false, resyncPeriodMs: 30 });
    await eventually(async () => expect(calls.length).to.be.at.least(3));
  });

  it('serves /metrics and /healthz when given a port, and stops serving on stop', async () => {
    const op = await start({ leaderElection: false, metricsPort: 0, metricsHost: '127.0.0.1' });
    expect(op.url).to.be.a('string');
    const health = await fetch(`${op.url}/healthz`);
    expect(health.status).to.equal(200);
    const metrics = await (await fetch(`${op.url}/metrics`)).text();
    expect(metrics).to.contain('mdw_operator_reconcile_duration_seconds');
    await op.stop();
    operators = [];
    const err = await fetch(`${op.url}/healthz`).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(Error);
  });

  it('stop ends work: later changes reconcile nothing and the watches are closed', async () => {
    const op = await start({ leaderElection: false });
    await eventually(async () => expect(calls).to.have.length(1));
    await op.stop();
    operators = [];
    await kube.patchMerge(mwRef, { spec: { replicas: 9 } });
    await sleep(50);
    expect(calls).to.have.length(1);
    expect(kube.openWatches).to.equal(0);
  });
});
