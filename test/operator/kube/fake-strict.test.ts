/**
 * @module FakeKube is as strict as a real API server: each case names the Kubernetes documentation page and section
 * (kubernetes.io/docs) whose behaviour it checks, with the project's own CRD where it has the feature.
 */
import { expect } from 'chai';
import { buildCrd } from '../../../src/operator/api/crd.ts';
import { API_VERSION, KIND } from '../../../src/operator/api/middleware-types.ts';
import { KubeError } from '../../../src/operator/kube/client.ts';
import type { KubeObject, ObjectRef } from '../../../src/operator/kube/client.ts';
import { FakeKube } from '../../../src/operator/kube/fake.ts';
import { FOREGROUND_FINALIZER } from '../../../src/operator/kube/fake-gc.ts';
import { startFakeApiServer } from './fake-apiserver.ts';

const NS = 'chain';
const MW: ObjectRef = { apiVersion: API_VERSION, kind: KIND, namespace: NS, name: 'mainnet' };
const middleware = (spec: Record<string, unknown> = {}, name = 'mainnet'): KubeObject => ({
  apiVersion: API_VERSION,
  kind: KIND,
  metadata: { name, namespace: NS },
  spec: {
    nodeUrls: ['http://ae-node.chain.svc:3013'],
    database: { urlSecretRef: { name: 'mdw-db', key: 'url' } },
    ...spec,
  },
});
const service = (selector: Record<string, string>, type = 'ClusterIP'): KubeObject => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name: 'mainnet', namespace: NS, labels: { app: 'mdw' } },
  spec: { type, selector, ports: [{ name: 'http', port: 80 }] },
});
const SERVICE: ObjectRef = { apiVersion: 'v1', kind: 'Service', namespace: NS, name: 'mainnet' };
const failure = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );
const specOf = (o: KubeObject | undefined) => o?.spec as Record<string, unknown>;

describe('FakeKube, strict as an API server', () => {
  let kube: FakeKube;
  beforeEach(async () => {
    kube = new FakeKube();
    await kube.create(buildCrd());
  });

  describe('"Extend the Kubernetes API with CustomResourceDefinitions"', () => {
    it('"Field pruning": fields the structural schema does not specify are dropped', async () => {
      const mw = middleware({ surprise: true, server: { replicas: 2, typo: 1 } });
      const stored = await kube.create(mw);
      expect(specOf(stored)).to.not.have.property('surprise');
      expect(specOf(stored).server).to.not.have.property('typo');
      expect(specOf(stored).server).to.include({ replicas: 2 });
    });

    it('"Defaulting": absent fields with a schema default are set, nested defaults of defaulted maps too', async () => {
      const stored = await kube.create(middleware());
      const schema = specOf(buildCrd()).versions as Array<{ schema: { openAPIV3Schema: Record<string, unknown> } }>;
      const specSchema = (schema[0]?.schema.openAPIV3Schema.properties as Record<string, { properties: object }>).spec
        ?.properties as Record<string, { default?: unknown }>;
      expect(specOf(stored).imagePullPolicy).to.equal(specSchema.imagePullPolicy?.default);
      expect(specOf(stored).populator).to.be.an('object');
    });

    it('"Validation": a value of the wrong type or outside its bounds is 422 Invalid', async () => {
      const err = await failure(kube.create(middleware({ server: { replicas: 'two' } })));
      expect(err).to.be.instanceOf(KubeError).and.include({ status: 422, reason: 'Invalid' });
      expect((err as Error).message).to.include('.spec.server.replicas');
      expect(kube.peek(MW)).to.equal(undefined);
    });

    it('"Validation rules": x-kubernetes-validations are evaluated with CEL on create and update', async () => {
      // the root rule: the name is a DNS-1035 label (it names the Service)
      const badName = await failure(kube.create(middleware({}, 'Main_Net')));
      expect(badName).to.be.instanceOf(KubeError).and.include({ status: 422 });
      expect((badName as Error).message).to.include('DNS-1035');
      await kube.create(middleware());
      // a rule on spec.server.autoscaling: its bounds in order
      const outside = await failure(
        kube.patchMerge(MW, { spec: { server: { autoscaling: { minReplicas: 4, maxReplicas: 3 } } } }),
      );
      expect(outside).to.be.instanceOf(KubeError).and.include({ status: 422 });
      expect(specOf(kube.peek(MW)).server).to.not.have.property('autoscaling');
    });

    it('"Transition rules": a rule with oldSelf runs on updates only, against the stored object', async () => {
      await kube.create(middleware({ database: { urlSecretRef: { name: 'db', key: 'url' }, schemaPrefix: 'a_g' } }));
      const changed = await failure(kube.patchMerge(MW, { spec: { database: { schemaPrefix: 'b_g' } } }));
      expect(changed).to.be.instanceOf(KubeError).and.include({ status: 422 });
      const same = await kube.patchMerge<KubeObject>(MW, { spec: { database: { schemaPrefix: 'a_g' } } });
      expect((specOf(same).database as { schemaPrefix: string }).schemaPrefix).to.equal('a_g');
    });

    it('"Validation ratcheting": an update leaving an invalid value as it was goes through, changing it does not', async () => {
      await kube.create(middleware());
      kube.legacyPatch(MW, { spec: { nodeUrls: [] } }); // stored under an older CRD
      await kube.patchStatus(MW, { phase: 'Invalid' });
      await kube.patchMerge(MW, { spec: { logLevel: 'debug' } });
      expect(specOf(kube.peek(MW))).to.include({ logLevel: 'debug' });
      const err = await failure(kube.patchMerge(MW, { spec: { nodeUrls: ['not a url'] } }));
      expect(err).to.be.instanceOf(KubeError).and.include({ status: 422 });
    });

    it('"Status subresource": the main resource ignores status, /status ignores everything else', async () => {
      const created = await kube.create({ ...middleware(), status: { phase: 'Degraded' } });
      expect(created.status).to.equal(undefined);
      const patched = await kube.patchStatus<KubeObject>(MW, { phase: 'Syncing' });
      expect(patched.status).to.deep.equal({ phase: 'Syncing' });
      expect(patched.metadata.generation, 'a status write is not a spec change').to.equal(1);
      await kube.patchMerge(MW, { status: { phase: 'Available' } });
      expect(kube.peek(MW)?.status).to.deep.equal({ phase: 'Syncing' });
    });

    it('"Scale subresource": writes the CRD\'s specReplicasPath and reads status and selector', async () => {
      await kube.create(middleware({ server: { replicas: 2 } }));
      await kube.patchStatus(MW, { replicas: 2, selector: 'app=mdw' });
      const scale = kube.scale(MW, 5, 'horizontal-pod-autoscaler');
      expect(scale).to.deep.include({
        kind: 'Scale',
        spec: { replicas: 5 },
        status: { replicas: 2, selector: 'app=mdw' },
      });
      expect(specOf(kube.peek(MW)).server).to.include({ replicas: 5 });
      expect(kube.managersOf(MW).get('horizontal-pod-autoscaler')?.fields.size).to.equal(1);
      await kube.create(service({ app: 'x' }));
      expect(() => kube.scale(SERVICE, 1))
        .to.throw(KubeError)
        .with.property('status', 404);
    });
  });

  it('"Scale subresource" over HTTP: a merge patch of /scale moves the CRD\'s replicas path', async () => {
    await kube.create(middleware({ server: { replicas: 2 } }));
    const api = await startFakeApiServer(kube, [{ apiVersion: API_VERSION, kind: KIND, plural: 'middlewares' }]);
    try {
      const res = await fetch(`${api.url}/apis/${API_VERSION}/namespaces/${NS}/middlewares/mainnet/scale`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/merge-patch+json' },
        body: JSON.stringify({ spec: { replicas: 4 } }),
      });
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.include({ kind: 'Scale', spec: { replicas: 4 } });
      expect(specOf(kube.peek(MW)).server).to.include({ replicas: 4 });
    } finally {
      await api.stop();
    }
  });

  describe('"Server-Side Apply"', () => {
    it('"Field management": each manager\'s fields are listed in metadata.managedFields', async () => {
      await kube.apply(service({ app: 'mdw', gen: '1' }), 'mdw-operator');
      kube.userPatch(SERVICE, { metadata: { annotations: { note: 'mine' } } });
      const live = kube.peek<KubeObject>(SERVICE);
      const entries = live?.metadata.managedFields ?? [];
      expect(entries.map((e) => [e.manager, e.operation])).to.deep.equal([
        ['mdw-operator', 'Apply'],
        ['kubectl-edit', 'Update'],
      ]);
      expect(entries[0]?.fieldsV1).to.have.nested.property('f:spec.f:selector.f:gen');
      expect(entries[1]?.fieldsV1).to.have.nested.property('f:metadata.f:annotations.f:note');
    });

    it('"Conflicts": applying a field another manager changed is 409 naming it, unless forced', async () => {
      await kube.apply(service({ app: 'mdw', gen: '1' }), 'mdw-operator');
      kube.userPatch(SERVICE, { spec: { selector: { gen: '9' }, type: 'NodePort' } });
      const err = await failure(kube.apply(service({ app: 'mdw', gen: '1' }), 'mdw-operator'));
      expect(err).to.be.instanceOf(KubeError).and.include({ status: 409, reason: 'Conflict' });
      expect((err as Error).message)
        .to.include('conflict with "kubectl-edit": .spec.selector.gen')
        .and.include('.spec.type');
      const forced = await kube.apply(service({ app: 'mdw', gen: '1' }), 'mdw-operator', { force: true });
      expect(specOf(forced)).to.deep.include({ type: 'ClusterIP', selector: { app: 'mdw', gen: '1' } });
      expect(kube.managersOf(SERVICE).has('kubectl-edit'), 'forcing takes the fields away').to.equal(false);
    });

    it('"Conflicts": applying the value another manager set is no conflict; both then own the field', async () => {
      await kube.apply(service({ app: 'mdw' }), 'a');
      const rv = kube.peek(SERVICE)?.metadata.resourceVersion;
      const same = await kube.apply(service({ app: 'mdw' }), 'b');
      expect(same.metadata.resourceVersion).to.equal(rv);
      const owners = [...kube.managersOf(SERVICE)].filter(([, o]) => [...o.fields].some((f) => f.includes('f:app')));
      expect(owners.map(([m]) => m)).to.deep.equal(['a', 'b']);
    });

    it('"Merge strategy": keyed lists merge by key, so another manager\'s container stays', async () => {
      const deployment = (containers: unknown[]): KubeObject => ({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'd', namespace: NS },
        spec: { template: { spec: { containers } } },
      });
      await kube.apply(deployment([{ name: 'mdw', image: 'mdw:1' }]), 'mdw-operator');
      await kube.apply(deployment([{ name: 'sidecar', image: 'proxy:1' }]), 'mesh');
      const live = await kube.apply(deployment([{ name: 'mdw', image: 'mdw:2' }]), 'mdw-operator');
      const containers = (live.spec as { template: { spec: { containers: unknown[] } } }).template.spec.containers;
      expect(containers).to.deep.equal([
        { name: 'mdw', image: 'mdw:2' },
        { name: 'sidecar', image: 'proxy:1' },
      ]);
    });

    it('"Field management": a field the manager stops applying is removed unless another manager owns it', async () => {
      await kube.apply(
        { ...service({ app: 'mdw' }), metadata: { ...service({}).metadata, labels: { a: '1', b: '2' } } },
        'op',
      );
      kube.userPatch(SERVICE, { metadata: { labels: { b: '3' } } });
      const live = await kube.apply(
        { ...service({ app: 'mdw' }), metadata: { ...service({}).metadata, labels: {} } },
        'op',
      );
      expect(live.metadata.labels).to.deep.equal({ b: '3' });
    });
  });

  describe('"API Concepts"', () => {
    it('"Resource versions": an update carrying a stale resourceVersion is 409 Conflict', async () => {
      const created = await kube.create(middleware());
      await kube.patchMerge(MW, { spec: { logLevel: 'debug' } });
      const err = await failure(kube.replace({ ...created, spec: { ...specOf(created), logLevel: 'warn' } }));
      expect(err).to.be.instanceOf(KubeError).and.include({ status: 409, reason: 'Conflict' });
    });
  });

  describe('"Garbage Collection"', () => {
    const child = (name: string, owner: KubeObject, finalizers?: string[]): KubeObject => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name,
        namespace: NS,
        ...(finalizers ? { finalizers } : {}),
        ownerReferences: [
          {
            apiVersion: owner.apiVersion,
            kind: owner.kind,
            name: owner.metadata.name ?? '',
            uid: owner.metadata.uid ?? '',
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
    });
    const cm = (name: string): ObjectRef => ({ apiVersion: 'v1', kind: 'ConfigMap', namespace: NS, name });

    it('"Background cascading deletion": the owner goes at once, its dependents after', async () => {
      const owner = await kube.create(middleware());
      await kube.create(child('held', owner, ['example.com/hold']));
      await kube.delete(MW);
      expect(kube.peek(MW)).to.equal(undefined);
      expect(kube.peek(cm('held'))?.metadata.deletionTimestamp).to.not.equal(undefined);
    });

    it('"Foreground cascading deletion": the owner waits, marked, until no blocking dependent is left', async () => {
      const owner = await kube.create(middleware());
      await kube.create(child('free', owner));
      await kube.create(child('held', owner, ['example.com/hold']));
      await kube.delete(MW, { propagationPolicy: 'Foreground' });
      const marked = kube.peek(MW);
      expect(marked?.metadata.deletionTimestamp).to.not.equal(undefined);
      expect(marked?.metadata.finalizers).to.deep.equal([FOREGROUND_FINALIZER]);
      expect(kube.peek(cm('free'))).to.equal(undefined);
      await kube.patchMerge(cm('held'), { metadata: { finalizers: null } });
      expect(kube.peek(cm('held'))).to.equal(undefined);
      expect(kube.peek(MW), 'the last blocking dependent released the owner').to.equal(undefined);
    });
  });
});
