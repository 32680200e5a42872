/**
 * @module `POST /v2/dry-run` (external) and `POST /v2/debug/transactions/dry-run` (internal): contract
 * calls run on top of a block without a transaction, as `call_req`s or unsigned ContractCallTxs (and the
 * `init` of unsigned ContractCreateTxs, which the SDK dry-runs to estimate a deploy's gas),
 * with the node's DryRunResults. State below the top is rebuilt from the contract transactions.
 */
import { decode, isEncoded } from '../chain/encoding.ts';
import { withPrefix } from '../chain/id-cache.ts';
import { isJsonObject, toBigInt, type Json } from '../chain/json.ts';
import type { Chain } from './chain.ts';
import { contractId } from './ids.ts';
import { HttpError, ok, type Reply, type Route, type RouteRequest } from './http.ts';
import { newState, type WorldState } from './state.ts';
import { decodeTx, encodeTx, type TxFields } from './tx-codec.ts';
import { dryRunTxHash, transferEvent, type EventSource } from './contracts/tx-events.ts';
import { callRecordJson, contractOutcome } from './contracts/call-record.ts';

/**
 * The node (aec_dry_run) runs a `call_req` without a caller from MR_MAGIC (the 32-byte integer 1), which it
 * funds with 1000 AE, with nonce 1, gas 1 000 000 (the most the devnode gives any dry-run call) and gas price 10^6.
 */
const MR_MAGIC = 'ak_11111111111111111111111111111118qjnEr';
const MR_MAGIC_FUNDS = 10n ** 21n;
const DEFAULT_GAS = 1_000_000;
const CALL_REQ_GAS_PRICE = 1_000_000n;
const CALL_REQ_FEE = 10n ** 12n;

/** internalError is the node's reason for a dry-run transaction it refuses (`~120p` of the error atom). */
const internalError = (atom: string): Json => ({
  type: 'contract_call',
  result: 'error',
  reason: `Internal error:\n  ${atom}\n`,
});

const bad = (reason: string): HttpError => new HttpError(400, reason);
const str = (v: Json | undefined): string => (typeof v === 'string' ? v : '');

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

/** CallRequest is one dry-run call, from a `call_req` or an unsigned ContractCallTx or ContractCreateTx. */
interface CallRequest {
  /** the type and hash the node files the call's tx_events under */
  readonly source: EventSource;
  /** the code a ContractCreateTx deploys (its `init` is the call); absent for a call of an existing contract */
  readonly create?: { readonly code: string; readonly vmVersion: number; readonly abiVersion: number };
  readonly contract: string;
  readonly caller: string;
  readonly callData: string;
  readonly amount: bigint;
  readonly gas: bigint;
  readonly gasPrice: bigint;
  readonly nonce: number;
}

/** createRequest is a ContractCreateTx's `init` call of the contract it would create (its id from owner and nonce). */
function createRequest(tx: TxFields): Omit<CallRequest, 'source'> {
  const owner = str(tx.owner_id);
  const nonce = Number(toBigInt(tx.nonce ?? 0));
  return {
    create: { code: str(tx.code), vmVersion: Number(tx.vm_version ?? 0), abiVersion: Number(tx.abi_version ?? 0) },
    contract: contractId(owner, BigInt(nonce)),
    caller: owner,
    callData: str(tx.call_data),
    amount: toBigInt(tx.amount ?? 0),
    gas: toBigInt(tx.gas ?? 0),
    gasPrice: toBigInt(tx.gas_price ?? 0),
    nonce,
  };
}

/**
 * callReqSource is what a `call_req`'s events are filed under: the node runs it as a ContractCallTx of fee 10^12
 * (and the request's `abi_version`, AEVM's 1 when absent), signed with the dry-run's dummy signature.
 */
function callReqSource(req: Omit<CallRequest, 'source'>, abiVersion: bigint): EventSource {
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

function callRequest(item: Json): CallRequest {
  if (!isJsonObject(item)) throw bad('Bad request: a txs item must be an object');
  if (isJsonObject(item.call_req)) {
    const req = item.call_req;
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
    return { ...request, source: callReqSource(request, uint(req.abi_version, 1n, 'abi_version')) };
  }
  if (isEncoded(item.tx, ['tx'])) {
    let tx: TxFields;
    let bytes: Uint8Array;
    try {
      bytes = decode(item.tx, ['tx']).bytes;
      tx = decodeTx(bytes);
    } catch (err) {
      throw bad(`Bad request: ${(err as Error).message}`);
    }
    const hash = dryRunTxHash(bytes);
    if (tx.type === 'ContractCreateTx') return { ...createRequest(tx), source: { type: 'contract_create_tx', hash } };
    if (tx.type !== 'ContractCallTx')
      throw bad(`Bad request: the devnode dry-runs ContractCallTx and ContractCreateTx only, not ${String(tx.type)}`);
    return {
      source: { type: 'contract_call_tx', hash },
      contract: str(tx.contract_id),
      caller: str(tx.caller_id),
      callData: str(tx.call_data),
      amount: toBigInt(tx.amount ?? 0),
      gas: toBigInt(tx.gas ?? 0),
      gasPrice: toBigInt(tx.gas_price ?? 0),
      nonce: Number(toBigInt(tx.nonce ?? 0)),
    };
  }
  throw bad('Bad request: a txs item needs call_req or tx');
}

/** runRequest runs one call on `state` (a throwaway layer); the caller must be able to pay the amount. */
function runRequest(state: WorldState, height: number, req: CallRequest, events: Json[]): Json {
  const type = req.create ? 'contract_create' : 'contract_call';
  if (req.create) {
    const { code, vmVersion, abiVersion } = req.create;
    state.contracts.set(req.contract, {
      id: req.contract,
      ownerId: req.caller,
      vmVersion,
      abiVersion,
      deposit: 0n,
      code,
    });
  }
  const contract = state.contracts.get(req.contract);
  if (!contract) return internalError('contract_does_not_exist');
  const caller = state.accounts.get(req.caller) ?? { balance: 0n, nonce: 0 };
  if (caller.balance < req.amount) return internalError('insufficient_funds');
  state.accounts.set(req.caller, { ...caller, balance: caller.balance - req.amount });
  const account = withPrefix(req.contract, 'ak');
  const target = state.accounts.get(account) ?? { balance: 0n, nonce: 0 };
  state.accounts.set(account, { ...target, balance: target.balance + req.amount });
  const gas = req.gas > BigInt(DEFAULT_GAS) ? DEFAULT_GAS : Number(req.gas);
  const outcome = contractOutcome(state, {
    height,
    caller: req.caller,
    contract: req.contract,
    code: contract.code,
    callData: req.callData,
    amount: req.amount,
    gasLimit: gas,
    isCreate: req.create !== undefined,
  });
  const callObj = callRecordJson(outcome, {
    caller: req.caller,
    callerNonce: req.nonce,
    height,
    contract: req.contract,
    gasPrice: req.gasPrice,
  });
  for (const transfer of outcome.transfers ?? []) events.push(transferEvent(transfer, req.source));
  return { type, result: 'ok', call_obj: callObj };
}

/** txEvents reads the input's `tx_events` flag (default false), a boolean as the node requires. */
function txEvents(flag: Json | undefined): boolean {
  if (flag === undefined || typeof flag === 'boolean') return flag === true;
  throw bad('Bad request: Bad parameter, tx_events');
}

/** dryRun answers a DryRunInput on top of `top` (the chain's top block when absent). */
export function dryRun(chain: Chain, body: Json | undefined): Reply {
  if (!isJsonObject(body) || !Array.isArray(body.txs)) throw bad('Bad request: body needs txs');
  const requests = body.txs.map(callRequest);
  const top = body.top === undefined ? chain.topHash : str(body.top);
  const block = chain.blocks.get(top);
  if (!block) throw bad('Bad request: top is not a block of the chain');
  // the whole state at the block, as a node reads its state trees there (from the chain's nearest checkpoint)
  const base = chain.stateAfter(top)!;
  const state = newState(base);
  const magic = state.accounts.get(MR_MAGIC) ?? { balance: 0n, nonce: 0 };
  state.accounts.set(MR_MAGIC, { ...magic, balance: magic.balance + MR_MAGIC_FUNDS });
  for (const account of Array.isArray(body.accounts) ? body.accounts : []) {
    if (!isJsonObject(account) || !isEncoded(account.pub_key, ['ak'])) throw bad('Bad request: accounts need pub_key');
    const before = state.accounts.get(account.pub_key) ?? { balance: 0n, nonce: 0 };
    state.accounts.set(account.pub_key, { ...before, balance: before.balance + uint(account.amount, 0n, 'amount') });
  }
  const height = block.header.height;
  const events: Json[] = [];
  const results = requests.map((req) => runRequest(newState(state), height, req, events));
  // the node's tx_events: the devnode has the AE its native contracts move (no channel events)
  return ok(txEvents(body.tx_events) ? { results, tx_events: events } : { results });
}

/** dryRunRoute serves the dry-run at `path` (`/v2/dry-run` externally, `/v2/debug/transactions/dry-run` internally). */
export function dryRunRoute(chain: Chain, path: string): Route {
  return { method: 'POST', path, handler: (req: RouteRequest): Reply => dryRun(chain, req.body) };
}
