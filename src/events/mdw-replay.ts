/**
 * @module The replay of one ae_mdw subscription from a height: the stored events in bounded batches, then the live
 * ones, handed over between two chunks of the chain feed so that no event is missed or sent twice.
 */
import type { ChainEvent } from './events-source.ts';
import { SentBlocks } from './sent-blocks.ts';

/** What a replay needs of the chain feed (ChainFeed). */
export interface ReplayFeed {
  /** the lowest height the feed has not delivered yet */
  readonly next: number;
  /** true when the feed will not deliver this block (again) */
  settled(height: number, block: string): boolean;
  /** runs fn while the feed delivers nothing */
  atFrontier<T>(fn: () => Promise<T>): Promise<T>;
  /** the last logged reorg the feed has read and told */
  readonly reorgSeq: number;
}

export interface ReplayOptions {
  readonly fromHeight: number;
  readonly feed: ReplayFeed;
  /** reads the stored events of heights from..to in chain order, and the last reorg logged (one snapshot) */
  readonly read: (from: number, to: number) => Promise<{ events: ChainEvent[]; reorgSeq: number }>;
  /**
   * send sends the client those of the events its subscription wants, as live events look, while `current` holds; with
   * `wait` it resolves only once the client has taken most of them (so a slow reader slows its replay down instead of
   * growing a buffer). It resolves with the number of (leading) events it went through.
   */
  readonly send: (events: readonly ChainEvent[], wait: boolean, current: () => boolean) => Promise<number>;
  /** goLive hands the subscription to the live events; called while the feed delivers nothing */
  readonly goLive: () => void;
  /** heights read at once */
  readonly batchHeights: number;
  /** the feed's memoryHeights: a fork deeper than this is not sent live, nor replayed again */
  readonly memoryHeights: number;
}

/** How long a replay waits for the feed to reach its start before looking again (the feed wakes it sooner). */
const WAIT_FOR_FEED_MS = 1000;

/**
 * Replay sends the canonical chain's events from `fromHeight` up to the feed's frontier, then goes live. A block
 * is replayed only once the feed has settled it, so the feed never delivers it after the hand-over; a block the
 * feed delivers while the replay runs (a fork, a grown generation) rewinds the replay to its height, and the blocks
 * the client already got are not sent again. A read is sent only while the feed has told no reorg its snapshot did not
 * hold (reorgSeq): after a reorg is told, no block it dropped is replayed, and before it is told none of the new chain.
 */
export class Replay {
  readonly #o: ReplayOptions;
  readonly #sent = new SentBlocks();
  #cursor: number;
  #lowestDelivered = Infinity;
  #cancelled = false;
  #wake: (() => void) | undefined;

  constructor(options: ReplayOptions) {
    this.#o = options;
    this.#cursor = options.fromHeight;
  }

  /** noteDelivered tells the replay that the feed delivered blocks from `height` on: it replays them too. */
  noteDelivered(height: number): void {
    this.#lowestDelivered = Math.min(this.#lowestDelivered, height);
    this.#wake?.();
  }

  /** cancel stops the replay (the client unsubscribed or left); it never goes live. */
  cancel(): void {
    this.#cancelled = true;
    this.#wake?.();
  }

  get cancelled(): boolean {
    return this.#cancelled;
  }

  /** run replays in batches while the frontier is far, then hands over at the frontier. */
  async run(): Promise<void> {
    const { feed, batchHeights, fromHeight } = this.#o;
    while (!this.#cancelled) {
      // A client may start at the stored top + 1, which the feed may not have reached yet.
      if (feed.next < fromHeight) {
        await this.#feedMoved();
        continue;
      }
      const from = this.#start();
      const read =
        feed.next - from > batchHeights
          ? await this.#replay(from, from + batchHeights - 1, true)
          : await feed.atFrontier(async () => {
              if (this.#cancelled) return 'sent';
              const from = this.#start();
              // Nothing is delivered meanwhile: no waiting for the client here (a slow one is closed as too slow instead).
              const read = from < feed.next ? await this.#replay(from, feed.next - 1, false) : 'sent';
              if (read === 'sent' && !this.#cancelled) this.#o.goLive();
              return read === 'sent' ? 'live' : read;
            });
      if (read === 'live') return;
      // (outside atFrontier: the feed must deliver to tell it)
      if (read === 'ahead') await this.#feedMoved();
    }
  }

  /**
   * #start is where the next read begins, and moves the cursor there: the cursor, or lower where the feed delivered
   * since (never below fromHeight). Kept in the cursor, a rewind seen just before the hand-over is not lost.
   */
  #start(): number {
    this.#cursor = Math.max(this.#o.fromHeight, Math.min(this.#cursor, this.#lowestDelivered));
    this.#lowestDelivered = Infinity;
    return this.#cursor;
  }

  /**
   * #replay sends heights from..to ('sent'), unless its read was not of the reorgs the feed told: one the feed has not
   * told yet ('ahead': the replay waits for it) or a snapshot from before the last told ('stopped': read again). A
   * reorg told while it sends stops it where it is ('stopped'), to go on from there with a new read.
   */
  async #replay(from: number, to: number, wait: boolean): Promise<'sent' | 'ahead' | 'stopped'> {
    const { feed, read, send, memoryHeights } = this.#o;
    const { events, reorgSeq } = await read(from, to);
    if (this.#cancelled) return 'stopped';
    if (reorgSeq !== feed.reorgSeq) return reorgSeq > feed.reorgSeq ? 'ahead' : 'stopped';
    // What the feed has not settled it will deliver: then noteDelivered brings the replay back for it.
    const fresh = this.#sent.unsentEvents(events.filter((e) => feed.settled(e.height, e.block)));
    const sent = await send(fresh, wait, () => feed.reorgSeq === reorgSeq);
    this.#sent.noteEvents(fresh.slice(0, sent));
    // After a rewind the heights above `to` are read again too: a fork replaced them all (what was sent is skipped).
    this.#cursor = sent < fresh.length ? fresh[sent]!.height : to + 1;
    this.#sent.forgetBelow(feed.next - memoryHeights);
    return sent === fresh.length ? 'sent' : 'stopped';
  }

  /** noteReorg forgets the sent blocks a fork dropped: should a later fork bring one back, it is replayed again. */
  noteReorg(dropped: readonly string[]): void {
    this.#sent.forget(dropped);
  }

  /** #feedMoved resolves when the feed delivers, the replay is cancelled, or after a while. */
  #feedMoved(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.#wake?.(), WAIT_FOR_FEED_MS);
      this.#wake = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
    });
  }
}

/** replayRefusal is ae_mdw-style error text for a `from_height` out of bounds, or undefined when it may replay. */
export function replayRefusal(fromHeight: number, top: number, maxHeights: number): string | undefined {
  if (fromHeight > top + 1) return `from_height above the top (${top}): ${fromHeight}`;
  if (top + 1 - fromHeight > maxHeights)
    return `from_height further back than ${maxHeights} heights from the top (${top}): ${fromHeight}`;
  return undefined;
}
