/**
 * @module `POST /v2/dry-run` (external) and `POST /v2/debug/transactions/dry-run` (internal): transactions and
 * contract calls run on top of a block, with the node's DryRunResults. As the node (aec_dry_run), the items run in
 * order on the state at the block: a transaction (`tx`, or a mempool `tx_hash`) is applied as a block applies it
 * (nonce, fee and balance checked, its effects kept for the items after it), a `call_req` on its own unless its
 * context says `stateful`. So a micro block's transactions, sent unsigned in order on top of the block before it,
 * run again as they ran on the chain. With `tx_events` the answer carries the events of the **last** item only
 * (aec_dry_run resets the events before each item, node 6.8 on): the AE a contract moved inside the call, each an
 * `internal_call_tx` event (contracts/tx-events.ts). A last item that created a contract (the DEX factory's
 * `create_pair`) gets no answer: the node records `Call.clone`/`Call.create` with no transaction, its serialiser
 * (aehttp_helpers serialize_event) crashes on it and the dispatcher answers the crash 500 `Internal server error`
 * (aehttp_dispatch_ext run); without `tx_events`, or in an earlier item, the node serialises no event and answers. The
 * external endpoint caps the items' gas (403 `Over the gas limit`), the internal one does not.
 */
import { isEncoded } from '../../chain/encoding.ts';
import { withPrefix } from '../../chain/id-cache.ts';
import { isJsonObject, toBigInt, type Json } from '../../chain/json.ts';
import type { Chain } from '../chain.ts';
import { HttpError, ok, type Reply, type Route, type RouteRequest } from './http.ts';
import { newState, type WorldState } from '../store/state.ts';
import { internalCallEvent, type EventSource } from '../contracts/tx-events.ts';
import { callRecordJson, contractOutcome } from '../contracts/call-record.ts';
import { isTold, type InternalEvent } from '../contracts/frame.ts';
import { applyTx, TxRejected } from '../rules/apply.ts';
import { contractNameRules } from '../rules/names.ts';
import {
  bad,
  DEFAULT_GAS,
  dryRunItem,
  gasLimit,
  MR_MAGIC,
  type CallRequest,
  type DryRunItem,
} from './dry-run-items.ts';

const MR_MAGIC_FUNDS = 10n ** 21n;

/** EXTERNAL_GAS_LIMIT: the node's default cap on the gas of one external dry-run (`http.external.gas_limit`). */
export const EXTERNAL_GAS_LIMIT = 6_000_000n;

/** internalError is the node's reason for a dry-run item it could not run (`~120p` of the error). */
const internalError = (type: string, why: string): Json => ({
  type,
  result: 'error',
  reason: `Internal error:\n  ${why}\n`,
});

/** ItemOutcome is one item's result and its calls' internal calls (its tx_events). */
interface ItemOutcome {
  readonly result: Json;
  readonly events: readonly InternalEvent[];
}

/** runCall runs a call_req on `state`; the caller must be able to pay the amount. */
function runCall(state: WorldState, height: number, req: CallRequest): ItemOutcome {
  const contract = state.contracts.get(req.contract);
  if (!contract) return { result: internalError('contract_call', 'contract_does_not_exist'), events: [] };
  const caller = state.accounts.get(req.caller) ?? { balance: 0n, nonce: 0 };
  if (caller.balance < req.amount) return { result: internalError('contract_call', 'insufficient_funds'), events: [] };
  state.accounts.set(req.caller, { ...caller, balance: caller.balance - req.amount });
  const account = withPrefix(req.contract, 'ak');
  const target = state.accounts.get(account) ?? { balance: 0n, nonce: 0 };
  state.accounts.set(account, { ...target, balance: target.balance + req.amount });
  const gas = req.gas > BigInt(DEFAULT_GAS) ? DEFAULT_GAS : Number(req.gas);
  const outcome = contractOutcome(state, {
    height,
    names: contractNameRules,
    caller: req.caller,
    contract: req.contract,
    code: contract.code,
    callData: req.callData,
    amount: req.amount,
    gasLimit: gas,
    isCreate: false,
  });
  const callObj = callRecordJson(outcome, {
    caller: req.caller,
    callerNonce: req.nonce,
    height,
    contract: req.contract,
    gasPrice: req.gasPrice,
  });
  return { result: { type: 'contract_call', result: 'ok', call_obj: callObj }, events: outcome.events ?? [] };
}

/**
 * Where the items run: for a transaction, the height and generation a transaction after `top` would have (as it was
 * mined, on a hyperchain the next height); for a call_req, the block's own height (`callHeight`), as the devnode has
 * always run them (a hyperchain's boundary reads depend on it).
 */
interface Place {
  readonly height: number;
  readonly generation: number;
  readonly callHeight: number;
}

/** runItem runs one item on `state` (a transaction's effects stay; a stateless call's go with its own layer). */
function runItem(state: WorldState, place: Place, item: DryRunItem): ItemOutcome {
  if (item.kind === 'call') {
    const { request } = item;
    return runCall(request.stateful ? state : newState(state), place.callHeight, request);
  }
  const type = item.source.type.replace(/_tx$/, '');
  try {
    const { height, generation } = place;
    const effect = applyTx(state, item.tx, { height, generation, txHash: item.source.hash });
    const result: Json = effect.callInfo ? { type, result: 'ok', call_obj: effect.callInfo } : { type, result: 'ok' };
    return { result, events: effect.events ?? [] };
  } catch (err) {
    if (err instanceof TxRejected) return { result: internalError(type, err.message), events: [] };
    throw err;
  }
}

/** txEvents reads the input's `tx_events` flag (default false), a boolean as the node requires. */
function txEvents(flag: Json | undefined): boolean {
  if (flag === undefined || typeof flag === 'boolean') return flag === true;
  throw bad('Bad request: Bad parameter, tx_events');
}

/** place is where the items run on top of block `top`: the next transaction's height and generation in the chain. */
function place(chain: Chain, top: string): Place {
  const block = chain.blocks.get(top);
  if (!block) throw bad('Bad request: Invalid hash provided');
  // a hyperchain's micro blocks carry the next height (chain.txHeight): their generation is the one before
  const generation = block.kind === 'micro' && chain.options.hyperchain ? block.header.height - 1 : block.header.height;
  return { height: chain.txHeight(generation), generation, callHeight: block.header.height };
}

/** DryRunOptions: the endpoint's cap on the items' gas (the external one's; none internally). */
export interface DryRunOptions {
  readonly gasLimit?: bigint;
}

/** dryRun answers a DryRunInput on top of `top` (the chain's top block when absent). */
export function dryRun(chain: Chain, body: Json | undefined, opts: DryRunOptions = {}): Reply {
  if (!isJsonObject(body) || !Array.isArray(body.txs)) throw bad('Bad request: body needs txs');
  if (body.top !== undefined && !isEncoded(body.top, ['mh', 'kh']))
    throw bad('Bad request: top should be micro block hash or key block hash');
  const top = body.top ?? chain.topHash;
  const items = body.txs.map((item) => dryRunItem(chain, item));
  const withEvents = txEvents(body.tx_events);
  if (opts.gasLimit !== undefined && items.reduce((sum, item) => sum + gasLimit(item), 0n) > opts.gasLimit)
    throw new HttpError(403, 'Over the gas limit');
  const at = place(chain, top);
  // the whole state at the block, as a node reads its state trees there (from the chain's nearest checkpoint)
  const state = newState(chain.stateAfter(top)!);
  const magic = state.accounts.get(MR_MAGIC) ?? { balance: 0n, nonce: 0 };
  state.accounts.set(MR_MAGIC, { ...magic, balance: magic.balance + MR_MAGIC_FUNDS });
  for (const account of Array.isArray(body.accounts) ? body.accounts : []) {
    if (!isJsonObject(account) || !isEncoded(account.pub_key, ['ak'])) throw bad('Bad request: accounts need pub_key');
    const before = state.accounts.get(account.pub_key) ?? { balance: 0n, nonce: 0 };
    const amount = account.amount === undefined ? 0n : toBigInt(account.amount);
    state.accounts.set(account.pub_key, { ...before, balance: before.balance + amount });
  }
  const outcomes = items.map((item) => runItem(state, at, item));
  const results = outcomes.map((o) => o.result);
  if (!withEvents) return ok({ results });
  const last = items.at(-1);
  const events = outcomes.at(-1)?.events ?? [];
  // a created contract's event has no transaction to serialise: the node's handler crashes (the module's doc)
  if (!events.every(isTold)) throw new HttpError(500, 'Internal server error');
  return ok({ results, tx_events: last ? events.map((e) => internalCallEvent(e, itemSource(last))) : [] });
}

const itemSource = (item: DryRunItem): EventSource => (item.kind === 'call' ? item.request.source : item.source);

/**
 * dryRunRoute serves the dry-run at `path` (`/v2/dry-run` externally, capped at EXTERNAL_GAS_LIMIT;
 * `/v2/debug/transactions/dry-run` internally, uncapped).
 */
export function dryRunRoute(chain: Chain, path: string, opts: DryRunOptions = {}): Route {
  return { method: 'POST', path, handler: (req: RouteRequest): Reply => dryRun(chain, req.body, opts) };
}
