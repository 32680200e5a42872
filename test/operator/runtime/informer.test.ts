/** @module Informer on FakeKube: cache fill, relist after 410, watchdog restart, resync, event filters. */
import { expect } from 'chai';
import { pino } from 'pino';
import { KubeError } from '../../../src/operator/kube/client.ts';
import type { KubeObject, ObjectRef } from '../../../src/operator/kube/client.ts';
import { FakeKube } from '../../../src/operator/kube/fake.ts';
import { hasStateChanged, ownedHandlers, primaryHandlers } from '../../../src/operator/runtime/handlers.ts';
import { Informer, type InformerHandlers } from '../../../src/operator/runtime/informer.ts';
import { eventually } from '../kube/contract.ts';

const log = pino({ level: 'silent' });
const MW = 'mdw.test/v1alpha1';
const NS = 'ns1';
const mw = (name: string, spec: unknown = { replicas: 1 }): KubeObject => ({
  apiVersion: MW,
  kind: 'Middleware',
  metadata: { name, namespace: NS },
  spec,
});
const ref = (name: string): ObjectRef => ({ apiVersion: MW, kind: 'Middleware', namespace: NS, name });
/** withList is kube with its list replaced (to count pages or make a kind unserved); every other call goes to kube. */
const withList = (kube: FakeKube, replaced: { list: FakeKube['list'] }): FakeKube =>
  new Proxy(kube, {
    get: (target, prop, receiver) => {
      if (prop === 'list') return replaced.list;
      const value: unknown = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('Informer', () => {
  let kube: FakeKube;
  let informer: Informer<KubeObject> | undefined;
  let log$: string[];
  let restarts: string[];
  let relists: number;

  const recording = (): InformerHandlers<KubeObject> => ({
    onAdd: (o) => log$.push(`add ${o.metadata.name}`),
    onUpdate: (_old, o) => log$.push(`update ${o.metadata.name}`),
    onDelete: (o) => log$.push(`delete ${o.metadata.name}`),
    onResync: (o) => log$.push(`resync ${o.metadata.name}`),
  });
  const start = async (
    handlers: InformerHandlers<KubeObject>,
    extra: {
      watchTimeoutMs?: number;
      resyncPeriodMs?: number;
      labelSelector?: string;
      pageSize?: number;
      optional?: boolean;
      kube?: FakeKube;
    } = {},
  ): Promise<Informer<KubeObject>> => {
    informer = new Informer({
      kube,
      apiVersion: MW,
      kind: 'Middleware',
      namespace: NS,
      handlers,
      log,
      retryMinMs: 5,
      retryMaxMs: 20,
      resyncPeriodMs: 0,
      onWatchRestart: (r) => restarts.push(r),
      onRelist: () => relists++,
      ...extra,
    });
    await informer.start();
    return informer;
  };

  beforeEach(() => {
    kube = new FakeKube();
    log$ = [];
    restarts = [];
    relists = 0;
  });
  afterEach(() => informer?.stop());

  it('fills the cache from a list, then follows adds, updates and deletes through the watch', async () => {
    await kube.create(mw('a'));
    const inf = await start(recording());
    expect(inf.get(`${NS}/a`)?.metadata.name).to.equal('a');
    await kube.create(mw('b'));
    await kube.patchMerge(ref('a'), { spec: { replicas: 2 } });
    await kube.delete(ref('b'));
    await eventually(async () => expect(log$).to.deep.equal(['add a', 'add b', 'update a', 'delete b']));
    expect(inf.list().map((o) => o.metadata.name)).to.deep.equal(['a']);
    expect(relists).to.equal(1);
  });

  it('relists after 410 Gone and synthesizes the adds and deletes it missed', async () => {
    await kube.create(mw('stays'));
    await kube.create(mw('goes'));
    await start(recording());
    kube.stallWatches(); // the informer misses what follows
    await kube.create(mw('new'));
    await kube.delete(ref('goes'));
    kube.compact(); // ... and the history it would resume from is gone
    kube.endWatches(); // the server closes the stale stream; the rewatch from the old version gets 410
    await eventually(async () => expect(log$).to.include.members(['add new', 'delete goes']));
    expect(restarts).to.deep.equal(['closed', 'gone']);
    expect(relists).to.equal(2);
    expect(
      informer
        ?.list()
        .map((o) => o.metadata.name)
        .sort(),
    ).to.deep.equal(['new', 'stays']);
    await kube.patchMerge(ref('new'), { spec: { replicas: 5 } });
    await eventually(async () => expect(log$.at(-1)).to.equal('update new'));
  });

  it('lists in pages and caches and watches only what its label selector matches', async () => {
    const lists: Array<string | undefined> = [];
    const spy = withList(kube, {
      list: (...args: Parameters<FakeKube['list']>) => {
        lists.push(args[3]?.continue);
        return kube.list(...args);
      },
    });
    for (const n of ['a', 'b', 'c', 'd', 'e'])
      await kube.create({ ...mw(n), metadata: { name: n, namespace: NS, labels: { team: 'x' } } });
    await kube.create(mw('unlabelled'));
    const inf = await start(recording(), { kube: spy, labelSelector: 'team=x', pageSize: 2 });
    expect(lists).to.have.length(3); // pages of 2, 2 and 1
    expect(lists[0]).to.equal(undefined);
    expect(inf.list().map((o) => o.metadata.name)).to.deep.equal(['a', 'b', 'c', 'd', 'e']);
    kube.userPatch(ref('unlabelled'), { metadata: { labels: { team: 'x' } } });
    kube.userPatch(ref('a'), { metadata: { labels: { team: null } } });
    await eventually(async () => expect(log$.slice(-2)).to.deep.equal(['add unlabelled', 'delete a']));
    expect(inf.get(`${NS}/a`)).to.equal(undefined);
  });

  it('a relist whose continue token expires (410) starts over and still sees every object', async () => {
    for (const n of ['a', 'b', 'c']) await kube.create(mw(n));
    let compacted = false;
    const spy = withList(kube, {
      list: async <T extends KubeObject>(...args: Parameters<FakeKube['list']>) => {
        const page = await kube.list<T>(...args);
        if (!compacted && page.continue !== undefined) {
          compacted = true; // between the first and the second page, the API server compacts its history
          await kube.create(mw('d'));
          kube.compact();
        }
        return page;
      },
    });
    const inf = await start(recording(), { kube: spy, pageSize: 2 });
    expect(compacted).to.equal(true);
    expect(inf.list().map((o) => o.metadata.name)).to.deep.equal(['a', 'b', 'c', 'd']);
  });

  it('an optional kind that is not served (404) is an empty cache, listed again until it is served', async () => {
    let served = false;
    const spy = withList(kube, {
      list: (...args: Parameters<FakeKube['list']>) =>
        served ? kube.list(...args) : Promise.reject(new KubeError(404, 'NotFound', 'the server could not find it')),
    });
    const inf = await start(recording(), { kube: spy, optional: true });
    expect(inf.list()).to.deep.equal([]);
    await kube.create(mw('a'));
    served = true;
    await eventually(async () => expect(log$).to.include('add a'));
    expect(restarts).to.include('absent');
  });

  it('the watchdog restarts a silent watch, which resumes from the last version without a relist', async () => {
    await start(recording(), { watchTimeoutMs: 40 });
    kube.stallWatches();
    await kube.create(mw('late'));
    await eventually(async () => expect(log$).to.deep.equal(['add late']), 2000);
    expect(restarts).to.include('stalled');
    expect(relists).to.equal(1);
    // the stalled stream was stopped before a new one opened (0 while a further watchdog restart is in flight)
    expect(kube.openWatches).to.be.at.most(1);
  });

  it('retries a watch that fails with an error, without relisting', async () => {
    await start(recording());
    kube.failOn({ verb: 'watch', error: new KubeError(500, 'InternalError', 'boom') });
    kube.endWatches(new KubeError(503, 'ServiceUnavailable', 'overloaded'));
    await kube.create(mw('x'));
    await eventually(async () => expect(log$).to.deep.equal(['add x']));
    expect(restarts).to.deep.equal(['error', 'error']);
    expect(relists).to.equal(1);
  });

  it('re-delivers the cache every resync period', async () => {
    await kube.create(mw('a'));
    await start(recording(), { resyncPeriodMs: 20 });
    await eventually(async () => expect(log$.filter((l) => l === 'resync a').length).to.be.at.least(2));
  });

  it('stop ends the watch and further changes reach no handler', async () => {
    await start(recording());
    informer?.stop();
    await tick();
    await kube.create(mw('after'));
    await tick();
    expect(log$).to.deep.equal([]);
    expect(kube.openWatches).to.equal(0);
  });

  describe('with primaryHandlers (Middleware events → keys)', () => {
    it('does not enqueue status-only updates; does enqueue spec, label, annotation and deletion changes', async () => {
      await kube.create({ ...mw('m'), metadata: { name: 'm', namespace: NS, finalizers: ['x/y'] } });
      const keys: string[] = [];
      await start(primaryHandlers((k) => keys.push(k)));
      expect(keys).to.deep.equal([`${NS}/m`]);
      await kube.patchStatus(ref('m'), { phase: 'Ready', observedGeneration: 1 });
      await kube.patchStatus(ref('m'), { phase: 'Ready', conditions: [] });
      await tick();
      expect(keys, 'status-only updates').to.have.length(1);
      await kube.patchMerge(ref('m'), { spec: { replicas: 3 } });
      await kube.patchMerge(ref('m'), { metadata: { labels: { a: 'b' } } });
      await kube.patchMerge(ref('m'), { metadata: { annotations: { 'mdw/reload': '1' } } });
      await kube.delete(ref('m'));
      await kube.patchMerge(ref('m'), { metadata: { finalizers: null } });
      // spec, label, annotation, deletion mark, finalizer removal, and the final DELETED
      await eventually(async () => expect(keys).to.have.length(7));
    });
  });

  describe('with ownedHandlers (children → owner key)', () => {
    it('enqueues the controlling Middleware when a child changes, including status', async () => {
      const owner = await kube.create(mw('m'));
      const keys: string[] = [];
      informer = new Informer({
        kube,
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        namespace: NS,
        log,
        handlers: ownedHandlers('Middleware', (k) => keys.push(k)),
      });
      await informer.start();
      const dep = await kube.create({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: {
          name: 'd',
          namespace: NS,
          ownerReferences: [
            { apiVersion: MW, kind: 'Middleware', name: 'm', uid: owner.metadata.uid ?? '', controller: true },
          ],
        },
        spec: { replicas: 1 },
      });
      await kube.create({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'unowned', namespace: NS },
        spec: {},
      });
      kube.markDeploymentReady({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: NS, name: 'd' });
      await kube.delete({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: NS, name: dep.metadata.name ?? '' });
      await eventually(async () => expect(keys).to.deep.equal([`${NS}/m`, `${NS}/m`, `${NS}/m`]));
    });
  });
});

describe('hasStateChanged', () => {
  const base = (): KubeObject => ({
    apiVersion: MW,
    kind: 'Middleware',
    metadata: { name: 'm', generation: 1, labels: { a: '1' }, resourceVersion: '1' },
    status: { phase: 'A' },
  });
  it('is false for a status-only change', () =>
    expect(
      hasStateChanged(base(), {
        ...base(),
        status: { phase: 'B' },
        metadata: { ...base().metadata, resourceVersion: '2' },
      }),
    ).to.equal(false));
  it('is true for a generation, label or deletion change', () => {
    expect(hasStateChanged(base(), { ...base(), metadata: { ...base().metadata, generation: 2 } })).to.equal(true);
    expect(hasStateChanged(base(), { ...base(), metadata: { ...base().metadata, labels: {} } })).to.equal(true);
    expect(
      hasStateChanged(base(), { ...base(), metadata: { ...base().metadata, deletionTimestamp: new Date() } }),
    ).to.equal(true);
  });
});
