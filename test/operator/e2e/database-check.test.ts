/**
 * @module Issue 14 items 2 and 5: what the operator learns from `mdw db usage` Jobs (through their pods'
 * termination messages, never a database connection of its own): the generation a Middleware without status adopts
 * from the database's schemas, the free-space check before a BlueGreen reload, and a check that fails.
 */
import { expect } from 'chai';
import type { V1Service } from '@kubernetes/client-node';
import type { Middleware } from '../../../src/operator/api/middleware-types.ts';
import { Component, LABEL_GENERATION, type Built } from '../../../src/operator/specs/meta.ts';
import { Harness, MW_REF, exampleMiddleware } from './harness.ts';

const GiB = 2 ** 30;
const STABLE = { apiVersion: 'v1', kind: 'Service', namespace: 'chain', name: 'mainnet' };
const stableGeneration = (h: Harness) => h.kube.peek<Built<V1Service>>(STABLE)?.spec?.selector?.[LABEL_GENERATION];
const usageJobs = (h: Harness) => h.names('Job').filter((n) => n.startsWith('mainnet-db-usage-'));

function withCapacity(capacity: string | undefined): Middleware {
  const mw = exampleMiddleware();
  return { ...mw, spec: { ...mw.spec, database: { ...mw.spec.database, storageCapacity: capacity } } };
}

async function serving(mw: Middleware = exampleMiddleware()): Promise<Harness> {
  const h = new Harness();
  await h.apply(mw);
  h.probe.set('mainnet', 100, 0);
  h.probe.set('mainnet-preview', 100, 0);
  await h.settle();
  return h;
}

describe('database checks through Jobs (issue 14)', () => {
  it('a Middleware re-created over existing schemas adopts the one with the most stored heights, never reusing a number', async () => {
    const h = new Harness();
    // what a deleted Middleware (reclaimPolicy Retain) left: generation 2 served, 3 was being built
    h.database.schemas.set('mainnet_g2', { bytes: 5 * GiB, height: 500_000, migrated: true });
    h.database.schemas.set('mainnet_g3', { bytes: GiB, height: 12_000, migrated: true });
    await h.apply();
    h.probe.set('mainnet', 500_000, 0);
    await h.pass();
    expect(usageJobs(h)).to.have.length(1);
    expect(h.middleware().status?.activeGeneration).to.equal(undefined);
    expect(h.names('Deployment')).to.deep.equal([]);

    h.completeJobs();
    await h.pass();
    expect(h.middleware().status?.activeGeneration).to.equal(2);
    const adopted = h.kube.events.find((e) => e.reason === 'GenerationAdopted');
    expect(adopted?.message)
      .to.contain('generation 2 with the most stored heights')
      .and.contain('mainnet_g3 (height 12000');
    expect(h.names('Job')).to.have.length(1); // generation 2's migrations (idempotent on a migrated schema)
    h.completeJobs();
    await h.settle();
    expect(h.middleware().status?.phase).to.equal('Available');
    expect(stableGeneration(h)).to.equal('2');
    expect(h.generationsOf('Deployment')).to.deep.equal([2]);
    expect(usageJobs(h)).to.deep.equal([]);

    // a reload builds generation 4: schema mainnet_g3 exists (not ours to reuse)
    h.kube.userPatch(MW_REF, { spec: { reload: { id: 'r1', strategy: 'BlueGreen' } } });
    await h.pass();
    h.completeJobs();
    await h.pass();
    expect(h.middleware().status).to.deep.include({ activeGeneration: 2, pendingGeneration: 4 });
    expect(h.middleware().status?.reload).to.deep.include({ state: 'Migrating', generation: 4 });
  });

  it('a new Middleware whose database holds no schema starts at generation 1', async () => {
    const h = await serving();
    expect(h.middleware().status?.activeGeneration).to.equal(1);
    expect(h.eventReasons()).to.not.include('GenerationAdopted');
  });

  it("reads the answer of the attempt that succeeded, not a failed attempt's log tail", async () => {
    const h = new Harness();
    h.database.schemas.set('mainnet_g4', { bytes: GiB, height: 70, migrated: true });
    await h.apply();
    await h.pass();
    const [job] = usageJobs(h);
    h.completeJobs();
    h.clock.advance(1000);
    // whatever order the pods come in: the Job controller also ran a pod that failed (its message: the log's end)
    const failed = await h.kube.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: `${job ?? ''}-first`,
        namespace: 'chain',
        labels: { 'batch.kubernetes.io/job-name': job ?? '' },
      },
    });
    h.kube.setStatus(
      { apiVersion: 'v1', kind: 'Pod', namespace: 'chain', name: failed.metadata.name ?? '' },
      { containerStatuses: [{ name: 'mdw', state: { terminated: { exitCode: 1, message: 'ECONNRESET' } } }] },
    );
    await h.pass();
    expect(h.middleware().status?.activeGeneration).to.equal(4);
  });

  it('retries a failed database check with a Warning, creating nothing else meanwhile', async () => {
    const h = new Harness();
    await h.apply();
    await h.pass();
    const [job] = usageJobs(h);
    h.kube.failJob({ apiVersion: 'batch/v1', kind: 'Job', namespace: 'chain', name: job ?? '' }, 'connection refused');
    const result = await h.pass();
    expect(result.requeueAfterMs).to.equal(60_000);
    expect(h.kube.events.find((e) => e.reason === 'DatabaseCheckFailed')).to.deep.include({ type: 'Warning' });
    expect(h.condition('Reconciled')).to.deep.include({ status: 'False', reason: 'DatabaseCheckFailed' });
    expect(h.middleware().status?.phase).to.equal('Pending');
    expect(usageJobs(h)).to.deep.equal([]); // deleted, so the next look asks again
    expect(h.names('Deployment')).to.deep.equal([]);
    await h.pass();
    expect(usageJobs(h)).to.have.length(1);
  });

  it('refuses a BlueGreen reload that would not fit in spec.database.storageCapacity, building nothing', async () => {
    const h = await serving(withCapacity('10Gi'));
    h.database.schemas.set('mainnet_g1', { bytes: 6 * GiB, height: 100, migrated: true }); // the new one needs 7.2 GiB
    h.kube.userPatch(MW_REF, { spec: { reload: { id: 'too-big', strategy: 'BlueGreen' } } });
    await h.pass();
    h.completeJobs(Component.databaseUsage);
    await h.pass();
    const status = h.middleware().status;
    expect(status?.reload).to.deep.include({ id: 'too-big', state: 'Failed' });
    expect(status?.pendingGeneration).to.equal(undefined);
    expect(h.condition('DatabaseSpace')).to.deep.include({ status: 'False', reason: 'Insufficient' });
    const refused = h.kube.events.find((e) => e.reason === 'ReloadRefused');
    expect(refused).to.deep.include({ type: 'Warning' });
    expect(refused?.message).to.contain('not enough database space').and.contain('7.2 GiB');
    expect(h.generationsOf('Job')).to.deep.equal([1]);
    expect(h.generationsOf('Deployment')).to.deep.equal([1]);
    expect(usageJobs(h)).to.deep.equal([]);

    // after growing the volume (and saying so), a new request goes ahead
    h.kube.userPatch(MW_REF, {
      spec: { database: { storageCapacity: '50Gi' }, reload: { id: 'fits', strategy: 'BlueGreen' } },
    });
    await h.pass();
    h.completeJobs(Component.databaseUsage);
    await h.pass();
    // (generation 2 was the refused request's number: numbers are never handed out twice, even unused)
    expect(h.middleware().status?.reload).to.deep.include({ id: 'fits', state: 'Migrating', generation: 3 });
    expect(h.condition('DatabaseSpace')).to.deep.include({ status: 'True', reason: 'Sufficient' });
    expect(h.eventReasons()).to.include('DatabaseSpaceChecked');
  });
});
