/**
 * @module Issue 43 item 6: an enabled ServiceMonitor on a cluster without the prometheus-operator CRDs. The API server
 * answers 404 for a kind it does not serve (as FakeKube is told to here); the rest of the Middleware must still be
 * reconciled, pruning included, and the Middleware be told why it has no ServiceMonitor.
 */
import { expect } from 'chai';
import type { V1Service } from '@kubernetes/client-node';
import { KubeError } from '../../../src/operator/kube/client.ts';
import { Harness, MW_REF, exampleMiddleware } from './harness.ts';

describe('an enabled ServiceMonitor without its CRD (issue 43 item 6)', () => {
  it('reconciles everything else, prunes, and says why in a Warning Event', async () => {
    const h = new Harness();
    const notServed = () => new KubeError(404, 'NotFound', 'the server could not find the requested resource');
    for (const verb of ['apply', 'list', 'get'] as const)
      h.kube.failOn({ verb, kind: 'ServiceMonitor', error: notServed(), times: Infinity });
    const mw = exampleMiddleware();
    const ingress = { host: 'mdw.example.com' };
    await h.apply({
      ...mw,
      spec: { ...mw.spec, server: { ...mw.spec.server, ingress }, metrics: { serviceMonitor: { enabled: true } } },
    });
    h.probe.set('mainnet', 100, 0);
    await h.settle();
    expect(h.middleware().status?.phase).to.equal('Available');
    expect(h.deployments().map((d) => d.metadata.name)).to.include.members([
      'mainnet-populator-g1',
      'mainnet-server-g1',
    ]);
    expect(h.kube.objectsOf('v1', 'Service', 'chain').map((s) => (s as V1Service).metadata?.name)).to.include(
      'mainnet',
    );
    const warnings = h.kube.events.filter((e) => e.type === 'Warning' && e.reason === 'ServiceMonitorNotInstalled');
    expect(warnings.length).to.be.greaterThan(0);
    expect(warnings[0]?.message).to.contain('install the prometheus-operator CRDs');

    // pruning still runs in the same passes: the Ingress goes once the spec drops it
    expect(h.kube.objectsOf('networking.k8s.io/v1', 'Ingress', 'chain')).to.have.length(1);
    h.kube.userPatch(MW_REF, { spec: { server: { ingress: null } } });
    await h.settle();
    expect(h.kube.objectsOf('networking.k8s.io/v1', 'Ingress', 'chain')).to.deep.equal([]);
  });
});
