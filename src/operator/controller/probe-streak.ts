/**
 * @module The active generation's status probes that failed in a row (no answer: a timeout, a refused connection),
 * kept between passes: one slow answer on a loaded machine is no outage, as a readiness probe's failureThreshold says.
 */
import type { ObjectRef } from '../kube/client.ts';
import type { ProbeResult } from './status-probe.ts';

/**
 * PROBE_FAILURE_THRESHOLD: failed probes in a row before Synced says StatusUnreachable; fewer change nothing. Three,
 * as the servers' readiness probe (and Kubernetes' default failureThreshold): a pass that finds Synced not True looks
 * again 30 s later, so a silent status endpoint shows after about a minute. An answer is no failure, whatever it says.
 */
export const PROBE_FAILURE_THRESHOLD = 3;

/** ProbeStreak is a run of failed probes of one Middleware's active generation. */
export interface ProbeStreak {
  /** How many failed in a row, this pass's included. */
  readonly failures: number;
  /** When the first of them failed (ISO 8601). */
  readonly since: string;
}

/** nextStreak is the streak after this pass's probe: an answer, or no probe (no server to ask), ends it. */
export function nextStreak(
  previous: ProbeStreak | undefined,
  probe: ProbeResult | undefined,
  now: Date,
): ProbeStreak | undefined {
  if (probe === undefined || probe.reachable) return undefined;
  return { failures: (previous?.failures ?? 0) + 1, since: previous?.since ?? now.toISOString() };
}

/**
 * ProbeRecord is a pass's probe folded into its Middleware's streak: the streak it gives, and the streak this pass
 * ended, by an answer or for want of a server to ask (what the log says: a run of failures is said at its first and
 * at its end, not at every pass between).
 */
export interface ProbeRecord {
  readonly streak: ProbeStreak | undefined;
  /** the run of failures this pass's answer ended */
  readonly answeredAfter?: ProbeStreak;
  /** the run of failures that ended without an answer: no server was available to ask this pass */
  readonly unansweredAfter?: ProbeStreak;
}

/** isTolerated: the probe failed, but not yet often enough in a row to count; the status stays as the last answer left it. */
export function isTolerated(streak: ProbeStreak | undefined): boolean {
  return streak !== undefined && streak.failures < PROBE_FAILURE_THRESHOLD;
}

/**
 * ProbeStreaks holds the streak of each Middleware (by its ref, for its uid: one deleted and made again starts afresh)
 * for the reconciler's life; a key has an entry only while its probes fail. A fresh operator (a restart, a new leader)
 * starts with none and counts from zero, keeping meanwhile Synced and the heights as the status it finds says.
 */
export class ProbeStreaks {
  readonly #streaks = new Map<string, ProbeStreak & { readonly uid: string | undefined }>();

  /** record folds this pass's probe into the key's streak and returns the streak it gives, and the one it answered. */
  record(ref: ObjectRef, uid: string | undefined, probe: ProbeResult | undefined, now: Date): ProbeRecord {
    const key = keyOf(ref);
    const kept = this.#streaks.get(key);
    const previous = kept?.uid === uid ? kept : undefined;
    const next = nextStreak(previous, probe, now);
    if (next === undefined) this.#streaks.delete(key);
    else this.#streaks.set(key, { ...next, uid });
    if (previous === undefined || probe?.reachable === false) return { streak: next };
    const ended = { failures: previous.failures, since: previous.since };
    return probe === undefined ? { streak: next, unansweredAfter: ended } : { streak: next, answeredAfter: ended };
  }

  /** forget drops the streak of a Middleware that is gone. */
  forget(ref: ObjectRef): void {
    this.#streaks.delete(keyOf(ref));
  }
}

function keyOf(ref: ObjectRef): string {
  return `${ref.namespace ?? ''}/${ref.name}`;
}
