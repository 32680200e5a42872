/**
 * @module Issue 38 (the operator's half): several Middlewares on one database never touch each other's schemas, and
 * an operand image the operator cannot drive never rolls. Scenarios on the fake API server, with the database (and
 * the binary's owner record, migrations/1010) played by the harness's FakeDatabase.
 */
import { expect } from 'chai';
import type { V1Deployment, V1Service } from '@kubernetes/client-node';
import type { Middleware } from '../../../src/operator/api/middleware-types.ts';
import { API_VERSION, KIND } from '../../../src/operator/api/middleware-types.ts';
import { Component, LABEL_GENERATION, type Built } from '../../../src/operator/specs/meta.ts';
import { Harness, IMAGE, MW_REF, exampleMiddleware } from './harness.ts';

const TESTNET = { apiVersion: API_VERSION, kind: KIND, namespace: 'chain', name: 'testnet' };
const SERVER = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'chain', name: 'mainnet-server-g1' };
const STABLE = { apiVersion: 'v1', kind: 'Service', namespace: 'chain', name: 'mainnet' };

/** aMiddleware is the example under `name`, with `schemaPrefix` (unset: the Middleware's default) and a database Secret. */
function aMiddleware(name: string, schemaPrefix?: string, secret = 'mdw-db', reclaimPolicy?: 'Delete'): Middleware {
  const mw = exampleMiddleware();
  return {
    ...mw,
    metadata: { ...mw.metadata, name },
    spec: {
      ...mw.spec,
      nodeUrls: [`http://ae-node-${name}.chain.svc:3013`],
      database: { urlSecretRef: { name: secret, key: 'url' }, ...(schemaPrefix === undefined ? {} : { schemaPrefix }) },
      ...(reclaimPolicy === undefined ? {} : { reclaimPolicy }),
    },
  };
}

/** schemasOf lists the DATABASE_SCHEMA of every Job and Deployment of a Middleware: the schemas it reads and writes. */
function schemasOf(h: Harness, name: string): string[] {
  const items = [...h.jobs(), ...h.deployments()].filter((o) => o.metadata.name.startsWith(`${name}-`));
  const env = items.flatMap((o) => o.spec?.template.spec?.containers[0]?.env ?? []);
  return [...new Set(env.filter((e) => e.name === 'DATABASE_SCHEMA').map((e) => e.value ?? ''))].sort();
}

/** run plays `passes` passes and both simulated controllers, keeping every Event (settle clears its records). */
async function run(h: Harness, passes = 8): Promise<void> {
  for (let i = 0; i < passes; i++) {
    await h.pass();
    h.completeJobs();
    h.readyDeployments();
  }
}

async function settleBoth(h: Harness): Promise<void> {
  for (let i = 0; i < 12; i++) {
    await h.pass();
    await h.reconcile('chain/testnet');
    h.completeJobs();
    h.readyDeployments();
  }
}

/** mainnetServing runs the first Middleware until it serves generation 1 (its schema recording it as the owner). */
async function mainnetServing(mw: Middleware): Promise<Harness> {
  const h = new Harness();
  await h.apply(mw);
  h.probe.set('mainnet', 100, 0);
  await h.settle();
  expect(h.middleware().status?.phase).to.equal('Available');
  return h;
}

describe('several Middlewares on one database (issue 38)', () => {
  it('gives each its own schemas by default: a second one never adopts the first one’s live schema', async () => {
    const h = await mainnetServing(aMiddleware('mainnet'));
    const uid = h.middleware().metadata.uid;
    expect(h.database.schemas.get('mainnet_g1')).to.deep.include({ owner_uid: uid, owner_name: 'chain/mainnet' });

    // By creating a Middleware of another network on the same database Secret, both with the default prefix.
    h.clock.advance(60_000);
    await h.apply(aMiddleware('testnet'));
    await settleBoth(h);

    const testnet = h.kube.peek<Middleware>(TESTNET);
    expect(testnet?.status).to.deep.include({ activeGeneration: 1, schemaPrefix: 'testnet_g' });
    expect(schemasOf(h, 'testnet')).to.deep.equal(['testnet_g1']);
    expect(schemasOf(h, 'mainnet')).to.deep.equal(['mainnet_g1']);
    expect(h.eventReasons()).to.not.include('GenerationAdopted');
    expect(h.database.schemas.get('mainnet_g1')).to.deep.include({ owner_uid: uid });
  });

  it('refuses a second Middleware whose prefix would name the first one’s schemas, naming it, and starts nothing', async () => {
    const h = await mainnetServing(aMiddleware('mainnet', 'mdw_g'));
    h.clock.advance(60_000);
    // the example's own prefix, copied for another network, on the same database Secret
    await h.apply(aMiddleware('testnet', 'mdw_g'));
    await settleBoth(h);

    const testnet = h.kube.peek<Middleware>(TESTNET);
    expect(testnet?.status?.phase).to.equal('Invalid');
    const reconciled = testnet?.status?.conditions?.find((c) => c.type === 'Reconciled');
    expect(reconciled).to.deep.include({ status: 'False', reason: 'SchemaConflict' });
    expect(reconciled?.message).to.contain('Middleware chain/mainnet').and.contain('Secret mdw-db');
    const event = h.kube.events.find((e) => e.reason === 'SchemaConflict');
    expect(event).to.deep.include({ type: 'Warning' });
    expect(event?.involvedObject.name).to.equal('testnet');
    expect(schemasOf(h, 'testnet')).to.deep.equal([]);
    expect(testnet?.status?.activeGeneration).to.equal(undefined);
    // an overlapping prefix (mdw_g1<N> is also mdw_g<1N>) is the same collision
    expect(h.middleware().status?.phase).to.equal('Available');
    expect(schemasOf(h, 'mainnet')).to.deep.equal(['mdw_g1']);
  });

  it('stops the writers of a Middleware that already shared the first one’s schema before the upgrade', async () => {
    const h = await mainnetServing(aMiddleware('mainnet', 'mdw_g'));
    h.clock.advance(60_000);
    // what the operator of 774716f left: the second adopted generation 1 and runs a populator on mdw_g1
    const testnet = await h.apply(aMiddleware('testnet', 'mdw_g'));
    await h.kube.patchStatus(TESTNET, { activeGeneration: 1 });
    const populator = structuredClone(h.kube.peek<Built<V1Deployment>>({ ...SERVER, name: 'mainnet-populator-g1' }));
    if (populator === undefined) throw new Error('no populator');
    populator.metadata = {
      name: 'testnet-populator-g1',
      namespace: 'chain',
      labels: { ...populator.metadata.labels, 'app.kubernetes.io/instance': 'testnet' },
      ownerReferences: [
        { apiVersion: API_VERSION, kind: KIND, name: 'testnet', uid: testnet.metadata.uid ?? '', controller: true },
      ],
    };
    await h.kube.create(populator);

    await h.reconcile('chain/testnet');
    expect(h.names('Deployment').filter((n) => n.startsWith('testnet-'))).to.deep.equal([]);
    expect(h.eventReasons()).to.include.members(['StoppingWorkloads', 'SchemaConflict']);
  });

  it('stops the writers of a Middleware that runs on a schema another one owns, through another Secret', async () => {
    const h = await mainnetServing(aMiddleware('mainnet', 'mdw_g'));
    h.clock.advance(60_000);
    // another Secret naming the same database (the operator cannot tell): what the operator of 774716f left after
    // the second Middleware adopted mainnet's schema, its populator writing there
    const testnet = await h.apply(aMiddleware('testnet', 'mdw_g', 'mdw-db-copy'));
    await h.kube.patchStatus(TESTNET, { activeGeneration: 1 });
    const populator = structuredClone(h.kube.peek<Built<V1Deployment>>({ ...SERVER, name: 'mainnet-populator-g1' }));
    if (populator === undefined) throw new Error('no populator');
    populator.metadata = {
      name: 'testnet-populator-g1',
      namespace: 'chain',
      labels: { ...populator.metadata.labels, 'app.kubernetes.io/instance': 'testnet' },
      ownerReferences: [
        { apiVersion: API_VERSION, kind: KIND, name: 'testnet', uid: testnet.metadata.uid ?? '', controller: true },
      ],
    };
    await h.kube.create(populator);

    for (let i = 0; i < 4; i++) {
      await h.reconcile('chain/testnet');
      h.completeJobs();
    }
    const status = h.kube.peek<Middleware>(TESTNET)?.status;
    const operand = status?.conditions?.find((c) => c.type === 'OperandVersion');
    expect(operand).to.deep.include({ status: 'False', reason: 'SchemaOwnedByAnother' });
    expect(operand?.message).to.contain('mdw_g1 (owned by chain/mainnet');
    expect(status?.phase).to.equal('Invalid');
    expect(h.names('Deployment').filter((n) => n.startsWith('testnet-'))).to.deep.equal([]);
    expect(h.names('Job').filter((n) => n.startsWith('testnet-migrate'))).to.deep.equal([]);
    expect(h.database.schemas.get('mdw_g1')).to.deep.include({ owner_name: 'chain/mainnet' });
  });

  it('never drops another Middleware’s schema on reclaim, whatever the prefix (reclaimPolicy Delete)', async () => {
    const h = await mainnetServing(aMiddleware('mainnet', 'mdw_g'));
    h.clock.advance(60_000);
    // another Secret naming the same database (the operator cannot tell), the same prefix, and a status that names
    // generation 1: what the operator of 774716f left after the second Middleware adopted mainnet's schema
    await h.apply(aMiddleware('testnet', 'mdw_g', 'mdw-db-copy', 'Delete'));
    await h.kube.patchStatus(TESTNET, { activeGeneration: 1 });
    await h.reconcile('chain/testnet'); // the finalizer (and a check of its image, which rolls nothing yet)
    await h.kube.delete(TESTNET);
    for (let i = 0; i < 6; i++) {
      await h.reconcile('chain/testnet');
      h.completeJobs();
    }
    expect(h.kube.peek(TESTNET)).to.equal(undefined);
    expect(h.jobs().filter((j) => j.metadata.name.startsWith('testnet-drop'))).to.deep.equal([]);
    expect(h.database.schemas.has('mdw_g1')).to.equal(true);
    const retained = h.kube.events.find((e) => e.reason === 'SchemasRetained');
    expect(retained?.message).to.contain('mdw_g1').and.contain('owned by chain/mainnet');

    // and the first one, deleted with Delete, drops its own schema
    h.kube.userPatch(MW_REF, { spec: { reclaimPolicy: 'Delete' } });
    await h.pass();
    await h.kube.delete(MW_REF);
    for (let i = 0; i < 6; i++) {
      await h.pass();
      h.completeJobs();
    }
    expect(h.kube.peek(MW_REF)).to.equal(undefined);
    expect(h.database.schemas.has('mdw_g1')).to.equal(false);
  });

  it('adopts no schema of another Middleware when restored without status, and takes a number no schema has', async () => {
    const h = new Harness();
    h.database.schemas.set('mdw_g1', {
      bytes: 2 ** 30,
      height: 900_000,
      migrated: true,
      migration: '1010_schema_identity',
      owner_uid: 'a1b2c3d4-0000-4000-8000-00000000000f',
      owner_name: 'other/mainnet',
    });
    await h.apply(aMiddleware('mainnet', 'mdw_g'));
    h.probe.set('mainnet', 100, 0);
    await h.pass();
    h.completeJobs(Component.databaseUsage);
    await h.settle();
    expect(h.middleware().status?.activeGeneration).to.equal(2);
    expect(h.kube.peek<Built<V1Service>>(STABLE)?.spec?.selector?.[LABEL_GENERATION]).to.equal('2');
    expect(schemasOf(h, 'mainnet')).to.deep.equal(['mdw_g2']);
    expect(h.database.schemas.get('mdw_g1')).to.deep.include({ owner_name: 'other/mainnet' });
  });
});

describe('a Middleware that ran on the old default prefix, under the new operator (issue 38)', () => {
  it('keeps its mdw_g schema, records the prefix and its ownership, and a later Middleware takes its own', async () => {
    const h = new Harness();
    // what the operator of 774716f left: no prefix in the spec (its default was mdw_g), generation 1 serving
    const legacy = aMiddleware('mainnet');
    const mw = await h.apply(legacy);
    h.database.schemas.set('mdw_g1', { bytes: 2 ** 30, height: 500_000, migrated: true });
    await h.kube.patchStatus(MW_REF, { activeGeneration: 1 });
    h.probe.set('mainnet', 500_000, 0);

    await h.settle();
    expect(h.middleware().status).to.deep.include({ activeGeneration: 1, schemaPrefix: 'mdw_g', phase: 'Available' });
    expect(schemasOf(h, 'mainnet')).to.deep.equal(['mdw_g1']);
    expect([...h.database.schemas.keys()]).to.deep.equal(['mdw_g1']);
    // its migration ran again with the owner: the schema now records it
    expect(h.database.schemas.get('mdw_g1')).to.deep.include({
      owner_uid: mw.metadata.uid,
      owner_name: 'chain/mainnet',
    });

    // a second Middleware on the same Secret, with the new default, gets schemas of its own
    h.clock.advance(60_000);
    await h.apply(aMiddleware('testnet'));
    await settleBoth(h);
    expect(schemasOf(h, 'testnet')).to.deep.equal(['testnet_g1']);
    expect(schemasOf(h, 'mainnet')).to.deep.equal(['mdw_g1']);
  });
});

describe('operand versions (issue 38)', () => {
  it('refuses an image older than the oldest it drives: a condition, an Event, and the workloads keep theirs', async () => {
    const h = await mainnetServing(aMiddleware('mainnet'));
    const jobsBefore = h.names('Job');
    // an image from before the schema identity: its `mdw db usage` reports no version
    h.database.images.set('ghcr.io/aeternity/mdw:0.0.9', {});
    h.kube.userPatch(MW_REF, { spec: { image: 'ghcr.io/aeternity/mdw:0.0.9' } });
    await run(h);

    const condition = h.condition('OperandVersion');
    expect(condition).to.deep.include({ status: 'False', reason: 'OperandTooOld' });
    expect(h.middleware().status?.conditions?.find((c) => c.type === 'OperandVersion')?.message)
      .to.contain('reports no version')
      .and.contain(`the workloads keep ${IMAGE}`);
    expect(h.condition('Degraded')).to.deep.include({ status: 'True', reason: 'OperandRefused' });
    // once, however many passes (the Degraded condition's own Event aside)
    const refused = h.kube.events.filter((e) => e.reason === 'OperandRefused' && !e.message?.startsWith('Degraded'));
    expect(refused).to.have.length(1);
    expect(refused[0]?.type).to.equal('Warning');
    expect(h.kube.peek<Built<V1Deployment>>(SERVER)?.spec?.template.spec?.containers[0]?.image).to.equal(IMAGE);
    expect(h.names('Job').filter((n) => n.startsWith('mainnet-migrate'))).to.deep.equal(jobsBefore);
    expect(h.middleware().status?.operand?.image).to.equal(IMAGE);

    // a version below the minimum is refused the same way; a good one rolls
    h.database.images.set('ghcr.io/aeternity/mdw:0.0.8', { version: '0.0.8', newestMigration: '1009_calls_typed' });
    h.kube.userPatch(MW_REF, { spec: { image: 'ghcr.io/aeternity/mdw:0.0.8' } });
    await run(h);
    expect(h.condition('OperandVersion')).to.deep.include({ status: 'False', reason: 'OperandTooOld' });
    h.kube.userPatch(MW_REF, { spec: { image: 'ghcr.io/aeternity/mdw:1.1.0' } });
    await run(h);
    expect(h.condition('OperandVersion')).to.deep.include({ status: 'True', reason: 'OperandAccepted' });
    expect(h.kube.peek<Built<V1Deployment>>(SERVER)?.spec?.template.spec?.containers[0]?.image).to.equal(
      'ghcr.io/aeternity/mdw:1.1.0',
    );
  });

  it('refuses a rollback to an image older than the schema it would run on', async () => {
    const h = await mainnetServing(aMiddleware('mainnet'));
    // a newer image migrated the schema further
    h.database.images.set('ghcr.io/aeternity/mdw:1.2.0', { version: '1.2.0', newestMigration: '1011_future' });
    h.kube.userPatch(MW_REF, { spec: { image: 'ghcr.io/aeternity/mdw:1.2.0' } });
    await run(h);
    expect(h.database.schemas.get('mainnet_g1')?.migration).to.equal('1011_future');
    // helm rollback: the previous image, which knows migrations up to 1010 only
    h.kube.userPatch(MW_REF, { spec: { image: IMAGE } });
    await run(h);
    expect(h.condition('OperandVersion')).to.deep.include({ status: 'False', reason: 'OperandOlderThanSchema' });
    expect(h.kube.events.find((e) => e.reason === 'OperandRefused')?.message).to.contain(
      'mainnet_g1 has 1011_future applied',
    );
    expect(h.kube.peek<Built<V1Deployment>>(SERVER)?.spec?.template.spec?.containers[0]?.image).to.equal(
      'ghcr.io/aeternity/mdw:1.2.0',
    );
  });

  it('leaves the workloads of an installation from before the check running when its pinned image is refused', async () => {
    const h = await mainnetServing(aMiddleware('mainnet'));
    // what the operator of 774716f left: workloads of an image it never checked, pinned in the spec
    const old = 'ghcr.io/aeternity/mdw:0.0.9';
    h.database.images.set(old, {});
    await h.kube.patchStatus(MW_REF, { operand: null });
    h.kube.userPatch(MW_REF, { spec: { image: old } });
    await run(h);

    const condition = h.middleware().status?.conditions?.find((c) => c.type === 'OperandVersion');
    expect(condition).to.deep.include({ status: 'False', reason: 'OperandTooOld' });
    expect(condition?.message).to.contain('the running workloads are left as they are');
    expect(h.middleware().status?.phase).to.equal('Available');
    expect(h.kube.peek<Built<V1Deployment>>(SERVER)?.spec?.template.spec?.containers[0]?.image).to.equal(IMAGE);
  });

  it('cleans up with the accepted image, not a refused one, and drops nothing an image without owners names', async () => {
    const h = await mainnetServing(aMiddleware('mainnet', undefined, 'mdw-db', 'Delete'));
    const old = 'ghcr.io/aeternity/mdw:0.0.9';
    h.database.images.set(old, {});
    h.kube.userPatch(MW_REF, { spec: { image: old } });
    await run(h, 3);
    expect(h.condition('OperandVersion')).to.deep.include({ status: 'False' });
    const before = new Set(h.names('Job'));
    await h.kube.delete(MW_REF);
    // the images of the clean-up's own Jobs (the owner check, the drops)
    const images = new Set<string | undefined>();
    for (let i = 0; i < 6; i++) {
      await h.pass();
      for (const job of h.jobs().filter((j) => !before.has(j.metadata.name)))
        images.add(job.spec?.template.spec?.containers[0]?.image);
      h.completeJobs();
    }
    expect(h.kube.peek(MW_REF)).to.equal(undefined);
    expect(h.database.schemas.has('mainnet_g1')).to.equal(false);
    expect([...images]).to.deep.equal([IMAGE]);

    // without an accepted image (an installation from before the check), an image that reports no owners drops none
    const g = await mainnetServing(aMiddleware('mainnet', undefined, 'mdw-db', 'Delete'));
    g.database.images.set(old, {});
    await g.kube.patchStatus(MW_REF, { operand: null });
    g.kube.userPatch(MW_REF, { spec: { image: old } });
    await g.kube.delete(MW_REF);
    for (let i = 0; i < 6; i++) {
      await g.pass();
      g.completeJobs();
    }
    expect(g.kube.peek(MW_REF)).to.equal(undefined);
    expect(g.database.schemas.has('mainnet_g1')).to.equal(true);
    expect(g.kube.events.find((e) => e.reason === 'SchemasRetained')?.message).to.contain('reports no owners');
  });

  it('starts nothing for a new Middleware whose image is too old', async () => {
    const h = new Harness();
    h.database.images.set('ghcr.io/aeternity/mdw:0.0.9', {});
    await h.apply({
      ...aMiddleware('mainnet'),
      spec: { ...aMiddleware('mainnet').spec, image: 'ghcr.io/aeternity/mdw:0.0.9' },
    });
    await run(h);
    expect(h.condition('OperandVersion')).to.deep.include({ status: 'False', reason: 'OperandTooOld' });
    // nothing runs, for a reason the spec must fix
    expect(h.condition('Reconciled')).to.deep.include({ status: 'False', reason: 'OperandRefused' });
    expect(h.middleware().status?.phase).to.equal('Invalid');
    expect(h.deployments()).to.deep.equal([]);
    expect(h.names('Job').filter((n) => !n.startsWith('mainnet-db-usage'))).to.deep.equal([]);
    expect(h.kube.events.filter((e) => e.reason === 'OperandRefused' && e.type === 'Warning')).to.have.length(1);
  });
});
