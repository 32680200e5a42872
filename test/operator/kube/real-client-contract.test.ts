/** @module Runs the KubeClient contract through the real client, over HTTP, against FakeKube behind a REST front. */
import { KubeConfig } from '@kubernetes/client-node';
import { FakeKube } from '../../../src/operator/kube/fake.ts';
import { createKubeClient } from '../../../src/operator/kube/real-client.ts';
import { CONTRACT_API_VERSION, CONTRACT_KIND, runKubeClientContract } from './contract.ts';
import { startFakeApiServer } from './fake-apiserver.ts';

describe('real client over HTTP', () => {
  let stops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    await Promise.all(stops.map((s) => s()));
    stops = [];
  });

  runKubeClientContract('createKubeClient → HTTP → FakeKube', async () => {
    const fake = new FakeKube();
    const api = await startFakeApiServer(fake, [
      { apiVersion: 'v1', kind: 'ConfigMap', plural: 'configmaps' },
      { apiVersion: 'v1', kind: 'Event', plural: 'events' },
      { apiVersion: CONTRACT_API_VERSION, kind: CONTRACT_KIND, plural: 'widgets' },
    ]);
    stops.push(api.stop);
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'fake', server: api.url, skipTLSVerify: true }],
      users: [{ name: 'u', token: 't' }],
      contexts: [{ name: 'fake', cluster: 'fake', user: 'u', namespace: 'contract' }],
      currentContext: 'fake',
    });
    return { client: createKubeClient(kc), namespace: 'contract', compact: () => fake.compact() };
  });
});
