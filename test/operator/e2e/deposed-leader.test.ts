/** @module A leader that loses its Lease mid-reconcile writes nothing more (issue 14 item 4), and stop() is prompt. */
import { V1MicroTime } from '@kubernetes/client-node';
import { expect } from 'chai';
import pino from 'pino';
import { Registry } from 'prom-client';
import { createReconciler } from '../../../src/operator/controller/reconcile.ts';
import { KubeError, type KubeObject, type ObjectRef } from '../../../src/operator/kube/client.ts';
import { buildCrd } from '../../../src/operator/api/crd.ts';
import { FakeKube } from '../../../src/operator/kube/fake.ts';
import { OperatorRuntime } from '../../../src/operator/runtime/main.ts';
import { LEADER_LEASE_NAME } from '../../../src/operator/specs/rbac.ts';
import { eventually } from '../kube/contract.ts';
import { IMAGE, InterceptingKube, ScriptedProbe, exampleMiddleware } from './harness.ts';

const log = pino({ level: 'silent' });
const leaseRef: ObjectRef = {
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  namespace: 'chain',
  name: LEADER_LEASE_NAME,
};

describe('a deposed leader (issue 14)', () => {
  let op: OperatorRuntime | undefined;
  afterEach(async () => {
    await op?.stop();
    op = undefined;
  });

  it('writes nothing after its Lease is lost, though its reconcile was in flight', async () => {
    const kube = new FakeKube({ crds: [buildCrd()] });
    await kube.create(exampleMiddleware());
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let blocked = false;
    // the first apply of the pass waits until the test has taken the Lease away
    const slow = new InterceptingKube(kube, async (verb) => {
      if (verb !== 'apply' || blocked) return;
      blocked = true;
      await gate;
    });
    op = new OperatorRuntime({
      kube,
      log,
      registry: new Registry(),
      identity: 'a',
      namespace: 'chain',
      leaderElection: { leaseDurationMs: 10_000, renewDeadlineMs: 5_000, retryPeriodMs: 20 },
      reconcile: createReconciler({
        kube: slow,
        log,
        probe: new ScriptedProbe().probe,
        clock: () => new Date(),
        config: { image: IMAGE },
      }),
    });
    await op.start();
    await eventually(async () => expect(blocked).to.equal(true));

    // another replica takes the Lease over (as after a network partition), and this one notices
    const lease = kube.peek<KubeObject & { spec: Record<string, unknown> }>(leaseRef);
    await kube.replace({ ...lease!, spec: { ...lease!.spec, holderIdentity: 'b', renewTime: new V1MicroTime() } });
    const running = op;
    await eventually(async () => expect(running.isLeader()).to.equal(false));
    const before = kube.writes.length;
    const eventsBefore = kube.events.length;
    release();
    await new Promise((resolve) => setTimeout(resolve, 200));

    // only the apply already sent when the Lease was lost lands; no later apply, prune, status write or Event
    expect(kube.writes.slice(before).map((w) => w.verb)).to.deep.equal(['apply']);
    expect(kube.events.length).to.equal(eventsBefore);
  });

  it('stop() ends a start that is still retrying a failed list, without waiting out the backoff', async () => {
    const kube = new FakeKube({ crds: [buildCrd()] });
    kube.failOn({ verb: 'list', error: new KubeError(503, 'ServiceUnavailable', 'apiserver down'), times: Infinity });
    op = new OperatorRuntime({
      kube,
      log,
      registry: new Registry(),
      identity: 'a',
      namespace: 'chain',
      leaderElection: false,
      reconcile: async () => ({}),
    });
    await op.start();
    await new Promise((resolve) => setTimeout(resolve, 1_200)); // 0.5 s, then a 1 s wait begins
    const started = Date.now();
    await op.stop();
    op = undefined;
    expect(Date.now() - started).to.be.below(300);
  });
});
