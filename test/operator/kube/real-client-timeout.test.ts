/**
 * @module Issue 43 item 3: every request of the real client is bounded. An API server that accepts a request and never
 * answers (a half-open connection) fails it with a KubeError Timeout after KUBE_REQUEST_TIMEOUT_MS instead of undici's
 * 300 s, and a caller's signal (the leader elector's renew deadline) cancels it earlier.
 */
import { expect } from 'chai';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeError } from '../../../src/operator/kube/client.ts';
import type { KubeClient, KubeObject, ObjectRef } from '../../../src/operator/kube/client.ts';
import { createKubeClient } from '../../../src/operator/kube/real-client.ts';
import { startHangingProxy, type HangingProxy } from './hanging-proxy.ts';

const lease: ObjectRef = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace: 'ops', name: 'l' };
const leaseObject: KubeObject = {
  apiVersion: lease.apiVersion,
  kind: lease.kind,
  metadata: { name: 'l', namespace: 'ops' },
};

function clientOf(server: string, requestTimeoutMs: number): KubeClient {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'f', server, skipTLSVerify: true }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'f', cluster: 'f', user: 'u', namespace: 'ops' }],
    currentContext: 'f',
  });
  return createKubeClient(kc, { requestTimeoutMs });
}

describe('the real client against an API server that never answers (issue 43)', function () {
  this.timeout(20_000);
  let silent: HangingProxy;

  before(async () => {
    // nothing behind it: every request is swallowed
    silent = await startHangingProxy('http://127.0.0.1:9');
    silent.hang(() => true);
  });
  after(() => silent.stop());

  /** failure awaits call and returns what it threw. */
  const failure = (call: Promise<unknown>): Promise<unknown> =>
    call.then(
      () => expect.fail('the request answered'),
      (err: unknown) => err,
    );

  it('fails every kind of request with a KubeError Timeout after the request timeout', async () => {
    const kube = clientOf(silent.url, 200);
    const calls: Record<string, () => Promise<unknown>> = {
      get: () => kube.get(lease),
      list: () => kube.list(lease.apiVersion, lease.kind, 'ops'),
      create: () => kube.create(leaseObject),
      replace: () => kube.replace(leaseObject),
      apply: () => kube.apply(leaseObject, 'mdw-operator'),
      patchMerge: () => kube.patchMerge(lease, { metadata: { labels: { a: 'b' } } }),
      patchStatus: () => kube.patchStatus(lease, {}),
      delete: () => kube.delete(lease),
      createEvent: () =>
        kube.createEvent({ metadata: { name: 'e', namespace: 'ops' }, involvedObject: { kind: 'Lease', name: 'l' } }),
    };
    for (const [name, call] of Object.entries(calls)) {
      const err = await failure(call());
      expect(err, name).to.be.instanceOf(KubeError).and.include({ status: 0, reason: 'Timeout' });
    }
  });

  it("ends a get, create or replace when the caller's signal aborts, long before the request timeout", async () => {
    const kube = clientOf(silent.url, 120_000);
    for (const call of [
      (signal: AbortSignal) => kube.get(lease, { signal }),
      (signal: AbortSignal) => kube.create(leaseObject, { signal }),
      (signal: AbortSignal) => kube.replace(leaseObject, { signal }),
    ]) {
      const err = await failure(call(AbortSignal.timeout(100)));
      expect(err).to.be.instanceOf(KubeError).and.include({ reason: 'Timeout' });
    }
  });
});
