/** @module The whole operator (OperatorRuntime: informers, queue) with the real reconciler on FakeKube, no manual passes. */
import { expect } from 'chai';
import type { V1Deployment, V1Job } from '@kubernetes/client-node';
import pino from 'pino';
import { Registry } from 'prom-client';
import { requestReload } from '../../../src/operator/admin.ts';
import { createReconciler } from '../../../src/operator/controller/reconcile.ts';
import { refOf, type KubeObject, type WatchHandle } from '../../../src/operator/kube/client.ts';
import { buildCrd } from '../../../src/operator/api/crd.ts';
import { FakeKube } from '../../../src/operator/kube/fake.ts';
import { OperatorRuntime } from '../../../src/operator/runtime/main.ts';
import { createOperatorMetrics } from '../../../src/operator/runtime/metrics.ts';
import { eventually } from '../kube/contract.ts';
import { FakeDatabase, IMAGE, MW_REF, ScriptedProbe, completeJobWith, exampleMiddleware } from './harness.ts';
import type { Middleware } from '../../../src/operator/api/middleware-types.ts';

const log = pino({ level: 'silent' });

/** Plays the Job and Deployment controllers from watch events, as a cluster would. */
async function simulateControllers(kube: FakeKube, database = new FakeDatabase()): Promise<WatchHandle[]> {
  const later = (fn: () => void) =>
    setImmediate(() => {
      try {
        fn();
      } catch {
        // the object went away meanwhile
      }
    });
  const jobs = await kube.watch<V1Job & KubeObject>(
    { apiVersion: 'batch/v1', kind: 'Job', namespace: 'chain', resourceVersion: kube.resourceVersion },
    (e) => {
      if (e.type === 'ADDED') later(() => completeJobWith(kube, database, e.object));
    },
    () => {},
  );
  const deployments = await kube.watch<V1Deployment & KubeObject>(
    { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'chain', resourceVersion: kube.resourceVersion },
    (e) => {
      if (e.type === 'DELETED' || e.type === 'BOOKMARK') return;
      const d = e.object;
      if (d.status?.observedGeneration !== d.metadata.generation || d.status?.availableReplicas !== d.spec?.replicas)
        later(() => kube.markDeploymentReady(refOf(d)));
    },
    () => {},
  );
  return [jobs, deployments];
}

describe('the operator loop with the real reconciler', () => {
  let kube: FakeKube;
  let operator: OperatorRuntime;
  let watches: WatchHandle[];
  let registry: Registry;
  /** how far the operator's clock runs ahead of the wall clock (a test jumps over a wait) */
  let aheadMs = 0;

  beforeEach(async () => {
    kube = new FakeKube({ crds: [buildCrd()] });
    aheadMs = 0;
    registry = new Registry();
    const metrics = createOperatorMetrics(registry);
    const probe = new ScriptedProbe();
    probe.set('mainnet', 100, 0);
    probe.set('mainnet-preview', 100, 0);
    watches = await simulateControllers(kube);
    const reconcile = createReconciler({
      kube,
      log,
      metrics,
      probe: probe.probe,
      clock: () => new Date(Date.now() + aheadMs),
      config: { image: IMAGE },
    });
    operator = new OperatorRuntime({
      kube,
      log,
      registry,
      metrics,
      identity: 'op-1',
      namespace: 'chain',
      leaderElection: false,
      reconcile,
    });
    await operator.start();
  });
  afterEach(async () => {
    await operator.stop();
    for (const w of watches) w.stop();
  });

  const status = () => kube.peek<Middleware>(MW_REF)?.status;
  const reconciles = async () =>
    (await registry.getSingleMetric('mdw_operator_reconcile_total')?.get())?.values.reduce((n, v) => n + v.value, 0) ??
    0;

  it('takes an applied example to Available by itself, then goes quiet (status writes do not loop)', async () => {
    await kube.create(exampleMiddleware());
    await eventually(async () => expect(status()).to.deep.include({ phase: 'Available', readyReplicas: 2 }));
    const settled = await reconciles();
    await new Promise((r) => setTimeout(r, 300));
    expect(await reconciles()).to.equal(settled);
  });

  it('runs a whole blue/green reload from the request alone', async () => {
    const mw = exampleMiddleware();
    const drainSeconds = 5;
    mw.spec.promotion = { syncedWithinBlocks: 3, stableWindowSeconds: 0, switchDrainSeconds: drainSeconds };
    await kube.create(mw);
    await eventually(async () => expect(status()?.phase).to.equal('Available'));
    await requestReload(kube, {
      namespace: 'chain',
      name: 'mainnet',
      strategy: 'BlueGreen',
      retainPrevious: '0s',
      id: 'loop',
    });
    await eventually(async () => expect(status()?.reload).to.deep.include({ id: 'loop', state: 'Promoted' }));
    // generation 1's servers drain after the switch: the clock jumps over the drain, an annotation wakes the operator
    aheadMs = drainSeconds * 1000;
    await kube.patchMerge(MW_REF, { metadata: { annotations: { 'test.mdw/wake': '1' } } });
    await eventually(async () => expect(status()?.reload).to.deep.include({ id: 'loop', state: 'Completed' }));
    expect(status()).to.deep.include({ activeGeneration: 2 });
    const generations = kube
      .objectsOf('apps/v1', 'Deployment', 'chain')
      .map((d) => d.metadata.labels?.['middleware.aeternity.io/generation']);
    expect([...new Set(generations)]).to.deep.equal(['2']);
    // the per-Middleware reload-state series (dashboards, alerts) follow the status
    const text = await registry.metrics();
    expect(text).to.contain(
      'mdw_operator_middleware_reload_state{middleware_namespace="chain",middleware="mainnet",state="Completed"} 1',
    );
    expect(text).to.contain(
      'mdw_operator_middleware_reload_state{middleware_namespace="chain",middleware="mainnet",state="CatchingUp"} 0',
    );
  });
});
