/** @module The fake refuses what the API server refuses of built-in kinds: a Lease's times not MicroTime, a CRD's root metadata. */
import { V1MicroTime } from '@kubernetes/client-node';
import { expect } from 'chai';
import { isKubeError } from '../../../src/operator/kube/client.ts';
import type { KubeObject } from '../../../src/operator/kube/client.ts';
import { decodeBuiltIn } from '../../../src/operator/kube/fake-decode.ts';
import { FakeKube } from '../../../src/operator/kube/fake.ts';

const lease = (renewTime: unknown): KubeObject => ({
  apiVersion: 'coordination.k8s.io/v1',
  kind: 'Lease',
  metadata: { name: 'l', namespace: 'ops' },
  spec: { holderIdentity: 'a', renewTime },
});
const refusal = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('not refused');
};

describe('decodeBuiltIn', () => {
  it('refuses a Lease time with three fractional digits (a Date), or none, with the API server 400', () => {
    for (const t of [new Date('2026-11-27T16:41:25.141Z'), '2026-11-27T16:41:25Z', '2026-11-27T16:41:25.1411Z']) {
      const err = refusal(() => decodeBuiltIn(lease(t)));
      expect(isKubeError(err, 400), String(t)).to.equal(true);
      expect((err as Error).message).to.contain('cannot be handled as a Lease');
    }
  });

  it('takes six digits, in UTC or an offset, and keeps them as the string the server answers', () => {
    const micro = new V1MicroTime('2026-11-27T16:41:25.141Z');
    expect(decodeBuiltIn(lease(micro)).spec).to.deep.include({ renewTime: '2026-11-27T16:41:25.141000Z' });
    expect(decodeBuiltIn(lease('2026-11-27T16:41:25.141123+01:00')).spec).to.deep.include({
      renewTime: '2026-11-27T16:41:25.141123+01:00',
    });
  });

  it('leaves other kinds as they are', () => {
    const cm: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { at: 'x' } };
    expect(decodeBuiltIn(cm)).to.equal(cm);
  });

  it('is applied by every write of FakeKube: create, replace, merge patch', async () => {
    const kube = new FakeKube();
    expect(isKubeError(await kube.create(lease(new Date())).catch((e: unknown) => e), 400)).to.equal(true);
    const created = await kube.create(lease(new V1MicroTime()));
    expect((created.spec as { renewTime: string }).renewTime).to.match(/\.\d{6}Z$/);
    const stale = { ...created, spec: { ...(created.spec as object), renewTime: new Date() } };
    expect(isKubeError(await kube.replace(stale).catch((e: unknown) => e), 400)).to.equal(true);
    const patch = { spec: { renewTime: new Date() } };
    expect(isKubeError(await kube.patchMerge(created as never, patch).catch((e: unknown) => e), 400)).to.equal(true);
  });
});

describe('checkCrd', () => {
  const crd = (metadata: object): KubeObject => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      names: { plural: 'widgets', kind: 'Widget' },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { metadata } } },
        },
      ],
    },
  });

  it('refuses a description, or any field but name and generateName, on the root metadata, as the API server does', async () => {
    const kube = new FakeKube();
    for (const metadata of [
      { type: 'object', description: 'Standard object metadata.' },
      { type: 'object', properties: { labels: { type: 'object' } } },
    ]) {
      const err = await kube.create(crd(metadata)).catch((e: unknown) => e);
      expect(isKubeError(err, 422), JSON.stringify(metadata)).to.equal(true);
      expect((err as Error).message).to.contain('must not specify anything other than name and generateName');
    }
    await kube.create(crd({ type: 'object', properties: { name: { type: 'string', maxLength: 20 } } }));
  });
});
