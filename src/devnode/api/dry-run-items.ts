/**
 * @module A dry-run's `txs` as the node reads them (aehttp_helpers dry_run_txs_, aec_dry_run prepare_txs): a `call_req`
 * (a call of a contract without a transaction), an unsigned transaction (`tx`), or a transaction of the mempool by
 * its hash (`tx_hash`: the node dry-runs mempool transactions only, not mined ones). The node refuses the whole
 * request, 400, for a type it does not dry-run. Pure but for the mempool lookup.
 */
import { decode, isEncoded } from '../../chain/encoding.ts';
import { isJsonObject, toBigInt, type Json } from '../../chain/json.ts';
import type { Chain } from '../chain.ts';
import { HttpError } from './http.ts';
import { decodeTx, encodeTx, type TxFields } from '../tx-codec.ts';
import { dryRunTxHash, type EventSource } from '../contracts/tx-events.ts';

/**
 * The node (aec_dry_run) runs a `call_req` without a caller from MR_MAGIC (the 32-byte integer 1), which it
 * funds with 1000 AE, with nonce 1, gas 1 000 000 (the most the devnode gives any dry-run call) and gas price 10^6.
 */
export const MR_MAGIC = 'ak_11111111111111111111111111111118qjnEr';
export const DEFAULT_GAS = 1_000_000;
const CALL_REQ_GAS_PRICE = 1_000_000n;
const CALL_REQ_FEE = 10n ** 12n;

/** The transaction types the node does not dry-run (aehttp_helpers dry_run_tx), by its atoms for them. */
const UNSUPPORTED: Readonly<Record<string, string>> = { PayingForTx: 'paying_for_tx', GAMetaTx: 'ga_meta_tx' };

export const bad = (reason: string): HttpError => new HttpError(400, reason);

function uint(v: Json | undefined, fallback: bigint, what: string): bigint {
  if (v === undefined) return fallback;
  try {
    const n = toBigInt(v);
    if (n >= 0n) return n;
  } catch {
    // reported below
  }
  throw bad(`Bad request: ${what} is not an unsigned integer`);
}

/** CallRequest is a `call_req`: one call of an existing contract, run on its own unless its context says stateful. */
export interface CallRequest {
  /** the type and hash the node files the call's tx_events under */
  readonly source: EventSource;
  readonly contract: string;
  readonly caller: string;
  readonly callData: string;
  readonly amount: bigint;
  readonly gas: bigint;
  readonly gasPrice: bigint;
  readonly nonce: number;
  /** `context.stateful`: its effects stay for the items after it (a transaction's always do) */
  readonly stateful: boolean;
}

/** DryRunItem is one item of `txs`: a transaction the node applies as a block would, or a `call_req`. */
export type DryRunItem =
  | { readonly kind: 'tx'; readonly tx: TxFields; readonly source: EventSource }
  | { readonly kind: 'call'; readonly request: CallRequest };

/**
 * eventType is the node's atom for a transaction type (`contract_call_tx`, `spend_tx`), under which it files a
 * dry-run transaction's events, and from which its result's `type` is made (`contract_call`, `spend`). Pure.
 */
export function eventType(txType: string): string {
  if (txType === 'OracleRespondTx') return 'oracle_response_tx';
  return txType
    .replace(/^GA/, 'Ga')
    .replace(/^HC/, 'Hc')
    .replace(/[A-Z]/g, (c, i: number) => (i === 0 ? '' : '_') + c.toLowerCase());
}

/**
 * callReqSource is what a `call_req`'s events are filed under: the node runs it as a ContractCallTx of fee 10^12
 * (and the request's `abi_version`, AEVM's 1 when absent), signed with the dry-run's dummy signature.
 */
function callReqSource(req: Omit<CallRequest, 'source' | 'stateful'>, abiVersion: bigint): EventSource {
  const tx: TxFields = {
    type: 'ContractCallTx',
    version: 1,
    caller_id: req.caller,
    nonce: req.nonce,
    contract_id: req.contract,
    abi_version: abiVersion,
    fee: CALL_REQ_FEE,
    amount: req.amount,
    gas: req.gas,
    gas_price: req.gasPrice,
    call_data: req.callData,
  };
  return { type: 'contract_call_tx', hash: dryRunTxHash(encodeTx(tx)) };
}

function callRequest(req: { [k: string]: Json }): CallRequest {
  if (!isEncoded(req.contract, ['ct']) || !isEncoded(req.calldata, ['cb']))
    throw bad('Bad request: call_req needs contract (ct_) and calldata (cb_)');
  const caller = req.caller === undefined ? MR_MAGIC : req.caller;
  if (!isEncoded(caller, ['ak'])) throw bad('Bad request: caller is not an ak_ id');
  const request = {
    contract: req.contract,
    caller,
    callData: req.calldata,
    amount: uint(req.amount, 0n, 'amount'),
    gas: uint(req.gas, BigInt(DEFAULT_GAS), 'gas'),
    gasPrice: CALL_REQ_GAS_PRICE,
    nonce: Number(uint(req.nonce, 1n, 'nonce')),
  };
  const stateful = isJsonObject(req.context) && req.context.stateful === true;
  return { ...request, stateful, source: callReqSource(request, uint(req.abi_version, 1n, 'abi_version')) };
}

/** txItem is a transaction to dry-run, unless its type is one the node refuses (the whole request then). */
function txItem(tx: TxFields, bytes: Uint8Array): DryRunItem {
  const refused = UNSUPPORTED[String(tx.type)];
  if (refused !== undefined) throw bad(`Bad request: Unsupported transaction type ${refused}`);
  return { kind: 'tx', tx, source: { type: eventType(String(tx.type)), hash: dryRunTxHash(bytes) } };
}

/** dryRunItem reads one item of `txs`; a `tx_hash` names a transaction of `chain`'s mempool. */
export function dryRunItem(chain: Chain, item: Json): DryRunItem {
  if (!isJsonObject(item)) throw bad('Bad request: a txs item must be an object');
  if (item.tx_hash !== undefined) {
    if (!isEncoded(item.tx_hash, ['th'])) throw bad('Bad request: malformed transaction hash');
    const record = chain.mempool.find((r) => r.hash === item.tx_hash);
    if (!record) throw bad('Bad request: Transaction not found in mempool');
    return txItem(record.tx, encodeTx(record.tx));
  }
  if (isEncoded(item.tx, ['tx'])) {
    let bytes: Uint8Array;
    let tx: TxFields;
    try {
      bytes = decode(item.tx, ['tx']).bytes;
      tx = decodeTx(bytes);
    } catch {
      throw bad('Bad request: malformed transaction');
    }
    return txItem(tx, bytes);
  }
  if (isJsonObject(item.call_req)) return { kind: 'call', request: callRequest(item.call_req) };
  throw bad('Bad request: a txs item needs tx, tx_hash or call_req');
}

/**
 * gasLimit is what an item counts against the external dry-run's gas cap (aehttp_dispatch_ext ProtectedDryRunTxs):
 * a call_req its gas (1 000 000 when absent), a transaction its gas limit: a contract or GA transaction's `gas`, the
 * others' none (the node counts their small fixed gas; none of the devnode's answers depends on it). Pure.
 */
export function gasLimit(item: DryRunItem): bigint {
  if (item.kind === 'call') return item.request.gas;
  return item.tx.gas === undefined ? 0n : toBigInt(item.tx.gas);
}
