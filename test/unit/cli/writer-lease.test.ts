import { V1MicroTime } from '@kubernetes/client-node';
import { expect } from 'chai';
import pino from 'pino';
import { FakeKube } from '../../../src/operator/kube/fake.ts';
import { holdWriterLease } from '../../../src/cli/writer-lease.ts';
import type { Role } from '../../../src/base/roles.ts';

const log = pino({ level: 'silent' });
const timings = { leaseDurationMs: 300, renewDeadlineMs: 200, retryPeriodMs: 30 };

describe('holdWriterLease(opts)', () => {
  it('lets only one populator write a schema, and hands over when it stops', async () => {
    const kube = new FakeKube();
    const writing: string[] = [];
    const role = (id: string): Promise<Role> => {
      writing.push(id);
      return Promise.resolve({
        name: id,
        stop: async () => {
          writing.splice(writing.indexOf(id), 1);
        },
      });
    };
    const first = await holdWriterLease({
      kube,
      namespace: 'mdw',
      name: 'main-writer-g1',
      identity: 'pod-a',
      log,
      start: () => role('a'),
      onLost: () => {},
      timings,
    });
    let secondStarted = false;
    const second = holdWriterLease({
      kube,
      namespace: 'mdw',
      name: 'main-writer-g1',
      identity: 'pod-b',
      log,
      start: () => role('b'),
      onLost: () => {},
      timings,
    }).then((r) => {
      secondStarted = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(secondStarted).to.equal(false);
    expect(writing).to.deep.equal(['a']);
    await first.stop();
    const b = await second;
    expect(writing).to.deep.equal(['b']);
    await b.stop();
    expect(writing).to.deep.equal([]);
  });

  it('stops writing and reports when the lease is taken away', async () => {
    const kube = new FakeKube();
    let stopped = false;
    let lost = false;
    await holdWriterLease({
      kube,
      namespace: 'mdw',
      name: 'w',
      identity: 'pod-a',
      log,
      timings,
      start: async () => ({
        name: 'populator',
        stop: async () => {
          stopped = true;
        },
      }),
      onLost: () => {
        lost = true;
      },
    });
    // another holder overwrites the Lease (e.g. an admin, or a partitioned replica's successor)
    const lease = await kube.get<{
      apiVersion: string;
      kind: string;
      metadata: { name: string };
      spec: Record<string, unknown>;
    }>({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace: 'mdw', name: 'w' });
    await kube.replace({ ...lease!, spec: { ...lease!.spec, holderIdentity: 'pod-z', renewTime: new V1MicroTime() } });
    for (let i = 0; i < 50 && !lost; i++) await new Promise((r) => setTimeout(r, 20));
    expect(lost).to.equal(true);
    expect(stopped).to.equal(true);
  });
});
