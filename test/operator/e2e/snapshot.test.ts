import { expect } from 'chai';
import type { V1Job } from '@kubernetes/client-node';
import type { Middleware, ReloadSpec, SnapshotSource } from '../../../src/operator/api/middleware-types.ts';
import {
  INPLACE_NO_SNAPSHOT,
  RELOAD_NEEDS_NEW_ID,
  SNAPSHOT_ONE_SOURCE,
} from '../../../src/operator/api/spec-fields.ts';
import type { ObjectRef } from '../../../src/operator/kube/client.ts';
import { Component, LABEL_COMPONENT } from '../../../src/operator/specs/meta.ts';
import { Harness, MW_REF, exampleMiddleware, refusal } from './harness.ts';

const URL_SOURCE: SnapshotSource = { url: 'https://snapshots.example/mainnet-2026-11-28/' };
const VOLUME_SOURCE: SnapshotSource = { volume: { claimName: 'mdw-snapshots', path: 'mainnet-2026-11-28' } };
// what `mdw snapshot import` prints on stderr when it refuses a snapshot (exitIfRefused), the log's end
const REFUSAL =
  'Error: the snapshot holds network ae_uat (genesis kh_2), but node http://node:3013 serves network ae_mainnet ' +
  '(genesis kh_1): import a snapshot of that network, or fix NODE_URL (MDW_CHAIN_IDENTITY_MISMATCH)';

function withBootstrap(source: SnapshotSource): Middleware {
  const mw = exampleMiddleware();
  return { ...mw, spec: { ...mw.spec, bootstrap: { snapshot: source } } };
}

function jobsOf(h: Harness, component: string): (V1Job & { metadata: { name: string } })[] {
  return h.jobs().filter((j) => j.metadata.labels?.[LABEL_COMPONENT] === component);
}

function jobRef(name: string): ObjectRef {
  return { apiVersion: 'batch/v1', kind: 'Job', namespace: 'chain', name };
}

function envOf(job: V1Job): Record<string, string | undefined> {
  const env = job.spec?.template.spec?.containers[0]?.env ?? [];
  return Object.fromEntries(env.map((e) => [e.name, e.value]));
}

describe('a Middleware starting from a snapshot, on the fake API server', () => {
  it('restores its first generation from a URL before migrating it, once, and then runs as any other', async () => {
    const h = new Harness();
    await h.apply(withBootstrap(URL_SOURCE));
    await h.adopt(); // the database holds no schema of it: generation 1 is created, from the snapshot
    await h.pass();
    const status = h.middleware().status;
    expect(status?.bootstrap).to.deep.include({ generation: 1, snapshot: URL_SOURCE, state: 'Restoring' });
    const [restore, ...more] = jobsOf(h, Component.restore);
    expect(more).to.deep.equal([]);
    expect(restore?.metadata.name).to.match(/^mainnet-restore-g1-[0-9a-f]{8}$/);
    const pod = restore?.spec?.template.spec;
    // the fetch fills an emptyDir that the import reads: both see it at /snapshot
    expect(pod?.initContainers?.map((c) => ({ name: c.name, args: c.args }))).to.deep.equal([
      { name: 'fetch', args: ['snapshot', 'fetch', URL_SOURCE.url, '/snapshot'] },
    ]);
    expect(pod?.containers[0]?.args).to.deep.equal(['snapshot', 'import', '/snapshot']);
    expect(pod?.containers[0]?.terminationMessagePolicy).to.equal('FallbackToLogsOnError');
    expect(pod?.volumes).to.deep.include({ name: 'snapshot', emptyDir: {} });
    for (const c of [...(pod?.initContainers ?? []), ...(pod?.containers ?? [])])
      expect(c.volumeMounts).to.deep.include({ name: 'snapshot', mountPath: '/snapshot' });
    expect(envOf(restore!)).to.include({
      DATABASE_SCHEMA: 'mainnet_g1',
      NODE_URL: exampleMiddleware().spec.nodeUrls[0],
    });
    expect(restore?.spec?.backoffLimit).to.equal(1);
    // nothing else of the generation runs while the import needs its schema empty
    expect(jobsOf(h, Component.migration)).to.deep.equal([]);
    expect(h.deployments()).to.deep.equal([]);
    expect(h.condition('MigrationsApplied')).to.deep.include({ status: 'False', reason: 'SnapshotRestoring' });
    expect(h.condition('Reconciled')).to.deep.include({ status: 'False', reason: 'WaitingForMigrations' });
    expect(h.middleware().status?.phase).to.equal('Migrating');

    // By the import succeeding: the migration Job comes next, then the workloads.
    h.completeJobs(Component.restore);
    h.kube.clearRecords();
    await h.pass();
    expect(h.middleware().status?.bootstrap).to.deep.include({
      state: 'Restored',
      completedAt: h.clock.now().toISOString(),
    });
    expect(h.eventReasons()).to.include('SnapshotRestored');
    expect(jobsOf(h, Component.migration)).to.have.length(1);
    h.probe.set('mainnet', 900_010, 0);
    h.completeJobs(Component.migration);
    await h.settle();
    expect(h.condition('MigrationsApplied')).to.deep.include({ status: 'True' });
    expect(h.middleware().status?.phase).to.equal('Available');
    expect(h.database.schemas.get('mainnet_g1')?.height).to.equal(900_000);

    // By a new image: a new migration Job, never a second import into the schema the first one filled.
    h.kube.userPatch(MW_REF, { spec: { image: 'ghcr.io/aeternity/mdw:1.0.1' } });
    await h.settle();
    expect(jobsOf(h, Component.migration).map((j) => j.spec?.template.spec?.containers[0]?.image)).to.deep.equal([
      'ghcr.io/aeternity/mdw:1.0.1',
    ]);
    expect(jobsOf(h, Component.restore).map((j) => j.metadata.name)).to.deep.equal([restore?.metadata.name]);
  });

  it("reports a failed restore with the import's error, starts nothing, and restores again when its Job is deleted", async () => {
    const h = new Harness();
    await h.apply(withBootstrap(VOLUME_SOURCE));
    await h.adopt();
    await h.pass();
    const [restore] = jobsOf(h, Component.restore);
    const pod = restore?.spec?.template.spec;
    // a volume is mounted read-only, and nothing is fetched
    expect(pod?.initContainers).to.equal(undefined);
    expect(pod?.volumes).to.deep.include({
      name: 'snapshot',
      persistentVolumeClaim: { claimName: 'mdw-snapshots', readOnly: true },
    });
    expect(pod?.containers[0]?.volumeMounts).to.deep.include({
      name: 'snapshot',
      mountPath: '/snapshot',
      readOnly: true,
    });
    expect(pod?.containers[0]?.args).to.deep.equal(['snapshot', 'import', '/snapshot/mainnet-2026-11-28']);

    h.kube.failJob(jobRef(restore!.metadata.name), 'Job has reached the specified backoff limit', {
      terminationMessage: `${REFUSAL}\n`,
    });
    h.kube.clearRecords();
    await h.pass();
    const bootstrap = h.middleware().status?.bootstrap;
    expect(bootstrap?.state).to.equal('Failed');
    expect(bootstrap?.message).to.include(REFUSAL).and.include('backoff limit');
    expect(h.condition('MigrationsApplied')).to.deep.include({ status: 'False', reason: 'SnapshotFailed' });
    expect(h.condition('Degraded')).to.deep.include({ status: 'True', reason: 'SnapshotFailed' });
    expect(h.middleware().status?.phase).to.equal('Degraded');
    const warning = h.kube.events.find((e) => e.reason === 'SnapshotFailed');
    expect(warning?.type).to.equal('Warning');
    expect(warning?.message).to.include('MDW_CHAIN_IDENTITY_MISMATCH');
    expect(jobsOf(h, Component.migration)).to.deep.equal([]);
    expect(h.deployments()).to.deep.equal([]);
    // a second pass changes nothing: the failed Job stays, for its logs
    h.kube.clearRecords();
    await h.pass();
    expect(h.kube.writes).to.deep.equal([]);

    // By deleting the failed Job (the failed import dropped the schema): the restore runs again.
    await h.kube.delete(jobRef(restore!.metadata.name));
    await h.pass();
    expect(jobsOf(h, Component.restore).map((j) => j.metadata.name)).to.deep.equal([restore?.metadata.name]);
    expect(h.middleware().status?.bootstrap?.state).to.equal('Restoring');
  });

  it('restores nothing into a generation it adopts: the snapshot is for a schema it creates', async () => {
    const h = new Harness();
    const mw = await h.apply(withBootstrap(URL_SOURCE));
    h.database.schemas.set('mainnet_g3', {
      bytes: 2 ** 30,
      height: 500,
      migrated: true,
      migration: '1010_schema_identity',
      owner_uid: mw.metadata.uid ?? null,
      owner_name: 'chain/mainnet',
    });
    await h.adopt();
    await h.settle();
    expect(h.middleware().status).to.deep.include({ activeGeneration: 3 });
    expect(h.middleware().status?.bootstrap).to.equal(undefined);
    expect(jobsOf(h, Component.restore)).to.deep.equal([]);
  });

  const RELOAD: ReloadSpec = {
    id: 'from-snapshot',
    strategy: 'BlueGreen',
    heights: '5-7',
    snapshot: URL_SOURCE,
  };

  async function servingThenReload(reload: ReloadSpec): Promise<Harness> {
    const h = new Harness();
    await h.apply();
    h.probe.set('mainnet', 100, 0);
    await h.settle();
    expect(jobsOf(h, Component.restore)).to.deep.equal([]);
    h.kube.userPatch(MW_REF, { spec: { reload } });
    await h.pass(); // CheckingDatabase
    h.completeJobs(Component.databaseUsage);
    await h.pass(); // Migrating: the green generation's restore
    return h;
  }

  it("restores a BlueGreen reload's green generation, then its populator reloads the heights from there", async () => {
    const h = await servingThenReload(RELOAD);
    expect(h.middleware().status?.reload).to.deep.include({ state: 'Migrating', generation: 2, snapshot: URL_SOURCE });
    expect(h.middleware().status?.reload?.message).to.include('restoring generation 2 from the snapshot');
    const [restore, ...more] = jobsOf(h, Component.restore);
    expect(more).to.deep.equal([]);
    expect(restore?.metadata.name).to.match(/^mainnet-restore-g2-/);
    expect(envOf(restore!)).to.include({ DATABASE_SCHEMA: 'mainnet_g2' });
    expect(restore?.spec?.template.spec?.initContainers?.[0]?.args).to.deep.equal([
      'snapshot',
      'fetch',
      URL_SOURCE.url,
      '/snapshot',
    ]);
    expect(jobsOf(h, Component.migration).map((j) => envOf(j).DATABASE_SCHEMA)).to.deep.equal(['mainnet_g1']);

    h.completeJobs(Component.restore);
    await h.pass();
    expect(jobsOf(h, Component.migration).map((j) => envOf(j).DATABASE_SCHEMA)).to.have.members([
      'mainnet_g1',
      'mainnet_g2',
    ]);
    h.completeJobs(Component.migration);
    await h.pass();
    expect(h.middleware().status?.reload?.state).to.equal('CatchingUp');
    expect(h.eventReasons()).to.include('MigrationsApplied');
    const populator = h.deployments().find((d) => d.metadata.name === 'mainnet-populator-g2');
    expect(populator?.spec?.template.spec?.containers[0]?.args).to.deep.equal(['-p', '-H', '5-7']);
    // the restore Job stays with its generation (its logs), and is never run again
    expect(jobsOf(h, Component.restore).map((j) => j.metadata.name)).to.deep.equal([restore?.metadata.name]);
    expect(h.database.schemas.get('mainnet_g2')?.height).to.equal(900_000);
  });

  it('fails the reload on a failed fetch, with its error, and drops the green generation', async () => {
    const h = await servingThenReload({ ...RELOAD, heights: undefined } as ReloadSpec);
    const [restore] = jobsOf(h, Component.restore);
    const error = `Error: ${URL_SOURCE.url}manifest.json answered 404 Not Found: not a snapshot directory served as files (MDW_SNAPSHOT_CORRUPT)`;
    h.kube.failJob(jobRef(restore!.metadata.name), 'Job has reached the specified backoff limit', {
      terminationMessage: error,
      container: 'fetch',
    });
    await h.pass();
    const reload = h.middleware().status?.reload;
    expect(reload).to.deep.include({ state: 'CleaningUp', cleanupGeneration: 2, outcome: 'Failed' });
    expect(reload?.message).to.include('404 Not Found');
    expect(h.kube.events.find((e) => e.reason === 'SnapshotFailed')?.message).to.include('MDW_SNAPSHOT_CORRUPT');
    // the drop Job of generation 2 ran in the same pass
    h.completeJobs(Component.dropSchema);
    await h.settle();
    expect(h.middleware().status).to.deep.include({ activeGeneration: 1 });
    expect(h.middleware().status?.reload?.state).to.equal('Failed');
    expect(h.generationsOf('Deployment')).to.deep.equal([1]);
    expect(h.condition('Degraded')).to.deep.include({ status: 'True', reason: 'ReloadFailed' });
  });

  it('is refused at admission as the real API server refuses it', async () => {
    const h = new Harness();
    const both = await refusal(() => h.apply(withBootstrap({ ...URL_SOURCE, ...VOLUME_SOURCE })));
    expect(both).to.include({ status: 422 });
    expect(both.message).to.include(SNAPSHOT_ONE_SOURCE);
    const neither = await refusal(() => h.apply(withBootstrap({})));
    expect(neither.message).to.include(SNAPSHOT_ONE_SOURCE);
    for (const url of ['s3://bucket/mainnet', 'file:///snapshots/mainnet', 'snapshots.example/mainnet']) {
      const err = await refusal(() => h.apply(withBootstrap({ url })));
      expect(err, url).to.include({ status: 422 });
      expect(err.message, url).to.include('spec.bootstrap.snapshot.url');
    }
    for (const path of ['../other', 'a/../../b', '/abs']) {
      const err = await refusal(() => h.apply(withBootstrap({ volume: { claimName: 'mdw-snapshots', path } })));
      expect(err.message, path).to.include('spec.bootstrap.snapshot.volume.path');
    }

    await h.apply(withBootstrap(VOLUME_SOURCE));
    const inPlace = await refusal(() =>
      h.kube.userPatch(MW_REF, {
        spec: { reload: { id: 'r1', strategy: 'InPlace', heights: '1', snapshot: URL_SOURCE } },
      }),
    );
    expect(inPlace.message).to.include(INPLACE_NO_SNAPSHOT);
    h.kube.userPatch(MW_REF, { spec: { reload: { id: 'r1', snapshot: URL_SOURCE } } });
    const changed = await refusal(() =>
      h.kube.userPatch(MW_REF, {
        spec: { reload: { id: 'r1', snapshot: { url: 'https://snapshots.example/newer/' } } },
      }),
    );
    expect(changed.message).to.include(RELOAD_NEEDS_NEW_ID);
    // a new id may name another snapshot
    h.kube.userPatch(MW_REF, { spec: { reload: { id: 'r2', snapshot: { url: 'https://snapshots.example/newer/' } } } });
  });
});
