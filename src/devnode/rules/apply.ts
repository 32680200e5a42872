/**
 * @module Validation and effects of each transaction type on the world state: spends, oracles,
 * contracts, generalized accounts and paid-for transactions here; names in rules/names.ts and
 * channels in rules/channels.ts. Fees follow the seed (fees.ts); everything else the devnode's
 * protocol (blocks.ts PROTOCOL_VERSION). Pure.
 */
import { payerOf } from '../../chain/balance-deltas.ts';
import { encode } from '../../chain/encoding.ts';
import { withPrefix } from '../../chain/id-cache.ts';
import { isJsonObject, type Json } from '../../chain/json.ts';
import { callGasPrice } from '../../chain/reward-fees.ts';
import { MIN_FEE, ttlFee } from './fees.ts';
import { contractId, oracleQueryId } from '../ids.ts';
import { contractCallResult, FATE_TRUE } from '../contracts/fate-contract.ts';
import { callRecordJson, contractOutcome } from '../contracts/call-record.ts';
import type { TxFields } from '../tx-codec.ts';
import { commitState, newState, type WorldState } from '../store/state.ts';
import { CHANNEL_RULES, channelSigners } from './channels.ts';
import { contractNameRules, NAME_RULES } from './names.ts';
import { MADE_UP_RULE, MADE_UP_TX_TYPE } from './made-up-tx.ts';
import {
  asAccount,
  credit,
  debit,
  flatGasUsed,
  int,
  isHeld,
  num,
  resolveName,
  str,
  ttlIsBlock,
  ttlValue,
  TxRejected,
  type Apply,
  type ApplyContext,
  type TxEffect,
} from './common.ts';

export { TxKnown, TxRejected, type ApplyContext, type TxEffect } from './common.ts';
export { isHeld, nameStatus } from './common.ts';
export { endAuctions } from './names.ts';

/** nonceAccount is the account whose nonce a transaction uses and who pays its fee. */
export function nonceAccount(tx: TxFields): string {
  return asAccount(str(payerOf(tx)));
}

/**
 * signers lists the accounts that must sign a transaction (both parties for channel create/close, none for GAMetaTx,
 * the voter for HCVoteTx).
 */
export function signers(tx: TxFields, state: WorldState): string[] {
  if (tx.type === 'GAMetaTx') return [];
  if (tx.type === 'HCVoteTx') return [str(tx.voter_id)];
  return channelSigners(tx, state) ?? [nonceAccount(tx)];
}

/** ttlBlocks is a TTL as a number of blocks from `height` (a `block` TTL is an absolute height). */
const ttlBlocks = (v: Json | undefined, height: number): number => (ttlIsBlock(v) ? ttlValue(v) - height : ttlValue(v));

/** minimumFee is the seed's minimum for a transaction at `height` (oracle fees grow with their TTL). */
export function minimumFee(tx: TxFields, state: WorldState, height: number): bigint {
  switch (tx.type) {
    case 'OracleRegisterTx':
      return ttlFee(ttlBlocks(tx.oracle_ttl, height));
    case 'OracleQueryTx':
      return ttlFee(ttlBlocks(tx.query_ttl, height));
    case 'OracleRespondTx':
      return ttlFee(state.queries.get(str(tx.query_id))?.responseTtl ?? ttlValue(tx.response_ttl));
    default:
      return MIN_FEE;
  }
}

/** nonceAtom is the node's reason for a transaction's `nonce` when its account expects `expected`. Pure. */
export const nonceAtom = (nonce: number, expected: number): string =>
  nonce < expected ? 'tx_nonce_already_used_for_account' : 'tx_nonce_too_high_for_account';

function bumpNonce(state: WorldState, id: string, nonce: number): void {
  const account = state.accounts.get(id);
  const expected = (account?.nonce ?? 0) + 1;
  if (!account) throw new TxRejected(`insufficient balance: account ${id} does not exist yet`, 'account_not_found');
  if (account.ga) throw new TxRejected(`${id} is a generalized account: it signs through a GAMetaTx`);
  if (nonce !== expected)
    throw new TxRejected(
      `nonce ${nonce} is not the next nonce of ${id} (expected ${expected})`,
      nonceAtom(nonce, expected),
    );
  state.accounts.set(id, { ...account, nonce });
}

/** innerSigned is the `{tx, signatures}` a GAMetaTx or PayingForTx wraps. */
function innerSigned(tx: TxFields): TxFields {
  const signed = tx.tx;
  if (signed === null || typeof signed !== 'object' || Array.isArray(signed) || typeof signed.tx !== 'object')
    throw new TxRejected('the inner transaction is missing');
  return signed.tx as TxFields;
}

/** callInfo is the call record of a GA attach's init (the outcome from fate-contract.ts: the devnode runs no auth code). */
function callInfo(
  tx: TxFields,
  ctx: ApplyContext,
  contract: string,
  caller: string,
  code: string,
): { [k: string]: Json } {
  const result = contractCallResult(code, str(tx.call_data), tx.type !== 'ContractCallTx');
  return {
    caller_id: caller,
    caller_nonce: num(tx.nonce),
    height: ctx.height,
    contract_id: contract,
    gas_price: tx.gas_price ?? 0,
    gas_used: Number(gasUsed(tx)),
    log: [],
    return_value: result.returnValue,
    return_type: result.returnType,
  };
}

/**
 * runContractTx runs a create or call (contracts/call-record.ts) after the caller paid the fee, the
 * amount and all the gas, then refunds the unused gas and, when the call failed, the amount (and a
 * failed create's deposit, the contract then not existing). Returns the call record and the AE the call moved
 * inside and the names it acted on (its internal calls, which a dry-run with `tx_events` reports).
 */
function runContractTx(
  state: WorldState,
  tx: TxFields,
  ctx: ApplyContext,
  contract: string,
  caller: string,
  code: string,
): TxEffect {
  const isCreate = tx.type === 'ContractCreateTx';
  const amount = int(tx.amount);
  const outcome = contractOutcome(state, {
    height: ctx.height,
    generation: ctx.generation,
    names: contractNameRules,
    caller,
    contract,
    code,
    callData: str(tx.call_data),
    amount,
    gasLimit: num(tx.gas),
    isCreate,
  });
  credit(state, caller, (int(tx.gas) - BigInt(outcome.gasUsed)) * int(tx.gas_price));
  if (outcome.returnType !== 'ok') {
    debit(state, withPrefix(contract, 'ak'), amount);
    credit(state, caller, amount + (isCreate ? int(tx.deposit) : 0n));
    if (isCreate) state.contracts.delete(contract);
  }
  const callInfo = callRecordJson(outcome, {
    caller,
    callerNonce: num(tx.nonce),
    height: ctx.height,
    contract,
    gasPrice: tx.gas_price ?? 0,
  });
  return { callInfo, events: outcome.events ?? [] };
}

/** registerContract stores a contract a transaction created (a ContractCreateTx's, or a generalized account's code). */
function registerContract(state: WorldState, id: string, owner: string, tx: TxFields, deposit: bigint): void {
  state.contracts.set(id, {
    id,
    ownerId: owner,
    vmVersion: num(tx.vm_version),
    abiVersion: num(tx.abi_version),
    deposit,
    code: str(tx.code),
  });
}

/** gasUsed is what the devnode charges for a GA transaction: it runs no code (common.ts flatGasUsed). */
const gasUsed = (tx: TxFields): bigint => flatGasUsed(tx.gas);

/** INNER_FAILED: a GA call's return value when its inner transaction failed (aeprimop:ga_set_meta_res's reason). */
const INNER_FAILED = encode('cb', Buffer.from('inner_transaction_failed'));

/** nodeTxType is the node's name of a transaction type (aetx's atom: `SpendTx` → `spend_tx`, `GAMetaTx` → `ga_meta_tx`). */
const nodeTxType = (type: string): string =>
  type
    .replace(/([A-Z])([A-Z][a-z])/g, '$1_$2')
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .toLowerCase();

const APPLY: Record<string, Apply> = {
  SpendTx(state, tx, ctx) {
    const recipient = resolveName(state, str(tx.recipient_id), 'account_pubkey', ctx.generation);
    debit(state, nonceAccount(tx), int(tx.fee) + int(tx.amount));
    credit(state, asAccount(recipient), int(tx.amount));
  },
  OracleRegisterTx(state, tx, ctx) {
    const id = withPrefix(str(tx.account_id), 'ok');
    const existing = state.oracles.get(id);
    if (existing && isHeld(existing.expires, ctx.generation))
      throw new TxRejected(`account ${str(tx.account_id)} is already an oracle`);
    const ttl = ttlValue(tx.oracle_ttl);
    const expires = ttlIsBlock(tx.oracle_ttl) ? ttl : ctx.height + ttl;
    if (expires <= ctx.height) throw new TxRejected('oracle_ttl is in the past');
    debit(state, nonceAccount(tx), int(tx.fee));
    state.oracles.set(id, {
      id,
      queryFormat: str(tx.query_format),
      responseFormat: str(tx.response_format),
      queryFee: int(tx.query_fee),
      expires,
      abiVersion: num(tx.abi_version),
      queryIds: [],
    });
  },
  OracleExtendTx(state, tx, ctx) {
    const oracle = state.oracles.get(str(tx.oracle_id));
    if (!oracle || !isHeld(oracle.expires, ctx.generation))
      throw new TxRejected(`oracle ${str(tx.oracle_id)} not found`);
    if (ttlIsBlock(tx.oracle_ttl) || ttlValue(tx.oracle_ttl) <= 0)
      throw new TxRejected('oracle_ttl of an extend must be a positive delta');
    debit(state, nonceAccount(tx), int(tx.fee));
    state.oracles.set(oracle.id, { ...oracle, expires: oracle.expires + ttlValue(tx.oracle_ttl) });
  },
  OracleQueryTx(state, tx, ctx) {
    const oracleId = resolveName(state, str(tx.oracle_id), 'oracle_pubkey', ctx.generation);
    const oracle = state.oracles.get(withPrefix(oracleId, 'ok'));
    if (!oracle || !isHeld(oracle.expires, ctx.generation)) throw new TxRejected(`oracle ${oracleId} not found`);
    if (int(tx.query_fee) < oracle.queryFee) {
      throw new TxRejected(
        `query_fee_too_low: query fee ${int(tx.query_fee)} is below the oracle's query fee ${oracle.queryFee}`,
      );
    }
    const qttl = ttlValue(tx.query_ttl);
    const expires = ttlIsBlock(tx.query_ttl) ? qttl : ctx.height + qttl;
    const responseTtl = ttlValue(tx.response_ttl);
    if (expires + responseTtl > oracle.expires) throw new TxRejected('too_long_ttl: the query outlives the oracle');
    const sender = str(tx.sender_id);
    debit(state, sender, int(tx.fee) + int(tx.query_fee));
    const id = oracleQueryId(sender, num(tx.nonce), oracle.id);
    state.queries.set(id, {
      id,
      senderId: sender,
      senderNonce: num(tx.nonce),
      oracleId: oracle.id,
      query: str(tx.query),
      fee: int(tx.query_fee),
      expires,
      responseTtl,
    });
    state.oracles.set(oracle.id, { ...oracle, queryIds: [...oracle.queryIds, id] });
    return { query: { id, expires } };
  },
  OracleRespondTx(state, tx, ctx) {
    const query = state.queries.get(str(tx.query_id));
    if (!query || query.oracleId !== str(tx.oracle_id))
      throw new TxRejected(`query ${str(tx.query_id)} not found for ${str(tx.oracle_id)}`);
    if (query.response !== undefined) throw new TxRejected(`query ${query.id} is already answered`);
    if (!isHeld(query.expires, ctx.generation)) throw new TxRejected(`query ${query.id} has expired`);
    if (ttlValue(tx.response_ttl) !== query.responseTtl) throw new TxRejected('oracle_response_has_wrong_response_ttl');
    debit(state, nonceAccount(tx), int(tx.fee));
    credit(state, nonceAccount(tx), query.fee);
    state.queries.set(query.id, { ...query, response: str(tx.response) });
  },
  ContractCreateTx(state, tx, ctx) {
    const owner = str(tx.owner_id);
    debit(state, owner, int(tx.fee) + int(tx.amount) + int(tx.deposit) + int(tx.gas) * int(tx.gas_price));
    const id = contractId(owner, num(tx.nonce));
    registerContract(state, id, owner, tx, int(tx.deposit));
    credit(state, withPrefix(id, 'ak'), int(tx.amount));
    return runContractTx(state, tx, ctx, id, owner, str(tx.code));
  },
  ContractCallTx(state, tx, ctx) {
    const id = resolveName(state, str(tx.contract_id), 'contract_pubkey', ctx.generation);
    const contract = state.contracts.get(id);
    if (!contract) throw new TxRejected(`contract ${id} not found`);
    const caller = str(tx.caller_id);
    debit(state, caller, int(tx.fee) + int(tx.amount) + int(tx.gas) * int(tx.gas_price));
    credit(state, withPrefix(id, 'ak'), int(tx.amount));
    return runContractTx(state, tx, ctx, id, caller, contract.code);
  },
  GAAttachTx(state, tx, ctx) {
    const owner = str(tx.owner_id);
    // Ceres: only a fresh account (one that never signed) may become generalized
    if (num(tx.nonce) !== 1) throw new TxRejected('ga_attach_only_fresh_account: GAAttachTx needs nonce 1 from Ceres');
    debit(state, owner, int(tx.fee) + gasUsed(tx) * int(tx.gas_price));
    const id = contractId(owner, num(tx.nonce));
    registerContract(state, id, owner, tx, 0n);
    const account = state.accounts.get(owner)!;
    state.accounts.set(owner, { ...account, ga: { contractId: id, authFun: str(tx.auth_fun) } });
    return { callInfo: callInfo(tx, ctx, id, owner, str(tx.code)) };
  },
  GAMetaTx(state, tx, ctx) {
    const gaId = str(tx.ga_id);
    const account = state.accounts.get(gaId);
    if (!account?.ga) throw new TxRejected(`not_a_generalized_account: ${gaId}`);
    const inner = innerSigned(tx);
    if (num(inner.nonce) !== 0) throw new TxRejected('the inner transaction of a GAMetaTx has nonce 0');
    const used = gasUsed(tx);
    debit(state, gaId, int(tx.fee) + used * int(tx.gas_price));
    // the authentication function "returns true": the devnode runs no code. The inner transaction runs on a layer of
    // its own: one the rules refuse (a spend above the balance) is undone, the meta transaction still mined, its fee
    // and the authentication's gas paid, and its GA call's return type `error` (aega_meta_tx:process_inner,
    // set_meta_result); the info then tells the inner transaction's type only (aehttp_helpers get_ga_meta_tx_info)
    const layer = newState(state);
    let effect: TxEffect | undefined;
    try {
      // a PayingForTx's payer pays the inner transaction's fee and gas too (the payer stays in its aetx_env)
      effect = ctx.payer ? applyPaidFor(layer, inner, ctx, ctx.payer, true) : applyChecked(layer, inner, ctx, true);
      commitState(layer);
    } catch (err) {
      if (!(err instanceof TxRejected)) throw err;
    }
    const innerObject: { [k: string]: Json } = effect?.callInfo
      ? { call_info: effect.callInfo }
      : { tx_info: nodeTxType(str(inner.type)) };
    return {
      gaInfo: {
        caller_id: gaId,
        height: ctx.height,
        gas_price: tx.gas_price ?? 0,
        gas_used: Number(used),
        return_value: effect ? FATE_TRUE : INNER_FAILED,
        return_type: effect ? 'ok' : 'error',
        inner_object: innerObject,
      },
    };
  },
  PayingForTx(state, tx, ctx) {
    const payer = asAccount(str(tx.payer_id));
    debit(state, payer, int(tx.fee));
    return applyPaidFor(state, innerSigned(tx), ctx, payer, false);
  },
  // node 7.3's hyperchain epoch vote (aec_hc_vote_tx): no fee, no nonce, no effect on the state but its inclusion
  HCVoteTx(state, tx) {
    if (state.accounts.get(str(tx.voter_id)) === undefined)
      throw new TxRejected(`account ${str(tx.voter_id)} not found`);
  },
  ...NAME_RULES,
  ...CHANNEL_RULES,
  [MADE_UP_TX_TYPE]: MADE_UP_RULE,
};

/** UNPAID_TYPES: the types that carry neither fee nor nonce (the node's aec_hc_vote_tx: fee 0, nonce 0). */
const UNPAID_TYPES: ReadonlySet<string> = new Set(['HCVoteTx']);

/** applyChecked checks ttl and fee, uses the nonce (none for GAMetaTx and a GA's inner tx) and applies the effects. */
function applyChecked(state: WorldState, tx: TxFields, ctx: ApplyContext, gaInner: boolean): TxEffect {
  const apply = APPLY[String(tx.type)];
  if (!apply) throw new TxRejected(`unsupported transaction type ${String(tx.type)}`);
  const ttl = num(tx.ttl);
  if (ttl !== 0 && ttl < ctx.height) throw new TxRejected(`ttl ${ttl} has expired (height ${ctx.height})`);
  if (UNPAID_TYPES.has(String(tx.type))) return apply(state, tx, ctx) ?? {};
  const minFee = minimumFee(tx, state, ctx.height);
  if (int(tx.fee) < minFee) throw new TxRejected(`fee too low: ${int(tx.fee)} is below the minimum fee ${minFee}`);
  if (tx.type !== 'GAMetaTx' && !gaInner) bumpNonce(state, nonceAccount(tx), num(tx.nonce));
  return apply(state, tx, ctx) ?? {};
}

/**
 * lentGas is the gas a rule takes of a transaction's origin before it runs: a contract create's or call's limit (what
 * it leaves refunded after), the flat gas of what the devnode does not run (a GA's authentication, a force progress's
 * call). Not more: a GA's inner transaction runs on what its account holds.
 */
function lentGas(tx: TxFields): bigint {
  if (tx.type === 'ContractCallTx' || tx.type === 'ContractCreateTx') return int(tx.gas) * int(tx.gas_price);
  return flatGasUsed((isJsonObject(tx.update) ? tx.update : tx).gas) * callGasPrice(tx);
}

/**
 * applyPaidFor applies `tx` with `payer` paying its fee and gas, as the node's spend_fee and gas operations charge the
 * payer a PayingForTx sets (aetx_env:payer, aeprimop establish_payer, refund_payer): the payer pays the fee and the
 * gas the rule takes first (lentGas), lent to the origin (which may have nothing), and gets back what the call left
 * of it; a mutual close takes its fee from the payer itself (aeprimop channel_close_mutual).
 */
function applyPaidFor(state: WorldState, tx: TxFields, ctx: ApplyContext, payer: string, gaInner: boolean): TxEffect {
  const origin = nonceAccount(tx);
  const limit = lentGas(tx);
  debit(state, payer, int(tx.fee) + limit);
  if (tx.type !== 'ChannelCloseMutualTx') credit(state, origin, int(tx.fee) + limit);
  const effect = applyChecked(state, tx, { ...ctx, payer }, gaInner);
  // at the gas price of the call the info tells (a force progress's is its off-chain call's, not a field of its own)
  const info = effect.callInfo ?? effect.gaInfo;
  const used = typeof info?.gas_used === 'number' ? BigInt(info.gas_used) * int(info.gas_price) : 0n;
  debit(state, origin, limit - used);
  credit(state, payer, limit - used);
  return effect;
}

/**
 * applyTx checks a transaction against the state in `ctx`'s generation and, when it is valid, applies
 * its effects. It is all or nothing: the work happens on a layer that is committed to `state`
 * only when every check passed, so a rejection (TxRejected) leaves `state` as it was.
 */
export function applyTx(state: WorldState, tx: TxFields, ctx: ApplyContext): TxEffect {
  const layer = newState(state);
  const effect = applyChecked(layer, tx, ctx, false);
  commitState(layer);
  return effect;
}
