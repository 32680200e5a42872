/**
 * @module Fetching ahead across batches. The populator prepares a batch (fetch, then decode and transform) while
 * it writes the one before, but a batch's fetch starts only when the previous batch is prepared: against a node
 * that answers in milliseconds the node's slots would idle through every decode and transform, and through the
 * tail of every batch's fetch. FetchAhead starts fetching the rest of the requested heights as soon as a batch's
 * own are fetched, so the next batch usually finds its generations fetched or in flight.
 */
import type { NodeClient } from '../node/client.ts';
import { fetchGenerations, type FetchOptions } from './fetch.ts';
import type { FetchedGeneration } from './rows.ts';

/** FetchAhead fetches batches of generations and, meanwhile, the heights after each. */
export class FetchAhead {
  readonly #node: NodeClient;
  readonly #margin: number;
  #ahead: { readonly from: number; readonly gens: Promise<FetchedGeneration[] | undefined> } | undefined;

  /**
   * `margin`: the last heights of each request are not fetched ahead (pass the fork window): near the node's
   * top a fork may replace them before they are used, and what is fetched ahead is not fetched again.
   */
  constructor(node: NodeClient, margin: number) {
    this.#node = node;
    this.#margin = margin;
  }

  /**
   * fetch returns the leading generations of `heights` that fit `maxTransactions` (at least one), using what was
   * fetched ahead when it starts at `heights[0]`, then fetches ahead the rest of `heights` (all at most the node's
   * top, which the caller read) but the last `margin`. A failure ahead is dropped: the heights are fetched again
   * when asked for.
   */
  async fetch(
    heights: readonly number[],
    concurrency: number,
    maxTransactions: number,
    opts: FetchOptions = {},
  ): Promise<FetchedGeneration[]> {
    const ahead = this.#ahead;
    this.#ahead = undefined;
    const prefetched = ahead && ahead.from === heights[0] ? await ahead.gens : undefined;
    const usable =
      prefetched !== undefined && prefetched.length > 0 && prefetched.every((g, i) => g.height === heights[i]);
    const gens = usable ? prefetched : await fetchGenerations(this.#node, heights, concurrency, maxTransactions, opts);
    const rest = heights.slice(gens.length, Math.max(gens.length, heights.length - this.#margin));
    if (rest.length > 0) {
      this.#ahead = {
        from: rest[0]!,
        gens: fetchGenerations(this.#node, rest, concurrency, maxTransactions, opts).catch(() => undefined),
      };
    }
    return gens;
  }
}
