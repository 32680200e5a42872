/**
 * @module The accounts a replay to a past block wrote in each block it passed (issue 88). A node reads an account at
 * any block in its state trees; the devnode rebuilds the state after the block from the nearest kept one below
 * (chain.ts stateAfter), which costs the blocks between. A middleware locating where a balance parted from its own
 * (the balances' bisection over a catch-up stretch) reads a few accounts at hundreds of blocks of a stretch, each
 * another state: a rebuild each, tens of blocks replayed (at 1 % of mainnet 4 reads a second, a stretch's locating
 * minutes, the populator waiting). The trail keeps, for each block a replay passed, the accounts and contracts it
 * wrote there: an account read at such a block is its last write at or before the block within the replay, else its
 * entry in the kept state the replay started from. Pure apart from its own memory.
 */
import { ownSize, type Account, type ContractEntry, type LayeredMap, type WorldState } from './state.ts';

/** One id's writes in a span: the indices of the blocks that wrote it (ascending) and what each left (undefined: deleted). */
interface Writes<V> {
  readonly at: number[];
  readonly values: (V | undefined)[];
}

/** A span is one replay's blocks, in chain order, over the kept state it started from. */
interface Span {
  readonly base: WorldState;
  readonly blocks: number[];
  readonly accounts: Map<string, Writes<Account>>;
  readonly contracts: Map<string, Writes<ContractEntry>>;
  values: number;
}

/** An account and its contract (of a `ct_` account) as the state after a block holds them. */
export interface AccountEntry {
  readonly account: Account | undefined;
  readonly contract: ContractEntry | undefined;
}

/** SpanRecorder records one replay's blocks in chain order (AccountTrail.start). */
export interface SpanRecorder {
  /** block records what block `key` wrote: `layer`'s own writes, a layer over `under` holding the block's alone */
  block(key: number, layer: WorldState, under: WorldState): void;
}

/** blockKey is the trail's key of a block: its key block's height and its index among the micro blocks (−1: the key block). */
export const blockKey = (height: number, micro: number): number => height * 65_536 + micro + 1;

/**
 * AccountTrail keeps the spans of the replays to past blocks, the least recently read dropped past `maxSpans` of them
 * or `maxValues` values: their writes, and the values of the kept state each started from in its own layer (a span
 * keeps that state alive after the history dropped it; one shared by several spans is counted in each).
 */
export class AccountTrail {
  readonly #maxSpans: number;
  readonly #maxValues: number;
  /** the spans, least recently recorded or read first */
  readonly #spans = new Set<Span>();
  /** each block passed: its span (the newest replay that passed it) and its index there */
  readonly #blocks = new Map<number, { readonly span: Span; readonly index: number }>();
  #values = 0;

  constructor(maxSpans: number, maxValues: number) {
    this.#maxSpans = maxSpans;
    this.#maxValues = maxValues;
  }

  /** start begins the span of a replay from the kept state `base` (never written again: the state before its first block). */
  start(base: WorldState): SpanRecorder {
    // the state it started from counts as its own: a span keeps it alive when the history has dropped it
    const span: Span = { base, blocks: [], accounts: new Map(), contracts: new Map(), values: ownSize(base) };
    this.#spans.add(span);
    this.#values += span.values;
    this.#evict();
    return {
      block: (key, layer, under) => {
        const index = span.blocks.push(key) - 1;
        const values =
          record(span.accounts, layer.accounts, under.accounts, index) +
          record(span.contracts, layer.contracts, under.contracts, index);
        span.values += values;
        this.#values += values;
        this.#blocks.set(key, { span, index });
        this.#evict();
      },
    };
  }

  /** read is account `accountId`'s entry and contract `contractId`'s after block `key`; undefined when no replay passed it. */
  read(key: number, accountId: string, contractId: string): AccountEntry | undefined {
    const passed = this.#blocks.get(key);
    if (!passed) return undefined;
    const { span, index } = passed;
    this.#spans.delete(span);
    this.#spans.add(span);
    return {
      account: valueAt(span.accounts.get(accountId), index, () => span.base.accounts.get(accountId)),
      contract: valueAt(span.contracts.get(contractId), index, () => span.base.contracts.get(contractId)),
    };
  }

  /** clear forgets every span (the chain's blocks changed: a fork). */
  clear(): void {
    this.#spans.clear();
    this.#blocks.clear();
    this.#values = 0;
  }

  /** #evict drops the least recently used spans while they pass either bound (the newest always stays). */
  #evict(): void {
    for (const span of this.#spans) {
      if ((this.#values <= this.#maxValues && this.#spans.size <= this.#maxSpans) || this.#spans.size === 1) break;
      this.#spans.delete(span);
      this.#values -= span.values;
      for (const key of span.blocks) if (this.#blocks.get(key)?.span === span) this.#blocks.delete(key);
    }
  }
}

/** record adds the writes of `layer` (over `under`) to `writes` at block `index`; returns how many. */
function record<V>(writes: Map<string, Writes<V>>, layer: LayeredMap<V>, under: LayeredMap<V>, index: number): number {
  let n = 0;
  for (const [id, value] of layer.writes(under)) {
    let w = writes.get(id);
    if (!w) writes.set(id, (w = { at: [], values: [] }));
    w.at.push(index);
    w.values.push(value);
    n++;
  }
  return n;
}

/** valueAt is the last write at or before block `index` (a binary search), else what the state below gives. Pure. */
function valueAt<V>(writes: Writes<V> | undefined, index: number, below: () => V | undefined): V | undefined {
  if (!writes) return below();
  let [lo, hi] = [0, writes.at.length];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (writes.at[mid]! <= index) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? below() : writes.values[lo - 1];
}
