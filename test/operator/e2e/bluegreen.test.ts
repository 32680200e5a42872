import { expect } from 'chai';
import type { V1Service } from '@kubernetes/client-node';
import type { Middleware, ReloadSpec } from '../../../src/operator/api/middleware-types.ts';
import { ROLLBACK_ANNOTATION } from '../../../src/operator/controller/bluegreen.ts';
import type { Reconciler } from '../../../src/operator/controller/reconcile.ts';
import { isKubeError } from '../../../src/operator/kube/client.ts';
import { Component, LABEL_COMPONENT, LABEL_GENERATION, type Built } from '../../../src/operator/specs/meta.ts';
import {
  Harness,
  InterceptingKube,
  KEY,
  MW_REF,
  crashingAt,
  exampleMiddleware,
  expectBoundsRefused,
} from './harness.ts';

const STABLE = { apiVersion: 'v1', kind: 'Service', namespace: 'chain', name: 'mainnet' };
const PREVIEW = { ...STABLE, name: 'mainnet-preview' };
const TERMINAL = ['Completed', 'RolledBack', 'Failed', 'Aborted'];

/** A serving Middleware on generation 1, before any reload (`spec`: merged into the example's). */
async function serving(spec: Partial<Middleware['spec']> = {}): Promise<Harness> {
  const h = new Harness();
  const mw = exampleMiddleware();
  await h.apply({ ...mw, spec: { ...mw.spec, ...spec } });
  h.probe.set('mainnet', 100, 0);
  await h.settle();
  return h;
}

function requestReload(h: Harness, reload: ReloadSpec): void {
  h.kube.userPatch(MW_REF, { spec: { reload } });
}

function stableGeneration(h: Harness): string | undefined {
  return h.kube.peek<Built<V1Service>>(STABLE)?.spec?.selector?.[LABEL_GENERATION];
}

function serverReplicas(h: Harness, generation: number): number | undefined {
  return h.deployments().find((d) => d.metadata.name === `mainnet-server-g${generation}`)?.spec?.replicas;
}

function reloadState(h: Harness): string | undefined {
  return h.middleware().status?.reload?.state;
}

/** The end state a scenario is judged by: children, the switch, and the status' generation bookkeeping. */
function snapshot(h: Harness): unknown {
  const s = h.middleware().status;
  return {
    deployments: h.names('Deployment'),
    // each run's Middleware has a uid of its own, which its Jobs' pod templates carry (MIDDLEWARE_UID): their names'
    // hashes differ from run to run
    jobs: h.names('Job').map((n) => n.replace(/-[0-9a-f]{8}$/, '')),
    services: h.kube
      .objectsOf<Built<V1Service>>('v1', 'Service', 'chain')
      .map((svc) => `${svc.metadata.name}->${svc.spec?.selector?.[LABEL_GENERATION]}`),
    status: {
      active: s?.activeGeneration,
      pending: s?.pendingGeneration,
      previous: s?.previousGeneration,
      reload: s?.reload?.state,
      generation: s?.reload?.generation,
      phase: s?.phase,
    },
    finalizers: h.middleware().metadata.finalizers,
  };
}

/**
 * drive plays the cluster around the operator until the reload is over and a pass writes nothing:
 * after each pass, Jobs complete, Deployments become ready, both Services report the chain head,
 * and the clock jumps to the requeue the operator asked for. `reconcile` picks the operator for
 * each pass (a fresh one after a crash).
 */
async function drive(h: Harness, reconcile: (i: number) => Reconciler, onPass?: (i: number) => void): Promise<number> {
  h.probe.set('mainnet-preview', 100, 0);
  for (let i = 0; i < 200; i++) {
    h.kube.clearRecords();
    let requeue = 1000;
    try {
      requeue = (await reconcile(i)(KEY)).requeueAfterMs ?? 1000;
    } catch (err) {
      if (!isKubeError(err)) throw err;
    }
    onPass?.(i);
    const wrote = h.kube.writes.length > 0;
    h.completeJobs();
    h.readyDeployments();
    if (!wrote && TERMINAL.includes(reloadState(h) ?? '')) return i;
    h.clock.advance(Math.min(Math.max(requeue, 1000), 3_600_000));
  }
  throw new Error(`the reload did not finish: ${JSON.stringify(snapshot(h))}`);
}

/**
 * DrainWatch follows, pass after pass, which generation the stable Service selects and which server Deployments
 * live (not being deleted): `drains` holds, for each generation's servers deleted, how long (on the clock) after the
 * stable Service stopped selecting them. Clients follow a switch late (EndpointSlices, then kube-proxy): a short one
 * is requests sent to servers that are gone.
 */
class DrainWatch {
  readonly drains: Array<{ generation: number; afterMs: number }> = [];
  readonly #h: Harness;
  readonly #leftAt = new Map<number, number>();
  #selected: string | undefined;
  #live: number[] = [];

  constructor(h: Harness) {
    this.#h = h;
    this.look();
  }

  /** look records what the last pass did (call it after each pass, before the clock moves). */
  look(): void {
    const now = this.#h.clock.now().getTime();
    const selected = stableGeneration(this.#h);
    if (this.#selected !== undefined && selected !== this.#selected) this.#leftAt.set(Number(this.#selected), now);
    this.#selected = selected;
    const live = this.#h
      .deployments()
      .filter((d) => d.metadata.labels?.[LABEL_COMPONENT] === Component.server && !d.metadata.deletionTimestamp)
      .map((d) => Number(d.metadata.labels?.[LABEL_GENERATION]));
    for (const generation of this.#live.filter((g) => !live.includes(g)))
      this.drains.push({ generation, afterMs: now - (this.#leftAt.get(generation) ?? now) });
    this.#live = live;
  }
}

/** startReload requests a reload and answers its database check: generation 2's migration Job then runs. */
async function startReload(h: Harness, reload: ReloadSpec): Promise<void> {
  requestReload(h, reload);
  await h.pass(); // CheckingDatabase: a Job measures the database
  h.completeJobs(Component.databaseUsage);
  await h.pass(); // Migrating
}

const RELOAD: ReloadSpec = { id: 'reindex-1', strategy: 'BlueGreen', autoPromote: true, retainPrevious: '1h' };

describe('blue/green reload on the fake API server', () => {
  it('builds generation 2 beside 1, switches the stable Service in one write, keeps 1 for the window, then drops it', async () => {
    const h = await serving();
    // By requesting a reload, as `mdw reload mainnet --strategy BlueGreen` does: a Job measures the database first.
    requestReload(h, RELOAD);
    await h.pass();
    expect(reloadState(h)).to.equal('CheckingDatabase');
    expect(h.names('Job').filter((n) => n.startsWith('mainnet-db-usage-'))).to.have.length(1);
    expect(h.middleware().status?.pendingGeneration).to.equal(undefined);
    expect(h.condition('Reindexing')).to.deep.include({ status: 'True', reason: 'CheckingDatabase' });

    // By answering it (no spec.database.storageCapacity: the space check is skipped, and an Event says so).
    h.completeJobs();
    await h.pass();
    expect(h.eventReasons()).to.include('SpaceCheckSkipped');
    expect(h.condition('DatabaseSpace')).to.deep.include({ status: 'Unknown', reason: 'CapacityUnknown' });
    expect(h.names('Job').filter((n) => n.startsWith('mainnet-db-usage-'))).to.deep.equal([]);
    expect(reloadState(h)).to.equal('Migrating');
    expect(h.middleware().status).to.deep.include({ activeGeneration: 1, pendingGeneration: 2 });
    expect(h.names('Job').filter((n) => n.startsWith('mainnet-migrate-g2-'))).to.have.length(1);
    expect(h.generationsOf('Deployment')).to.deep.equal([1]);
    expect(h.condition('Reindexing')).to.deep.include({ status: 'True', reason: 'Migrating' });

    // By completing generation 2's migration: its populator, servers and preview Service start.
    h.completeJobs();
    await h.pass();
    await h.pass();
    expect(reloadState(h)).to.equal('CatchingUp');
    expect(h.names('Deployment')).to.include.members(['mainnet-populator-g2', 'mainnet-server-g2']);
    expect(h.kube.peek<Built<V1Service>>(PREVIEW)?.spec?.selector?.[LABEL_GENERATION]).to.equal('2');
    expect(stableGeneration(h)).to.equal('1');

    // By letting generation 2 load the chain: far behind, it is not promoted.
    h.readyDeployments();
    h.probe.set('mainnet-preview', 40, 60);
    await h.pass();
    expect(h.middleware().status?.reload).to.deep.include({ state: 'CatchingUp', height: 40, lag: 60 });
    expect(h.middleware().status?.reload?.syncedSince).to.equal(undefined);
    // far behind, it runs one server (spec.server.previewReplicas), not the active generation's two
    expect(serverReplicas(h, 2)).to.equal(1);

    // By catching up: the stable window opens, and after it the switch happens.
    h.probe.set('mainnet-preview', 100, 1);
    await h.pass();
    expect(h.middleware().status?.reload?.syncedSince).to.equal(h.clock.now().toISOString());
    h.clock.advance(59_000);
    await h.pass();
    expect(stableGeneration(h)).to.equal('1');
    h.clock.advance(1_000);
    // nearly synced, it runs the full count; the switch waits until every one of them is available
    expect(serverReplicas(h, 2)).to.equal(2);
    await h.pass();
    expect(stableGeneration(h)).to.equal('1');
    h.readyDeployments();
    h.kube.clearRecords();
    await h.pass();
    expect(stableGeneration(h)).to.equal('2');
    expect(h.kube.writes.filter((w) => w.ref.kind === 'Service' && w.ref.name === 'mainnet')).to.have.length(1);
    expect(h.middleware().status).to.deep.include({ activeGeneration: 2, previousGeneration: 1 });
    expect(h.middleware().status?.pendingGeneration).to.equal(undefined);
    // the preview Service now selects the retained generation 1 (a rollback checks it through it)
    expect(h.kube.peek<Built<V1Service>>(PREVIEW)?.spec?.selector?.[LABEL_GENERATION]).to.equal('1');
    expect(h.eventReasons()).to.include.members(['Promoted', 'Switched']);

    // By waiting inside the rollback window: generation 1 keeps running.
    h.clock.advance(30 * 60_000);
    await h.pass();
    expect(h.generationsOf('Deployment')).to.deep.equal([1, 2]);

    // By passing the window: generation 1's workloads go first, then a Job drops its schema.
    h.clock.advance(30 * 60_000);
    await h.pass();
    expect(reloadState(h)).to.equal('CleaningUp');
    expect(h.generationsOf('Deployment')).to.deep.equal([2]);
    await h.pass();
    const drop = h.jobs().find((j) => j.metadata.name.startsWith('mainnet-drop-schema-g1-'));
    expect(drop?.spec?.template.spec?.containers[0]?.env?.find((e) => e.name === 'DATABASE_SCHEMA')?.value).to.equal(
      'mainnet_g1',
    );

    // By completing the drop: the reload is Completed and only generation 2 is left.
    h.completeJobs();
    await h.pass();
    await h.pass();
    expect(reloadState(h)).to.equal('Completed');
    expect(h.generationsOf('Deployment')).to.deep.equal([2]);
    expect(h.generationsOf('Job')).to.deep.equal([2]);
    expect(h.condition('Reindexing')).to.deep.include({ status: 'False', reason: 'Completed' });
    expect(h.middleware().status?.phase).to.equal('Available');

    // By reconciling once more: nothing to write.
    h.kube.clearRecords();
    await h.pass();
    expect(h.kube.writes).to.deep.equal([]);
  });

  describe('crash at every step', () => {
    // The reference: the same reload with an operator that never fails.
    let reference: unknown;
    let writesInRun = 0;
    before(async () => {
      const h = await serving();
      requestReload(h, RELOAD);
      let count = 0;
      await drive(h, () =>
        h.newReconciler(
          new InterceptingKube(h.kube, () => {
            count++;
          }),
        ),
      );
      reference = snapshot(h);
      writesInRun = count;
    });

    it('has a reference run that ends on generation 2 alone', () => {
      expect(reference).to.deep.include({
        deployments: ['mainnet-populator-g2', 'mainnet-server-g2'],
        services: ['mainnet->2', 'mainnet-populator->undefined'],
      });
      expect(writesInRun).to.be.greaterThan(10);
    });

    it('converges to the same end state when the operator dies at any one of its writes and a fresh one takes over', async function () {
      // a whole reload per write (some 47 of them) against the CRD's schema and rules: beyond mocha's 30 s on a busy machine
      this.timeout(120_000);
      for (let n = 1; n <= writesInRun; n++) {
        const h = await serving();
        requestReload(h, RELOAD);
        const crash = crashingAt(n);
        const dying = h.newReconciler(new InterceptingKube(h.kube, crash));
        let fresh: Reconciler | undefined;
        // Until it crashes the first operator runs; then a new process with no memory continues.
        await drive(h, () => (crash.crashed() ? (fresh ??= h.newReconciler()) : dying));
        expect(crash.crashed(), `the operator reached write ${n}`).to.equal(true);
        expect(snapshot(h), `crash at write ${n}`).to.deep.equal(reference);
      }
    });

    it('converges when every single pass is made by a brand-new operator process', async () => {
      const h = await serving();
      requestReload(h, RELOAD);
      await drive(h, () => h.newReconciler());
      expect(snapshot(h)).to.deep.equal(reference);
    });
  });

  it("survives a leader change mid-reload: the old leader's stale status write is refused and the new one resumes", async () => {
    const h = await serving();
    await startReload(h, RELOAD);
    h.completeJobs();
    const newLeader = h.newReconciler();
    let handedOver = false;
    // The old leader read the Middleware, then lost its Lease; before its first status write the new leader runs.
    const oldLeader = h.newReconciler(
      new InterceptingKube(h.kube, async (verb, ref) => {
        if (!handedOver && verb === 'patchStatus' && ref.kind === 'Middleware') {
          handedOver = true;
          await newLeader(KEY);
        }
      }),
    );
    let refused: unknown;
    try {
      await oldLeader(KEY);
    } catch (err) {
      refused = err;
    }
    expect(handedOver).to.equal(true);
    expect(isKubeError(refused, 409)).to.equal(true);
    expect(reloadState(h)).to.equal('CatchingUp');
    await drive(h, () => newLeader);
    expect(reloadState(h)).to.equal('Completed');
    expect(stableGeneration(h)).to.equal('2');
  });

  it('rolls back inside the window: one write points the stable Service at 1 again, and 2 is dropped', async () => {
    const h = await serving();
    requestReload(h, RELOAD);
    const reasons: string[] = [];
    await drive(
      h,
      () => h.reconcile,
      () => {
        reasons.push(...h.eventReasons());
        if (reloadState(h) === 'Promoted' && h.middleware().metadata.annotations?.[ROLLBACK_ANNOTATION] === undefined) {
          expect(stableGeneration(h)).to.equal('2');
          // By asking for a rollback, as `mdw reload mainnet --rollback` does.
          h.kube.userPatch(MW_REF, { metadata: { annotations: { [ROLLBACK_ANNOTATION]: 'reindex-1' } } });
        }
      },
    );
    expect(reloadState(h)).to.equal('RolledBack');
    expect(stableGeneration(h)).to.equal('1');
    expect(h.middleware().status).to.deep.include({ activeGeneration: 1 });
    expect(h.generationsOf('Deployment')).to.deep.equal([1]);
    expect(h.names('Job').some((n) => n.includes('-g2-'))).to.equal(false);
    expect(reasons).to.include.members(['Promoted', 'RolledBack', 'GenerationDropped']);
  });

  it('keeps the servers the stable Service stops selecting for the configured drain: after a promotion without rollback window, after a rollback', async () => {
    // a drain shorter than the default 30 s, as a test cluster sets it: the servers go after it, not after the default
    const drain = { syncedWithinBlocks: 3, stableWindowSeconds: 60, switchDrainSeconds: 5 };
    const promoted = await serving({ promotion: drain });
    requestReload(promoted, { ...RELOAD, retainPrevious: '0s' });
    const afterPromotion = new DrainWatch(promoted);
    await drive(
      promoted,
      () => promoted.reconcile,
      () => afterPromotion.look(),
    );
    expect(reloadState(promoted)).to.equal('Completed');
    expect(afterPromotion.drains.map((d) => d.generation)).to.deep.equal([1]);
    // the drive's clock moves at least a second between passes: the servers went at the first pass past the drain
    expect(afterPromotion.drains[0]?.afterMs).to.be.within(5_000, 6_000);

    // a longer one, as for websocket clients that keep their connections: it holds the rolled-back generation as long
    const rolledBack = await serving({ promotion: { ...drain, switchDrainSeconds: 600 } });
    requestReload(rolledBack, RELOAD);
    const afterRollback = new DrainWatch(rolledBack);
    await drive(
      rolledBack,
      () => rolledBack.reconcile,
      () => {
        afterRollback.look();
        const annotations = rolledBack.middleware().metadata.annotations;
        if (reloadState(rolledBack) === 'Promoted' && annotations?.[ROLLBACK_ANNOTATION] === undefined)
          rolledBack.kube.userPatch(MW_REF, { metadata: { annotations: { [ROLLBACK_ANNOTATION]: 'reindex-1' } } });
      },
    );
    expect(reloadState(rolledBack)).to.equal('RolledBack');
    // generation 1 was never deleted (the window kept it); generation 2 went only after its drain
    expect(afterRollback.drains.map((d) => d.generation)).to.deep.equal([2]);
    expect(afterRollback.drains[0]?.afterMs).to.be.within(600_000, 601_000);
  });

  it('defaults spec.promotion.switchDrainSeconds to 30 s, refused outside 1–3600 s by the API server and the operator', async () => {
    const h = await serving();
    // the default, which the API server fills in: a Middleware from before the field drains as long as before
    expect(h.middleware().spec.promotion).to.deep.include({ switchDrainSeconds: 30 });
    await expectBoundsRefused(
      h.kube,
      ['promotion', 'switchDrainSeconds'],
      [
        [0, 'must be >= 1'],
        [3601, 'must be <= 3600'],
      ],
    );
    // let in under an older CRD: the operator refuses it and starts no reload
    h.kube.legacyPatch(MW_REF, { spec: { promotion: { switchDrainSeconds: 0 } } });
    requestReload(h, RELOAD);
    await h.pass();
    expect(h.condition('Reconciled')).to.deep.include({ status: 'False', reason: 'InvalidSpec' });
    expect(JSON.stringify(h.middleware().status?.conditions)).to.contain(
      'spec.promotion.switchDrainSeconds: must be between 1 and 3600',
    );
    expect(reloadState(h)).to.equal(undefined);
  });

  // issue 14 item 5: switching back to a generation that cannot serve would trade a working one for a broken one
  it('holds a rollback while generation 1 does not pass the gate (read through the preview Service)', async () => {
    const h = await serving();
    h.probe.set('mainnet-preview', 100, 0);
    await startReload(h, RELOAD);
    for (let i = 0; i < 10 && reloadState(h) !== 'Promoted'; i++) {
      h.completeJobs();
      h.readyDeployments();
      h.clock.advance(61_000);
      await h.pass();
    }
    expect(reloadState(h)).to.equal('Promoted');
    // during the window the preview Service selects generation 1: its populator is found dead there
    h.probe.answers.set('mainnet-preview', {
      reachable: true,
      synced: false,
      httpStatus: 503,
      height: 100,
      nodeHeight: 100,
      lag: 0,
      contiguous: true,
      populatorAlive: false,
      secondsSinceHeartbeat: 900,
    });
    h.kube.userPatch(MW_REF, { metadata: { annotations: { [ROLLBACK_ANNOTATION]: 'reindex-1' } } });
    await h.pass();
    await h.pass();
    expect(reloadState(h)).to.equal('Promoted');
    expect(stableGeneration(h)).to.equal('2');
    const waiting = h.kube.events.filter((e) => e.reason === 'RollbackWaiting');
    expect(waiting).to.have.length(1); // said once, not per pass
    expect(waiting[0]?.message).to.contain('populator not alive');
    // generation 1 recovers: the rollback goes through
    h.probe.set('mainnet-preview', 100, 0);
    await h.pass();
    expect(stableGeneration(h)).to.equal('1');
    expect(h.eventReasons()).to.include('RolledBack');
  });

  it('waits for approval when autoPromote is false, and promotes once it is set', async () => {
    const h = await serving();
    requestReload(h, { ...RELOAD, autoPromote: false });
    h.probe.set('mainnet-preview', 100, 0);
    for (let i = 0; i < 12 && reloadState(h) !== 'AwaitingPromotion'; i++) {
      await h.pass();
      h.completeJobs();
      h.readyDeployments();
      h.clock.advance(30_000);
    }
    expect(reloadState(h)).to.equal('AwaitingPromotion');
    h.clock.advance(24 * 3_600_000);
    await h.pass();
    expect(stableGeneration(h)).to.equal('1');
    expect(h.middleware().status?.phase).to.equal('Reindexing');
    // By approving, as `mdw reload mainnet --promote` does.
    h.kube.userPatch(MW_REF, { spec: { reload: { autoPromote: true } } });
    await h.pass();
    expect(reloadState(h)).to.equal('Promoted');
    expect(stableGeneration(h)).to.equal('2');
  });

  it('drops generation 2 and keeps serving 1 when its migration fails', async () => {
    const h = await serving();
    await startReload(h, RELOAD);
    const job = h.jobs().find((j) => j.metadata.name.startsWith('mainnet-migrate-g2-'))!;
    h.kube.failJob({ apiVersion: 'batch/v1', kind: 'Job', namespace: 'chain', name: job.metadata.name });
    await drive(h, () => h.reconcile);
    expect(reloadState(h)).to.equal('Failed');
    expect(stableGeneration(h)).to.equal('1');
    expect(h.generationsOf('Deployment')).to.deep.equal([1]);
    expect(h.condition('Degraded')).to.deep.include({ status: 'True', reason: 'ReloadFailed' });
  });

  it('passes BlueGreen heights to the new populator until promotion, then only follows the head', async () => {
    const h = await serving();
    requestReload(h, { ...RELOAD, heights: '0-100' });
    const argsOf = () =>
      h.deployments().find((d) => d.metadata.name === 'mainnet-populator-g2')?.spec?.template.spec?.containers[0]?.args;
    const seen: unknown[] = [];
    await drive(
      h,
      () => h.reconcile,
      () => seen.push(`${reloadState(h)} ${JSON.stringify(argsOf())}`),
    );
    expect(seen).to.include('CatchingUp ["-p","-H","0-100"]');
    expect(seen).to.include('Promoted ["-p"]');
    expect(argsOf()).to.deep.equal(['-p']);
  });

  it('retries a failed schema drop of the retired generation until it succeeds', async () => {
    const h = await serving();
    requestReload(h, { ...RELOAD, retainPrevious: '0s' });
    let failedOnce = false;
    const reasons: string[] = [];
    await drive(
      h,
      () => h.reconcile,
      () => {
        reasons.push(...h.eventReasons());
        const drop = h.jobs().find((j) => j.metadata.name.startsWith('mainnet-drop-schema-g1-'));
        if (drop !== undefined && !failedOnce) {
          failedOnce = true;
          h.kube.failJob(
            { apiVersion: 'batch/v1', kind: 'Job', namespace: 'chain', name: drop.metadata.name },
            'permission denied for schema mainnet_g1',
          );
        }
      },
    );
    expect(failedOnce).to.equal(true);
    expect(reasons).to.include.members(['CleanupFailed', 'GenerationDropped']);
    expect(reloadState(h)).to.equal('Completed');
    expect(h.generationsOf('Deployment')).to.deep.equal([2]);
  });

  it('reloads heights in place with a `-H` Job on the active generation', async () => {
    const h = await serving();
    requestReload(h, { id: 'fix-1', strategy: 'InPlace', heights: '10-20,35' });
    await h.pass();
    expect(reloadState(h)).to.equal('Reloading');
    const job = h.jobs().find((j) => j.metadata.name.startsWith('mainnet-reload-g1-'))!;
    expect(job.spec?.template.spec?.containers[0]?.args).to.deep.equal(['-H', '10-20,35']);
    expect(h.condition('Reindexing')).to.deep.include({ status: 'True', reason: 'Reloading' });
    // one writer per schema: the populator steps aside while the Job reloads, and is not reported as a problem
    const populator = () => h.deployments().find((d) => d.metadata.name.startsWith('mainnet-populator-g1'))!;
    expect(populator().spec?.replicas).to.equal(0);
    expect(h.condition('Degraded')?.status).to.not.equal('True');
    h.completeJobs();
    await h.pass();
    await h.pass();
    expect(reloadState(h)).to.equal('Completed');
    expect(h.jobs().some((j) => j.metadata.name.startsWith('mainnet-reload-'))).to.equal(false);
    expect(h.middleware().status).to.deep.include({ activeGeneration: 1 });
    expect(populator().spec?.replicas).to.equal(1);
  });

  it('aborts a reload withdrawn before promotion and drops its generation', async () => {
    const h = await serving();
    requestReload(h, RELOAD);
    await h.pass();
    h.completeJobs();
    await h.pass();
    h.kube.userPatch(MW_REF, { spec: { reload: null } });
    await drive(h, () => h.reconcile);
    expect(reloadState(h)).to.equal('Aborted');
    expect(h.generationsOf('Deployment')).to.deep.equal([1]);
    expect((h.middleware() as Middleware).status?.pendingGeneration).to.equal(undefined);
  });

  // issue 14 item 2: a pending generation whose populator is dead stays CatchingUp until the deadline ends it
  it('fails a reload whose populator never becomes alive once its deadline has passed, keeping 1', async () => {
    const h = await serving();
    await startReload(h, { ...RELOAD, deadline: '2h' });
    h.completeJobs();
    await h.pass(); // CatchingUp: the populator and preview servers of 2 exist
    h.readyDeployments();
    // the servers answer, but the populator's heartbeat is stale
    h.probe.answers.set('mainnet-preview', {
      reachable: true,
      synced: false,
      httpStatus: 503,
      height: 100,
      nodeHeight: 100,
      lag: 0,
      contiguous: true,
      populatorAlive: false,
      secondsSinceHeartbeat: 600,
      error: 'status endpoint answered 503: the populator is stuck: no heartbeat',
    });
    await h.pass();
    expect(reloadState(h)).to.equal('CatchingUp');
    expect(h.condition('PendingPopulatorReady')).to.deep.include({ status: 'False', reason: 'PopulatorStuck' });
    h.clock.advance(2 * 3_600_000 + 1);
    await h.pass();
    expect(h.eventReasons()).to.include('ReloadDeadlineExceeded');
    for (let i = 0; i < 10 && reloadState(h) !== 'Failed'; i++) {
      h.completeJobs();
      h.readyDeployments();
      await h.pass();
    }
    expect(reloadState(h)).to.equal('Failed');
    expect(stableGeneration(h)).to.equal('1');
    expect(h.generationsOf('Deployment')).to.deep.equal([1]);
    expect(h.condition('Degraded')).to.deep.include({ status: 'True', reason: 'ReloadFailed' });
  });

  // issue 14 item 5: a status lost (restored without it) must not start over at generation 1
  it('adopts the generation the stable Service selects when the status has lost its generations', async () => {
    const h = await serving();
    requestReload(h, { ...RELOAD, retainPrevious: '0s' });
    await drive(h, () => h.reconcile);
    expect(h.middleware().status?.activeGeneration).to.equal(2);
    // By losing the status (a restore without it): every generation field is gone.
    const status = h.middleware().status ?? {};
    const wiped = Object.fromEntries(Object.keys(status).map((k) => [k, null]));
    await h.kube.patchStatus(MW_REF, wiped);
    expect(h.middleware().status?.activeGeneration).to.equal(undefined);
    h.kube.clearRecords();
    await h.pass();
    expect(h.eventReasons()).to.include('GenerationAdopted');
    await h.settle();
    expect(h.middleware().status?.activeGeneration).to.equal(2);
    expect(stableGeneration(h)).to.equal('2');
    expect(h.generationsOf('Deployment')).to.deep.equal([2]);
    expect(h.names('Job').filter((n) => n.includes('-g1-'))).to.deep.equal([]);
  });

  // issue 14 item 5: an edit during CatchingUp gives the pending generation a new migration; its failure is noticed
  it('fails the reload when a spec edit during CatchingUp makes the new migration of the pending generation fail', async () => {
    const h = await serving();
    await startReload(h, RELOAD);
    h.completeJobs();
    await h.pass();
    expect(reloadState(h)).to.equal('CatchingUp');
    h.kube.userPatch(MW_REF, { spec: { image: 'ghcr.io/aeternity/mdw:2.0.0' } });
    await h.pass(); // the new image is asked for its version
    h.completeJobs(Component.databaseUsage);
    await h.pass(); // new migration Jobs for both generations
    for (const job of h.jobs().filter((j) => j.metadata.name.startsWith('mainnet-migrate-g2-') && !j.status?.succeeded))
      h.kube.failJob({ apiVersion: 'batch/v1', kind: 'Job', namespace: 'chain', name: job.metadata.name });
    await h.pass();
    expect(h.middleware().status?.reload).to.deep.include({ state: 'CleaningUp', outcome: 'Failed' });
    expect(h.eventReasons()).to.include('MigrationFailed');
  });
});
