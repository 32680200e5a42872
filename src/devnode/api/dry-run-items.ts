/**
 * @module A dry-run's `txs` as the node reads them (aehttp_helpers dry_run_txs_, aec_dry_run prepare_txs): a `call_req`
 * (a call of a contract without a transaction), an unsigned transaction (`tx`), or a transaction of the mempool by
 * its hash (`tx_hash`: the node dry-runs mempool transactions only, not mined ones). The node refuses the whole
 * request for an item it cannot read, with the answers a real 7.2.2 node gives (test/fixtures/real-node/dry-run.ndjson.gz):
 * 400 for a type it does not dry-run (`Unsupported transaction type paying_for_tx`), for a `tx` that is no
 * base64check text (`invalid_encoding`) or no unsigned transaction (`malformed transaction`: a signed one too), for a
 * `call_req` it cannot read (its term printed); 500 `Internal server error` for an item of no known kind. Pure but for
 * the mempool lookup.
 */
import { decode, isEncoded } from '../../chain/encoding.ts';
import { isJsonObject, toBigInt, type Json } from '../../chain/json.ts';
import type { Chain } from '../chain.ts';
import { HttpError } from './http.ts';
import { decodeTx, encodeTx, type TxFields } from '../tx-codec.ts';
import { dryRunTxHash, type EventSource } from '../contracts/tx-events.ts';

/**
 * The node (aec_dry_run) runs a `call_req` without a caller from MR_MAGIC (the 32-byte integer 1), which it
 * funds with 1000 AE, with nonce 1 (a named caller too: a real account then answers `tx_nonce_already_used_for_account`),
 * gas 1 000 000 (the most the devnode gives any dry-run call), gas price 10^6 and AEVM's ABI (1) unless it names one
 * (a FATE contract then answers `wrong_abi_version`).
 */
export const MR_MAGIC = 'ak_11111111111111111111111111111118qjnEr';
export const DEFAULT_GAS = 1_000_000;
const DEFAULT_ABI = 1;
const CALL_REQ_GAS_PRICE = 1_000_000n;
const CALL_REQ_FEE = 10n ** 12n;

/** The transaction types the node does not dry-run (aehttp_helpers dry_run_tx), by its atoms for them. */
const UNSUPPORTED: Readonly<Record<string, string>> = { PayingForTx: 'paying_for_tx', GAMetaTx: 'ga_meta_tx' };

export const bad = (reason: string): HttpError => new HttpError(400, reason);

/** UNKNOWN_KIND: an item that is no `tx`, `tx_hash` or `call_req` crashes the node's handler (aehttp_helpers). */
const UNKNOWN_KIND = new HttpError(500, 'Internal server error');

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
  /** `abi_version`: the ABI the call names, which must be the contract's */
  readonly abiVersion: number;
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
function callReqSource(req: Omit<CallRequest, 'source' | 'stateful'>): EventSource {
  const tx: TxFields = {
    type: 'ContractCallTx',
    version: 1,
    caller_id: req.caller,
    nonce: req.nonce,
    contract_id: req.contract,
    abi_version: req.abiVersion,
    fee: CALL_REQ_FEE,
    amount: req.amount,
    gas: req.gas,
    gas_price: req.gasPrice,
    call_data: req.callData,
  };
  return { type: 'contract_call_tx', hash: dryRunTxHash(encodeTx(tx)) };
}

/**
 * erlangTerm prints a JSON value as Erlang's `~p` prints the map the node decoded it to (binaries, integers, atoms,
 * maps in key order), without its line breaks. Pure.
 */
export function erlangTerm(value: Json): string {
  if (typeof value === 'string') return `<<${JSON.stringify(value)}>>`;
  if (Array.isArray(value)) return `[${value.map(erlangTerm).join(',')}]`;
  if (isJsonObject(value)) {
    const keys = Object.keys(value).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    return `#{${keys.map((k) => `${erlangTerm(k)} => ${erlangTerm(value[k]!)}`).join(',')}}`;
  }
  return String(value);
}

/** badCallRequest is the node's 400 for a `call_req` it cannot read (aec_dry_run: the request's term printed). */
const badCallRequest = (req: { [k: string]: Json }): HttpError =>
  bad(`Bad request: Internal error {bad_dry_run_call_request,${erlangTerm(req)}}`);

function callRequest(req: { [k: string]: Json }): CallRequest {
  const caller = req.caller === undefined ? MR_MAGIC : req.caller;
  if (!isEncoded(req.contract, ['ct']) || !isEncoded(req.calldata, ['cb']) || !isEncoded(caller, ['ak']))
    throw badCallRequest(req);
  const request = {
    contract: req.contract,
    caller,
    callData: req.calldata,
    amount: uint(req.amount, 0n, 'amount'),
    gas: uint(req.gas, BigInt(DEFAULT_GAS), 'gas'),
    gasPrice: CALL_REQ_GAS_PRICE,
    nonce: Number(uint(req.nonce, 1n, 'nonce')),
    abiVersion: Number(uint(req.abi_version, BigInt(DEFAULT_ABI), 'abi_version')),
  };
  const stateful = isJsonObject(req.context) && req.context.stateful === true;
  return { ...request, stateful, source: callReqSource(request) };
}

/** txItem is a transaction to dry-run, unless its type is one the node refuses (the whole request then). */
function txItem(tx: TxFields, bytes: Uint8Array): DryRunItem {
  const refused = UNSUPPORTED[String(tx.type)];
  if (refused !== undefined) throw bad(`Bad request: Unsupported transaction type ${refused}`);
  return { kind: 'tx', tx, source: { type: eventType(String(tx.type)), hash: dryRunTxHash(bytes) } };
}

/** dryRunItem reads one item of `txs`; a `tx_hash` names a transaction of `chain`'s mempool. */
export function dryRunItem(chain: Chain, item: Json): DryRunItem {
  if (!isJsonObject(item)) throw UNKNOWN_KIND;
  if (item.tx_hash !== undefined) {
    if (!isEncoded(item.tx_hash, ['th'])) throw bad('Bad request: malformed transaction hash');
    const record = chain.mempool.find((r) => r.hash === item.tx_hash);
    if (!record) throw bad('Bad request: Transaction not found in mempool');
    return txItem(record.tx, encodeTx(record.tx));
  }
  if (typeof item.tx === 'string') {
    if (!isEncoded(item.tx, ['tx'])) throw bad('Bad request: invalid_encoding');
    const bytes = decode(item.tx, ['tx']).bytes;
    let tx: TxFields;
    try {
      // a signed transaction is no transaction the codec reads (its tag is SignedTx's): malformed, as the node says
      tx = decodeTx(bytes);
    } catch {
      throw bad('Bad request: malformed transaction');
    }
    return txItem(tx, bytes);
  }
  if (isJsonObject(item.call_req)) return { kind: 'call', request: callRequest(item.call_req) };
  throw UNKNOWN_KIND;
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
