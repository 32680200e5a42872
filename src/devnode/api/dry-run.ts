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
 * (aehttp_dispatch_ext run), unless the run went past the time limit, which gives it up before (400); without
 * `tx_events`, or in an earlier item, the node serialises no event and answers. The external endpoint caps the items'
 * gas (403 `Over the gas limit`), the internal one does not. A `call_req` is checked
 * as the node checks the ContractCallTx it runs it as: its caller's account and nonce, the contract, then the ABI it
 * names against the contract's (none named is AEVM's: a FATE contract answers `wrong_abi_version`), each a per-item
 * error in a 200. The answers, errors and refusals are a real 7.2.2 node's (test/fixtures/real-node/dry-run.ndjson.gz,
 * test/devnode/real-node-dry-run.test.ts). The devnode's contracts read no time, so a replay's time (a node runs it at
 * its `top` block's) changes nothing here.
 */
import { isEncoded } from '../../chain/encoding.ts';
import { withPrefix } from '../../chain/id-cache.ts';
import { isJsonObject, stringifyJson, toBigInt, type Json } from '../../chain/json.ts';
import type { Chain } from '../chain.ts';
import { HttpError, ok, type Reply, type Route, type RouteRequest } from './http.ts';
import { newState, type WorldState } from '../store/state.ts';
import { internalCallEvent, type EventSource } from '../contracts/tx-events.ts';
import { callRecordJson, contractOutcome } from '../contracts/call-record.ts';
import { isTold, type InternalEvent } from '../contracts/frame.ts';
import { applyTx, nonceAtom, TxRejected } from '../rules/apply.ts';
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

/** callRefused is a call_req's per-item error (`why`: the node's atom). */
const callRefused = (why: string): ItemOutcome => ({ result: internalError('contract_call', why), events: [] });

/**
 * callCheck is why the node would not run a call_req on `state` (the module's doc: account, nonce, contract, ABI), or
 * undefined. Pure.
 */
function callCheck(state: WorldState, req: CallRequest): string | undefined {
  const caller = state.accounts.get(req.caller);
  if (!caller) return 'account_not_found';
  if (req.nonce !== caller.nonce + 1) return nonceAtom(req.nonce, caller.nonce + 1);
  const contract = state.contracts.get(req.contract);
  if (!contract) return 'contract_does_not_exist';
  if (contract.abiVersion !== req.abiVersion) return 'wrong_abi_version';
  if (caller.balance < req.amount) return 'insufficient_funds';
  return undefined;
}

/** runCall runs a call_req on `state` (its nonce taken, as the node's call does; a stateless call's layer goes). */
function runCall(state: WorldState, height: number, req: CallRequest): ItemOutcome {
  const refused = callCheck(state, req);
  if (refused !== undefined) return callRefused(refused);
  const contract = state.contracts.get(req.contract)!;
  const caller = state.accounts.get(req.caller)!;
  state.accounts.set(req.caller, { ...caller, nonce: req.nonce, balance: caller.balance - req.amount });
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

/**
 * CALL_OBJ_TYPES: the transactions whose dry-run result carries their call object (aec_dry_run:dry_run_res); another
 * that leaves one (a force progress's, a PayingForTx's inner call's) is answered without it, as by the node.
 */
const CALL_OBJ_TYPES: ReadonlySet<string> = new Set(['contract_call', 'contract_create', 'ga_attach']);

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
    const result: Json =
      effect.callInfo && CALL_OBJ_TYPES.has(type)
        ? { type, result: 'ok', call_obj: effect.callInfo }
        : { type, result: 'ok' };
    return { result, events: effect.events ?? [] };
  } catch (err) {
    if (err instanceof TxRejected) return { result: internalError(type, err.atom ?? err.message), events: [] };
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

/**
 * dryRunInput is the body as a DryRunInput after the node's schema check (its swagger layer's 400
 * `validation_error`): an empty body (`undefined` here) or no object is `wrong_type`, an object without `txs`
 * `missing_required_property`.
 */
function dryRunInput(body: Json | undefined): { [k: string]: Json; txs: Json[] } {
  const invalid = (error: string, data: Json, path: Json[] = []): HttpError =>
    new HttpError(400, 'validation_error', { parameter: 'body', info: { error, data, path } });
  if (!isJsonObject(body)) throw invalid('wrong_type', body ?? '');
  const { txs } = body;
  if (txs === undefined) throw invalid('missing_required_property', 'txs');
  if (!Array.isArray(txs)) throw invalid('wrong_type', txs, ['txs']);
  return { ...body, txs };
}

/** dryRun answers a DryRunInput on top of `top` (the chain's top block when absent). */
export function dryRun(chain: Chain, input: Json | undefined, opts: DryRunOptions = {}): Reply {
  const body = dryRunInput(input);
  // a top that is no block hash crashes the node's handler; an unknown one it says so of (place)
  if (body.top !== undefined && !isEncoded(body.top, ['mh', 'kh'])) throw new HttpError(500, 'Internal server error');
  const top = body.top ?? chain.topHash;
  const items = body.txs.map((item) => dryRunItem(chain, item));
  const withEvents = txEvents(body.tx_events);
  if (opts.gasLimit !== undefined && items.reduce((sum, item) => sum + gasLimit(item), 0n) > opts.gasLimit)
    throw new HttpError(403, 'Over the gas limit');
  const at = place(chain, top);
  // the whole state at the block, as a node reads its state trees there (from the chain's nearest checkpoint)
  const reading = performance.now();
  const state = newState(chain.stateAfter(top)!);
  const stateMs = performance.now() - reading;
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
  if (!withEvents) return { ...ok({ results }), stateMs };
  const last = items.at(-1);
  const events = outcomes.at(-1)?.events ?? [];
  // a created contract's event has no transaction to serialise: the node's handler crashes (the module's doc). An
  // answer, not a throw: the crash comes after the run, and a run past the time limit is given up before it
  // (endpoint-gates.ts timeLimited answers the limit's 400 instead)
  if (!events.every(isTold)) return { status: 500, body: stringifyJson({ reason: 'Internal server error' }), stateMs };
  return {
    ...ok({ results, tx_events: last ? events.map((e) => internalCallEvent(e, itemSource(last))) : [] }),
    stateMs,
  };
}

const itemSource = (item: DryRunItem): EventSource => (item.kind === 'call' ? item.request.source : item.source);

/**
 * dryRunRoute serves the dry-run at `path` (`/v2/dry-run` externally, capped at EXTERNAL_GAS_LIMIT;
 * `/v2/debug/transactions/dry-run` internally, uncapped).
 */
export function dryRunRoute(chain: Chain, path: string, opts: DryRunOptions = {}): Route {
  return { method: 'POST', path, handler: (req: RouteRequest): Reply => dryRun(chain, req.body, opts) };
}
