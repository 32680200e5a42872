import { expect } from 'chai';
import {
  advanceReload,
  desiredLayout,
  isReloadBusy,
  nextGenerationNumber,
  type GenerationState,
  type ReloadObservation,
  type ReloadProgress,
  type ReloadRequest,
  type ReloadSettings,
} from '../../../src/operator/controller/bluegreen.ts';
import type { DatabaseReport } from '../../../src/operator/controller/database-report.ts';
import { restoringBootstrap } from '../../../src/operator/controller/reconcile-status.ts';
import { parseStatusBody, type ProbeResult } from '../../../src/operator/controller/status-probe.ts';

const now = new Date('2026-11-21T01:00:00Z');
const later = (ms: number): Date => new Date(now.getTime() + ms);
/** DRAIN_MS is the drain these settings ask for: not the field's default (30 s), which the machine must not assume. */
const DRAIN_MS = 45_000;
const settings: ReloadSettings = {
  maxLagBlocks: 3,
  stableWindowMs: 60_000,
  retainPreviousMs: 3_600_000,
  switchDrainMs: DRAIN_MS,
  deadlineMs: 48 * 3_600_000,
};
const blueGreen: ReloadRequest = { id: 'r1', strategy: 'BlueGreen', heights: undefined, autoPromote: true };
const manual: ReloadRequest = { ...blueGreen, autoPromote: false };
const inPlace: ReloadRequest = { id: 'r1', strategy: 'InPlace', heights: '10-20', autoPromote: true };
const quiet: ReloadObservation = {
  pendingMigration: 'Absent',
  pendingServersAvailable: false,
  reloadJob: 'Absent',
  cleanupJob: 'Absent',
};
const caughtUp: ReloadObservation = {
  ...quiet,
  pendingMigration: 'Succeeded',
  pendingServersAvailable: true,
  pendingProbe: healthy(99, 100),
};

/** healthy is the probe of a 200 answer that meets every condition of the gate. */
function healthy(height: number, nodeHeight: number): ProbeResult {
  return {
    reachable: true,
    synced: true,
    httpStatus: 200,
    height,
    nodeHeight,
    lag: nodeHeight - height,
    contiguous: true,
    populatorAlive: true,
    secondsSinceHeartbeat: 1,
  };
}

const idle: GenerationState = { activeGeneration: 1 };
function reloading(fields: Partial<ReloadProgress>, state: Partial<GenerationState> = {}): GenerationState {
  const reload: ReloadProgress = {
    id: 'r1',
    strategy: 'BlueGreen',
    state: 'Migrating',
    generation: 2,
    fromGeneration: 1,
    startedAt: now.toISOString(),
    message: 'm',
    ...fields,
  };
  return { activeGeneration: 1, pendingGeneration: 2, ...state, reload };
}

describe('advanceReload', () => {
  describe('when idle', () => {
    it('does nothing without a request', () =>
      expect(advanceReload(idle, undefined, quiet, now, settings)).to.deep.equal({ state: idle, events: [] }));

    it('starts a BlueGreen reload by checking the database, building nothing yet', () => {
      const step = advanceReload(idle, blueGreen, quiet, now, settings);
      expect(step.state).to.deep.include({ activeGeneration: 1 });
      expect(step.state.pendingGeneration).to.equal(undefined);
      expect(step.state.reload).to.deep.include({
        id: 'r1',
        state: 'CheckingDatabase',
        generation: 2,
        fromGeneration: 1,
        startedAt: now.toISOString(),
      });
      expect(step.events).to.deep.equal([
        {
          type: 'Normal',
          reason: 'ReloadStarted',
          message: 'reload r1: measuring the database before building a generation beside generation 1',
        },
      ]);
      expect(step.requeueAfterMs).to.be.greaterThan(0);
    });

    it('records a request found on the very first reconcile as done, building nothing', () => {
      const step = advanceReload(idle, blueGreen, { ...quiet, firstReconcile: true }, now, settings);
      expect(step.state).to.deep.include({ activeGeneration: 1 });
      expect(step.state.pendingGeneration).to.equal(undefined);
      expect(step.state.reload).to.deep.include({
        id: 'r1',
        state: 'Completed',
        generation: 1,
        completedAt: now.toISOString(),
      });
      expect(step.events.map((e) => e.reason)).to.deep.equal(['ReloadSkipped']);
    });

    it('starts an InPlace reload against the active generation without a new one', () => {
      const step = advanceReload(idle, inPlace, quiet, now, settings);
      expect(step.state.pendingGeneration).to.equal(undefined);
      expect(step.state.reload).to.deep.include({ state: 'Reloading', generation: 1, heights: '10-20' });
    });

    it('does not restart a finished reload with the same id', () => {
      const done = reloading({ state: 'Completed' }, { activeGeneration: 2, pendingGeneration: undefined });
      expect(advanceReload(done, blueGreen, quiet, now, settings)).to.deep.equal({ state: done, events: [] });
    });

    it('starts a new id after a rollback on a generation number never used before', () => {
      const rolledBack = reloading(
        { state: 'RolledBack', generation: 2 },
        { activeGeneration: 1, pendingGeneration: undefined },
      );
      const step = advanceReload(rolledBack, { ...blueGreen, id: 'r2' }, quiet, now, settings);
      expect(step.state.reload).to.deep.include({ state: 'CheckingDatabase', generation: 3 });
    });
  });

  describe('InPlace (Reloading)', () => {
    const running = reloading(
      { strategy: 'InPlace', state: 'Reloading', generation: 1, heights: '10-20' },
      { pendingGeneration: undefined },
    );
    it('waits while the Job runs', () =>
      expect(advanceReload(running, inPlace, { ...quiet, reloadJob: 'Running' }, now, settings).state).to.deep.equal(
        running,
      ));
    it('completes when the Job succeeded', () => {
      const step = advanceReload(running, inPlace, { ...quiet, reloadJob: 'Succeeded' }, now, settings);
      expect(step.state.reload).to.deep.include({ state: 'Completed', completedAt: now.toISOString() });
      expect(step.events[0]?.reason).to.equal('ReloadCompleted');
    });
    it('fails with a Warning when the Job failed, the generation still serving', () => {
      const step = advanceReload(running, inPlace, { ...quiet, reloadJob: 'Failed' }, now, settings);
      expect(step.state).to.deep.include({ activeGeneration: 1 });
      expect(step.state.reload?.state).to.equal('Failed');
      expect(step.events[0]).to.deep.include({ type: 'Warning', reason: 'ReloadFailed' });
    });
    it('keeps running when the request is withdrawn (a running -H is not cancelled)', () =>
      expect(advanceReload(running, undefined, { ...quiet, reloadJob: 'Running' }, now, settings).state).to.deep.equal(
        running,
      ));
  });

  describe('CheckingDatabase (issue 14: free space, schema numbers)', () => {
    const checking = reloading({ state: 'CheckingDatabase' }, { pendingGeneration: undefined });
    const GiB = 2 ** 30;
    const report = (activeBytes: number, databaseBytes: number, extra: number[] = []): DatabaseReport => ({
      databaseBytes,
      schemas: [
        { name: 'mdw_g1', generation: 1, bytes: activeBytes, migrated: true, height: 100 },
        ...extra.map((g) => ({ name: `mdw_g${g}`, generation: g, bytes: 0, migrated: false, height: null })),
      ],
    });
    const measured = (r: DatabaseReport): ReloadObservation => ({
      ...quiet,
      databaseCheck: { job: 'Succeeded', report: r },
    });
    const withCapacity = (bytes: number | undefined): ReloadSettings => ({ ...settings, storageCapacityBytes: bytes });

    it('waits while the usage Job runs', () => {
      const step = advanceReload(checking, blueGreen, { ...quiet, databaseCheck: { job: 'Running' } }, now, settings);
      expect(step.state).to.deep.equal(checking);
      expect(step.requeueAfterMs).to.be.greaterThan(0);
    });

    it('builds the generation when it fits with the margin, and records the sizes', () => {
      // 100 GiB of 500 GiB used, generation 1 holds 80 GiB: the new one needs 96 GiB, 400 GiB are free
      const step = advanceReload(
        checking,
        blueGreen,
        measured(report(80 * GiB, 100 * GiB)),
        now,
        withCapacity(500 * GiB),
      );
      expect(step.state).to.deep.include({ activeGeneration: 1, pendingGeneration: 2 });
      expect(step.state.reload).to.deep.include({ state: 'Migrating', generation: 2 });
      expect(step.state.reload?.spaceCheck?.result).to.equal('Sufficient');
      expect(step.events.map((e) => `${e.type} ${e.reason}`)).to.deep.equal([
        'Normal DatabaseSpaceChecked',
        'Normal BuildingGeneration',
      ]);
      expect(step.events[0]?.message).to.contain('96.0 GiB').and.contain('400.0 GiB of 500.0 GiB are free');
    });

    it('refuses the reload (Failed, Warning) when the new generation would not fit with the margin', () => {
      // generation 1 holds 80 GiB (+20 % = 96 GiB); only 90 GiB are free
      const step = advanceReload(
        checking,
        blueGreen,
        measured(report(80 * GiB, 410 * GiB)),
        now,
        withCapacity(500 * GiB),
      );
      expect(step.state.pendingGeneration).to.equal(undefined);
      expect(step.state.reload).to.deep.include({ state: 'Failed', completedAt: now.toISOString() });
      expect(step.state.reload?.spaceCheck?.result).to.equal('Insufficient');
      expect(step.events).to.have.length(1);
      expect(step.events[0]).to.deep.include({ type: 'Warning', reason: 'ReloadRefused' });
      expect(step.events[0]?.message).to.contain('not enough database space').and.contain('90.0 GiB of 500.0 GiB');
      expect(desiredLayout(step.state).generations.map((g) => g.generation)).to.deep.equal([1]);
    });

    it('says it skipped the check (Warning) when the capacity is unknown, then builds', () => {
      const step = advanceReload(
        checking,
        blueGreen,
        measured(report(80 * GiB, 100 * GiB)),
        now,
        withCapacity(undefined),
      );
      expect(step.state.reload).to.deep.include({ state: 'Migrating' });
      expect(step.state.reload?.spaceCheck?.result).to.equal('Skipped');
      expect(step.events[0]).to.deep.include({ type: 'Warning', reason: 'SpaceCheckSkipped' });
      expect(step.events[0]?.message).to.contain('storageCapacity is unset');
    });

    it('never reuses a number a schema of the database already has', () => {
      const step = advanceReload(checking, blueGreen, measured(report(GiB, GiB, [2, 5])), now, settings);
      expect(step.state).to.deep.include({ pendingGeneration: 6 });
      expect(step.state.reload).to.deep.include({ state: 'Migrating', generation: 6 });
    });

    it('refuses the reload when the database could not be measured', () => {
      const failed: ReloadObservation = { ...quiet, databaseCheck: { job: 'Failed', error: 'connection refused' } };
      const step = advanceReload(checking, blueGreen, failed, now, settings);
      expect(step.state.reload?.state).to.equal('Failed');
      expect(step.events[0]).to.deep.include({ type: 'Warning', reason: 'ReloadRefused' });
      expect(step.events[0]?.message).to.contain('connection refused');
    });

    it('ends Aborted (nothing to drop) when the request is withdrawn, and Failed past the deadline', () => {
      const running: ReloadObservation = { ...quiet, databaseCheck: { job: 'Running' } };
      const withdrawn = advanceReload(checking, undefined, running, now, settings);
      expect(withdrawn.state.reload).to.deep.include({ state: 'Aborted' });
      expect(withdrawn.state.reload?.cleanupGeneration).to.equal(undefined);
      const late = advanceReload(checking, blueGreen, running, later(settings.deadlineMs + 1), settings);
      expect(late.state.reload).to.deep.include({ state: 'Failed' });
      expect(late.events[0]?.reason).to.equal('ReloadDeadlineExceeded');
    });
  });

  describe('Migrating', () => {
    const migrating = reloading({ state: 'Migrating' });
    for (const job of ['Absent', 'Running'] as const) {
      it(`waits while the migration Job is ${job}`, () =>
        expect(
          advanceReload(migrating, blueGreen, { ...quiet, pendingMigration: job }, now, settings).state,
        ).to.deep.equal(migrating));
    }
    it('moves on to CatchingUp once the migration Job succeeded', () => {
      const step = advanceReload(migrating, blueGreen, { ...quiet, pendingMigration: 'Succeeded' }, now, settings);
      expect(step.state.reload?.state).to.equal('CatchingUp');
      expect(step.events[0]?.reason).to.equal('MigrationsApplied');
    });
    it('drops the new generation when its migration failed', () => {
      const step = advanceReload(migrating, blueGreen, { ...quiet, pendingMigration: 'Failed' }, now, settings);
      expect(step.state).to.deep.equal({
        activeGeneration: 1,
        reload: {
          ...migrating.reload,
          state: 'CleaningUp',
          cleanupGeneration: 2,
          outcome: 'Failed',
          message: step.events[0]?.message,
        },
      });
      expect(step.events[0]).to.deep.include({ type: 'Warning', reason: 'MigrationFailed' });
    });
  });

  describe('a reload from a snapshot', () => {
    const url = 'https://snapshots.example/mainnet/';
    const fromSnapshot: ReloadRequest = { ...blueGreen, heights: '5-7', snapshot: { url } };
    it('records the snapshot when it starts (BlueGreen), and none for InPlace', () => {
      expect(advanceReload(idle, fromSnapshot, quiet, now, settings).state.reload?.snapshot).to.deep.equal({ url });
      const inPlaceStep = advanceReload(idle, { ...inPlace, snapshot: { url } }, quiet, now, settings);
      expect(inPlaceStep.state.reload?.snapshot).to.equal(undefined);
    });
    it('says it restores the new generation when it starts building it', () => {
      const checking = reloading({ state: 'CheckingDatabase', snapshot: { url } }, { pendingGeneration: undefined });
      const report: DatabaseReport = { databaseBytes: 1, schemas: [] };
      const seen = { ...quiet, databaseCheck: { job: 'Succeeded' as const, report } };
      const step = advanceReload(checking, fromSnapshot, seen, now, settings);
      expect(step.state.reload).to.deep.include({ state: 'Migrating', generation: 2 });
      expect(step.state.reload?.message).to.equal(`restoring generation 2 from the snapshot ${url}, then migrating it`);
    });
    it('drops the new generation when its restore failed, with the import error', () => {
      const migrating = reloading({ state: 'Migrating', snapshot: { url } });
      const seen = { ...quiet, pendingMigration: 'Failed' as const, pendingRestoreError: 'MDW_DB_SCHEMA_NEWER' };
      const step = advanceReload(migrating, fromSnapshot, seen, now, settings);
      expect(step.state.reload).to.deep.include({ state: 'CleaningUp', cleanupGeneration: 2, outcome: 'Failed' });
      expect(step.events[0]).to.deep.include({ type: 'Warning', reason: 'SnapshotFailed' });
      expect(step.events[0]?.message).to.include(url).and.include('MDW_DB_SCHEMA_NEWER');
    });
    it('follows on from the snapshot once restored and migrated', () => {
      const migrating = reloading({ state: 'Migrating', snapshot: { url } });
      const step = advanceReload(migrating, fromSnapshot, { ...quiet, pendingMigration: 'Succeeded' }, now, settings);
      expect(step.state.reload?.state).to.equal('CatchingUp');
      expect(step.events[0]?.message).to.include(`restored from the snapshot ${url} and migrated`);
    });
  });

  describe('CatchingUp', () => {
    const catching = reloading({ state: 'CatchingUp' });
    it('reports the heights while the generation is behind, without a stable-window start', () => {
      const behind = {
        ...caughtUp,
        pendingProbe: { reachable: true, synced: false, height: 40, nodeHeight: 100, lag: 60 },
      };
      const step = advanceReload(catching, blueGreen, behind, now, settings);
      expect(step.state.reload).to.deep.include({ state: 'CatchingUp', height: 40, nodeHeight: 100, lag: 60 });
      expect(step.state.reload?.syncedSince).to.equal(undefined);
    });
    it('does not count an unreachable status endpoint as caught up', () => {
      const step = advanceReload(
        catching,
        blueGreen,
        { ...caughtUp, pendingProbe: { reachable: false, synced: false, error: 'timed out' } },
        now,
        settings,
      );
      expect(step.state.reload?.syncedSince).to.equal(undefined);
      expect(step.state.reload?.message).to.contain('status not reachable yet');
    });
    it('does not count a generation whose servers are not available', () =>
      expect(
        advanceReload(catching, blueGreen, { ...caughtUp, pendingServersAvailable: false }, now, settings).state.reload
          ?.syncedSince,
      ).to.equal(undefined));
    it('starts the stable window when within K blocks', () => {
      const step = advanceReload(catching, blueGreen, caughtUp, now, settings);
      expect(step.state.reload).to.deep.include({ state: 'CatchingUp', syncedSince: now.toISOString(), lag: 1 });
      expect(step.requeueAfterMs).to.be.within(1, 60_000);
    });
    it('restarts the stable window when the lag grows beyond K again', () => {
      const windowOpen = reloading({ state: 'CatchingUp', syncedSince: now.toISOString() });
      const behind = {
        ...caughtUp,
        pendingProbe: { reachable: true, synced: false, height: 90, nodeHeight: 100, lag: 10 },
      };
      expect(advanceReload(windowOpen, blueGreen, behind, later(30_000), settings).state.reload?.syncedSince).to.equal(
        undefined,
      );
    });
    it('keeps waiting inside the window', () => {
      const windowOpen = reloading({ state: 'CatchingUp', syncedSince: now.toISOString() });
      const step = advanceReload(windowOpen, blueGreen, caughtUp, later(59_000), settings);
      expect(step.state.reload?.state).to.equal('CatchingUp');
      expect(step.requeueAfterMs).to.equal(1000);
    });
    it('promotes after the stable window with autoPromote: N+1 active, N retained', () => {
      const windowOpen = reloading({ state: 'CatchingUp', syncedSince: now.toISOString() });
      const step = advanceReload(windowOpen, blueGreen, caughtUp, later(60_000), settings);
      expect(step.state).to.deep.include({
        activeGeneration: 2,
        previousGeneration: 1,
        previousExpiresAt: later(60_000 + 3_600_000).toISOString(),
      });
      expect(step.state.pendingGeneration).to.equal(undefined);
      expect(step.state.reload).to.deep.include({ state: 'Promoted', promotedAt: later(60_000).toISOString() });
      expect(step.events.map((e) => e.reason)).to.deep.equal(['Promoted']);
    });
    // clients follow a selector switch late (EndpointSlices, then kube-proxy): the servers left keep running meanwhile
    it('keeps N for the drain at least, with a rollback window shorter than it (retainPrevious 0s)', () => {
      const windowOpen = reloading({ state: 'CatchingUp', syncedSince: now.toISOString() });
      const noWindow = { ...settings, retainPreviousMs: 0 };
      const step = advanceReload(windowOpen, blueGreen, caughtUp, later(60_000), noWindow);
      expect(step.state).to.deep.include({
        activeGeneration: 2,
        previousGeneration: 1,
        previousExpiresAt: later(60_000 + DRAIN_MS).toISOString(),
      });
      const draining = advanceReload(step.state, blueGreen, quiet, later(60_000 + DRAIN_MS - 1), noWindow);
      expect(draining.state).to.deep.equal(step.state);
      expect(draining.requeueAfterMs).to.equal(1);
      const drained = advanceReload(step.state, blueGreen, quiet, later(60_000 + DRAIN_MS), noWindow);
      expect(drained.state.reload).to.deep.include({ state: 'CleaningUp', cleanupGeneration: 1 });
      expect(drained.state.previousGeneration).to.equal(undefined);
    });
    it('waits for approval without autoPromote, announcing it once', () => {
      const windowOpen = reloading({ state: 'CatchingUp', syncedSince: now.toISOString() });
      const first = advanceReload(windowOpen, manual, caughtUp, later(60_000), settings);
      expect(first.state).to.deep.include({ activeGeneration: 1, pendingGeneration: 2 });
      expect(first.state.reload?.state).to.equal('AwaitingPromotion');
      expect(first.events.map((e) => e.reason)).to.deep.equal(['AwaitingPromotion']);
      const second = advanceReload(first.state, manual, caughtUp, later(70_000), settings);
      expect(second.state).to.deep.equal(first.state);
      expect(second.events).to.deep.equal([]);
    });
    it('promotes an awaiting generation once autoPromote is set', () => {
      const awaiting = reloading({ state: 'AwaitingPromotion', syncedSince: now.toISOString() });
      expect(advanceReload(awaiting, blueGreen, caughtUp, later(90_000), settings).state.reload?.state).to.equal(
        'Promoted',
      );
    });
  });

  describe('withdrawing the request', () => {
    for (const state of ['Migrating', 'CatchingUp', 'AwaitingPromotion'] as const) {
      it(`aborts a reload in ${state} and drops its generation`, () => {
        const step = advanceReload(reloading({ state }), undefined, caughtUp, now, settings);
        expect(step.state).to.deep.include({ activeGeneration: 1 });
        expect(step.state.pendingGeneration).to.equal(undefined);
        expect(step.state.reload).to.deep.include({ state: 'CleaningUp', cleanupGeneration: 2, outcome: 'Aborted' });
        expect(step.events[0]).to.deep.include({ type: 'Warning', reason: 'ReloadAborted' });
      });
    }
    it('aborts a reload replaced with --force (the replace annotation names it); the new one starts after', () => {
      const step = advanceReload(
        reloading({ state: 'CatchingUp' }),
        { ...blueGreen, id: 'r2' },
        { ...caughtUp, replaceId: 'r1' },
        now,
        settings,
      );
      expect(step.state.reload).to.deep.include({ id: 'r1', state: 'CleaningUp', outcome: 'Aborted' });
      expect(step.events[0]?.message).to.contain('replaced by r2 (--force)');
    });
    // issue 14 item 3: a kubectl or GitOps edit of the id must not drop an in-flight reload
    for (const state of ['Migrating', 'CatchingUp', 'AwaitingPromotion'] as const) {
      it(`lets a ${state} reload go on when its id is replaced without --force (the new request waits)`, () => {
        const edited = { ...blueGreen, id: 'r2' };
        const step = advanceReload(reloading({ state }), edited, caughtUp, now, settings);
        expect(step.state.reload?.id).to.equal('r1');
        expect(step.state.reload?.state).to.not.equal('CleaningUp');
        expect(step.events.map((e) => e.reason)).to.not.include('ReloadAborted');
      });
    }
    it('a replaced reload finishes by itself, then the waiting request starts', () => {
      const edited = { ...manual, id: 'r2' }; // the new request asks for manual approval; the old one may not wait for it
      const windowOpen = reloading({ state: 'CatchingUp', syncedSince: now.toISOString() });
      const promoted = advanceReload(windowOpen, edited, caughtUp, later(60_000), settings);
      expect(promoted.state.reload).to.deep.include({ id: 'r1', state: 'Promoted' });
      const done: GenerationState = {
        activeGeneration: 2,
        reload: { ...promoted.state.reload!, state: 'Completed' },
      };
      const next = advanceReload(done, edited, quiet, later(70_000), settings);
      expect(next.state.reload).to.deep.include({ id: 'r2', state: 'CheckingDatabase', generation: 3 });
    });
    it('does not undo a promotion', () => {
      const promoted = reloading(
        { state: 'Promoted' },
        {
          activeGeneration: 2,
          pendingGeneration: undefined,
          previousGeneration: 1,
          previousExpiresAt: later(1000).toISOString(),
        },
      );
      expect(advanceReload(promoted, undefined, quiet, now, settings).state).to.deep.equal(promoted);
    });
  });

  describe('Promoted (the rollback window)', () => {
    const promoted = reloading(
      { state: 'Promoted' },
      {
        activeGeneration: 2,
        pendingGeneration: undefined,
        previousGeneration: 1,
        previousExpiresAt: later(3_600_000).toISOString(),
      },
    );
    it('keeps the previous generation until the window ends, requeueing for that moment', () => {
      const step = advanceReload(promoted, blueGreen, quiet, later(600_000), settings);
      expect(step.state).to.deep.equal(promoted);
      expect(step.requeueAfterMs).to.equal(3_000_000);
    });
    it('drops the previous generation when the window is over', () => {
      const step = advanceReload(promoted, blueGreen, quiet, later(3_600_000), settings);
      expect(step.state).to.deep.include({ activeGeneration: 2 });
      expect(step.state.previousGeneration).to.equal(undefined);
      expect(step.state.reload).to.deep.include({ state: 'CleaningUp', cleanupGeneration: 1, outcome: 'Completed' });
    });
    const rollback: ReloadObservation = {
      ...quiet,
      rollbackId: 'r1',
      previousServersAvailable: true,
      previousProbe: healthy(100, 101),
    };
    it('rolls back on the rollback annotation naming this reload: N active again, N+1 dropped once drained', () => {
      const step = advanceReload(promoted, blueGreen, rollback, later(600_000), settings);
      // N+1's servers keep running while clients follow the switch back: they were the stable Service's until now
      expect(step.state).to.deep.include({
        activeGeneration: 1,
        previousGeneration: 2,
        previousExpiresAt: later(600_000 + DRAIN_MS).toISOString(),
      });
      expect(step.state.reload).to.deep.include({ state: 'CleaningUp', cleanupGeneration: 2, outcome: 'RolledBack' });
      expect(step.events[0]?.reason).to.equal('RolledBack');
      expect(step.requeueAfterMs).to.equal(DRAIN_MS);
      expect(desiredLayout(step.state).generations).to.deep.include({ generation: 2, workloads: true, preview: false });
      const draining = advanceReload(step.state, blueGreen, quiet, later(600_000 + DRAIN_MS - 1), settings);
      expect(draining.state).to.deep.equal(step.state);
      expect(draining.requeueAfterMs).to.equal(1);
      // a drop Job seen meanwhile (it cannot run: the workloads are there) does not end the clean-up early
      const early = advanceReload(
        step.state,
        blueGreen,
        { ...quiet, cleanupJob: 'Succeeded' },
        later(600_001),
        settings,
      );
      expect(early.state).to.deep.equal(step.state);
      const drained = advanceReload(step.state, blueGreen, quiet, later(600_000 + DRAIN_MS), settings);
      expect(drained.state).to.deep.equal({ activeGeneration: 1, reload: step.state.reload });
      expect(desiredLayout(drained.state)).to.deep.equal({
        generations: [{ generation: 1, workloads: true, preview: false }],
        stableGeneration: 1,
        cleanupGeneration: 2,
      });
    });
    // issue 14 item 5: a rollback must not switch to a generation that cannot serve
    it('waits with a rollback while the previous servers are not available, saying so once', () => {
      const down: ReloadObservation = { ...rollback, previousServersAvailable: false, previousProbe: undefined };
      const step = advanceReload(promoted, blueGreen, down, later(600_000), settings);
      expect(step.state.activeGeneration).to.equal(2);
      expect(step.state.reload?.state).to.equal('Promoted');
      expect(step.state.reload?.message).to.contain('its servers are not available');
      expect(step.events.map((e) => e.reason)).to.deep.equal(['RollbackWaiting']);
      const again = advanceReload(step.state, blueGreen, down, later(610_000), settings);
      expect(again.events).to.deep.equal([]);
    });
    it('waits with a rollback while the previous populator is dead or behind', () => {
      const dead = parseStatusBody(
        503,
        JSON.stringify({ height: 90, node_height: 101, synced: false, contiguous: true, populator: { alive: false } }),
      );
      const step = advanceReload(promoted, blueGreen, { ...rollback, previousProbe: dead }, later(600_000), settings);
      expect(step.state.activeGeneration).to.equal(2);
      expect(step.state.reload?.message).to.contain('populator not alive').and.to.contain('lag 11 beyond ±3');
    });
    it('ignores a rollback annotation naming another reload', () =>
      expect(
        advanceReload(promoted, blueGreen, { ...quiet, rollbackId: 'r0' }, later(600_000), settings).state,
      ).to.deep.equal(promoted));
  });

  describe('CleaningUp', () => {
    const cleaning = reloading(
      { state: 'CleaningUp', cleanupGeneration: 1, outcome: 'Completed' },
      { activeGeneration: 2, pendingGeneration: undefined },
    );
    for (const job of ['Absent', 'Running'] as const) {
      it(`waits while the drop Job is ${job}`, () =>
        expect(advanceReload(cleaning, blueGreen, { ...quiet, cleanupJob: job }, now, settings).state).to.deep.equal(
          cleaning,
        ));
    }
    it('warns once and keeps the state while the drop Job fails', () => {
      const first = advanceReload(cleaning, blueGreen, { ...quiet, cleanupJob: 'Failed' }, now, settings);
      expect(first.state.reload?.state).to.equal('CleaningUp');
      expect(first.events.map((e) => e.reason)).to.deep.equal(['CleanupFailed']);
      expect(
        advanceReload(first.state, blueGreen, { ...quiet, cleanupJob: 'Failed' }, now, settings).events,
      ).to.deep.equal([]);
    });
    for (const outcome of ['Completed', 'RolledBack', 'Failed', 'Aborted'] as const) {
      it(`ends in ${outcome} once the schema is dropped`, () => {
        const step = advanceReload(
          { ...cleaning, reload: { ...cleaning.reload!, outcome } },
          blueGreen,
          { ...quiet, cleanupJob: 'Succeeded' },
          now,
          settings,
        );
        expect(step.state.reload).to.deep.include({ state: outcome, completedAt: now.toISOString() });
        expect(step.state.reload?.cleanupGeneration).to.equal(undefined);
        expect(isReloadBusy(step.state)).to.equal(false);
      });
    }
  });
});

describe('desiredLayout', () => {
  const cases: [string, GenerationState, ReturnType<typeof desiredLayout>][] = [
    ['idle', idle, { generations: [{ generation: 1, workloads: true, preview: false }], stableGeneration: 1 }],
    [
      'migrating N+1: only its migration Job',
      reloading({ state: 'Migrating' }),
      {
        generations: [
          { generation: 1, workloads: true, preview: false },
          { generation: 2, workloads: false, preview: false },
        ],
        stableGeneration: 1,
      },
    ],
    [
      'migrating N+1 from a snapshot: its restore, then its migration Job',
      reloading({ state: 'Migrating', snapshot: { url: 'https://s.example/' } }),
      {
        generations: [
          { generation: 1, workloads: true, preview: false },
          { generation: 2, workloads: false, preview: false, restore: { url: 'https://s.example/' } },
        ],
        stableGeneration: 1,
      },
    ],
    [
      'catching up from a snapshot: nothing restores N+1 again',
      reloading({ state: 'CatchingUp', snapshot: { url: 'https://s.example/' } }),
      {
        generations: [
          { generation: 1, workloads: true, preview: false },
          { generation: 2, workloads: true, preview: true, previewScale: true },
        ],
        stableGeneration: 1,
      },
    ],
    [
      'catching up: N+1 workloads behind a preview Service, its servers at the preview count (issue 43 item 2)',
      reloading({ state: 'CatchingUp' }),
      {
        generations: [
          { generation: 1, workloads: true, preview: false },
          { generation: 2, workloads: true, preview: true, previewScale: true },
        ],
        stableGeneration: 1,
      },
    ],
    [
      'nearly synced (the stable window runs): N+1 servers at the full count, before the switch',
      reloading({ state: 'CatchingUp', syncedSince: '2026-11-20T00:00:00.000Z' }),
      {
        generations: [
          { generation: 1, workloads: true, preview: false },
          { generation: 2, workloads: true, preview: true },
        ],
        stableGeneration: 1,
      },
    ],
    [
      'catching up with heights: N+1 populator gets them',
      reloading({ state: 'CatchingUp', heights: '0-99' }),
      {
        generations: [
          { generation: 1, workloads: true, preview: false },
          { generation: 2, workloads: true, preview: true, heights: '0-99', previewScale: true },
        ],
        stableGeneration: 1,
      },
    ],
    [
      'promoted: stable on N+1, N retained (and previewed, for a rollback to check)',
      reloading({ state: 'Promoted' }, { activeGeneration: 2, pendingGeneration: undefined, previousGeneration: 1 }),
      {
        generations: [
          { generation: 2, workloads: true, preview: false },
          { generation: 1, workloads: true, preview: true },
        ],
        stableGeneration: 2,
      },
    ],
    [
      'cleaning up N',
      reloading({ state: 'CleaningUp', cleanupGeneration: 1 }, { activeGeneration: 2, pendingGeneration: undefined }),
      { generations: [{ generation: 2, workloads: true, preview: false }], stableGeneration: 2, cleanupGeneration: 1 },
    ],
    [
      'reloading in place',
      reloading(
        { strategy: 'InPlace', state: 'Reloading', generation: 1, heights: '5' },
        { pendingGeneration: undefined },
      ),
      {
        generations: [{ generation: 1, workloads: true, preview: false, populatorStopped: true }],
        stableGeneration: 1,
        reloadJob: { id: 'r1', generation: 1, heights: '5' },
      },
    ],
  ];
  for (const [name, state, layout] of cases)
    it(`asks for the right children when ${name}`, () => expect(desiredLayout(state)).to.deep.equal(layout));
});

describe('desiredLayout of a first generation starting from a snapshot', () => {
  it('gives the active generation its restore while status.bootstrap says it is not restored', () => {
    const snapshot = { volume: { claimName: 'snaps', path: 'mainnet' } };
    expect(desiredLayout(idle, snapshot).generations).to.deep.equal([
      { generation: 1, workloads: true, preview: false, restore: snapshot },
    ]);
    const bootstrap = { generation: 1, snapshot, message: 'm' };
    expect(restoringBootstrap({ bootstrap: { ...bootstrap, state: 'Restoring' } }, idle)).to.deep.equal(snapshot);
    expect(restoringBootstrap({ bootstrap: { ...bootstrap, state: 'Failed' } }, idle)).to.deep.equal(snapshot);
    expect(restoringBootstrap({ bootstrap: { ...bootstrap, state: 'Restored' } }, idle)).to.equal(undefined);
    // a reload has replaced the generation restored: nothing is restored into the new active one
    const later = { activeGeneration: 2 };
    expect(restoringBootstrap({ bootstrap: { ...bootstrap, state: 'Restoring' } }, later)).to.equal(undefined);
  });
});

describe('nextGenerationNumber', () => {
  it('is one above every generation in use or last built', () => {
    expect(nextGenerationNumber(idle)).to.equal(2);
    expect(
      nextGenerationNumber(reloading({ state: 'RolledBack', generation: 7 }, { pendingGeneration: undefined })),
    ).to.equal(8);
  });
});

describe('a whole BlueGreen reload against a simulated cluster', () => {
  // The cluster model: a Job the layout asks for completes on the next look; servers are
  // available once their workloads exist; the status probe says "caught up" from then on.
  function observe(state: GenerationState, rollbackId?: string): ReloadObservation {
    const layout = desiredLayout(state);
    const pending = layout.generations.find((g) => g.generation === state.reload?.generation);
    return {
      pendingMigration: pending ? 'Succeeded' : 'Absent',
      pendingServersAvailable: pending?.workloads ?? false,
      ...(pending?.preview ? { pendingProbe: healthy(100, 100) } : {}),
      reloadJob: layout.reloadJob ? 'Succeeded' : 'Absent',
      cleanupJob: layout.cleanupGeneration === undefined ? 'Absent' : 'Succeeded',
      ...(state.reload?.state === 'CheckingDatabase'
        ? { databaseCheck: { job: 'Succeeded', report: { databaseBytes: 0, schemas: [] } } }
        : {}),
      ...(rollbackId === undefined
        ? {}
        : { rollbackId, previousServersAvailable: true, previousProbe: healthy(100, 100) }),
    };
  }
  function run(request: ReloadRequest, rollbackAt?: string): { trail: string[]; end: GenerationState } {
    let state: GenerationState = idle;
    let clock = now.getTime();
    const trail: string[] = [];
    for (let i = 0; i < 50 && (trail.length === 0 || isReloadBusy(state)); i++) {
      // The status is persisted as JSON; the next step must work from that alone.
      state = JSON.parse(JSON.stringify(state)) as GenerationState;
      const step = advanceReload(
        state,
        request,
        observe(state, state.reload?.state === rollbackAt ? request.id : undefined),
        new Date(clock),
        settings,
      );
      if (step.state.reload?.state !== state.reload?.state) trail.push(step.state.reload?.state ?? 'none');
      state = step.state;
      clock += step.requeueAfterMs ?? 1000;
    }
    return { trail, end: state };
  }

  it('goes CheckingDatabase → Migrating → CatchingUp → Promoted → CleaningUp → Completed, ending on generation 2 alone', () => {
    const { trail, end } = run(blueGreen);
    expect(trail).to.deep.equal(['CheckingDatabase', 'Migrating', 'CatchingUp', 'Promoted', 'CleaningUp', 'Completed']);
    expect(desiredLayout(end)).to.deep.equal({
      generations: [{ generation: 2, workloads: true, preview: false }],
      stableGeneration: 2,
    });
  });

  it('rolls back inside the window, ending on generation 1 alone', () => {
    const { trail, end } = run(blueGreen, 'Promoted');
    expect(trail).to.deep.equal([
      'CheckingDatabase',
      'Migrating',
      'CatchingUp',
      'Promoted',
      'CleaningUp',
      'RolledBack',
    ]);
    expect(desiredLayout(end)).to.deep.equal({
      generations: [{ generation: 1, workloads: true, preview: false }],
      stableGeneration: 1,
    });
  });

  it('runs an InPlace reload as Reloading → Completed on generation 1', () => {
    const { trail, end } = run(inPlace);
    expect(trail).to.deep.equal(['Reloading', 'Completed']);
    expect(end.activeGeneration).to.equal(1);
  });
});

// issue 14 item 1: fake `/middleware/status` answers, parsed as the probe parses them, fed to the gate for longer
// than the stable window. None of them may be promoted; the healthy one is.
describe('the promotion gate over fake status answers (issue 14)', () => {
  const body = (fields: Record<string, unknown>): string =>
    JSON.stringify({
      height: 100,
      node_height: 101,
      lag: 1,
      synced: true,
      contiguous: true,
      populator: { status: 'synced', alive: true, seconds_since_heartbeat: 2 },
      ...fields,
    });
  const answers: { name: string; status: number; body: string; blocker: string }[] = [
    {
      name: 'a 503 (the populator is stuck) whose body still says lag 0',
      status: 503,
      body: body({ reason: 'the populator is stuck: no heartbeat', lag: 0, node_height: 100 }),
      blocker: 'answered 503',
    },
    {
      name: 'a frozen lag: the body says lag 0 but the node is 40 blocks ahead of the stored height',
      status: 200,
      body: body({ lag: 0, node_height: 140 }),
      blocker: 'lag 40 beyond ±3',
    },
    {
      name: 'no node height (the node cannot be reached)',
      status: 200,
      body: body({ lag: 0, node_height: null }),
      blocker: 'lag unknown',
    },
    {
      name: 'a stale heartbeat',
      status: 200,
      body: body({ populator: { status: 'syncing', alive: false, seconds_since_heartbeat: 120 } }),
      blocker: 'populator not alive (heartbeat 120 s old)',
    },
    {
      name: 'a sparse range (a -H near the head on an empty schema)',
      status: 200,
      body: body({ contiguous: false }),
      blocker: 'not contiguous',
    },
    {
      name: 'an old server without contiguous or populator fields',
      status: 200,
      body: JSON.stringify({ height: 100, node_height: 100, lag: 0, synced: true }),
      blocker: 'not contiguous',
    },
    { name: 'synced: false', status: 200, body: body({ synced: false }), blocker: 'not synced' },
  ];
  const catching = reloading({ state: 'CatchingUp' });
  const seen = (probe: ProbeResult): ReloadObservation => ({ ...caughtUp, pendingProbe: probe });

  /** run probes every 10 s for 90 s (beyond the 60 s window) and returns the last step. */
  function runFor90s(probe: ProbeResult) {
    let state = catching;
    let step = advanceReload(state, blueGreen, seen(probe), now, settings);
    for (let t = 10_000; t <= 90_000; t += 10_000) {
      state = step.state;
      step = advanceReload(state, blueGreen, seen(probe), later(t), settings);
    }
    return step;
  }

  for (const a of answers) {
    it(`never promotes on ${a.name}`, () => {
      const step = runFor90s(parseStatusBody(a.status, a.body));
      expect(step.state.activeGeneration).to.equal(1);
      expect(step.state.reload?.state).to.equal('CatchingUp');
      expect(step.state.reload?.syncedSince).to.equal(undefined);
      expect(step.state.reload?.message).to.contain(a.blocker);
    });
  }

  it('promotes a healthy answer once the stable window has passed', () => {
    const step = runFor90s(parseStatusBody(200, body({})));
    expect(step.state.activeGeneration).to.equal(2);
    expect(step.state.reload?.state).to.equal('Promoted');
  });

  it('switches only once the pending generation runs all its servers (it caught up at the preview count)', () => {
    const scaling = (scaled: boolean) => ({ ...seen(parseStatusBody(200, body({}))), pendingServersScaled: scaled });
    const open = advanceReload(catching, blueGreen, scaling(false), now, settings);
    const waiting = advanceReload(open.state, blueGreen, scaling(false), later(90_000), settings);
    expect(waiting.state.activeGeneration).to.equal(1);
    expect(waiting.state.reload).to.deep.include({ state: 'CatchingUp', syncedSince: now.toISOString() });
    expect(waiting.state.reload?.message).to.contain('the switch waits for all its servers');
    // the layout keeps the full count meanwhile: no flapping back to the preview count
    expect(desiredLayout(waiting.state).generations[1]?.previewScale).to.equal(undefined);
    const step = advanceReload(waiting.state, blueGreen, scaling(true), later(100_000), settings);
    expect(step.state.reload?.state).to.equal('Promoted');
  });

  it('restarts the window when the populator dies inside it', () => {
    const open = advanceReload(catching, blueGreen, seen(parseStatusBody(200, body({}))), now, settings);
    expect(open.state.reload?.syncedSince).to.equal(now.toISOString());
    const dead = parseStatusBody(503, body({ populator: { status: 'syncing', alive: false } }));
    const step = advanceReload(open.state, blueGreen, seen(dead), later(30_000), settings);
    expect(step.state.reload?.syncedSince).to.equal(undefined);
  });
});

// issue 14 item 2: a reload that never passes the gate ends Failed at its deadline.
describe('the reload deadline (issue 14)', () => {
  const deadlineMs = settings.deadlineMs;
  for (const state of ['Migrating', 'CatchingUp'] as const) {
    it(`fails a reload stuck in ${state} past its deadline, dropping the generation`, () => {
      const stuck = reloading({ state, message: 'generation 2 is catching up: not ready: populator not alive' });
      const before = advanceReload(stuck, blueGreen, quiet, later(deadlineMs), settings);
      expect(before.state.reload?.state).to.equal(state);
      const step = advanceReload(stuck, blueGreen, quiet, later(deadlineMs + 1), settings);
      expect(step.state).to.deep.include({ activeGeneration: 1 });
      expect(step.state.reload).to.deep.include({ state: 'CleaningUp', cleanupGeneration: 2, outcome: 'Failed' });
      expect(step.events[0]).to.deep.include({ type: 'Warning', reason: 'ReloadDeadlineExceeded' });
      expect(step.events[0]?.message).to.contain('populator not alive');
      const done = advanceReload(
        step.state,
        blueGreen,
        { ...quiet, cleanupJob: 'Succeeded' },
        later(deadlineMs + 2),
        settings,
      );
      expect(done.state.reload?.state).to.equal('Failed');
    });
  }
  it('lets a reload awaiting a person wait past the deadline', () => {
    const waiting = reloading({ state: 'AwaitingPromotion', syncedSince: now.toISOString() });
    const step = advanceReload(waiting, manual, caughtUp, later(deadlineMs + 1), settings);
    expect(step.state.reload?.state).to.equal('AwaitingPromotion');
  });
  it('never ends a reload with a deadline of 0', () => {
    const stuck = reloading({ state: 'CatchingUp' });
    const step = advanceReload(stuck, blueGreen, quiet, later(10 * deadlineMs), { ...settings, deadlineMs: 0 });
    expect(step.state.reload?.state).to.equal('CatchingUp');
  });
});
