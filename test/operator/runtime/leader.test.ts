/** @module Leader election on FakeKube: one leader, hand-over when the holder stops renewing, release on stop. */
import { V1MicroTime } from '@kubernetes/client-node';
import { expect } from 'chai';
import { pino } from 'pino';
import { KubeError } from '../../../src/operator/kube/client.ts';
import type { KubeClient, KubeObject } from '../../../src/operator/kube/client.ts';
import { FakeKube } from '../../../src/operator/kube/fake.ts';
import { LeaderElector } from '../../../src/operator/runtime/leader.ts';
import { eventually } from '../kube/contract.ts';

const log = pino({ level: 'silent' });
const leaseRef = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace: 'ops', name: 'mdw-operator' };
type LeaseSpec = { holderIdentity?: string; leaseTransitions?: number; leaseDurationSeconds?: number };
const holderOf = (kube: FakeKube): string | undefined =>
  (kube.peek<KubeObject>(leaseRef)?.spec as LeaseSpec)?.holderIdentity;

/** partitionable wraps a client so a test can cut one replica off the API server (a crash or a network split). */
function partitionable(kube: KubeClient): { client: KubeClient; cut(): void } {
  let cut = false;
  const guard =
    <A extends unknown[], R>(fn: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      if (cut) throw new KubeError(0, 'NetworkError', 'partitioned');
      return fn(...a);
    };
  const client: KubeClient = {
    get: guard((r) => kube.get(r)),
    list: guard((...a) => kube.list(...a)),
    watch: guard((...a) => kube.watch(...a)),
    apply: guard((o, m) => kube.apply(o, m)),
    create: guard((o) => kube.create(o)),
    replace: guard((o) => kube.replace(o)),
    patchStatus: guard((...a) => kube.patchStatus(...a)),
    patchMerge: guard((r, p) => kube.patchMerge(r, p)),
    delete: guard((r, o) => kube.delete(r, o)),
    createEvent: guard((e) => kube.createEvent(e)),
  };
  return {
    client,
    cut: () => {
      cut = true;
    },
  };
}

describe('LeaderElector', () => {
  let kube: FakeKube;
  let timeline: string[];
  let electors: LeaderElector[];
  const timings = { leaseDurationMs: 300, renewDeadlineMs: 200, retryPeriodMs: 30 };

  const candidate = (identity: string, client: KubeClient = kube, t = timings): LeaderElector => {
    const e = new LeaderElector({
      kube: client,
      namespace: 'ops',
      name: 'mdw-operator',
      identity,
      log,
      ...t,
      onStartedLeading: () => {
        timeline.push(`${identity} start`);
      },
      onStoppedLeading: () => {
        timeline.push(`${identity} stop`);
      },
    });
    electors.push(e);
    e.start();
    return e;
  };

  beforeEach(() => {
    kube = new FakeKube();
    timeline = [];
    electors = [];
  });
  afterEach(async () => {
    await Promise.all(electors.map((e) => e.stop()));
  });

  it('a lone candidate creates the Lease and leads', async () => {
    const a = candidate('a');
    await eventually(async () => expect(a.isLeader()).to.equal(true));
    expect(holderOf(kube)).to.equal('a');
    expect((kube.peek<KubeObject>(leaseRef)?.spec as LeaseSpec).leaseDurationSeconds).to.equal(1);
    expect(timeline).to.deep.equal(['a start']);
  });

  it('with two candidates exactly one leads, and the leader keeps renewing', async () => {
    const a = candidate('a');
    await eventually(async () => expect(a.isLeader()).to.equal(true));
    const b = candidate('b');
    const rv = kube.peek(leaseRef)?.metadata.resourceVersion;
    await new Promise((r) => setTimeout(r, timings.leaseDurationMs + 100));
    expect([a.isLeader(), b.isLeader()]).to.deep.equal([true, false]);
    expect(kube.peek(leaseRef)?.metadata.resourceVersion).to.not.equal(rv);
    expect(timeline).to.deep.equal(['a start']);
  });

  it('hands over when the holder stops renewing: the old leader steps down, then the standby takes the Lease', async () => {
    const partition = partitionable(kube);
    const a = candidate('a', partition.client);
    await eventually(async () => expect(a.isLeader()).to.equal(true));
    const b = candidate('b');
    partition.cut();
    await eventually(async () => expect(b.isLeader()).to.equal(true), 3000);
    expect(a.isLeader()).to.equal(false);
    // a gives up after its renew deadline (200 ms) before b may take over (300 ms after the last renewal it saw)
    expect(timeline).to.deep.equal(['a start', 'a stop', 'b start']);
    expect(holderOf(kube)).to.equal('b');
    expect((kube.peek<KubeObject>(leaseRef)?.spec as LeaseSpec).leaseTransitions).to.equal(1);
  });

  it('releases the Lease on stop so a standby takes over without waiting for expiry', async () => {
    const slow = { leaseDurationMs: 10_000, renewDeadlineMs: 8_000, retryPeriodMs: 30 };
    const a = candidate('a', kube, slow);
    await eventually(async () => expect(a.isLeader()).to.equal(true));
    const b = candidate('b', kube, slow);
    await new Promise((r) => setTimeout(r, 100));
    expect(b.isLeader()).to.equal(false);
    const t0 = Date.now();
    await a.stop();
    expect(timeline).to.deep.equal(['a start', 'a stop']); // work stopped before the Lease was released
    await eventually(async () => expect(b.isLeader()).to.equal(true), 2000);
    expect(Date.now() - t0).to.be.lessThan(slow.leaseDurationMs);
    expect(holderOf(kube)).to.equal('b');
  });

  it('steps down at once when another identity holds the Lease', async () => {
    const a = candidate('a', kube, { leaseDurationMs: 10_000, renewDeadlineMs: 8_000, retryPeriodMs: 30 });
    await eventually(async () => expect(a.isLeader()).to.equal(true));
    kube.userPatch(leaseRef, { spec: { holderIdentity: 'intruder', renewTime: new V1MicroTime() } });
    await eventually(async () => expect(a.isLeader()).to.equal(false), 1000);
    expect(timeline).to.deep.equal(['a start', 'a stop']);
  });
});
