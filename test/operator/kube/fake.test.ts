/** @module FakeKube beyond the shared contract: recording, hooks for other controllers, GC policies, watch control. */
import { expect } from 'chai';
import { KubeError } from '../../../src/operator/kube/client.ts';
import type { KubeObject, ObjectRef, WatchEvent } from '../../../src/operator/kube/client.ts';
import { FakeKube } from '../../../src/operator/kube/fake.ts';
import { mergePatch } from '../../../src/operator/kube/merge.ts';
import { matchesLabels, parseLabelSelector } from '../../../src/operator/kube/selector.ts';

const NS = 'ns1';
const mwRef: ObjectRef = { apiVersion: 'mdw.test/v1alpha1', kind: 'Middleware', namespace: NS, name: 'mw' };
const aMiddleware = (spec: unknown = { replicas: 1 }): KubeObject => ({
  apiVersion: mwRef.apiVersion,
  kind: 'Middleware',
  metadata: { name: 'mw', namespace: NS },
  spec,
});
const ownedBy = (owner: KubeObject) => [
  {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name ?? '',
    uid: owner.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  },
];
const aDeployment = (name: string, owner?: KubeObject, replicas = 2): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: NS, ...(owner ? { ownerReferences: ownedBy(owner) } : {}) },
  spec: { replicas, template: { spec: { containers: [{ name: 'c', image: 'i:1' }] } } },
});
const refTo = (o: KubeObject): ObjectRef => ({
  apiVersion: o.apiVersion,
  kind: o.kind,
  namespace: o.metadata.namespace,
  name: o.metadata.name ?? '',
});
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('FakeKube', () => {
  let kube: FakeKube;
  beforeEach(() => {
    kube = new FakeKube();
  });

  describe('recording', () => {
    it('records every write with changed=false for no-op writes, and no reads', async () => {
      await kube.apply(aMiddleware(), 'op');
      await kube.apply(aMiddleware(), 'op');
      await kube.get(mwRef);
      await kube.list(mwRef.apiVersion, 'Middleware');
      await kube.patchMerge(mwRef, { metadata: { labels: { a: 'b' } } });
      await kube.patchMerge(mwRef, { metadata: { labels: { a: 'b' } } });
      expect(kube.writes.map((w) => [w.verb, w.changed])).to.deep.equal([
        ['apply', true],
        ['apply', false],
        ['patchMerge', true],
        ['patchMerge', false],
      ]);
      expect(kube.writes[0]).to.include({ fieldManager: 'op' });
    });

    it('a no-op write keeps the resourceVersion and sends no watch event', async () => {
      const first = await kube.apply(aMiddleware(), 'op');
      const seen: string[] = [];
      await kube.watch(
        {
          apiVersion: mwRef.apiVersion,
          kind: 'Middleware',
          namespace: NS,
          resourceVersion: first.metadata.resourceVersion ?? '',
        },
        (e) => seen.push(e.type),
        () => undefined,
      );
      const second = await kube.replace(first);
      await tick();
      expect(second.metadata.resourceVersion).to.equal(first.metadata.resourceVersion);
      expect(seen).to.deep.equal([]);
    });

    it('records Events and rejects one without a reason', async () => {
      await kube.createEvent({
        metadata: { name: 'e1', namespace: NS },
        involvedObject: { name: 'mw', namespace: NS },
        reason: 'X',
      });
      expect(kube.events.map((e) => e.reason)).to.deep.equal(['X']);
      const err = await kube
        .createEvent({ metadata: { name: 'e2' }, involvedObject: { name: 'mw' } })
        .catch((e: unknown) => e);
      expect(err).to.be.instanceOf(KubeError).and.include({ status: 422 });
      kube.clearRecords();
      expect(kube.events).to.have.length(0);
    });
  });

  describe('hooks for other controllers (not recorded as writes)', () => {
    it('completeJob and failJob write Job status conditions', async () => {
      const job = await kube.create({
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name: 'j', namespace: NS },
        spec: { template: {} },
      });
      kube.clearRecords();
      kube.completeJob(refTo(job));
      const done = kube.peek<KubeObject>(refTo(job));
      expect(done?.status).to.deep.include({ succeeded: 1 });
      expect((done?.status as { conditions: Array<{ type: string }> }).conditions[0]?.type).to.equal('Complete');
      expect(kube.writes).to.have.length(0);
      kube.failJob(refTo(job));
      expect((kube.peek<KubeObject>(refTo(job))?.status as { failed: number }).failed).to.equal(1);
    });

    it('markDeploymentReady reports spec.replicas (or the given count) ready with observedGeneration', async () => {
      const d = await kube.create(aDeployment('d', undefined, 3));
      kube.markDeploymentReady(refTo(d));
      expect(kube.peek<KubeObject>(refTo(d))?.status).to.deep.include({
        readyReplicas: 3,
        availableReplicas: 3,
        observedGeneration: 1,
      });
      kube.markDeploymentReady(refTo(d), 1);
      expect(kube.peek<KubeObject>(refTo(d))?.status).to.deep.include({ readyReplicas: 1 });
    });

    it('userPatch changes the spec as a user would, bumping generation', async () => {
      await kube.create(aMiddleware());
      kube.userPatch(mwRef, { spec: { replicas: 4 } });
      expect(kube.peek(mwRef)?.metadata.generation).to.equal(2);
      expect(kube.writes.filter((w) => w.verb !== 'create')).to.have.length(0);
    });

    it('failOn makes the next matching call throw, then clears itself', async () => {
      kube.failOn({ verb: 'apply', kind: 'Deployment', error: new KubeError(500, 'InternalError', 'boom') });
      await kube.apply(aMiddleware(), 'op'); // another kind: unaffected
      const err = await kube.apply(aDeployment('d'), 'op').catch((e: unknown) => e);
      expect(err).to.be.instanceOf(KubeError).and.include({ status: 500 });
      expect(kube.peek(refTo(aDeployment('d')))).to.equal(undefined);
      await kube.apply(aDeployment('d'), 'op');
      expect(kube.peek(refTo(aDeployment('d')))).to.not.equal(undefined);
    });
  });

  describe('garbage collection', () => {
    it('background: dependents go with the owner, also transitively; objects with another live owner stay', async () => {
      const mw = await kube.create(aMiddleware());
      const other = await kube.create({ ...aMiddleware(), metadata: { name: 'other', namespace: NS } });
      const d = await kube.create(aDeployment('d', mw));
      await kube.create({
        apiVersion: 'apps/v1',
        kind: 'ReplicaSet',
        metadata: { name: 'rs', namespace: NS, ownerReferences: ownedBy(d) },
        spec: {},
      });
      await kube.create({
        ...aDeployment('shared'),
        metadata: { name: 'shared', namespace: NS, ownerReferences: [...ownedBy(mw), ...ownedBy(other)] },
      });
      await kube.delete(mwRef);
      expect(kube.objectsOf('apps/v1', 'Deployment', NS).map((o) => o.metadata.name)).to.deep.equal(['shared']);
      expect(kube.objectsOf('apps/v1', 'ReplicaSet', NS)).to.have.length(0);
    });

    it('orphan: dependents stay and lose the owner reference', async () => {
      const mw = await kube.create(aMiddleware());
      await kube.create(aDeployment('d', mw));
      await kube.delete(mwRef, { propagationPolicy: 'Orphan' });
      const [d] = kube.objectsOf('apps/v1', 'Deployment', NS);
      expect(d?.metadata.ownerReferences ?? []).to.deep.equal([]);
    });

    it('an owner with finalizers keeps its dependents until the finalizer is removed', async () => {
      const mw = await kube.create({ ...aMiddleware(), metadata: { name: 'mw', namespace: NS, finalizers: ['x/y'] } });
      await kube.create(aDeployment('d', mw));
      await kube.delete(mwRef);
      expect(kube.objectsOf('apps/v1', 'Deployment', NS)).to.have.length(1);
      expect(kube.peek(mwRef)?.metadata.generation, 'marking bumps generation').to.equal(2);
      const err = await kube.patchMerge(mwRef, { metadata: { finalizers: ['x/y', 'x/z'] } }).catch((e: unknown) => e);
      expect(err, 'no new finalizers while deleting').to.be.instanceOf(KubeError).and.include({ status: 422 });
      expect(await kube.delete(mwRef), 'a second delete is accepted').to.equal(true);
      await kube.patchMerge(mwRef, { metadata: { finalizers: [] } });
      expect(kube.peek(mwRef)).to.equal(undefined);
      expect(kube.objectsOf('apps/v1', 'Deployment', NS)).to.have.length(0);
    });
  });

  describe('server-side apply', () => {
    it('status is ignored for kinds with a status subresource but kept for kinds without one', async () => {
      const mw = await kube.apply({ ...aMiddleware(), status: { phase: 'x' } }, 'op');
      expect(mw.status).to.equal(undefined);
      const lease = await kube.apply(
        {
          apiVersion: 'coordination.k8s.io/v1',
          kind: 'Lease',
          metadata: { name: 'l', namespace: NS },
          spec: { holderIdentity: 'a' },
        },
        'op',
      );
      expect(lease.spec).to.deep.equal({ holderIdentity: 'a' });
    });

    it('a field another manager changed is a conflict; a force apply takes it back (kubectl scale)', async () => {
      await kube.apply(aDeployment('d'), 'op');
      kube.scale(refTo(aDeployment('d')), 7);
      const err = await kube.apply(aDeployment('d'), 'op').catch((e: unknown) => e);
      expect(err).to.be.instanceOf(KubeError).and.include({ status: 409 });
      expect((err as Error).message).to.include('conflict with "kubectl-scale": .spec.replicas');
      const back = await kube.apply(aDeployment('d'), 'op', { force: true });
      expect((back.spec as { replicas: number }).replicas).to.equal(2);
      expect(back.metadata.generation).to.equal(3);
    });

    it('finalizers are a set: each manager adds and removes only its own', async () => {
      await kube.create({ ...aMiddleware(), metadata: { name: 'mw', namespace: NS, finalizers: ['other/f'] } });
      const withMine = await kube.apply(
        { ...aMiddleware(), metadata: { name: 'mw', namespace: NS, finalizers: ['mine/f'] } },
        'op',
      );
      expect(withMine.metadata.finalizers).to.deep.equal(['other/f', 'mine/f']);
      const without = await kube.apply(aMiddleware(), 'op');
      expect(without.metadata.finalizers).to.deep.equal(['other/f']);
    });

    it('a stale metadata.resourceVersion in the applied object is a 409 Conflict', async () => {
      const first = await kube.apply(aMiddleware(), 'op');
      await kube.patchMerge(mwRef, { spec: { replicas: 2 } });
      const err = await kube
        .apply({ ...aMiddleware({ replicas: 3 }), metadata: { ...first.metadata } }, 'op')
        .catch((e: unknown) => e);
      expect(err).to.be.instanceOf(KubeError).and.include({ status: 409 });
    });
  });

  describe('watch', () => {
    it('a watch from "" starts with the current objects as ADDED, then follows changes', async () => {
      await kube.create(aMiddleware());
      const seen: Array<WatchEvent<KubeObject>> = [];
      await kube.watch(
        { apiVersion: mwRef.apiVersion, kind: 'Middleware', resourceVersion: '' },
        (e) => seen.push(e),
        () => undefined,
      );
      await kube.patchMerge(mwRef, { spec: { replicas: 3 } });
      await tick();
      expect(seen.map((e) => e.type)).to.deep.equal(['ADDED', 'MODIFIED']);
    });

    it('only carries the watched kind and namespace', async () => {
      const seen: string[] = [];
      await kube.watch(
        { apiVersion: 'apps/v1', kind: 'Deployment', namespace: NS, resourceVersion: kube.resourceVersion },
        (e) => seen.push(e.object.metadata.name ?? ''),
        () => undefined,
      );
      await kube.create(aMiddleware());
      await kube.create(aDeployment('in'));
      await kube.create({ ...aDeployment('out'), metadata: { name: 'out', namespace: 'elsewhere' } });
      await tick();
      expect(seen).to.deep.equal(['in']);
    });

    it('stop ends the stream once with no error and delivers nothing more', async () => {
      const done: unknown[] = [];
      const seen: string[] = [];
      const h = await kube.watch(
        { apiVersion: mwRef.apiVersion, kind: 'Middleware', namespace: NS, resourceVersion: kube.resourceVersion },
        (e) => seen.push(e.type),
        (err) => done.push(err),
      );
      h.stop();
      h.stop();
      await kube.create(aMiddleware());
      await tick();
      expect(done).to.deep.equal([undefined]);
      expect(seen).to.deep.equal([]);
      expect(kube.openWatches).to.equal(0);
    });

    it('stallWatches silences open streams; endWatches(err) ends them with that error after pending events', async () => {
      const seen: string[] = [];
      const done: Array<KubeError | undefined> = [];
      await kube.watch(
        { apiVersion: mwRef.apiVersion, kind: 'Middleware', namespace: NS, resourceVersion: kube.resourceVersion },
        (e) => seen.push(e.type),
        (err) => done.push(err),
      );
      await kube.create(aMiddleware());
      kube.endWatches(new KubeError(410, 'Gone', 'compacted'));
      await tick();
      expect(seen).to.deep.equal(['ADDED']);
      expect(done.map((e) => e?.status)).to.deep.equal([410]);

      const stalled: string[] = [];
      await kube.watch(
        { apiVersion: mwRef.apiVersion, kind: 'Middleware', namespace: NS, resourceVersion: kube.resourceVersion },
        (e) => stalled.push(e.type),
        () => undefined,
      );
      kube.stallWatches();
      await kube.patchMerge(mwRef, { spec: { replicas: 9 } });
      await tick();
      expect(stalled).to.deep.equal([]);
      expect(kube.openWatches).to.equal(1);
    });

    it('rejects a resourceVersion that is not a number', async () => {
      const err = await kube
        .watch(
          { apiVersion: 'v1', kind: 'ConfigMap', namespace: NS, resourceVersion: 'abc' },
          () => undefined,
          () => undefined,
        )
        .catch((e: unknown) => e);
      expect(err).to.be.instanceOf(KubeError).and.include({ status: 400 });
    });
  });
});

describe('mergePatch', () => {
  it('follows RFC 7386 examples', () => {
    expect(mergePatch({ a: 'b', c: { d: 'e', f: 'g' } }, { a: 'z', c: { f: null } })).to.deep.equal({
      a: 'z',
      c: { d: 'e' },
    });
    expect(mergePatch({ a: [1, 2] }, { a: [3] })).to.deep.equal({ a: [3] });
    expect(mergePatch({ a: 'b' }, ['c'])).to.deep.equal(['c']);
    expect(mergePatch({ e: null }, { a: 1 })).to.deep.equal({ e: null, a: 1 });
  });
});

describe('label selectors', () => {
  const cases: Array<[string, Record<string, string>, boolean]> = [
    ['a=b', { a: 'b' }, true],
    ['a==b', { a: 'c' }, false],
    ['a!=b', {}, true],
    ['a in (x, y),c', { a: 'y', c: '' }, true],
    ['a notin (x)', { a: 'x' }, false],
    ['!a', { a: '1' }, false],
    ['app.kubernetes.io/name=mdw', { 'app.kubernetes.io/name': 'mdw' }, true],
  ];
  for (const [sel, labels, want] of cases) {
    it(`"${sel}" on ${JSON.stringify(labels)} is ${String(want)}`, () =>
      expect(matchesLabels(labels, parseLabelSelector(sel))).to.equal(want));
  }
  it('rejects a malformed selector with 400', () =>
    expect(() => parseLabelSelector('a=(b')).to.throw(KubeError, /unable to parse/));
});
