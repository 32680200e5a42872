/**
 * @module Issue 43 item 1: children edited by hand are put back. The operator re-checks every field it sets on each
 * pass, applies over `kubectl edit` (forcing, since kubectl-edit then owns those fields), and records an Event.
 */
import { expect } from 'chai';
import type { V1Deployment, V1Service } from '@kubernetes/client-node';
import type { Built } from '../../../src/operator/specs/meta.ts';
import { LABEL_GENERATION } from '../../../src/operator/specs/meta.ts';
import { Harness, IMAGE } from './harness.ts';

const SERVER = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'chain', name: 'mainnet-server-g1' };
const STABLE = { apiVersion: 'v1', kind: 'Service', namespace: 'chain', name: 'mainnet' };

describe('drift of children edited by hand (issue 43)', () => {
  it('one pass puts back the stable Service and the servers and records Events; the next writes nothing', async () => {
    const h = new Harness();
    await h.apply();
    h.probe.set('mainnet', 100, 0);
    await h.settle();
    const service = () => h.kube.peek<Built<V1Service>>(STABLE)!;
    const server = () => h.kube.peek<Built<V1Deployment>>(SERVER)!;
    const selector = service().spec?.selector;
    expect(selector?.[LABEL_GENERATION]).to.equal('1');

    // By editing as the issue did: the blue/green switch to a generation that does not exist, type NodePort, and
    // the servers scaled to 0 with another image (`kubectl edit` is an update: kubectl-edit owns those fields now).
    h.kube.userPatch(STABLE, { spec: { selector: { [LABEL_GENERATION]: '7' }, type: 'NodePort' } });
    h.kube.userPatch(SERVER, {
      spec: { replicas: 0, template: { spec: { containers: [{ name: 'mdw', image: 'example.com/other:6.6.6' }] } } },
    });
    h.kube.clearRecords();

    // By reconciling once: everything the operator sets is back.
    await h.pass();
    expect(service().spec?.selector).to.deep.equal(selector);
    expect(service().spec?.type).to.equal('ClusterIP');
    expect(server().spec?.replicas).to.equal(2);
    expect(server().spec?.template.spec?.containers[0]?.image).to.equal(IMAGE);
    const overridden = h.kube.events.filter((e) => e.reason === 'ChildOverridden');
    expect(overridden.map((e) => [e.type, e.message?.split(' was ')[0]])).to.have.deep.members([
      ['Warning', 'Service mainnet'],
      ['Warning', 'Deployment mainnet-server-g1'],
    ]);
    expect(overridden.map((e) => e.message).join('\n'))
      .to.include('"kubectl-edit"')
      .and.include('.spec.type')
      .and.include('.spec.replicas');
    expect(h.kube.managersOf(STABLE).has('kubectl-edit'), "the fields are the operator's again").to.equal(false);

    // By reconciling again: nothing is left to put back.
    h.kube.clearRecords();
    await h.pass();
    expect(h.kube.writes.filter((w) => w.verb !== 'patchStatus' || w.changed)).to.deep.equal([]);
    expect(h.kube.events).to.deep.equal([]);
  });
});
