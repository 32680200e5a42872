/** @module Which failures another node may answer differently. Pure. */
import type { NodeError } from './errors.ts';

/** An account's state after a named block (`/accounts/{id}/hash/{hash}`, read by the balances area). */
const ACCOUNT_AT_BLOCK = /^\/accounts\/[^/]+\/hash\//;

/**
 * failsOver says whether another node may answer where this one failed: no connection, a timeout,
 * a 5xx or 429, a garbled body, a 410 (this node pruned the state; an archive node keeps it), or a
 * 404 (this node may be behind the others). Any other 4xx is the same answer everywhere, and so is
 * "Account not found" after a named block: the node holds that block (else "Block not found"), and
 * every node holding it has the same state. Passing it on would let a node that is down answer last.
 */
export function failsOver(err: NodeError): boolean {
  if (err.notFound && ACCOUNT_AT_BLOCK.test(err.path) && err.message.endsWith('Account not found')) return false;
  return err.transient || err.gone || err.notFound;
}
