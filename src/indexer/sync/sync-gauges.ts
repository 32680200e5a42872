/**
 * @module What the populator's metrics say of its progress and of its dependencies: the stored top, the node's top and
 * the lag between them, when the node last answered its top and when a batch was last committed, and whether the
 * node and the database answer. The lag is unknown (NaN) while the node cannot be asked: a stale 0 hid a populator
 * that could not reach its node from every alert (issue 90).
 */
import type { IndexerMetrics } from '../metrics.ts';

type Gauges = Pick<IndexerMetrics, 'syncHeight' | 'nodeHeight' | 'lag' | 'lastPoll' | 'lastCommit' | 'dependencyUp'>;

/** lagBlocks is how far the stored top is behind the node's (never negative: a store ahead after a fork is 0). Pure. */
export function lagBlocks(nodeTop: number, storedTop: number): number {
  return Math.max(0, nodeTop - storedTop);
}

/** SyncGauges keeps the last stored top and node top it heard of, and sets the populator's gauges from them. */
export class SyncGauges {
  readonly #metrics: Gauges;
  #storedTop: number | undefined;
  /** the node's top at its last answer, undefined since a poll failed */
  #nodeTop: number | undefined;
  #heardAt = -Infinity;

  constructor(metrics: Gauges) {
    this.#metrics = metrics;
    // the age of the last commit (loader.ts sets it at each) counts from the start until the first one, not from 1970
    metrics.lastCommit.setToCurrentTime();
  }

  /** stored is the stored top as the follower learnt it (a load, a rollback, a start). */
  stored(top: number): void {
    this.#storedTop = top;
    this.#metrics.syncHeight.set(top);
    this.#setLag();
  }

  /** heardAt is when a poll of the node last ended, answered or not (Date.now()'s clock). */
  get heardAt(): number {
    return this.#heardAt;
  }

  /** polled is the node's answer to a poll of its top. */
  polled(top: number): void {
    this.#heardAt = Date.now();
    this.#nodeTop = top;
    this.#metrics.nodeHeight.set(top);
    this.#metrics.lastPoll.setToCurrentTime();
    this.#metrics.dependencyUp.set({ dependency: 'node' }, 1);
    this.#setLag();
  }

  /** pollFailed: the node did not answer its top, so the lag is unknown until it does (mdw_node_height stays its last). */
  pollFailed(): void {
    this.#heardAt = Date.now();
    this.#nodeTop = undefined;
    this.#metrics.dependencyUp.set({ dependency: 'node' }, 0);
    this.#metrics.lag.set(NaN);
  }

  /** database says whether the database answered the populator's last use of it (its writer lock). */
  database(up: boolean): void {
    this.#metrics.dependencyUp.set({ dependency: 'database' }, up ? 1 : 0);
  }

  #setLag(): void {
    if (this.#storedTop !== undefined && this.#nodeTop !== undefined)
      this.#metrics.lag.set(lagBlocks(this.#nodeTop, this.#storedTop));
  }
}
