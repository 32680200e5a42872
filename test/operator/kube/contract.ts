/**
 * @module The KubeClient contract: behaviour every implementation (FakeKube, the real client) must show.
 *
 * It runs on the fake, on the real client over the fake's HTTP front, and on a real API server
 * (real-cluster.test.ts: the control plane `make control-plane` builds, or a cluster of yours). Real garbage collection
 * and Event aggregation are asynchronous, which is why those checks poll with `eventually`.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { KubeError } from '../../../src/operator/kube/client.ts';
import type { KubeClient, KubeObject, ObjectRef, WatchEvent } from '../../../src/operator/kube/client.ts';

/** ContractSubject is what a contract run needs: a client, a namespace it may write to, optional hooks. */
export interface ContractSubject {
  client: KubeClient;
  namespace: string;
  /** compact makes older resourceVersions unusable for watches (a fake hook; real clusters skip that case). */
  compact?: () => Promise<void> | void;
}

/** CONTRACT_API_VERSION and CONTRACT_KIND name the test CRD: a kind with status subresource and no controller. */
export const CONTRACT_API_VERSION = 'contract.mdw.test/v1';
export const CONTRACT_KIND = 'Widget';

/** CONTRACT_CRD is the CRD a real cluster needs before the contract runs. */
export const CONTRACT_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.contract.mdw.test' },
  spec: {
    group: 'contract.mdw.test',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        // spec and status declared: a real API server's server-side apply refuses a field its schema does not declare
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
              status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
            },
          },
        },
      },
    ],
  },
};

/** runKubeClientContract defines the contract's mocha cases for one KubeClient implementation. */
export function runKubeClientContract(name: string, newSubject: () => Promise<ContractSubject>): void {
  describe(`KubeClient contract: ${name}`, () => {
    let s: ContractSubject;
    let kube: KubeClient;
    let ns: string;
    beforeEach(async () => {
      s = await newSubject();
      kube = s.client;
      ns = s.namespace;
    });

    const unique = (prefix: string): string => `${prefix}-${randomUUID().slice(0, 8)}`;
    const widget = (
      name: string,
      spec: unknown = { size: 1 },
      extra: Partial<KubeObject['metadata']> = {},
    ): KubeObject => ({
      apiVersion: CONTRACT_API_VERSION,
      kind: CONTRACT_KIND,
      metadata: { name, namespace: ns, ...extra },
      spec,
    });
    const configMap = (name: string, data: Record<string, string>, labels?: Record<string, string>): KubeObject => ({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: ns, ...(labels ? { labels } : {}) },
      data,
    });
    const ref = (o: KubeObject): ObjectRef => ({
      apiVersion: o.apiVersion,
      kind: o.kind,
      namespace: ns,
      name: o.metadata.name ?? '',
    });

    it('get gives undefined for an object that does not exist', async () => {
      expect(await kube.get(ref(configMap(unique('absent'), {})))).to.equal(undefined);
    });

    it('create stores the object with server fields; a second create is 409 AlreadyExists', async () => {
      const w = widget(unique('w'));
      const created = await kube.create(w);
      expect(created.metadata.uid).to.be.a('string');
      expect(created.metadata.resourceVersion).to.be.a('string');
      expect(created.metadata.generation).to.equal(1);
      expect((await kube.get(ref(w)))?.spec).to.deep.equal({ size: 1 });
      const err = await kube.create(w).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(KubeError).and.include({ status: 409, reason: 'AlreadyExists' });
    });

    it('replace with a stale resourceVersion is 409 Conflict; with the current one it succeeds', async () => {
      const created = await kube.create(configMap(unique('cm'), { a: '1' }));
      const updated = await kube.replace({ ...created, data: { a: '2' } });
      expect(updated.metadata.resourceVersion).to.not.equal(created.metadata.resourceVersion);
      const err = await kube.replace({ ...created, data: { a: '3' } }).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(KubeError).and.include({ status: 409, reason: 'Conflict' });
      expect((await kube.get(ref(created)))?.data).to.deep.equal({ a: '2' });
    });

    it('list filters by namespace and label selector and returns a resourceVersion', async () => {
      const tag = unique('t');
      await kube.create(configMap(unique('a'), {}, { tag, tier: 'x' }));
      await kube.create(configMap(unique('b'), {}, { tag, tier: 'y' }));
      const both = await kube.list('v1', 'ConfigMap', ns, { labelSelector: `tag=${tag}` });
      expect(both.items).to.have.length(2);
      expect(both.resourceVersion).to.match(/^\d+$/);
      const one = await kube.list('v1', 'ConfigMap', ns, { labelSelector: `tag=${tag},tier in (y)` });
      expect(one.items.map((o) => o.metadata.labels?.tier)).to.deep.equal(['y']);
      expect((await kube.list('v1', 'ConfigMap', `${ns}-other`, { labelSelector: `tag=${tag}` })).items).to.have.length(
        0,
      );
    });

    it('list pages with limit and continue over one snapshot; an expired continue token is 410', async () => {
      const tag = unique('p');
      const names = ['a', 'b', 'c', 'd', 'e'].map((n) => `${tag}-${n}`);
      for (const n of names) await kube.create(configMap(n, {}, { tag }));
      await kube.create(configMap(`${tag}-other`, {}, { tag: `${tag}-x` }));
      const labelSelector = `tag=${tag}`;
      const nameOf = (o: KubeObject) => o.metadata.name;
      const first = await kube.list('v1', 'ConfigMap', ns, { labelSelector, limit: 2 });
      expect(first.items.map(nameOf)).to.deep.equal(names.slice(0, 2));
      expect(first.continue).to.be.a('string');
      // what changes after the first page is not in the next ones: every page is the first page's snapshot
      await kube.delete(ref(configMap(names[2] ?? '', {})));
      await kube.create(configMap(`${tag}-f`, {}, { tag }));
      const second = await kube.list('v1', 'ConfigMap', ns, { labelSelector, limit: 2, continue: first.continue });
      expect(second.items.map(nameOf)).to.deep.equal(names.slice(2, 4));
      expect(second.resourceVersion).to.equal(first.resourceVersion);
      const third = await kube.list('v1', 'ConfigMap', ns, { labelSelector, limit: 2, continue: second.continue });
      expect(third.items.map(nameOf)).to.deep.equal(names.slice(4));
      expect(third.continue).to.equal(undefined);
      // a fresh list sees the changes; without a limit it is one page
      const all = await kube.list('v1', 'ConfigMap', ns, { labelSelector });
      expect(all.items.map(nameOf)).to.deep.equal([...names.filter((n) => n !== names[2]), `${tag}-f`]);
      expect(all.continue).to.equal(undefined);
      if (s.compact === undefined) return;
      const again = await kube.list('v1', 'ConfigMap', ns, { labelSelector, limit: 2 });
      await kube.create(configMap(unique('c'), {}));
      await s.compact();
      const err = await kube.list('v1', 'ConfigMap', ns, { labelSelector, limit: 2, continue: again.continue }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).to.be.instanceOf(KubeError).and.include({ status: 410 });
    });

    it('watch with a label selector: an object that starts matching is ADDED, one that stops is DELETED', async () => {
      const tag = unique('s');
      const { resourceVersion } = await kube.list('v1', 'ConfigMap', ns);
      const seen: string[] = [];
      const handle = await kube.watch<KubeObject>(
        { apiVersion: 'v1', kind: 'ConfigMap', namespace: ns, resourceVersion, labelSelector: `sel=${tag}` },
        (e) =>
          seen.push(
            `${e.type} ${e.object.metadata.name ?? ''} ${(e.object.data as Record<string, string> | undefined)?.v ?? ''}`,
          ),
        () => undefined,
      );
      try {
        const x = await kube.create(configMap(`${tag}-x`, { v: '1' }));
        await kube.patchMerge(ref(x), { metadata: { labels: { sel: tag } }, data: { v: '2' } });
        await kube.patchMerge(ref(x), { data: { v: '3' } });
        await kube.patchMerge(ref(x), { metadata: { labels: { sel: null } }, data: { v: '4' } });
        await kube.delete(ref(x));
        const y = await kube.create(configMap(`${tag}-y`, { v: '1' }, { sel: tag }));
        await kube.delete(ref(y));
        await eventually(async () =>
          expect(seen).to.deep.equal([
            `ADDED ${tag}-x 2`,
            `MODIFIED ${tag}-x 3`,
            // the object as it was when it last matched
            `DELETED ${tag}-x 3`,
            `ADDED ${tag}-y 1`,
            `DELETED ${tag}-y 1`,
          ]),
        );
      } finally {
        handle.stop();
      }
    });

    it('generation moves on spec changes only, not on metadata or status changes', async () => {
      const created = await kube.create(widget(unique('g')));
      const labelled = await kube.patchMerge(ref(created), { metadata: { labels: { l: 'v' } } });
      expect(labelled.metadata.generation).to.equal(1);
      const withStatus = await kube.patchStatus(ref(created), { phase: 'Ready' });
      expect(withStatus.metadata.generation).to.equal(1);
      const respec = await kube.patchMerge(ref(created), { spec: { size: 2 } });
      expect(respec.metadata.generation).to.equal(2);
    });

    it('the status subresource is isolated from apply, replace and merge patches', async () => {
      const created = await kube.create({ ...widget(unique('s')), status: { phase: 'Ignored' } });
      expect(created.status).to.equal(undefined);
      await kube.patchStatus(ref(created), { phase: 'Ready' });
      const current = await kube.get<KubeObject>(ref(created));
      await kube.replace({ ...current!, status: { phase: 'Replaced' }, spec: { size: 5 } });
      // forced: the PUT above made .spec.size its client's field (a plain apply would be a conflict)
      await kube.apply(
        { ...widget(created.metadata.name ?? '', { size: 6 }), status: { phase: 'Applied' } },
        'contract',
        { force: true },
      );
      await kube.patchMerge(ref(created), { status: { phase: 'Merged' } });
      const after = await kube.get<KubeObject>(ref(created));
      expect(after?.status).to.deep.equal({ phase: 'Ready' });
      expect(after?.spec).to.deep.equal({ size: 6 });
    });

    it('patchStatus changes only status and honours a resourceVersion precondition', async () => {
      const created = await kube.create(widget(unique('p')));
      const patched = await kube.patchStatus(ref(created), { phase: 'A', observedGeneration: 1 });
      expect(patched.status).to.deep.equal({ phase: 'A', observedGeneration: 1 });
      expect(patched.spec).to.deep.equal({ size: 1 });
      const err = await kube
        .patchStatus(ref(created), { phase: 'B' }, created.metadata.resourceVersion)
        .catch((e: unknown) => e);
      expect(err).to.be.instanceOf(KubeError).and.include({ status: 409 });
      const ok = await kube.patchStatus(ref(created), { phase: 'C' }, patched.metadata.resourceVersion);
      expect(ok.status).to.deep.equal({ phase: 'C', observedGeneration: 1 });
    });

    it('apply creates, is a no-op when repeated, removes fields it stopped applying, keeps fields of others', async () => {
      const name = unique('ap');
      const first = await kube.apply(configMap(name, { a: '1', b: '2' }, { owner: 'op' }), 'contract');
      const again = await kube.apply(configMap(name, { a: '1', b: '2' }, { owner: 'op' }), 'contract');
      expect(again.metadata.resourceVersion).to.equal(first.metadata.resourceVersion);
      await kube.patchMerge(ref(first), { metadata: { annotations: { 'someone.else/note': 'keep' } } });
      const pruned = await kube.apply(configMap(name, { a: '9' }, { owner: 'op' }), 'contract');
      expect(pruned.data).to.deep.equal({ a: '9' });
      expect(pruned.metadata.annotations).to.deep.equal({ 'someone.else/note': 'keep' });
    });

    it('apply without force refuses a field another manager set differently (409); force takes it', async () => {
      const name = unique('own');
      await kube.apply(configMap(name, { a: '1' }), 'someone-else');
      const err = await kube.apply(configMap(name, { a: '2' }), 'contract').catch((e: unknown) => e);
      expect(err).to.be.instanceOf(KubeError).and.include({ status: 409 });
      const same = await kube.apply(configMap(name, { a: '1', b: '2' }), 'contract');
      expect(same.data).to.deep.equal({ a: '1', b: '2' });
      const forced = await kube.apply(configMap(name, { a: '2' }), 'contract', { force: true });
      expect(forced.data).to.deep.include({ a: '2' });
      const owned = await kube.apply(configMap(name, { a: '3' }), 'contract'); // the field is ours now
      expect(owned.data).to.deep.include({ a: '3' });
    });

    it('patchMerge merges maps and deletes keys set to null', async () => {
      const created = await kube.create(configMap(unique('mp'), { a: '1', b: '2' }));
      const patched = await kube.patchMerge(ref(created), { data: { a: null, c: '3' } });
      expect(patched.data).to.deep.equal({ b: '2', c: '3' });
      const err = await kube.patchMerge(ref(configMap(unique('none'), {})), { data: {} }).catch((e: unknown) => e);
      expect(err).to.be.instanceOf(KubeError).and.include({ status: 404 });
    });

    it('delete is true for a present object and false for an absent one', async () => {
      const created = await kube.create(configMap(unique('d'), {}));
      expect(await kube.delete(ref(created))).to.equal(true);
      await eventually(async () => expect(await kube.get(ref(created))).to.equal(undefined));
      expect(await kube.delete(ref(created))).to.equal(false);
    });

    it('delete of an object with finalizers only marks it; removing the last finalizer removes it', async () => {
      const created = await kube.create(
        widget(unique('f'), { size: 1 }, { finalizers: ['contract.mdw.test/cleanup'] }),
      );
      expect(await kube.delete(ref(created))).to.equal(true);
      const marked = await kube.get<KubeObject>(ref(created));
      expect(marked?.metadata.deletionTimestamp).to.not.equal(undefined);
      await kube.patchMerge(ref(created), { metadata: { finalizers: null } });
      await eventually(async () => expect(await kube.get(ref(created))).to.equal(undefined));
    });

    it('deleting an owner garbage-collects its dependents', async () => {
      const owner = await kube.create(widget(unique('owner')));
      const child = await kube.create({
        ...configMap(unique('child'), {}),
        metadata: {
          name: unique('child'),
          namespace: ns,
          ownerReferences: [
            {
              apiVersion: CONTRACT_API_VERSION,
              kind: CONTRACT_KIND,
              name: owner.metadata.name ?? '',
              uid: owner.metadata.uid ?? '',
              controller: true,
              blockOwnerDeletion: true,
            },
          ],
        },
      });
      await kube.delete(ref(owner));
      await eventually(async () => expect(await kube.get(ref(child))).to.equal(undefined), 60_000);
    });

    it('watch from a list resourceVersion streams ADDED, MODIFIED and DELETED in order', async () => {
      const tag = unique('w');
      const { resourceVersion } = await kube.list('v1', 'ConfigMap', ns);
      const seen: Array<WatchEvent<KubeObject>> = [];
      const handle = await kube.watch<KubeObject>(
        { apiVersion: 'v1', kind: 'ConfigMap', namespace: ns, resourceVersion },
        (e) => {
          if (e.object.metadata.name === tag) seen.push(e);
        },
        () => undefined,
      );
      try {
        const created = await kube.create(configMap(tag, { a: '1' }));
        await kube.patchMerge(ref(created), { data: { a: '2' } });
        await kube.delete(ref(created));
        await eventually(async () => expect(seen.map((e) => e.type)).to.deep.equal(['ADDED', 'MODIFIED', 'DELETED']));
        expect(seen[1]?.object.data).to.deep.equal({ a: '2' });
      } finally {
        handle.stop();
      }
    });

    it('watch from a compacted resourceVersion ends with 410 Gone', async function () {
      if (s.compact === undefined) this.skip();
      const { resourceVersion } = await kube.list('v1', 'ConfigMap', ns);
      await kube.create(configMap(unique('c'), {}));
      await s.compact?.();
      const err = await new Promise<KubeError | undefined>((resolve) => {
        void kube.watch(
          { apiVersion: 'v1', kind: 'ConfigMap', namespace: ns, resourceVersion },
          () => undefined,
          resolve,
        );
      });
      expect(err).to.be.instanceOf(KubeError).and.include({ status: 410, reason: 'Gone' });
    });

    it('createEvent accepts a core/v1 Event about an object', async () => {
      const created = await kube.create(widget(unique('ev')));
      await kube.createEvent({
        metadata: { name: unique('ev'), namespace: ns },
        involvedObject: {
          apiVersion: CONTRACT_API_VERSION,
          kind: CONTRACT_KIND,
          name: created.metadata.name,
          namespace: ns,
          uid: created.metadata.uid,
        },
        reason: 'Tested',
        message: 'contract',
        type: 'Normal',
        source: { component: 'contract' },
      });
    });
  });
}

/**
 * eventually retries an assertion until it passes or timeoutMs passes (real clusters act asynchronously): every 20 ms
 * for its first second, where most checks pass, then every 250 ms. A wait of tens of seconds on the real control
 * plane (a Middleware coming up, a blue/green reload, a lease running out) read the apiserver 50 times a second.
 * With pollMs, every pollMs from the start.
 */
export async function eventually(check: () => Promise<unknown>, timeoutMs = 5000, pollMs?: number): Promise<void> {
  const started = Date.now();
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      const waited = Date.now() - started;
      if (waited > timeoutMs) throw err;
      await new Promise((r) => setTimeout(r, pollMs ?? (waited < 1000 ? 20 : 250)));
    }
  }
}
