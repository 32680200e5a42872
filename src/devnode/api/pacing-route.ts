/** @module The pace's counts on the devnode's internal port, a route over pacing.ts's Pacer (which both listeners share). */
import { ok, type Route } from './http.ts';
import { QUEUE_NAMES, type Pacer, type QueueStats } from './pacing.ts';

/** finite is a size as JSON has it: an unbounded one (Infinity) is null. */
const finite = (n: number): number | null => (Number.isFinite(n) ? n : null);

/** queueJson is one regulator's QueueStats in the node's snake_case. */
function queueJson(q: QueueStats): { [k: string]: number | null } {
  return {
    workers: finite(q.limits.workers),
    max_waiting: finite(q.limits.waiting),
    running: q.running,
    waiting: q.waiting,
    answers: q.answers,
    answer_ms: q.answerMs,
    queued_ms: q.queuedMs,
    overran: q.overran,
    refused: q.refused,
  };
}

/**
 * pacingRoute is `GET /v2/debug/dev/pacing` (internal port): the pace's settings, each regulator's sizes, load and
 * counts under `queues`, and the counts of both summed at the top (`answers`, `answer_ms`, `queued_ms`, `overran`,
 * `refused`), so that a benchmark sees how busy the node's workers were.
 */
export function pacingRoute(pacer: Pacer): Route {
  return {
    method: 'GET',
    path: '/v2/debug/dev/pacing',
    handler: () => {
      const s = pacer.stats();
      const queues = QUEUE_NAMES.map((name) => s.queues[name]);
      const sum = (count: (q: QueueStats) => number): number => queues.reduce((total, q) => total + count(q), 0);
      return ok({
        latency_ms: s.latencyMs,
        node_profile: s.nodeProfile,
        overload_retry_after: s.overloadRetryAfter,
        answers: sum((q) => q.answers),
        answer_ms: sum((q) => q.answerMs),
        queued_ms: sum((q) => q.queuedMs),
        overran: sum((q) => q.overran),
        refused: sum((q) => q.refused),
        queues: Object.fromEntries(QUEUE_NAMES.map((name) => [name, queueJson(s.queues[name])])),
      });
    },
  };
}
