/** @module Turns the populator's notifications into chain events, each block sent once, in chain order. */
import { performance } from 'node:perf_hooks';
import { sleep } from '../base/retry.ts';
import type { Logger } from '../base/log.ts';
import { isDatabaseUnavailable } from '../db/connection/errors.ts';
import type { Pool } from '../db/connection/pool.ts';
import type { ChainNotification } from '../db/connection/notification.ts';
import { topHeight } from '../db/queries/blocks.ts';
import { lastReorgSeq, type Reorg } from '../db/queries/reorgs.ts';
import {
  covers,
  NODE_PAYLOADS,
  readChainChunk,
  readReplayedChainChunk,
  readStoredHashes,
  type ChainChunk,
  type ChainEvent,
  type ChunkWants,
} from './events-source.ts';
import { reorgNotice, type ReorgNotice } from './reorg-notice.ts';
import { SentBlocks } from './sent-blocks.ts';

/**
 * FeedState is the work left: heights next..wanted were never read; recheckFrom..next-1 were,
 * but the populator rewrote some of them (a fork, a reload, a grown top generation).
 */
export interface FeedState {
  readonly next: number;
  readonly wanted: number;
  readonly recheckFrom?: number;
}

/** A hub of clients the feed delivers to (hub.ts: the seed's protocol, mdw-hub.ts: ae_mdw's). */
export interface FeedHub {
  /** sends a batch of new events in chain order; `noticedAt` is performance.now() of the notification */
  publish(events: readonly ChainEvent[], noticedAt: number): void | Promise<void>;
  /**
   * sends the reorgs a chunk's snapshot logged since the last, in commit order, at once (before the new chain's blocks
   * are published, and before `settled` counts them): what a client is told before them
   */
  tell(notices: readonly ReorgNotice[]): void;
  /** false while no client of the hub subscribed to anything: with no such hub, events are not read at all */
  hasAnySubscription(): boolean;
  /** what a chunk is read for beyond the node's payloads, as the hub's subscriptions are when it is read */
  wants?(): ChunkWants;
}

export interface ChainFeedOptions {
  readonly pool: Pool;
  readonly log: Logger;
  /**
   * Set when `pool` reads replicas (db/connection/read-replicas.ts raiseFloor): resolves once every read of the server is at or
   * past a standby's replay position. A chunk read on a standby beyond the notification it acts on (a block committed
   * after it) is delivered only then, so its events are readable on whichever standby the server reads next.
   */
  readonly raiseFloor?: (lsn: bigint, signal: AbortSignal) => Promise<void>;
  /** Heights whose sent blocks are remembered; a rewrite deeper than this is not sent again. */
  readonly memoryHeights: number;
  readonly chunkHeights?: number;
  readonly retryMs?: number;
}

const DEFAULT_CHUNK_HEIGHTS = 10;
const DEFAULT_RETRY_MS = 1000;

/** noteNotification adds a committed range to the work; rewritten heights below `next` are rechecked. */
export function noteNotification(state: FeedState, n: ChainNotification, memoryHeights: number): FeedState {
  const wanted = Math.max(state.wanted, n.to);
  const lowest = Math.max(Math.min(n.from, n.rollbackFrom ?? n.from), state.next - memoryHeights, 0);
  if (lowest >= state.next) return { ...state, wanted };
  return { next: state.next, wanted, recheckFrom: Math.min(state.recheckFrom ?? lowest, lowest) };
}

/** takeChunk picks the next heights to read: rechecks first, then heights never read. */
export function takeChunk(state: FeedState, chunkHeights: number): { from: number; to: number } | undefined {
  const from = state.recheckFrom ?? state.next;
  if (from > state.wanted) return undefined;
  return { from, to: Math.min(from + chunkHeights - 1, state.wanted) };
}

/**
 * completeChunk is the state once heights from..to were sent. `state` is the current one: it may
 * have moved on (more notifications) while the chunk was read.
 */
export function completeChunk(state: FeedState, from: number, to: number): FeedState {
  const next = Math.max(state.next, to + 1);
  if (state.recheckFrom === undefined) return { next, wanted: state.wanted };
  // A notification that arrived meanwhile asked for a recheck lower than this chunk: keep it.
  if (state.recheckFrom < from) return { next, wanted: state.wanted, recheckFrom: state.recheckFrom };
  return to + 1 < next ? { next, wanted: state.wanted, recheckFrom: to + 1 } : { next, wanted: state.wanted };
}

/**
 * ChainFeed reads the rows of notified heights after their commit and delivers the blocks not yet
 * sent, so duplicates, forks and reloads give each client every new block exactly once.
 */
export class ChainFeed {
  readonly #options: ChainFeedOptions;
  readonly #hubs: FeedHub[] = [];
  readonly #sent = new SentBlocks();
  #state: FeedState = { next: 0, wanted: -1 };
  /** the last reorg logged that the feed has read (told, or read with nobody to tell) */
  #reorgSeq = 0;
  // Each chunk (read, deliver, completed) and each atFrontier call run one after the other.
  #turn: Promise<void> = Promise.resolve();
  // Arrival times of notifications not fully delivered yet, oldest first (for the latency metric).
  #noticed: { to: number; at: number }[] = [];
  #draining: Promise<void> | undefined;
  #stopped = false;
  /** the last read of chain events failed for the database being away (said once until a read succeeds) */
  #databaseAway = false;
  readonly #stopping = new AbortController();

  constructor(options: ChainFeedOptions) {
    this.#options = options;
  }

  /** subscribe adds a hub the feed delivers to, in the order added (before start). */
  subscribe(hub: FeedHub): void {
    this.#hubs.push(hub);
  }

  /** start begins after the stored top: clients get what is committed from now on. */
  async start(): Promise<void> {
    const { pool, memoryHeights } = this.#options;
    const top = (await topHeight(pool)) ?? -1;
    this.#state = { next: top + 1, wanted: top };
    const stored = await readStoredHashes(pool, top - memoryHeights + 1, top, await lastReorgSeq(pool));
    this.#sent.remember(stored.hashes);
    this.#reorgSeq = stored.reorgSeq;
  }

  /**
   * reorgSeq is the last logged reorg the feed has read: a replay's read of a snapshot with another is stale (an older
   * one: blocks it holds may be dropped, and told so) or ahead of the feed (a newer one: not told yet).
   */
  get reorgSeq(): number {
    return this.#reorgSeq;
  }

  /** next is the lowest height not delivered yet: every height below it was read and its blocks delivered. */
  get next(): number {
    return this.#state.next;
  }

  /**
   * settled is true when the feed will not deliver this block (again): it was delivered (or stored before the server
   * started), or lies too deep for a rewrite to be sent. A block of a height below `next` that is not settled was
   * committed after its height was read, and its notification will have it delivered.
   */
  settled(height: number, block: string): boolean {
    if (height >= this.#state.next) return false;
    return height < this.#state.next - this.#options.memoryHeights || this.#sent.has(height, block);
  }

  /**
   * atFrontier runs `fn` between two chunks: nothing is delivered while it runs, so `next` and `settled` hold still,
   * and a replay can hand its client over to the live events there with no gap and no repeat.
   */
  atFrontier<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#turn.then(fn);
    this.#turn = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** notify queues the heights of one populator notification. */
  notify(n: ChainNotification, at = performance.now()): void {
    this.#state = noteNotification(this.#state, n, this.#options.memoryHeights);
    this.#noticed.push({ to: n.to, at });
    this.#kick();
  }

  /**
   * catchUp delivers what was committed without a notification reaching us (before LISTEN was
   * active, or while its connection was down); with `recheck`, recent heights are re-read too,
   * in case a fork replaced them meanwhile.
   */
  async catchUp(recheck: boolean): Promise<void> {
    const at = performance.now();
    const top = (await topHeight(this.#options.pool)) ?? -1;
    const next = this.#state.next;
    const from = recheck ? Math.max(0, next - this.#options.memoryHeights) : next;
    if (top >= from) this.notify({ from, to: top }, at);
  }

  /** stop lets the batch being sent finish, and sends nothing more. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#stopping.abort();
    await this.#draining;
  }

  #kick(): void {
    this.#draining ??= this.#drain().finally(() => {
      this.#draining = undefined;
    });
  }

  async #drain(): Promise<void> {
    const { chunkHeights = DEFAULT_CHUNK_HEIGHTS, retryMs = DEFAULT_RETRY_MS, log } = this.#options;
    for (
      let chunk = takeChunk(this.#state, chunkHeights);
      chunk && !this.#stopped;
      chunk = takeChunk(this.#state, chunkHeights)
    ) {
      try {
        const range = chunk;
        await this.atFrontier(() => this.#deliverChunk(range.from, range.to));
        if (this.#databaseAway) log.info({ from: range.from, to: range.to }, 'reading chain events again');
        this.#databaseAway = false;
      } catch (err) {
        // cut short by stop (a wait for the floor, a read): nothing to retry
        if (this.#stopped) return;
        const fields = { err: (err as Error).message, from: chunk.from, to: chunk.to };
        // the database away is an outage the server logs once (its loss and return); the feed says so once too, not at
        // each retry. Anything else is a bug, which must not go quiet.
        const away = isDatabaseUnavailable(err);
        if (!away) log.error(fields, 'reading chain events failed; retrying');
        else if (!this.#databaseAway) log.warn(fields, 'reading chain events failed: the database is away; retrying');
        this.#databaseAway ||= away;
        await sleep(retryMs);
      }
    }
  }

  /**
   * #deliverChunk reads heights from..to and delivers the blocks not sent before, after telling the reorgs its
   * snapshot logged since the last chunk. A reorg below `from` (committed since the chunk was chosen) is told, and the
   * chunk put back for the rewritten heights below it to go first: the new chain's blocks come in chain order.
   */
  async #deliverChunk(from: number, to: number): Promise<void> {
    const { pool, memoryHeights } = this.#options;
    if (this.#hubs.some((hub) => hub.hasAnySubscription())) {
      const chunk = await this.#read(from, to);
      if (this.#stopped) return;
      const rewind = this.#tell(chunk);
      // the reorg's notification may come later (or was missed while LISTEN was down): the snapshot is enough
      if (rewind < this.#state.next)
        this.#state = { ...this.#state, recheckFrom: Math.min(this.#state.recheckFrom ?? rewind, rewind) };
      if (rewind < from) return;
      const events = this.#sent.unsent(chunk.events);
      const noticedAt = this.#noticed[0]?.at ?? performance.now();
      for (const hub of this.#hubs) await hub.publish(events, noticedAt);
    } else {
      // Nobody to send to (a server during the populator's backfill): only note the blocks.
      const stored = await readStoredHashes(pool, from, to, this.#reorgSeq);
      this.#forget(stored.reorgs);
      this.#reorgSeq = stored.reorgSeq;
      this.#sent.remember(stored.hashes);
    }
    this.#state = completeChunk(this.#state, from, to);
    this.#noticed = this.#noticed.filter((n) => n.to > to);
    this.#sent.forgetBelow(this.#state.next - memoryHeights);
  }

  /**
   * #tell hands on the chunk's new reorgs and returns the height the feed must deliver from for them (Infinity: no
   * reorg): the lowest height they rewrote that it remembers; a deeper one is told with the height it resends from.
   */
  #tell(chunk: ChainChunk): number {
    this.#reorgSeq = chunk.reorgSeq;
    if (chunk.reorgs.length === 0) return Infinity;
    const remembered = Math.max(0, this.#state.next - this.#options.memoryHeights);
    this.#forget(chunk.reorgs);
    const notices = chunk.reorgs.map((r) => reorgNotice(r, Math.max(r.fromHeight, remembered)));
    for (const hub of this.#hubs) hub.tell(notices);
    return Math.min(...notices.map((n) => n.resentFrom));
  }

  /** #forget drops the blocks reorgs dropped from the sent ones: if a later fork brings one back, it is sent again. */
  #forget(reorgs: readonly Reorg[]): void {
    for (const r of reorgs) this.#sent.forget(r.dropped);
  }

  /** #wants is what a chunk is read for: what any hub's subscriptions want. */
  #wants(): ChunkWants {
    let wants = NODE_PAYLOADS;
    for (const hub of this.#hubs) {
      const more = hub.wants?.();
      if (more) wants = { mdw: wants.mdw || more.mdw, epochs: wants.epochs || more.epochs };
    }
    return wants;
  }

  /**
   * #read reads heights from..to, with every payload its events go out with, in one snapshot. A subscription that wants
   * more (ae_mdw's payloads, epochs) taken while it was read may have been answered before the snapshot was taken: the
   * chunk is read again for it (rarely: a snapshot a moment later), so it gets every block committed after its answer.
   */
  async #read(from: number, to: number): Promise<ChainChunk> {
    let wants = this.#wants();
    for (;;) {
      const chunk = await this.#readFor(from, to, wants);
      const now = this.#wants();
      if (this.#stopped || covers(wants, now)) return chunk;
      wants = { mdw: wants.mdw || now.mdw, epochs: wants.epochs || now.epochs };
    }
  }

  /** #readFor reads heights from..to for `wants`; on a standby it raises the server's floor to what that standby saw. */
  async #readFor(from: number, to: number, wants: ChunkWants): Promise<ChainChunk> {
    const { pool, raiseFloor } = this.#options;
    const read = { afterSeq: this.#reorgSeq, wants };
    if (!raiseFloor) return readChainChunk(pool, from, to, read);
    const { value, replayed } = await readReplayedChainChunk(pool, from, to, read);
    // a wait for a standby (all away) ends with stop, which must not hang on it
    if (replayed !== undefined) await raiseFloor(replayed, this.#stopping.signal);
    return value;
  }
}
