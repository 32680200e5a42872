import { expect } from 'chai';
import type { MiddlewareCondition } from '../../../src/operator/api/middleware-types.ts';
import { nextStreak, type ProbeStreak } from '../../../src/operator/controller/probe-streak.ts';
import type { ProbeResult } from '../../../src/operator/controller/status-probe.ts';
import {
  availabilityProblem,
  availableCondition,
  degradedCondition,
  derivePhase,
  findCondition,
  pausedCondition,
  setCondition,
  setConditions,
  statusChanged,
  syncedCondition,
  type ConditionUpdate,
} from '../../../src/operator/controller/status.ts';

const t0 = new Date('2026-11-21T00:00:00Z');
const t1 = new Date('2026-11-21T00:05:00Z');

describe('setCondition', () => {
  const ready: ConditionUpdate = {
    type: 'Available',
    status: 'True',
    reason: 'AllPodsReady',
    message: '2/2 server pods available',
  };

  it('appends a new condition stamped with the time and the observed generation', () => {
    expect(setCondition([], ready, { now: t0, observedGeneration: 3 })).to.deep.equal([
      { ...ready, lastTransitionTime: t0.toISOString(), observedGeneration: 3 },
    ]);
  });

  it('keeps lastTransitionTime while the status is unchanged, even when reason, message and generation change', () => {
    const first = setCondition([], ready, { now: t0, observedGeneration: 3 });
    const second = setCondition(first, { ...ready, reason: 'Other', message: 'm' }, { now: t1, observedGeneration: 4 });
    expect(second[0]).to.deep.include({
      lastTransitionTime: t0.toISOString(),
      observedGeneration: 4,
      reason: 'Other',
      message: 'm',
    });
  });

  it('moves lastTransitionTime when the status changes', () => {
    const first = setCondition([], ready, { now: t0, observedGeneration: 3 });
    const second = setCondition(first, { ...ready, status: 'False' }, { now: t1, observedGeneration: 3 });
    expect(second[0]?.lastTransitionTime).to.equal(t1.toISOString());
  });

  it('replaces in place, leaves other conditions and never mutates its input', () => {
    const first = setConditions([], [ready, pausedCondition(false)], { now: t0, observedGeneration: 1 });
    const frozen = structuredClone(first);
    const second = setCondition(first, { ...ready, status: 'False' }, { now: t1, observedGeneration: 1 });
    expect(first).to.deep.equal(frozen);
    expect(second.map((c) => c.type)).to.deep.equal(['Available', 'ReconciliationPaused']);
    expect(findCondition(second, 'ReconciliationPaused')).to.deep.equal(first[1]);
  });

  it('gives a list equal to the old one when nothing changed (so no status write follows)', () => {
    const first = setConditions([], [ready, pausedCondition(true)], { now: t0, observedGeneration: 2 });
    const again = setConditions(first, [ready, pausedCondition(true)], { now: t1, observedGeneration: 2 });
    expect(statusChanged({ conditions: first }, { conditions: again })).to.equal(false);
  });
});

describe('availableCondition', () => {
  const cases: [string, Parameters<typeof availableCondition>[0], string, string][] = [
    ['no Deployment yet', undefined, 'False', 'DeploymentNotFound'],
    ['scaled to zero', { desired: 0, available: 0 }, 'False', 'ScaledToZero'],
    ['no pod available', { desired: 3, available: 0 }, 'False', 'NoPodReady'],
    ['some pods available', { desired: 3, available: 2 }, 'True', 'SomePodsNotReady'],
    ['every pod available', { desired: 3, available: 3 }, 'True', 'AllPodsReady'],
    ['more available than desired during a scale-down', { desired: 2, available: 3 }, 'True', 'AllPodsReady'],
  ];
  for (const [name, counts, status, reason] of cases) {
    it(`is ${status}/${reason} when ${name}`, () =>
      expect(availableCondition(counts)).to.deep.include({ type: 'Available', status, reason }));
  }
  it('says the counts in its message', () =>
    expect(availableCondition({ desired: 3, available: 2 }).message).to.equal('2/3 server pods available'));
});

describe('degradedCondition and availabilityProblem', () => {
  it('is False/NoProblems without problems', () =>
    expect(degradedCondition([])).to.deep.include({ type: 'Degraded', status: 'False', reason: 'NoProblems' }));
  it('is True with the first reason and every message', () =>
    expect(
      degradedCondition([
        { reason: 'A', message: 'a' },
        { reason: 'B', message: 'b' },
      ]),
    ).to.deep.include({ status: 'True', reason: 'A', message: 'a; b' }));
  it('turns a partially available server set into a problem', () =>
    expect(availabilityProblem(availableCondition({ desired: 3, available: 1 }))).to.deep.equal({
      reason: 'SomePodsNotReady',
      message: '1/3 server pods available',
    }));
  it('sees no problem when every pod, or none, is available', () => {
    expect(availabilityProblem(availableCondition({ desired: 3, available: 3 }))).to.equal(undefined);
    expect(availabilityProblem(availableCondition({ desired: 3, available: 0 }))).to.equal(undefined);
  });
});

describe('syncedCondition', () => {
  const cases: [string, Parameters<typeof syncedCondition>[0], string, string][] = [
    ['nothing was probed', undefined, 'Unknown', 'NotProbed'],
    [
      'the endpoint is unreachable',
      { reachable: false, synced: false, error: 'timed out' },
      'False',
      'StatusUnreachable',
    ],
    [
      'the middleware is behind',
      { reachable: true, synced: false, height: 5, nodeHeight: 90, lag: 85 },
      'False',
      'CatchingUp',
    ],
    [
      'the middleware is at the head',
      { reachable: true, synced: true, height: 90, nodeHeight: 90, lag: 0 },
      'True',
      'CaughtUp',
    ],
  ];
  for (const [name, probe, status, reason] of cases) {
    it(`is ${status}/${reason} when ${name}`, () =>
      expect(syncedCondition(probe)).to.deep.include({ type: 'Synced', status, reason }));
  }
  it('puts the heights into the message', () =>
    expect(syncedCondition({ reachable: true, synced: false, height: 5, nodeHeight: 90, lag: 85 }).message).to.equal(
      'height 5, node height 90, lag 85',
    ));

  describe('over passes whose probes time out', () => {
    const timedOut: ProbeResult = { reachable: false, synced: false, error: 'status endpoint timed out' };
    const atHead: ProbeResult = { reachable: true, synced: true, height: 90, nodeHeight: 90, lag: 0 };
    const behind: ProbeResult = {
      reachable: true,
      synced: false,
      httpStatus: 503,
      height: 60,
      nodeHeight: 90,
      lag: 30,
    };
    const passTime = (i: number) => new Date(t0.getTime() + i * 30_000);

    // passes folds probes 30 s apart through the streak and Synced, as the reconciler's passes do
    function passes(probes: readonly ProbeResult[], start?: MiddlewareCondition): MiddlewareCondition[] {
      let streak: ProbeStreak | undefined;
      let conditions = start === undefined ? [] : [start];
      return probes.map((probe, i) => {
        streak = nextStreak(streak, probe, passTime(i));
        const update = syncedCondition(probe, streak, findCondition(conditions, 'Synced'));
        conditions = setCondition(conditions, update, { now: passTime(i), observedGeneration: 1 });
        return conditions[0]!;
      });
    }
    const statuses = (list: readonly MiddlewareCondition[]) => list.map((c) => `${c.status}/${c.reason}`);

    it('keeps Synced as the last answer left it for one and two failures, heights and all', () => {
      const [answered, ...tolerated] = passes([atHead, timedOut, timedOut]);
      expect(tolerated).to.deep.equal([answered, answered]);
      expect(answered).to.deep.include({
        status: 'True',
        reason: 'CaughtUp',
        message: 'height 90, node height 90, lag 0',
      });
    });

    it('turns it False on the third in a row, naming when the first failed, and says the same after', () => {
      const seen = passes([atHead, timedOut, timedOut, timedOut, timedOut]);
      expect(statuses(seen)).to.deep.equal([
        'True/CaughtUp',
        'True/CaughtUp',
        'True/CaughtUp',
        'False/StatusUnreachable',
        'False/StatusUnreachable',
      ]);
      expect(seen[3]?.message).to.equal(`status endpoint timed out; no answer since ${passTime(1).toISOString()}`);
      expect(seen[4]).to.deep.equal(seen[3]);
    });

    it('turns it False at once on an answer with a lag, after a failure too', () => {
      expect(statuses(passes([atHead, behind]))).to.deep.equal(['True/CaughtUp', 'False/CatchingUp']);
      expect(statuses(passes([atHead, timedOut, behind]))).to.deep.equal([
        'True/CaughtUp',
        'True/CaughtUp',
        'False/CatchingUp',
      ]);
    });

    it('starts counting afresh after an answer', () =>
      expect(statuses(passes([atHead, timedOut, timedOut, atHead, timedOut, timedOut]))).to.deep.equal(
        Array(6).fill('True/CaughtUp'),
      ));

    it('keeps an answer that said behind, and a False the failures already set (an operator restarted)', () => {
      expect(statuses(passes([behind, timedOut, timedOut]))).to.deep.equal(Array(3).fill('False/CatchingUp'));
      const unreachable = passes([atHead, timedOut, timedOut, timedOut])[3];
      expect(passes([timedOut, timedOut], unreachable)).to.deep.equal([unreachable, unreachable]);
    });

    it('is Unknown/NoAnswerYet while servers that had none to ask have not answered', () => {
      const [notProbed] = setCondition([], syncedCondition(undefined), { now: t0, observedGeneration: 1 });
      expect(statuses(passes([timedOut, timedOut, timedOut], notProbed))).to.deep.equal([
        'Unknown/NoAnswerYet',
        'Unknown/NoAnswerYet',
        'False/StatusUnreachable',
      ]);
      expect(statuses(passes([timedOut]))).to.deep.equal(['Unknown/NoAnswerYet']);
    });

    it('tolerates nothing without a streak', () =>
      expect(syncedCondition(timedOut, undefined, passes([atHead])[0])).to.deep.include({
        status: 'False',
        reason: 'StatusUnreachable',
        message: 'status endpoint timed out',
      }));
  });
});

describe('pausedCondition', () => {
  it('is True/PausedBySpec when spec.paused', () =>
    expect(pausedCondition(true)).to.deep.include({ status: 'True', reason: 'PausedBySpec' }));
  it('is False/ReconciliationActive otherwise', () =>
    expect(pausedCondition(false)).to.deep.include({ status: 'False', reason: 'ReconciliationActive' }));
});

describe('derivePhase', () => {
  const c = (
    type: MiddlewareCondition['type'],
    status: MiddlewareCondition['status'],
    reason = 'R',
  ): MiddlewareCondition => ({
    type,
    status,
    reason,
    message: '',
    lastTransitionTime: t0.toISOString(),
    observedGeneration: 1,
  });
  const healthy = [
    c('Reconciled', 'True'),
    c('MigrationsApplied', 'True'),
    c('Available', 'True'),
    c('Synced', 'True'),
    c('ReconciliationPaused', 'False'),
  ];
  const cases: [string, MiddlewareCondition[], string][] = [
    ['the spec is invalid', [c('Reconciled', 'False', 'InvalidSpec')], 'Invalid'],
    ['reconciliation is paused', [...healthy.slice(0, 4), c('ReconciliationPaused', 'True')], 'Paused'],
    ['nothing was reconciled yet', [], 'Pending'],
    ['migrations are not applied', [c('Reconciled', 'True'), c('MigrationsApplied', 'False')], 'Migrating'],
    [
      'servers are not available yet',
      [c('Reconciled', 'True'), c('MigrationsApplied', 'True'), c('Available', 'False')],
      'Pending',
    ],
    ['Degraded is True', [...healthy, c('Degraded', 'True')], 'Degraded'],
    [
      'a migration failed (Degraded before Migrating)',
      [c('Reconciled', 'False'), c('MigrationsApplied', 'False'), c('Degraded', 'True', 'MigrationFailed')],
      'Degraded',
    ],
    [
      'every server is gone after serving (Degraded before Pending)',
      [
        c('Reconciled', 'True'),
        c('MigrationsApplied', 'True'),
        c('Available', 'False'),
        c('Degraded', 'True', 'NoPodReady'),
      ],
      'Degraded',
    ],
    ['a reload runs', [...healthy, c('Reindexing', 'True')], 'Reindexing'],
    ['the active generation is behind the node', [...healthy.slice(0, 3), c('Synced', 'False')], 'Syncing'],
    ['everything is fine', healthy, 'Available'],
  ];
  for (const [name, conditions, phase] of cases) {
    it(`is ${phase} when ${name}`, () => expect(derivePhase(conditions)).to.equal(phase));
  }
});

describe('statusChanged', () => {
  it('ignores key order and undefined members', () =>
    expect(statusChanged({ a: 1, b: { c: 2 }, d: undefined }, { b: { c: 2 }, a: 1 })).to.equal(false));
  it('sees a changed value', () => expect(statusChanged({ a: 1 }, { a: 2 })).to.equal(true));
});
