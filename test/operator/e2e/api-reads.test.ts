/**
 * @module Issue 14 item 8: API reads per reconcile, before (children listed per pass) and after (read from the
 * informers' caches, which list and watch only the operator's children). Counted against the in-memory fake.
 */
import { expect } from 'chai';
import type { V1Deployment, V1Job } from '@kubernetes/client-node';
import pino from 'pino';
import { Registry } from 'prom-client';
import { createReconciler } from '../../../src/operator/controller/reconcile.ts';
import { refOf, type KubeObject } from '../../../src/operator/kube/client.ts';
import { buildCrd } from '../../../src/operator/api/crd.ts';
import { FakeKube } from '../../../src/operator/kube/fake.ts';
import { OperatorRuntime } from '../../../src/operator/runtime/main.ts';
import { createOperatorMetrics } from '../../../src/operator/runtime/metrics.ts';
import { MANAGED_KINDS } from '../../../src/operator/specs/kinds.ts';
import { eventually } from '../kube/contract.ts';
import {
  FakeDatabase,
  Harness,
  IMAGE,
  KEY,
  MW_REF,
  ScriptedProbe,
  completeJobWith,
  exampleMiddleware,
} from './harness.ts';

const log = pino({ level: 'silent' });

/** countingReads passes every call to kube and counts the reads (get, list) by kind. */
function countingReads(kube: FakeKube): { client: FakeKube; reads: string[] } {
  const reads: string[] = [];
  const client = new Proxy(kube, {
    get: (target, prop, receiver) => {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      const fn = (value as (...a: unknown[]) => unknown).bind(target);
      if (prop === 'get') return (ref: { kind: string }) => (reads.push(`get ${ref.kind}`), fn(ref));
      if (prop === 'list') return (...a: [string, string]) => (reads.push(`list ${a[1]}`), fn(...a));
      return fn;
    },
  });
  return { client, reads };
}

describe('API reads per reconcile (issue 14 item 8)', () => {
  it('before: a pass without the caches reads the Middleware, lists the Middlewares and each of the 9 kinds of child', async () => {
    const h = new Harness();
    h.probe.set('mainnet', 100, 0);
    await h.apply();
    await h.settle();
    const { client, reads } = countingReads(h.kube);
    await h.newReconciler(client)(KEY);
    // the Middlewares of the namespace too: which others share its database (issue 38)
    expect(reads)
      .to.have.length(2 + MANAGED_KINDS.length)
      .and.length(11);
    expect(reads[0]).to.equal('get Middleware');
    expect(reads).to.include('list Middleware');
  });

  it('after: the running operator reads only the Middleware itself; its children come from the caches', async () => {
    const kube = new FakeKube({ crds: [buildCrd()] });
    const registry = new Registry();
    const metrics = createOperatorMetrics(registry);
    const probe = new ScriptedProbe();
    probe.set('mainnet', 100, 0);
    const { client, reads } = countingReads(kube);
    // the informers use kube (their list and watch are not reconcile reads); the reconciler's reads are counted
    const reconcile = createReconciler({
      kube: client,
      log,
      metrics,
      probe: probe.probe,
      clock: () => new Date(),
      config: { image: IMAGE },
    });
    const operator = new OperatorRuntime({
      kube,
      log,
      registry,
      metrics,
      identity: 'op',
      namespace: 'chain',
      leaderElection: false,
      reconcile,
    });
    const controllers = await playControllers(kube);
    await operator.start();
    try {
      await kube.create(exampleMiddleware());
      await eventually(async () =>
        expect(kube.peek<KubeObject>(MW_REF)?.status).to.deep.include({ phase: 'Available' }),
      );
      const total = async () =>
        (await registry.getSingleMetric('mdw_operator_reconcile_total')?.get())?.values.reduce(
          (n, v) => n + v.value,
          0,
        ) ?? 0;
      // every reconcile read its Middleware; the one that found the database check answered also read its pod
      await eventually(async () => expect(reads.filter((r) => r === 'get Middleware')).to.have.length(await total()));
      expect(reads.filter((r) => r !== 'get Middleware')).to.deep.equal(['list Pod']);
      const before = await total();
      reads.length = 0;
      kube.userPatch(MW_REF, { metadata: { annotations: { touched: 'yes' } } });
      await eventually(async () => expect(await total()).to.be.greaterThan(before));
      expect(reads).to.deep.equal(['get Middleware']);
    } finally {
      await operator.stop();
      for (const c of controllers) c.stop();
    }
  });
});

/** playControllers completes every new Job and makes every Deployment ready, as the cluster's controllers would. */
async function playControllers(kube: FakeKube, database = new FakeDatabase()): Promise<Array<{ stop(): void }>> {
  const later = (fn: () => void) =>
    setImmediate(() => {
      try {
        fn();
      } catch {
        // the object went away meanwhile
      }
    });
  return Promise.all([
    kube.watch<V1Job & KubeObject>(
      { apiVersion: 'batch/v1', kind: 'Job', namespace: 'chain', resourceVersion: kube.resourceVersion },
      (e) => {
        if (e.type === 'ADDED') later(() => completeJobWith(kube, database, e.object));
      },
      () => undefined,
    ),
    kube.watch<V1Deployment & KubeObject>(
      { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'chain', resourceVersion: kube.resourceVersion },
      (e) => {
        if (e.type === 'DELETED' || e.type === 'BOOKMARK') return;
        const d = e.object;
        if (d.status?.observedGeneration !== d.metadata.generation || d.status?.availableReplicas !== d.spec?.replicas)
          later(() => kube.markDeploymentReady(refOf(d)));
      },
      () => undefined,
    ),
  ]);
}
