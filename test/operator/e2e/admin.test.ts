import { expect } from 'chai';
import { AppError } from '../../../src/base/errors.ts';
import { describeStatus, promoteReload, requestReload, rollbackReload } from '../../../src/operator/admin.ts';
import { ROLLBACK_ANNOTATION } from '../../../src/operator/controller/bluegreen.ts';
import { Harness, MW_REF } from './harness.ts';

const target = { namespace: 'chain', name: 'mainnet' };

async function serving(): Promise<Harness> {
  const h = new Harness();
  await h.apply();
  h.probe.set('mainnet', 100, 0);
  h.probe.set('mainnet-preview', 100, 0);
  await h.settle();
  return h;
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected a rejection');
}

/** passes reconciles while playing the Job and Deployment controllers, moving the clock 30 s each time. */
async function passes(h: Harness, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await h.pass();
    h.completeJobs();
    h.readyDeployments();
    h.clock.advance(30_000);
  }
}

describe('requestReload', () => {
  it('sets spec.reload with a new id in one merge patch, nulling members an older request had', async () => {
    const h = await serving();
    h.kube.userPatch(MW_REF, {
      spec: { reload: { id: 'old', strategy: 'InPlace', heights: '1-2', retainPrevious: '1h' } },
    });
    h.kube.clearRecords();
    const { id } = await requestReload(h.kube, {
      ...target,
      strategy: 'BlueGreen',
      autoPromote: false,
      now: new Date('2026-11-21T01:02:03.456Z'),
    });
    expect(id).to.equal('reload-20261121-010203z');
    expect(h.kube.writes.map((w) => w.verb)).to.deep.equal(['patchMerge']);
    // the older request's heights are gone and its retainPrevious is back to the CRD's default (the API server
    // defaults what the patch nulled)
    const reload = h.middleware().spec.reload;
    expect(reload).to.deep.include({ id, strategy: 'BlueGreen', autoPromote: false }).and.not.have.property('heights');
    expect(reload?.retainPrevious).to.be.a('string').and.not.equal('1h');
  });

  it('refuses a malformed request with the field and the fix', async () => {
    const h = await serving();
    const inPlace = await rejection(requestReload(h.kube, { ...target, strategy: 'InPlace' }));
    expect(inPlace.code).to.equal('MDW_OPERATOR_BAD_REQUEST');
    expect(inPlace.message).to.contain('spec.reload');
    const heights = await rejection(requestReload(h.kube, { ...target, strategy: 'InPlace', heights: '5-' }));
    expect(heights.message).to.contain('spec.reload.heights');
    const id = await rejection(requestReload(h.kube, { ...target, strategy: 'BlueGreen', id: 'no spaces please' }));
    expect(id.message).to.contain('spec.reload.id');
    expect(h.middleware().spec.reload).to.equal(undefined);
  });

  it('refuses a second reload while one runs, unless forced', async () => {
    const h = await serving();
    await requestReload(h.kube, { ...target, strategy: 'BlueGreen', id: 'first' });
    await h.pass(); // its database check
    h.completeJobs();
    await h.pass(); // generation 2 is being built
    const busy = await rejection(requestReload(h.kube, { ...target, strategy: 'BlueGreen', id: 'second' }));
    expect(busy.code).to.equal('MDW_OPERATOR_CONFLICT');
    expect(busy.message).to.contain('first').and.to.contain('--force');
    await requestReload(h.kube, { ...target, strategy: 'BlueGreen', id: 'second', force: true });
    expect(h.middleware().spec.reload?.id).to.equal('second');
    // --force names the reload it replaces, which is what lets the operator abort it
    expect(h.middleware().metadata.annotations?.['middleware.aeternity.io/replace-reload']).to.equal('first');
    await h.pass();
    expect(h.middleware().status?.reload).to.deep.include({ id: 'first', state: 'CleaningUp', outcome: 'Aborted' });
  });

  it('says which Middleware does not exist', async () => {
    const h = new Harness();
    const missing = await rejection(requestReload(h.kube, { ...target, strategy: 'BlueGreen' }));
    expect(missing.code).to.equal('MDW_OPERATOR_NOT_FOUND');
    expect(missing.message).to.equal('no Middleware mainnet in namespace chain');
  });
});

describe('promoteReload and rollbackReload', () => {
  it('drive a manual blue/green reload: request, approve, roll back', async () => {
    const h = await serving();
    // By requesting a reload that waits for approval.
    await requestReload(h.kube, {
      ...target,
      strategy: 'BlueGreen',
      autoPromote: false,
      retainPrevious: '2h',
      id: 'manual',
    });
    expect((await rejection(rollbackReload(h.kube, target))).code).to.equal('MDW_OPERATOR_CONFLICT');
    await passes(h, 8);
    expect(h.middleware().status?.reload?.state).to.equal('AwaitingPromotion');

    // By approving it: the operator promotes generation 2.
    expect(await promoteReload(h.kube, target)).to.deep.equal({ id: 'manual' });
    await h.pass();
    expect(h.middleware().status).to.deep.include({ activeGeneration: 2, previousGeneration: 1 });
    expect((await rejection(promoteReload(h.kube, target))).code).to.equal('MDW_OPERATOR_CONFLICT');

    // By rolling back within the window: generation 1 serves again.
    expect(await rollbackReload(h.kube, target)).to.deep.equal({ id: 'manual', generation: 1 });
    expect(h.middleware().metadata.annotations?.[ROLLBACK_ANNOTATION]).to.equal('manual');
    await passes(h, 4);
    expect(h.middleware().status).to.deep.include({ activeGeneration: 1 });
    expect(h.middleware().status?.reload?.state).to.equal('RolledBack');
  });
});

describe('describeStatus', () => {
  it('shows phase, generations, heights, the reload and every condition', async () => {
    const h = await serving();
    await requestReload(h.kube, { ...target, strategy: 'BlueGreen', id: 'shown' });
    await h.pass(); // its database check
    h.completeJobs();
    await h.pass();
    const text = await describeStatus(h.kube, target);
    expect(text).to.contain('Middleware chain/mainnet');
    expect(text).to.match(/Phase: +Reindexing/);
    expect(text).to.match(/Active: +1 \(schema mainnet_g1\)/);
    expect(text).to.match(/Pending: +2 \(schema mainnet_g2\)/);
    expect(text).to.match(/Height: +100 of node 100 \(lag 0\)/);
    expect(text).to.match(/Servers: +2\/2 ready/);
    expect(text).to.contain('Reload:       shown (BlueGreen) Migrating, generation 2 from 1');
    for (const type of [
      'Reconciled',
      'Available',
      'MigrationsApplied',
      'Synced',
      'Reindexing',
      'Degraded',
      'ReconciliationPaused',
    ]) {
      expect(text).to.match(new RegExp(`\\n    ${type} +(True|False|Unknown) `));
    }
  });

  it('shows a fresh Middleware the operator has not seen yet', async () => {
    const h = new Harness();
    await h.apply();
    expect(await describeStatus(h.kube, target))
      .to.contain('Phase:        Unknown')
      .and.to.contain('(none yet)');
  });
});
