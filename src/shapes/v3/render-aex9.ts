/** @module ae_mdw's AEX-9 objects from our rows: tokens, holders, account balances, transfers; exact big integers. Pure. */
import type { Json } from '../../chain/json.ts';
import type { Aex9Row } from '../../db/queries/aex9-tokens.ts';
import type { AccountTokenRow, HolderRow, Aex9TransferRow } from '../../db/queries/aex9-balances.ts';
import type { ShapeValue } from '../shape-table.ts';
import type { AEX9_BALANCE, AEX9_CONTRACT_BALANCE, AEX9_TRANSFER } from './shapes-aex9.ts';

/** incompleteMark is `{incomplete: true}` for balances that may miss moves (pruned call info), else nothing. */
export const incompleteMark = (incomplete: boolean): { incomplete?: true } => (incomplete ? { incomplete: true } : {});

/**
 * readableNegative writes an integer below -(2^53 - 1) as its decimal text (the schema's integer text, as
 * int-as-string writes it): the SDK's Middleware client reads big integers exactly only when they are unsigned or
 * quoted, and fails on such a bare negative one. `event_supply` is the one answer that holds a meaningful negative: a
 * token that burnt what it held at its creation (docs/api-v3.md, "AEX-9 tokens").
 */
export const readableNegative = (value: bigint): bigint | string =>
  value < -BigInt(Number.MAX_SAFE_INTEGER) ? value.toString() : value;

/** What its events would have made of a token whose balances are read from its state instead (migration 1020). */
const STATE_REASONS: Readonly<Record<string, string>> = {
  negative_balance: "its events took a balance below zero: balances are read from the contract's state",
  negative_supply: "its events took its supply below zero: balances are read from the contract's state",
};

/** invalidity is ae_mdw's `invalid` with our reason and its description: unreadable meta info first, then the events. */
function invalidity(t: Aex9Row): {
  invalid: boolean;
  invalid_reason: string | null;
  invalid_description: string | null;
} {
  if (t.metaInvalid)
    return {
      invalid: true,
      invalid_reason: 'invalid_meta_info',
      invalid_description: 'meta_info() could not be read at the creation block',
    };
  // creation_unknown: its balances at creation were never read, which explains its events (it is marked incomplete)
  const description = t.stateReason === null ? undefined : STATE_REASONS[t.stateReason];
  if (description !== undefined)
    return { invalid: true, invalid_reason: t.stateReason, invalid_description: description };
  return { invalid: false, invalid_reason: null, invalid_description: null };
}

/** tokenObject is ae_mdw's Aex9Response. */
export function tokenObject(t: Aex9Row): Record<string, Json> {
  return {
    name: t.name,
    symbol: t.symbol,
    decimals: t.decimals,
    contract_id: t.contractId,
    contract_tx_hash: t.txHash,
    extensions: t.extensions,
    initial_supply: BigInt(t.initialSupply),
    event_supply: readableNegative(BigInt(t.eventSupply)),
    holders: t.holders,
    // the balance-moving events (Transfer, Mint, Burn, Swap, Deposit, Withdrawal)
    logs_count: t.eventsCount,
    ...invalidity(t),
    ...incompleteMark(t.incomplete),
  };
}

/** holderObject is ae_mdw's Aex9ContractBalanceResponse. */
export function holderObject(contractId: string, h: HolderRow, incomplete: boolean): Record<string, Json> {
  return {
    contract_id: contractId,
    account_id: h.account,
    block_hash: h.blockHash,
    height: h.height,
    last_tx_hash: h.lastTxHash,
    last_log_idx: h.lastLogIdx,
    amount: BigInt(h.amount),
    ...incompleteMark(incomplete),
  } satisfies ShapeValue<typeof AEX9_CONTRACT_BALANCE>;
}

/** snakeTxType is a tx type as ae_mdw prints its atoms: ContractCallTx → contract_call_tx. */
export const snakeTxType = (type: string): string =>
  type
    .replace(/(?<!^)([A-Z])/g, '_$1')
    .toLowerCase()
    .replace(/^g_a_/, 'ga_');

/** accountTokenObject is ae_mdw's Aex9BalanceResponse; `tx_index` is the txi of the balance's latest transaction. */
export function accountTokenObject(r: AccountTokenRow): Record<string, Json> {
  return {
    contract_id: r.contractId,
    block_hash: r.blockHash,
    tx_hash: r.txHash,
    tx_index: r.txIndex === null ? null : Number(r.txIndex),
    tx_type: snakeTxType(r.txType),
    height: r.height,
    amount: BigInt(r.amount),
    decimals: r.decimals,
    token_symbol: r.symbol,
    token_name: r.name,
    ...incompleteMark(r.incomplete),
  } satisfies ShapeValue<typeof AEX9_BALANCE>;
}

/** transferObject is ae_mdw's v3 AEX-9 transfer (marked when the token's events may be incomplete). */
export function transferObject(t: Aex9TransferRow, incomplete: boolean): Record<string, Json> {
  return {
    sender: t.sender,
    recipient: t.recipient,
    amount: BigInt(t.amount),
    contract_id: t.contractId,
    ...transferPlace(t),
    ...incompleteMark(incomplete),
  } satisfies ShapeValue<typeof AEX9_TRANSFER>;
}

/** transferPlace is where a token transfer (AEX-9's or AEX-141's) was logged, as ae_mdw writes it (TRANSFER_PLACE). */
export function transferPlace(t: {
  readonly logIdx: number;
  readonly height: number;
  readonly microIndex: number;
  readonly microTime: string;
  readonly txHash: string;
}): { log_idx: number; block_height: number; micro_index: number; micro_time: number; tx_hash: string } {
  return {
    log_idx: t.logIdx,
    block_height: t.height,
    micro_index: t.microIndex,
    micro_time: Number(t.microTime),
    tx_hash: t.txHash,
  };
}
