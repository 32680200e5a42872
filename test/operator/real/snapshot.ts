/**
 * @module The real tier's steps for a Middleware starting from a snapshot (issue 88 item 3), run in the cluster of
 * operator.test.ts (its own namespace): a snapshot of the devnode's chain, exported as another deployment would have,
 * served over HTTP; the API server refusing bad snapshot specs with the CRD's rules; a Middleware bootstrapped from the
 * URL through its restore Job (fetch, then import, run by the node agent as the binary's processes), its migration Job,
 * populator and servers, serving the snapshot's chain; one whose volume holds a snapshot of another network reported
 * with the import's refusal, nothing else started.
 */
import { expect } from 'chai';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { V1Job, V1Pod } from '@kubernetes/client-node';
import pino from 'pino';
import { loadConfig } from '../../../src/config/middleware.ts';
import { migrate } from '../../../src/db/schema/migrator.ts';
import { exportSnapshot } from '../../../src/indexer/maintenance/snapshot-export.ts';
import { MANIFEST_FILE, type SnapshotManifest } from '../../../src/indexer/maintenance/snapshot-manifest.ts';
import { API_VERSION, KIND, type MiddlewareStatus } from '../../../src/operator/api/middleware-types.ts';
import {
  INPLACE_NO_SNAPSHOT,
  RELOAD_NEEDS_NEW_ID,
  SNAPSHOT_ONE_SOURCE,
} from '../../../src/operator/api/spec-fields.ts';
import type { KubeObject, ObjectRef } from '../../../src/operator/kube/client.ts';
import { Component, LABEL_COMPONENT, LABEL_INSTANCE } from '../../../src/operator/specs/meta.ts';
import { populateToTop } from '../../support/populate.ts';
import {
  conditionOf,
  eventually,
  DRAIN_SECONDS,
  expectDrainAfterSwitch,
  refusal,
  exampleMiddleware,
  exampleNamespace,
  type Installed,
} from './real-cluster.ts';

/** NS: the steps' own namespace, apart from the operator steps' (whose Events a check here would count). */
const NS = 'snapshot';
const silent = pino({ level: 'silent' });
const ref = (name: string): ObjectRef => ({ apiVersion: API_VERSION, kind: KIND, namespace: NS, name });
type Mw = KubeObject & { spec: Record<string, unknown>; status?: MiddlewareStatus };

/**
 * snapshotSteps are the steps, on the cluster `installed` gives (the chart installed, its operator running), in this
 * order: the refusals and the first generation restored (restoring, whose `before` exports and serves the snapshot),
 * a BlueGreen reload from the snapshot (requested by requestReload, judged by the step reloaded registers), a snapshot
 * of another network (otherNetwork); stop() ends the snapshot's server.
 */
export function snapshotSteps(installed: () => Installed): {
  restoring: (this: Mocha.Suite) => void;
  requestReload: () => Promise<void>;
  reloaded: () => void;
  otherNetwork: () => void;
  stop: () => Promise<void>;
} {
  let c: Installed;
  let work: string | undefined;
  let server: Server | undefined;
  let url: string;
  let manifest: SnapshotManifest;

  /** aMiddleware is examples/middleware.yaml on the devnode, named `name`, with `spec` added. */
  const aMiddleware = (name: string, spec: Record<string, unknown>): Mw => {
    const mw = exampleMiddleware(c.devnode) as Mw;
    mw.metadata = { name, namespace: NS };
    // the generated chain's blocks are stamped long ago: a status that judged their age would never say synced
    Object.assign(mw.spec, { statusMaxBlockAge: 1_000_000_000 }, spec);
    return mw;
  };
  const jobsOf = async (instance: string, component: string) =>
    (
      await c.kube.list<V1Job & KubeObject>('batch/v1', 'Job', NS, {
        labelSelector: `${LABEL_INSTANCE}=${instance},${LABEL_COMPONENT}=${component}`,
      })
    ).items;

  const restoring = function (this: Mocha.Suite): void {
    this.timeout(180_000);

    before(async function () {
      this.timeout(120_000);
      c = installed();
      // another deployment's schema: the devnode's chain loaded by a populator, exported as `mdw snapshot export` does
      const cfg = loadConfig({
        NODE_URL: c.devnode.externalUrl,
        DATABASE_URL: c.databaseUrl,
        DATABASE_SCHEMA: 'seed_g1',
        POLL_INTERVAL_MS: '50',
      });
      await migrate(
        { databaseUrl: cfg.databaseUrl, schema: cfg.databaseSchema, configSchema: cfg.databaseConfigSchema },
        silent,
      );
      await populateToTop(cfg);
      const dir = await mkdtemp(join(tmpdir(), 'mdw-real-snapshot-'));
      work = dir;
      manifest = await exportSnapshot({ cfg, log: silent }, join(dir, 'snap'));
      const serving = createServer((req, res) => {
        const file = decodeURIComponent(req.url ?? '').replace(/^\/snap\//, '');
        readFile(join(dir, 'snap', file)).then(
          (body) => res.writeHead(200).end(body),
          () => res.writeHead(404).end(),
        );
      });
      server = serving;
      await new Promise<void>((resolve) => serving.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(serving.address() as AddressInfo).port}/snap/`;
      await exampleNamespace(c, NS);
    });

    it('is refused by the API server as the fake refuses it: two sources or none, a URL not http(s), a path out of its volume', async () => {
      expect(
        await refusal(c, aMiddleware('both', { bootstrap: { snapshot: { url, volume: { claimName: 's' } } } })),
      ).to.include(SNAPSHOT_ONE_SOURCE);
      expect(await refusal(c, aMiddleware('neither', { bootstrap: { snapshot: {} } }))).to.include(SNAPSHOT_ONE_SOURCE);
      expect(await refusal(c, aMiddleware('s3', { bootstrap: { snapshot: { url: 's3://bucket/snap' } } }))).to.include(
        'spec.bootstrap.snapshot.url',
      );
      const outside = aMiddleware('outside', { bootstrap: { snapshot: { volume: { claimName: 's', path: '../x' } } } });
      expect(await refusal(c, outside)).to.include('spec.bootstrap.snapshot.volume.path');
      const inPlace = { id: 'r1', strategy: 'InPlace', heights: '1', snapshot: { url } };
      expect(await refusal(c, aMiddleware('in-place', { paused: true, reload: inPlace }))).to.include(
        INPLACE_NO_SNAPSHOT,
      );
      // a reload's snapshot is fixed for its id (a transition rule): a paused Middleware, so nothing runs meanwhile
      await c.kube.apply(aMiddleware('fixed', { paused: true, reload: { id: 'r1', snapshot: { url } } }), 'real-tier');
      const changed = aMiddleware('fixed', { paused: true, reload: { id: 'r1', snapshot: { url: `${url}other/` } } });
      expect(await refusal(c, changed)).to.include(RELOAD_NEEDS_NEW_ID);
      await c.kube.apply(
        aMiddleware('fixed', { paused: true, reload: { id: 'r2', snapshot: { url: `${url}other/` } } }),
        'real-tier',
      );
      await c.kube.patchMerge(ref('fixed'), { spec: { reclaimPolicy: 'Retain' } });
      await c.kube.delete(ref('fixed'));
    });

    it('restores the first generation from a URL: fetched and imported by its restore Job, then migrated, serving the chain', async () => {
      await c.kube.apply(
        aMiddleware('from-url', {
          bootstrap: { snapshot: { url } },
          server: { replicas: 1, pdb: { enabled: false } },
          promotion: { syncedWithinBlocks: 3, stableWindowSeconds: 5, switchDrainSeconds: DRAIN_SECONDS },
        }),
        'real-tier',
      );
      await eventually(async () => {
        const m = await c.kube.get<Mw>(ref('from-url'));
        expect(m?.status?.bootstrap?.state, m?.status?.bootstrap?.message).to.equal('Restored');
        expect(conditionOf(m, 'MigrationsApplied'), 'MigrationsApplied').to.equal('True');
        expect(conditionOf(m, 'Available'), 'Available').to.equal('True');
        expect(conditionOf(m, 'Synced'), 'Synced').to.equal('True');
      }, 170_000);
      const [restore, ...more] = await jobsOf('from-url', Component.restore);
      expect(more).to.deep.equal([]);
      expect(restore?.status?.conditions?.find((x) => x.type === 'Complete')?.status).to.equal('True');
      // the restore ran before the migration: the migration Job was created once the restore had completed
      const [migration] = await jobsOf('from-url', Component.migration);
      expect(Date.parse(String(migration?.metadata.creationTimestamp))).to.be.at.least(
        Date.parse(String(restore?.status?.completionTime)) - 1000,
      );
      const pods = await c.kube.list<V1Pod & KubeObject>('v1', 'Pod', NS, {
        labelSelector: `batch.kubernetes.io/job-name=${restore?.metadata.name}`,
      });
      const fetched = pods.items.flatMap((p) => p.status?.initContainerStatuses ?? []);
      expect(fetched.map((s) => [s.name, s.state?.terminated?.exitCode])).to.deep.include(['fetch', 0]);
      const log = await readFile(c.cluster.agent.logOf(NS, pods.items[0]?.metadata.name ?? '') ?? '', 'utf8');
      expect(log).to.include(`fetched ${url}`).and.include('into schema from_url_g1');
      // the snapshot's chain, followed on to the node's top, through the stable Service
      const status = await c.get('http://from-url.snapshot.svc:80/mdw/v3/status');
      expect(status.status).to.equal(200);
      const served = JSON.parse(status.body) as { mdw_height: number };
      expect(served.mdw_height).to.be.at.least(manifest.top.height);
    });
  };

  const requestReload = async (): Promise<void> => {
    const reload = { id: 'from-snapshot', heights: '3-5', retainPrevious: '0s', snapshot: { url } };
    await c.kube.patchMerge(ref('from-url'), { spec: { reload } });
  };

  const reloaded = (): void => {
    it("restores a BlueGreen reload's green generation (with heights) from the snapshot and promotes it", async function () {
      // the drain of generation 1's servers after the switch (spec.promotion.switchDrainSeconds) comes on top of the restore
      this.timeout(180_000 + DRAIN_SECONDS * 1000);
      await eventually(
        async () => {
          const m = await c.kube.get<Mw>(ref('from-url'));
          expect(m?.status?.reload?.state, m?.status?.reload?.message).to.equal('Completed');
        },
        170_000 + DRAIN_SECONDS * 1000,
      );
      // the first request through the stable Service right after Completed: generation 2 serves it
      const first = await c.get('http://from-url.snapshot.svc:80/mdw/v3/status');
      expect(first.status, first.body).to.equal(200);
      expect((JSON.parse(first.body) as { mdw_height: number }).mdw_height).to.be.at.least(manifest.top.height);
      const m = await c.kube.get<Mw>(ref('from-url'));
      expect(m?.status).to.deep.include({ activeGeneration: 2 });
      expect(m?.status?.reload).to.deep.include({ generation: 2, snapshot: { url } });
      // generation 1 is dropped with its Jobs; generation 2's restore Job stays with it
      const restores = await jobsOf('from-url', Component.restore);
      expect(restores.map((j) => j.metadata.labels?.['middleware.aeternity.io/generation'])).to.deep.equal(['2']);
      expect(restores[0]?.spec?.template.spec?.containers[0]?.env).to.deep.include({
        name: 'DATABASE_SCHEMA',
        value: 'from_url_g2',
      });
      const events = await c.kube.list<KubeObject & { reason?: string; message?: string }>('v1', 'Event', NS);
      const applied = events.items.filter(
        (e) => e.reason === 'MigrationsApplied' && e.message?.includes('generation 2'),
      );
      expect(applied.map((e) => e.message)).to.deep.equal([
        `schema of generation 2 restored from the snapshot ${url} and migrated; starting its populator and preview servers`,
      ]);
      // generation 1's servers outlived the switch by the drain, so that clients could follow it
      expectDrainAfterSwitch(c, 'from-url', 'from-url-server-g1', m);
    });
  };

  const otherNetwork = (): void => {
    it('reports a snapshot of another network on a volume with the import refusal, and starts nothing else', async function () {
      this.timeout(180_000);
      const exported = exportedDir();
      const claim = c.cluster.agent.claimDir(NS, 'mdw-snapshots');
      await cp(join(exported, 'snap'), join(claim, 'other-network'), { recursive: true });
      const file = join(claim, 'other-network', MANIFEST_FILE);
      const other = JSON.parse(await readFile(file, 'utf8')) as SnapshotManifest;
      await writeFile(file, JSON.stringify({ ...other, chain: { ...other.chain, networkId: 'ae_uat' } }));
      await c.kube.apply(
        aMiddleware('from-volume', {
          bootstrap: { snapshot: { volume: { claimName: 'mdw-snapshots', path: 'other-network' } } },
        }),
        'real-tier',
      );
      await eventually(async () => {
        const m = await c.kube.get<Mw>(ref('from-volume'));
        expect(m?.status?.bootstrap?.state, m?.status?.bootstrap?.message).to.equal('Failed');
      }, 170_000);
      const m = await c.kube.get<Mw>(ref('from-volume'));
      expect(m?.status?.bootstrap?.message).to.include('MDW_CHAIN_IDENTITY_MISMATCH').and.include('ae_uat');
      expect(m?.status?.conditions?.find((x) => x.type === 'MigrationsApplied')).to.deep.include({
        status: 'False',
        reason: 'SnapshotFailed',
      });
      expect(m?.status?.conditions?.find((x) => x.type === 'Degraded')).to.deep.include({
        status: 'True',
        reason: 'SnapshotFailed',
      });
      expect(await jobsOf('from-volume', Component.migration)).to.deep.equal([]);
      const deployments = await c.kube.list<KubeObject>('apps/v1', 'Deployment', NS, {
        labelSelector: `${LABEL_INSTANCE}=from-volume`,
      });
      expect(deployments.items).to.deep.equal([]);
    });
  };

  const exportedDir = (): string => {
    if (work === undefined) throw new Error('the snapshot was not exported: its steps run after restoring');
    return work;
  };
  const stop = async (): Promise<void> => {
    const running = server;
    if (running !== undefined) await new Promise((resolve) => running.close(resolve));
    if (work !== undefined) await rm(work, { recursive: true, force: true });
  };

  return { restoring, requestReload, reloaded, otherNetwork, stop };
}
