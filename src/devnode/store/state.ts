/** @module The devnode's world state (accounts, oracles, names, contracts, channels) as layered maps. */
import type { FateValue } from '../../chain/fate.ts';

/** DELETED marks a key deleted in a layer (hidden from the layers below): a read then costs one lookup a layer. */
const DELETED = Symbol('deleted');

/** LayeredMap reads through to its parent and writes to itself, so a mempool view costs nothing to drop. */
export class LayeredMap<V> {
  #own: Map<string, V | typeof DELETED> | undefined;
  #parent: LayeredMap<V> | undefined;

  constructor(parent?: LayeredMap<V>) {
    this.#parent = parent;
  }

  #writable(): Map<string, V | typeof DELETED> {
    this.#own ??= new Map();
    return this.#own;
  }

  /**
   * get returns the newest value of a key (undefined when absent or deleted), walking the layers in a loop: a devnode
   * reads through its checkpoints' layers (chain.ts), tens of them.
   */
  get(key: string): V | undefined {
    let value = this.#own?.get(key);
    for (let below = this.#parent; value === undefined && below; below = below.#parent) value = below.#own?.get(key);
    return value === DELETED ? undefined : value;
  }

  /** ownSize is how many values (and deletions) this layer holds itself. */
  get ownSize(): number {
    return this.#own?.size ?? 0;
  }

  /** set records a value in this layer. */
  set(key: string, value: V): void {
    this.#writable().set(key, value);
  }

  /** delete hides a key in this layer (and everything above it). */
  delete(key: string): void {
    this.#writable().set(key, DELETED);
  }

  /** commit moves this layer's writes into its parent. */
  commit(): void {
    const parent = this.#parent;
    if (!parent || !this.#own) return;
    const target = parent.#writable();
    for (const [k, v] of this.#own) target.set(k, v);
    this.#own = undefined;
  }

  /**
   * foldParent takes in the writes of its parent that it does not override and reads through the grandparent: its
   * reads stay the same and the parent is no longer one of its layers (the parent itself is left as it is).
   */
  foldParent(): void {
    const parent = this.#parent;
    if (!parent) return;
    const own = this.#writable();
    for (const [k, v] of parent.#own ?? []) if (!own.has(k)) own.set(k, v);
    this.#parent = parent.#parent;
  }

  /**
   * writes lists the writes of this layer and those below it down to `until` (excluded; to the bottom when absent),
   * newest first, deletions as undefined.
   */
  *writes(until?: LayeredMap<V>, seen = new Set<string>()): Generator<[string, V | undefined]> {
    if (this === until) return;
    for (const [k, v] of this.#own ?? []) {
      if (seen.has(k)) continue;
      seen.add(k);
      yield [k, v === DELETED ? undefined : v];
    }
    if (this.#parent) yield* this.#parent.writes(until, seen);
  }

  /** entries lists every live value, newest layer first (for small maps and tests). */
  *entries(): Generator<[string, V]> {
    for (const [k, v] of this.writes()) if (v !== undefined) yield [k, v];
  }
}

/** Account is a balance and the nonce of the last transaction it signed. */
export interface Account {
  readonly balance: bigint;
  readonly nonce: number;
  /** set by a GAAttachTx: the account authorises its transactions by this contract's function */
  readonly ga?: { readonly contractId: string; readonly authFun: string };
}

/** Oracle is a registered oracle; `expires` is the absolute height the node shows as `ttl`. */
export interface Oracle {
  readonly id: string;
  readonly queryFormat: string;
  readonly responseFormat: string;
  readonly queryFee: bigint;
  readonly expires: number;
  readonly abiVersion: number;
  readonly queryIds: readonly string[];
}

/** OracleQuery is a question; `response` stays undefined until the oracle answers. */
export interface OracleQuery {
  readonly id: string;
  readonly senderId: string;
  readonly senderNonce: number;
  readonly oracleId: string;
  readonly query: string;
  readonly response?: string;
  readonly fee: bigint;
  readonly expires: number;
  readonly responseTtl: number;
}

/** Commitment is a name preclaim waiting for its claim. */
export interface Commitment {
  readonly owner: string;
  readonly height: number;
}

/** NameEntry is a claimed (or revoked) name; `expires` is the last height it is claimed (the node's `ttl`). */
export interface NameEntry {
  readonly id: string;
  readonly name: string;
  readonly owner: string;
  readonly expires: number;
  readonly pointers: readonly { key: string; id: string }[];
  readonly revokedAt?: number;
}

/** NameAuction is a name in auction: the highest bid so far; it ends after height `ends` (the node's `ttl`). */
export interface NameAuction {
  readonly id: string;
  readonly name: string;
  readonly bidder: string;
  readonly bid: bigint;
  readonly started: number;
  readonly ends: number;
}

/** ContractEntry is a created contract (the devnode does not run contract code). */
export interface ContractEntry {
  readonly id: string;
  readonly ownerId: string;
  readonly vmVersion: number;
  readonly abiVersion: number;
  readonly deposit: bigint;
  readonly code: string;
}

/** ChannelEntry is an open state channel. */
export interface ChannelEntry {
  readonly id: string;
  readonly initiatorId: string;
  readonly responderId: string;
  /**
   * the channel's amount (aesc_channels' channel_amount): its creation's two amounts, plus its deposits, less its
   * withdrawals; a settle pays out the parties' amounts and locks the rest
   */
  readonly amount: bigint;
  /**
   * the parties' on-chain amounts: their creation's, set again by a solo close's or slash's proof and a force
   * progress's off-chain trees, never moved by deposits and withdrawals (aesc_channels)
   */
  readonly initiatorAmount: bigint;
  readonly responderAmount: bigint;
  readonly channelReserve: bigint;
  readonly lockPeriod: number;
  readonly delegateIds: readonly string[];
  readonly stateHash: string;
  readonly round: number;
  readonly soloRound: number;
  /** 0 while open; after a solo close (or a slash or force progress since), the height from which it can be settled */
  readonly lockedUntil: number;
}

/** WorldState groups the maps, keyed by the encoded id (accounts by `ak_`, names by `nm_`). */
export interface WorldState {
  readonly accounts: LayeredMap<Account>;
  readonly oracles: LayeredMap<Oracle>;
  readonly queries: LayeredMap<OracleQuery>;
  readonly commitments: LayeredMap<Commitment>;
  readonly names: LayeredMap<NameEntry>;
  readonly auctions: LayeredMap<NameAuction>;
  /** name hashes whose auction ended at a height (key: the height as text), checked against `ends` when due */
  readonly auctionEnds: LayeredMap<readonly string[]>;
  readonly contracts: LayeredMap<ContractEntry>;
  readonly channels: LayeredMap<ChannelEntry>;
  /** the storage of natively run contracts, keyed `ct_…/slot` (src/devnode/contracts/) */
  readonly contractStore: LayeredMap<FateValue>;
}

/** commitState moves a layer's writes into the state it was made over. */
export function commitState(layer: WorldState): void {
  for (const map of Object.values(layer) as LayeredMap<unknown>[]) map.commit();
}

/**
 * copyState makes a state that reads as `state` does in one layer of its own, over `over` when given (one of
 * `state`'s layers: only the writes above it are copied): a copy the caller may go on writing while `state` stays as
 * it is (the values are never changed in place, only replaced).
 */
export function copyState(state: WorldState, over?: WorldState): WorldState {
  const copy = newState(over);
  for (const [name, map] of Object.entries(state) as [keyof WorldState, LayeredMap<unknown>][]) {
    const target = copy[name] as LayeredMap<unknown>;
    for (const [k, v] of map.writes(over?.[name] as LayeredMap<unknown> | undefined)) {
      if (v !== undefined) target.set(k, v);
      else if (over) target.delete(k);
    }
  }
  return copy;
}

/** ownSize is how many values a state's own layer holds, map by map together (what keeping it costs). */
export function ownSize(state: WorldState): number {
  let size = 0;
  for (const map of Object.values(state) as LayeredMap<unknown>[]) size += map.ownSize;
  return size;
}

/** foldState folds the layer `state` is made over into it (LayeredMap.foldParent): it reads as before. */
export function foldState(state: WorldState): void {
  for (const map of Object.values(state) as LayeredMap<unknown>[]) map.foldParent();
}

/** newState makes an empty state, or a writable view over `parent`. */
export function newState(parent?: WorldState): WorldState {
  return {
    accounts: new LayeredMap(parent?.accounts),
    oracles: new LayeredMap(parent?.oracles),
    queries: new LayeredMap(parent?.queries),
    commitments: new LayeredMap(parent?.commitments),
    names: new LayeredMap(parent?.names),
    auctions: new LayeredMap(parent?.auctions),
    auctionEnds: new LayeredMap(parent?.auctionEnds),
    contracts: new LayeredMap(parent?.contracts),
    channels: new LayeredMap(parent?.channels),
    contractStore: new LayeredMap(parent?.contractStore),
  };
}
