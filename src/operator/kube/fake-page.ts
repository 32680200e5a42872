/**
 * @module The fake API server's list pages: at most `limit` objects in key order, with a `continue` token naming the
 * snapshot's resourceVersion and the last key sent, as the API server's (opaque to clients) does. Pure.
 */
import { KubeError } from './client.ts';
import type { KubeObject, ListPage } from './client.ts';
import { keyOrder } from './fake-keys.ts';

/** ContinueToken is what a continue token carries: the snapshot's resourceVersion and the last key sent. */
export interface ContinueToken {
  rv: number;
  after: string;
}

/** parseToken reads a continue token of this fake; 400 BadRequest for one it did not issue. */
export function parseToken(token: string): ContinueToken {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { rv?: unknown; after?: unknown };
    if (typeof parsed.rv === 'number' && typeof parsed.after === 'string')
      return { rv: parsed.rv, after: parsed.after };
  } catch {
    // fall through to the API server's answer to a token it did not issue
  }
  throw new KubeError(400, 'BadRequest', `invalid continue token "${token}"`);
}

/** pageOf is the first `limit` (0: all) of the objects in key order, with a token for the rest while more follow. */
export function pageOf<T extends KubeObject>(all: T[], limit: number, rv: number): ListPage<T> {
  if (limit <= 0 || all.length <= limit) return { items: all, resourceVersion: String(rv) };
  const items = all.slice(0, limit);
  const token: ContinueToken = { rv, after: keyOrder(items[items.length - 1]!) };
  return {
    items,
    resourceVersion: String(rv),
    continue: Buffer.from(JSON.stringify(token)).toString('base64url'),
  };
}
