/** @module Which failures another node may answer differently. Pure. */
import type { NodeError } from './errors.ts';

/**
 * failsOver says whether another node may answer where this one failed: no connection, a timeout,
 * a 5xx or 429, a garbled body, a 410 (this node pruned the state; an archive node keeps it), or a
 * 404 (this node may be behind the others). Any other 4xx is the same answer everywhere.
 */
export function failsOver(err: NodeError): boolean {
  return err.transient || err.gone || err.notFound;
}
