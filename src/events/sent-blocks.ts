/** @module The blocks already sent, per height: what makes a fork, a reload or a replay send each block once. Pure. */

/** A chain event's place: its height and its block (a transaction's is its micro block). */
export interface BlockPlace {
  readonly height: number;
  readonly block: string;
}

/** SentBlocks remembers block hashes per height, for the heights its owner keeps (forgetBelow drops the rest). */
export class SentBlocks {
  readonly #byHeight = new Map<number, Set<string>>();

  has(height: number, block: string): boolean {
    return this.#byHeight.get(height)?.has(block) ?? false;
  }

  /** remember notes blocks as sent (those stored before a server started, or read with nobody to send them to). */
  remember(hashes: ReadonlyMap<number, readonly string[]>): void {
    for (const [height, list] of hashes) for (const hash of list) this.#add(height, hash);
  }

  /** unsent keeps the events of blocks not sent before (a transaction goes with its micro block) and notes those blocks. */
  unsent<E extends BlockPlace & { readonly type: string }>(events: readonly E[]): E[] {
    const fresh = new Set<string>();
    for (const e of events) if (e.type !== 'transaction' && !this.has(e.height, e.block)) fresh.add(e.block);
    for (const e of events) if (fresh.has(e.block)) this.#add(e.height, e.block);
    return events.filter((e) => fresh.has(e.block));
  }

  /**
   * unsentEvents keeps the events not noted by noteEvents, without noting them: a replay notes what it did send, each
   * event on its own (a block whose sending stopped halfway is taken up where it stopped).
   */
  unsentEvents<E extends BlockPlace & { readonly type: string; readonly hash?: string }>(events: readonly E[]): E[] {
    return events.filter((e) => !this.has(e.height, eventKey(e)));
  }

  noteEvents(events: readonly (BlockPlace & { readonly type: string; readonly hash?: string })[]): void {
    for (const e of events) this.#add(e.height, eventKey(e));
  }

  /** forget drops blocks (and their events) a fork removed: should a later fork bring one back, it is new again. */
  forget(blocks: readonly string[]): void {
    if (blocks.length === 0) return;
    const gone = new Set(blocks);
    for (const set of this.#byHeight.values()) for (const key of set) if (gone.has(key.split(' ')[0]!)) set.delete(key);
  }

  forgetBelow(height: number): void {
    for (const h of this.#byHeight.keys()) if (h < height) this.#byHeight.delete(h);
  }

  #add(height: number, block: string): void {
    const set = this.#byHeight.get(height);
    if (set) set.add(block);
    else this.#byHeight.set(height, new Set([block]));
  }
}

/** eventKey names an event among a height's: its block, and a transaction's hash after it. */
function eventKey(e: BlockPlace & { readonly type: string; readonly hash?: string }): string {
  return e.type === 'transaction' ? `${e.block} ${e.hash}` : e.block;
}
