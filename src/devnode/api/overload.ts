/**
 * @module The devnode's overload on demand: the external API's next N routed requests find the node's regulators
 * full (pacing.ts) and get its refusal, 503 `{"reason": "Temporary overload"}`, with the node's `Retry-After` (none on
 * 7.2.2) or the one the test asks for. A test's way to have the node refuse without a burst beyond its queues:
 * switched on through the internal API (`POST /v2/debug/dev/overload`) or Devnode.overload, so that a test sees
 * whether a client leaves the node alone for as long as it asked.
 */
import { ok, validationError, type Reply, type Route } from './http.ts';
import { overloadReply } from './pacing.ts';
import type { Json } from '../../chain/json.ts';

/** Overload refuses the next requests it is told to, and counts the refusals. */
export class Overload {
  readonly #nodeRetryAfter: string | undefined;
  #remaining = 0;
  #retryAfter: string | undefined;
  #refused = 0;

  /** `nodeRetryAfter` is what the node's own refusals say in Retry-After (undefined: nothing, as 7.2.2). */
  constructor(nodeRetryAfter: string | undefined) {
    this.#nodeRetryAfter = nodeRetryAfter;
    this.#retryAfter = nodeRetryAfter;
  }

  /** refuse has the next `requests` requests refused, with `Retry-After: retryAfter` (seconds or an HTTP-date) if given. */
  refuse(requests: number, retryAfter?: string): void {
    this.#remaining = requests;
    this.#retryAfter = retryAfter ?? this.#nodeRetryAfter;
  }

  /** take is the refusal of the request at hand while requests remain to refuse, else undefined (it is served). */
  take(): Reply | undefined {
    if (this.#remaining <= 0) return undefined;
    this.#remaining--;
    this.#refused++;
    return overloadReply(this.#retryAfter);
  }

  /** stats are the requests refused so far and those still to refuse. */
  stats(): { refused: number; remaining: number } {
    return { refused: this.#refused, remaining: this.#remaining };
  }
}

/**
 * overloadRoutes are `POST /v2/debug/dev/overload` `{"requests": N, "retry_after": "3"}` (internal port; `retry_after`
 * optional), which has the external API refuse its next N requests, and `GET` of the same path: `{"refused",
 * "remaining"}`.
 */
export function overloadRoutes(overload: Overload): Route[] {
  const path = '/v2/debug/dev/overload';
  return [
    {
      method: 'POST',
      path,
      handler: ({ body }) => {
        const b = (body ?? {}) as { [k: string]: Json };
        const { requests, retry_after: retryAfter } = b;
        if (typeof requests !== 'number' || !Number.isSafeInteger(requests) || requests < 0)
          throw validationError('requests', 'not_a_count', String(requests));
        if (retryAfter !== undefined && typeof retryAfter !== 'string' && typeof retryAfter !== 'number')
          throw validationError('retry_after', 'not_a_retry_after', String(retryAfter));
        overload.refuse(requests, retryAfter === undefined ? undefined : String(retryAfter));
        return ok(overload.stats());
      },
    },
    { method: 'GET', path, handler: () => ok(overload.stats()) },
  ];
}
