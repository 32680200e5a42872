/** @module The pacing counts on the devnode's internal port, a route over pacing.ts's Pacer (which http.ts serves through). */
import { HttpError, ok, type Route } from './http.ts';
import type { Pacer } from './pacing.ts';

/**
 * pacingRoute is `GET /v2/debug/dev/pacing` (internal port): the external listener's PacingStats in the node's
 * snake_case, so that a benchmark sees how close the devnode came to M ÷ L; 404 when the devnode is not paced.
 */
export function pacingRoute(pacer: Pacer | undefined): Route {
  return {
    method: 'GET',
    path: '/v2/debug/dev/pacing',
    handler: () => {
      if (!pacer) throw new HttpError(404, 'Pacing is off');
      const s = pacer.stats();
      return ok({
        latency_ms: s.latencyMs,
        max_concurrent_requests: s.maxConcurrentRequests,
        answers: s.answers,
        answer_ms: s.answerMs,
        queued_ms: s.queuedMs,
        overran: s.overran,
      });
    },
  };
}
