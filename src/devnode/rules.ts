/** @module Validation and effects of each transaction type on the world state (the seed's rules). */
import { withPrefix } from '../chain/id-cache.ts';
import { toBigInt, type Json } from '../chain/json.ts';
import { COMMITMENT_EXPIRATION, MIN_FEE, NAME_CLAIM_MAX_EXPIRATION, NAME_REVOKE_PROTECTION, ttlFee } from './fees.ts';
import { channelId, commitmentId, contractId, nameHash, nameValidationError, oracleQueryId } from './ids.ts';
import { callRecordJson, contractOutcome } from './contracts/call-record.ts';
import type { TxFields } from './tx-codec.ts';
import { commitState, newState, type Account, type WorldState } from './state.ts';

/** TxRejected carries the reason the node gives for refusing a transaction. */
export class TxRejected extends Error {
  override readonly name = 'TxRejected';
}

/** ApplyContext is where a transaction lands: the generation height and the tx hash. */
export interface ApplyContext {
  readonly height: number;
  readonly txHash: string;
}

/** TxEffect is what inclusion produced besides state: the call record of contract transactions. */
export interface TxEffect {
  readonly callInfo?: { [k: string]: Json };
  readonly query?: { readonly id: string; readonly expires: number };
}

const int = (v: Json | undefined): bigint => (v === undefined ? 0n : toBigInt(v));
const num = (v: Json | undefined): number => Number(int(v));
const str = (v: Json | undefined): string => (typeof v === 'string' ? v : '');
const ttlValue = (v: Json | undefined): number =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? num(v.value) : 0;
const ttlIsBlock = (v: Json | undefined): boolean =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && v.type === 'block';
const asAccount = (id: string): string => withPrefix(id, 'ak');

/** nonceAccount is the account whose nonce a transaction uses and who pays its fee. */
export function nonceAccount(tx: TxFields): string {
  const id =
    tx.sender_id ?? tx.account_id ?? tx.owner_id ?? tx.caller_id ?? tx.initiator_id ?? tx.from_id ?? tx.oracle_id;
  return asAccount(str(id));
}

/** signers lists the accounts that must sign a transaction (both parties for channel create/close). */
export function signers(tx: TxFields, state: WorldState): string[] {
  if (tx.type === 'ChannelCreateTx') return [str(tx.initiator_id), str(tx.responder_id)];
  if (tx.type === 'ChannelCloseMutualTx') {
    const channel = state.channels.get(str(tx.channel_id));
    return channel ? [channel.initiatorId, channel.responderId] : [nonceAccount(tx)];
  }
  return [nonceAccount(tx)];
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

function credit(state: WorldState, id: string, amount: bigint): void {
  const account = state.accounts.get(id) ?? { balance: 0n, nonce: 0 };
  state.accounts.set(id, { ...account, balance: account.balance + amount });
}

function debit(state: WorldState, id: string, amount: bigint): Account {
  const account = state.accounts.get(id);
  if (!account || account.balance < amount) {
    throw new TxRejected(`insufficient balance: ${id} has ${account?.balance ?? 0n}, needs ${amount}`);
  }
  const next = { ...account, balance: account.balance - amount };
  state.accounts.set(id, next);
  return next;
}

function bumpNonce(state: WorldState, id: string, nonce: number): void {
  const account = state.accounts.get(id);
  const expected = (account?.nonce ?? 0) + 1;
  if (!account) throw new TxRejected(`insufficient balance: account ${id} does not exist yet`);
  if (nonce !== expected) throw new TxRejected(`nonce ${nonce} is not the next nonce of ${id} (expected ${expected})`);
  state.accounts.set(id, { ...account, nonce });
}

function resolveName(state: WorldState, id: string, key: string, height: number): string {
  if (!id.startsWith('nm_')) return id;
  const entry = state.names.get(id);
  if (!entry || entry.revokedAt !== undefined || entry.expires <= height) throw new TxRejected(`name ${id} not found`);
  const pointer = entry.pointers.find((p) => p.key === key);
  if (!pointer) throw new TxRejected(`name ${id} has no ${key} pointer`);
  return pointer.id;
}

function activeName(state: WorldState, tx: TxFields, height: number) {
  const entry = state.names.get(str(tx.name_id));
  if (!entry || entry.revokedAt !== undefined || entry.expires <= height)
    throw new TxRejected(`name ${str(tx.name_id)} not found`);
  if (entry.owner !== str(tx.account_id))
    throw new TxRejected(`name ${str(tx.name_id)} is not owned by ${str(tx.account_id)}`);
  return entry;
}

/**
 * runContractTx runs a create or call (contracts/call-record.ts) after the caller paid the fee, the
 * amount and all the gas, then refunds the unused gas and, when the call failed, the amount (and a
 * failed create's deposit, the contract then not existing). Returns the call record.
 */
function runContractTx(
  state: WorldState,
  tx: TxFields,
  ctx: ApplyContext,
  contract: string,
  caller: string,
  code: string,
): { [k: string]: Json } {
  const isCreate = tx.type === 'ContractCreateTx';
  const amount = int(tx.amount);
  const outcome = contractOutcome(state, {
    height: ctx.height,
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
  return callRecordJson(outcome, {
    caller,
    callerNonce: num(tx.nonce),
    height: ctx.height,
    contract,
    gasPrice: tx.gas_price ?? 0,
  });
}

type Apply = (state: WorldState, tx: TxFields, ctx: ApplyContext) => TxEffect | void;

const APPLY: Record<string, Apply> = {
  SpendTx(state, tx, ctx) {
    const recipient = resolveName(state, str(tx.recipient_id), 'account_pubkey', ctx.height);
    debit(state, nonceAccount(tx), int(tx.fee) + int(tx.amount));
    credit(state, asAccount(recipient), int(tx.amount));
  },
  OracleRegisterTx(state, tx, ctx) {
    const id = withPrefix(str(tx.account_id), 'ok');
    const existing = state.oracles.get(id);
    if (existing && existing.expires > ctx.height)
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
    if (!oracle || oracle.expires <= ctx.height) throw new TxRejected(`oracle ${str(tx.oracle_id)} not found`);
    if (ttlIsBlock(tx.oracle_ttl) || ttlValue(tx.oracle_ttl) <= 0)
      throw new TxRejected('oracle_ttl of an extend must be a positive delta');
    debit(state, nonceAccount(tx), int(tx.fee));
    state.oracles.set(oracle.id, { ...oracle, expires: oracle.expires + ttlValue(tx.oracle_ttl) });
  },
  OracleQueryTx(state, tx, ctx) {
    const oracleId = resolveName(state, str(tx.oracle_id), 'oracle_pubkey', ctx.height);
    const oracle = state.oracles.get(withPrefix(oracleId, 'ok'));
    if (!oracle || oracle.expires <= ctx.height) throw new TxRejected(`oracle ${oracleId} not found`);
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
    if (query.expires < ctx.height) throw new TxRejected(`query ${query.id} has expired`);
    if (ttlValue(tx.response_ttl) !== query.responseTtl) throw new TxRejected('oracle_response_has_wrong_response_ttl');
    debit(state, nonceAccount(tx), int(tx.fee));
    credit(state, nonceAccount(tx), query.fee);
    state.queries.set(query.id, { ...query, response: str(tx.response) });
  },
  NamePreclaimTx(state, tx, ctx) {
    const id = str(tx.commitment_id);
    const existing = state.commitments.get(id);
    if (existing && existing.height + COMMITMENT_EXPIRATION >= ctx.height)
      throw new TxRejected(`commitment ${id} already exists`);
    debit(state, nonceAccount(tx), int(tx.fee));
    state.commitments.set(id, { owner: str(tx.account_id), height: ctx.height });
  },
  NameClaimTx(state, tx, ctx) {
    const name = str(tx.name).toLowerCase();
    const invalid = nameValidationError(name);
    if (invalid) throw new TxRejected(`name validation failed: ${invalid}`);
    const cm = commitmentId(name, int(tx.name_salt));
    const commitment = state.commitments.get(cm);
    if (!commitment || commitment.owner !== str(tx.account_id))
      throw new TxRejected(`name_not_preclaimed: no commitment ${cm} by ${str(tx.account_id)}`);
    if (commitment.height >= ctx.height) {
      throw new TxRejected(
        'commitment_delta_too_small: a claim is not accepted in the same generation as its preclaim',
      );
    }
    const id = nameHash(name);
    const existing = state.names.get(id);
    if (
      existing &&
      (existing.revokedAt === undefined
        ? existing.expires > ctx.height
        : existing.revokedAt + NAME_REVOKE_PROTECTION > ctx.height)
    ) {
      throw new TxRejected(`name_already_taken: ${name}`);
    }
    debit(state, nonceAccount(tx), int(tx.fee) + int(tx.name_fee));
    state.commitments.delete(cm);
    state.names.set(id, {
      id,
      name,
      owner: str(tx.account_id),
      expires: ctx.height + NAME_CLAIM_MAX_EXPIRATION,
      pointers: [],
    });
  },
  NameUpdateTx(state, tx, ctx) {
    const entry = activeName(state, tx, ctx.height);
    const nameTtl = num(tx.name_ttl);
    if (nameTtl > NAME_CLAIM_MAX_EXPIRATION)
      throw new TxRejected(`name_ttl ${nameTtl} exceeds ${NAME_CLAIM_MAX_EXPIRATION}`);
    debit(state, nonceAccount(tx), int(tx.fee));
    const pointers = (Array.isArray(tx.pointers) ? tx.pointers : []).map((p) => {
      const o = p as { key: string; id: string };
      return { key: o.key, id: o.id };
    });
    state.names.set(entry.id, { ...entry, expires: ctx.height + nameTtl, pointers });
  },
  NameTransferTx(state, tx, ctx) {
    const entry = activeName(state, tx, ctx.height);
    const recipient = resolveName(state, str(tx.recipient_id), 'account_pubkey', ctx.height);
    debit(state, nonceAccount(tx), int(tx.fee));
    state.names.set(entry.id, { ...entry, owner: asAccount(recipient) });
  },
  NameRevokeTx(state, tx, ctx) {
    const entry = activeName(state, tx, ctx.height);
    debit(state, nonceAccount(tx), int(tx.fee));
    state.names.set(entry.id, { ...entry, revokedAt: ctx.height, pointers: [] });
  },
  ContractCreateTx(state, tx, ctx) {
    const owner = str(tx.owner_id);
    debit(state, owner, int(tx.fee) + int(tx.amount) + int(tx.deposit) + int(tx.gas) * int(tx.gas_price));
    const id = contractId(owner, num(tx.nonce));
    state.contracts.set(id, {
      id,
      ownerId: owner,
      vmVersion: num(tx.vm_version),
      abiVersion: num(tx.abi_version),
      deposit: int(tx.deposit),
      code: str(tx.code),
    });
    credit(state, withPrefix(id, 'ak'), int(tx.amount));
    return { callInfo: runContractTx(state, tx, ctx, id, owner, str(tx.code)) };
  },
  ContractCallTx(state, tx, ctx) {
    const id = resolveName(state, str(tx.contract_id), 'contract_pubkey', ctx.height);
    const contract = state.contracts.get(id);
    if (!contract) throw new TxRejected(`contract ${id} not found`);
    const caller = str(tx.caller_id);
    debit(state, caller, int(tx.fee) + int(tx.amount) + int(tx.gas) * int(tx.gas_price));
    credit(state, withPrefix(id, 'ak'), int(tx.amount));
    return { callInfo: runContractTx(state, tx, ctx, id, caller, contract.code) };
  },
  ChannelCreateTx(state, tx) {
    const initiator = str(tx.initiator_id);
    const responder = str(tx.responder_id);
    debit(state, initiator, int(tx.fee) + int(tx.initiator_amount));
    debit(state, responder, int(tx.responder_amount));
    const id = channelId(initiator, num(tx.nonce), responder);
    const d = tx.delegate_ids;
    const delegateIds = (
      Array.isArray(d) ? d : d && typeof d === 'object' ? [...(d.initiator as Json[]), ...(d.responder as Json[])] : []
    ).map(str);
    state.channels.set(id, {
      id,
      initiatorId: initiator,
      responderId: responder,
      initiatorAmount: int(tx.initiator_amount),
      responderAmount: int(tx.responder_amount),
      channelReserve: int(tx.channel_reserve),
      lockPeriod: num(tx.lock_period),
      delegateIds,
      stateHash: str(tx.state_hash),
    });
  },
  ChannelCloseMutualTx(state, tx) {
    const channel = state.channels.get(str(tx.channel_id));
    if (!channel) throw new TxRejected(`channel ${str(tx.channel_id)} not found`);
    const from = str(tx.from_id);
    if (from !== channel.initiatorId && from !== channel.responderId)
      throw new TxRejected(`${from} is not a channel party`);
    const finals = int(tx.initiator_amount_final) + int(tx.responder_amount_final) + int(tx.fee);
    if (finals !== channel.initiatorAmount + channel.responderAmount) {
      throw new TxRejected('wrong_amounts: final amounts plus fee must equal the channel amount');
    }
    credit(state, channel.initiatorId, int(tx.initiator_amount_final));
    credit(state, channel.responderId, int(tx.responder_amount_final));
    state.channels.delete(channel.id);
  },
};

/**
 * applyTx checks a transaction against the state at `ctx.height` and, when it is valid, applies
 * its effects. It is all or nothing: the work happens on a layer that is committed to `state`
 * only when every check passed, so a rejection (TxRejected) leaves `state` as it was.
 */
export function applyTx(state: WorldState, tx: TxFields, ctx: ApplyContext): TxEffect {
  const apply = APPLY[String(tx.type)];
  if (!apply) throw new TxRejected(`unsupported transaction type ${String(tx.type)}`);
  const ttl = num(tx.ttl);
  if (ttl !== 0 && ttl < ctx.height) throw new TxRejected(`ttl ${ttl} has expired (height ${ctx.height})`);
  const minFee = minimumFee(tx, state, ctx.height);
  if (int(tx.fee) < minFee) throw new TxRejected(`fee too low: ${int(tx.fee)} is below the minimum fee ${minFee}`);
  const layer = newState(state);
  bumpNonce(layer, nonceAccount(tx), num(tx.nonce));
  const effect = apply(layer, tx, ctx) ?? {};
  commitState(layer);
  return effect;
}
