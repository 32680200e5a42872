/**
 * @module The devnode's overload on demand: the next N requests of its external API are answered as a node whose
 * request queue is full answers them (aehttp_helpers:service_unavailable): 503 `{"reason": "Temporary overload"}`
 * with `Retry-After` (nodes after 7.2.2 say 3 seconds; 30 and `Not yet started` while it is not ready), or without
 * one, as 7.2.2 answers (the recording: test/fixtures/real-node/, overload.json). Switched on through
 * the internal API (`POST /v2/debug/dev/overload`) or Devnode.overload, so that a test sees whether a client leaves
 * the node alone for as long as it asked.
 */
import { ok, validationError, type Reply, type Route } from './http.ts';
import type { Json } from '../../chain/json.ts';

/** OVERLOAD_REASON is the node's reason for a request its queue had no room for. */
export const OVERLOAD_REASON = 'Temporary overload';

/** Overload refuses the next requests it is told to, and counts the refusals. */
export class Overload {
  #remaining = 0;
  #retryAfter: string | undefined = '3';
  #refused = 0;

  /**
   * refuse has the next `requests` requests answered 503 with `Retry-After: retryAfter` (seconds or an HTTP-date), or
   * with none when it is undefined (7.2.2).
   */
  refuse(requests: number, retryAfter: string | undefined): void {
    this.#remaining = requests;
    this.#retryAfter = retryAfter;
  }

  /** take is the refusal of the request at hand while requests remain to refuse, else undefined (it is served). */
  take(): Reply | undefined {
    if (this.#remaining <= 0) return undefined;
    this.#remaining--;
    this.#refused++;
    return {
      status: 503,
      body: JSON.stringify({ reason: OVERLOAD_REASON }),
      headers: this.#retryAfter === undefined ? {} : { 'retry-after': this.#retryAfter },
    };
  }

  /** stats are the requests refused so far and those still to refuse. */
  stats(): { refused: number; remaining: number } {
    return { refused: this.#refused, remaining: this.#remaining };
  }
}

/**
 * overloadRoutes are `POST /v2/debug/dev/overload` `{"requests": N, "retry_after": "3"}` (internal port), which has the
 * external API refuse its next N requests (`"retry_after": null`: without Retry-After, as 7.2.2), and `GET` of the same
 * path: `{"refused", "remaining"}`.
 */
export function overloadRoutes(overload: Overload): Route[] {
  const path = '/v2/debug/dev/overload';
  return [
    {
      method: 'POST',
      path,
      handler: ({ body }) => {
        const b = (body ?? {}) as { [k: string]: Json };
        const requests = b.requests;
        const retryAfter = b.retry_after === undefined ? '3' : b.retry_after;
        if (typeof requests !== 'number' || !Number.isSafeInteger(requests) || requests < 0)
          throw validationError('requests', 'not_a_count', String(requests));
        if (retryAfter !== null && typeof retryAfter !== 'string' && typeof retryAfter !== 'number')
          throw validationError('retry_after', 'not_a_retry_after', String(retryAfter));
        overload.refuse(requests, retryAfter === null ? undefined : String(retryAfter));
        return ok(overload.stats());
      },
    },
    { method: 'GET', path, handler: () => ok(overload.stats()) },
  ];
}
