/**
 * @module The fake refuses what the API server refuses of built-in kinds: a Lease's times not MicroTime, a pod's
 * quantity that is none (and stores the others canonical), a CRD's root metadata, new content in a namespace being
 * deleted, an Event outside its object's namespace.
 */
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

describe('decodeBuiltIn: quantities', () => {
  const deployment = (resources: unknown, sizeLimit: unknown = '64Mi'): KubeObject => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', namespace: 'ops' },
    spec: {
      template: {
        spec: {
          containers: [{ name: 'c', image: 'i', resources }],
          volumes: [{ name: 'tmp', emptyDir: { sizeLimit } }],
        },
      },
    },
  });
  const podSpec = (o: KubeObject) =>
    (o.spec as { template: { spec: { containers: Array<{ resources: unknown }>; volumes: unknown[] } } }).template.spec;

  it("stores a pod template's quantities canonical, as a read of the real server returns them", () => {
    const decoded = podSpec(
      decodeBuiltIn(
        deployment({ requests: { cpu: '0.5', memory: '1024Mi' }, limits: { cpu: 2, memory: '1.5Gi' } }, '0.5Gi'),
      ),
    );
    expect(decoded.containers[0]?.resources).to.deep.equal({
      requests: { cpu: '500m', memory: '1Gi' },
      limits: { cpu: '2', memory: '1536Mi' },
    });
    expect(decoded.volumes).to.deep.equal([{ name: 'tmp', emptyDir: { sizeLimit: '512Mi' } }]);
  });

  it("refuses a quantity that is none with the decoder's 400, and leaves a custom resource's as written", async () => {
    const err = refusal(() => decodeBuiltIn(deployment({ requests: { cpu: 'half' } })));
    expect(isKubeError(err, 400)).to.equal(true);
    expect((err as Error).message).to.contain('quantities must match the regular expression');
    const custom: KubeObject = {
      apiVersion: 'middleware.aeternity.io/v1alpha1',
      kind: 'Middleware',
      metadata: { name: 'm' },
      spec: { server: { resources: { requests: { cpu: '0.5' } } } },
    };
    expect(decodeBuiltIn(custom)).to.deep.equal(custom);
    const kube = new FakeKube();
    const applied = await kube.apply(deployment({ requests: { cpu: '0.5' } }), 'm');
    expect(podSpec(applied).containers[0]?.resources).to.deep.equal({ requests: { cpu: '500m' } });
  });
});

describe('FakeKube in a namespace being deleted (NamespaceLifecycle)', () => {
  const NS = { apiVersion: 'v1', kind: 'Namespace', name: 'doomed' };
  const event = (namespace: string, involvedNamespace: string | undefined) => ({
    metadata: { name: `mw.${namespace}`, namespace },
    involvedObject: { kind: 'Middleware', name: 'mw', namespace: involvedNamespace },
    reason: 'SchemasRetained',
  });
  const configMap = (name: string): KubeObject => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'doomed' },
  });

  it('refuses new objects and Events there (403) but updates what exists', async () => {
    const kube = new FakeKube();
    await kube.create({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'doomed', finalizers: ['kubernetes'] },
    });
    await kube.create(configMap('kept'));
    await kube.delete(NS);
    for (const write of [
      () => kube.create(configMap('new')),
      () => kube.apply(configMap('new'), 'm'),
      () => kube.createEvent(event('doomed', 'doomed')),
    ]) {
      const err = await write().catch((e: unknown) => e);
      expect(isKubeError(err, 403)).to.equal(true);
      expect((err as Error).message).to.contain(
        'unable to create new content in namespace doomed because it is being terminated',
      );
    }
    await kube.apply({ ...configMap('kept'), data: { a: 'b' } }, 'm');
    expect(kube.peek<KubeObject & { data?: object }>(configMap('kept') as never)?.data).to.deep.equal({ a: 'b' });
    expect(kube.events).to.deep.equal([]);
  });

  it("refuses an Event whose namespace is not its object's (422)", async () => {
    const kube = new FakeKube();
    const err = await kube.createEvent(event('ops', 'chain')).catch((e: unknown) => e);
    expect(isKubeError(err, 422)).to.equal(true);
    expect((err as Error).message).to.contain('does not match event.namespace');
    await kube.createEvent(event('chain', 'chain'));
    expect(kube.events).to.have.length(1);
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
