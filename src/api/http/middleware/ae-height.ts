/**
 * @module X-Ae-Height on the node's API as this server answers it (the cached /v2, and /v3 when it is the node's): the
 * stored top, as a node after 7.2.2 stamps its own top on every answer (aehttp_state_version). Read before the answer
 * reads anything, so the answer's state is at that height or later: a lower bound, which is all the node promises.
 * A forwarded answer is the node's, with the node's own header.
 */
import type { ApiMiddleware } from '../state.ts';
import { BriefValue } from '../brief-value.ts';

/** AE_HEIGHT_HEADER is the node's header name. */
export const AE_HEIGHT_HEADER = 'X-Ae-Height';

/** TOP_TTL_MS: how long one reading of the stored top stamps answers (a top a moment old is still a lower bound). */
const TOP_TTL_MS = 1000;

/** AeHeightOptions: how the stored top is read, and whether /v3 is the node's API here (ROOT_V3=node). */
export interface AeHeightOptions {
  /** the stored top (undefined for an empty database); a failure leaves the last top read in place */
  readonly top: () => Promise<number | undefined>;
  readonly nodeV3: boolean;
  /** how long one reading stamps answers; TOP_TTL_MS unless a test asks for every answer to read again */
  readonly ttlMs?: number;
}

/** isNodeApiPath is true for a path of the node's API as this server serves it. Pure. */
export function isNodeApiPath(path: string, nodeV3: boolean): boolean {
  return path.startsWith('/v2/') || (nodeV3 && path.startsWith('/v3/'));
}

/**
 * aeHeight stamps this server's answers of the node's API, errors and memory hits included, with the stored top; the
 * header is left out while no top was ever read (an empty database, a database away since the start), as the node
 * leaves it out. Only answers before the first top was read wait for a reading: later ones take the last top read
 * (still a lower bound) while a new reading runs, so a database away never holds up a memory hit.
 */
export function aeHeight(opts: AeHeightOptions): ApiMiddleware {
  let last: number | undefined;
  const top = new BriefValue(
    () =>
      opts.top().then(
        (height) => (last = height ?? last),
        () => last,
      ),
    opts.ttlMs ?? TOP_TTL_MS,
  );
  return async function aeHeight(ctx, next) {
    if (!isNodeApiPath(ctx.path, opts.nodeV3)) return next();
    const reading = top.get();
    const height = last ?? (await reading);
    await next();
    // a forwarded answer was streamed as the node wrote it (respond false), its X-Ae-Height the node's
    if (ctx.respond !== false && height !== undefined) ctx.set(AE_HEIGHT_HEADER, String(height));
  };
}
