/** @module NodeRotation: which of several nodes a request goes to; sticky to the last that answered. Pure. */
import type { NodeError } from './errors.ts';

/** NodeRotation orders the nodes for each request: the node that last answered first, then the rest round-robin. */
export class NodeRotation {
  /** Base URLs without trailing slashes, in configured order. */
  readonly urls: readonly string[];
  #current = 0;

  constructor(urls: readonly string[]) {
    if (urls.length === 0) throw new TypeError('NodeRotation needs at least one node URL');
    this.urls = urls.map((u) => u.replace(/\/+$/, ''));
  }

  /** current is the index of the node requests start with. */
  get current(): number {
    return this.#current;
  }

  /** order lists node indexes to try for one request: the current node, then the next ones, wrapping around. */
  order(): number[] {
    return this.urls.map((_, i) => (this.#current + i) % this.urls.length);
  }

  /** answered makes node `index` the one later requests start with. */
  answered(index: number): void {
    this.#current = index;
  }
}

/**
 * failsOver says whether another node may answer where this one failed: no connection, a timeout,
 * a 5xx or 429, a garbled body, or a 410 (this node pruned the state; an archive node keeps it).
 * A 404 or other 4xx is the same answer everywhere.
 */
export function failsOver(err: NodeError): boolean {
  return err.transient || err.gone;
}
