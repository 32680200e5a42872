/**
 * @module The token rows the populator writes (tables aexn_contracts, aexn_call_created, aex9_events, aex141_events),
 * declared beside the statements that write them (aexn.ts, aex9.ts, aex141.ts): db/ owns the shapes of its rows, and
 * the indexer's pure derivations (indexer/aexn-rows.ts, aex141-events.ts) build them. Types only.
 */
import type { TxPosition } from '../queries/transaction-filter.ts';

/** AexnType is the token standard a contract implements (the aexn_type column). */
export type AexnType = 'aex9' | 'aex141';

/** RowTx is the transaction a row belongs to: its place in the chain (the tables' keyset) and its hash. */
interface RowTx extends TxPosition {
  readonly txHash: string;
}

/** AexnContractRow is one AEX-9 or AEX-141 contract at its creation (table aexn_contracts). */
export interface AexnContractRow extends RowTx {
  readonly contractId: string;
  readonly aexnType: AexnType;
  readonly createdByCall: boolean;
  readonly name: string | null;
  readonly symbol: string | null;
  readonly decimals: number | null;
  readonly baseUrl: string | null;
  readonly metadataType: string | null;
  readonly extensions: readonly string[];
  readonly metaInvalid: boolean;
  readonly balancesUnknown: boolean;
  /** AEX-9: a wrapped AE (its code, or DEX_WRAPPED_AE), whose Deposit and Withdrawal events mint and burn */
  readonly wrappedAe: boolean;
}

/** AexnCallCreatedRow is a contract created inside a call, checked once (table aexn_call_created). */
export interface AexnCallCreatedRow extends RowTx {
  readonly contractId: string;
  readonly aexnType: AexnType | null;
}

/** Aex9SeedRow is one holder's balance at an AEX-9 contract's creation block (from a `balances()` dry-run). */
export interface Aex9SeedRow extends RowTx {
  readonly contractId: string;
  readonly account: string;
  readonly amount: string;
}

/** The AEX-9 events that move balances (Allowance moves none). */
export type Aex9EventKind = 'transfer' | 'mint' | 'burn' | 'swap' | 'deposit' | 'withdrawal';

/** Aex9LogRow is one standard AEX-9 event: `from` loses `amount`, `to` gains it (null for mints and burns). */
export interface Aex9LogRow extends RowTx {
  readonly contractId: string;
  readonly logIdx: number;
  readonly kind: Aex9EventKind;
  readonly from: string | null;
  readonly to: string | null;
  readonly amount: string;
}

/** AexnRows are a generation's AEX-N rows. */
export interface AexnRows {
  readonly contracts: readonly AexnContractRow[];
  readonly callCreated: readonly AexnCallCreatedRow[];
  readonly seeds: readonly Aex9SeedRow[];
  readonly aex9Logs: readonly Aex9LogRow[];
  /** the emitters of `PairCreated` events that are DEX factories by their code (dex_pairs.factory_by_code) */
  readonly dexFactories: readonly string[];
}

/** Aex141Kind names a kept event as the aex141_events table does. */
export type Aex141Kind =
  | 'transfer'
  | 'mint'
  | 'burn'
  | 'template_mint'
  | 'template_creation'
  | 'template_deletion'
  | 'token_limit'
  | 'template_limit'
  | 'edition_limit';

/** An AEX-141 event: who and what it concerns (integers as decimal texts: token ids and limits are unbounded). */
export interface Aex141Event {
  readonly contractId: string;
  readonly kind: Aex141Kind;
  readonly fromId: string | null;
  readonly toId: string | null;
  readonly tokenId: string | null;
  readonly templateId: string | null;
  /** the (new) limit of a limit event */
  readonly limit: string | null;
  /** TemplateMint's edition serial (its data), when given */
  readonly edition: string | null;
}

/** Where an event is: its call's position and its index in the call's log. */
export type Aex141EventRow = RowTx & { readonly logIdx: number } & Aex141Event;
