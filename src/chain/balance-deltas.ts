/**
 * @module What a transaction, an internal call or an internal transfer does to accounts' AE balances, by the node's
 * rules (aetx processing as the devnode models it: src/devnode/rules*.ts), from what the node's API shows of it.
 * Accounts are followed under their `ak_` id: an oracle's `ok_` is its account, and so is a contract's `ct_` (the
 * node keeps a contract's AE in the account of the same key: a create's or call's amount, `Chain.spend` and a remote
 * call's value out of it). Where the API does not show enough (an unknown type, a call whose gas used no node gave),
 * the change is not derived: the caller falls back to the node's balance at the batch's end (balance-changes.ts,
 * 'unexplained'). Pure.
 */
import { auctionTimeout, Protocol } from './aens.ts';
import { hash } from './encoding.ts';
import { withPrefix } from './id-cache.ts';
import { decodeCallData, FateDecodeError, isKind } from './fate.ts';
import { isJsonObject, toBigInt, type Json } from './json.ts';
import { contractId, LOCKED_COINS_ACCOUNT } from './derived-ids.ts';
import { callGasPrice } from './reward-fees.ts';
import { ownTx } from './tx-fields.ts';
import type { TxFields } from './tx-serialize.ts';

/** A change of one account's balance, and what caused it (a transaction type, an internal call, a transfer kind). */
export interface BalanceDelta {
  readonly account: string;
  readonly amount: bigint;
  readonly kind: string;
}

/** What the node's API tells of a transaction beside its fields. */
export interface TxFacts {
  /**
   * a contract create's or call's outcome (its call info): gas used, and whether it returned `ok`; a force progress's
   * call's (its gas used)
   */
  readonly call?: { readonly gasUsed: bigint; readonly ok: boolean };
  /** a GAAttachTx's init or a GAMetaTx's authentication: its gas used (the ga area's rows) */
  readonly gaGasUsed?: bigint;
  /** a GAMetaTx's inner transaction succeeded: its GA call's `return_type` is `ok` (`error`: it failed) */
  readonly gaOk?: boolean;
  /** the account a name in a `recipient_id` resolved to in that block */
  readonly recipient?: string;
  /**
   * the parties of the channel a closing transaction pays out, and its amount before it (its creation's, its deposits'
   * and less its withdrawals': aesc_channels' channel_amount)
   */
  readonly channel?: { readonly initiator: string; readonly responder: string; readonly amount: bigint };
}

/** The deltas of a transaction, or why they cannot be told. */
export type TxDeltas = { readonly deltas: BalanceDelta[] } | { readonly unknown: string };

/** CREDITED_TRANSFERS: the internal transfers that credit their account (the others book a debit a tx made). */
const CREDITED_TRANSFERS: ReadonlySet<string> = new Set([
  'reward_block',
  'reward_dev',
  'reward_oracle',
  'fee_refund_name',
  'fee_refund_oracle',
  'accounts_roma',
  'accounts_minerva',
  'accounts_fortuna',
  'accounts_lima',
  'accounts_extra_lima',
  'contracts_lima',
]);

/**
 * transferDeltas is what an internal transfer (ae_mdw's kinds) does to balances: a credit of its account, or for a
 * name fee locked (`fee_lock_name`) a credit of the locked-coins account, where the node moves it; the claim or bid
 * that paid the fee debited its account already (`fee_spend_name` books that only).
 */
export function transferDeltas(kind: string, account: string, amount: bigint): BalanceDelta[] {
  if (kind === 'fee_lock_name') return [{ account: LOCKED_COINS_ACCOUNT, amount, kind }];
  const ak = accountOf(account);
  return CREDITED_TRANSFERS.has(kind) && ak !== undefined && amount !== 0n ? [{ account: ak, amount, kind }] : [];
}

/**
 * INTERNAL_CALL_TYPES: the transaction each AENS and oracle function of a contract amounts to, whose fields its
 * internal call carries (aefa_chain_api tx_event_data: fee and nonce 0).
 */
const INTERNAL_CALL_TYPES: Readonly<Record<string, string>> = {
  'AENS.preclaim': 'NamePreclaimTx',
  'AENS.claim': 'NameClaimTx',
  'AENS.update': 'NameUpdateTx',
  'AENS.transfer': 'NameTransferTx',
  'AENS.revoke': 'NameRevokeTx',
  'Oracle.register': 'OracleRegisterTx',
  'Oracle.extend': 'OracleExtendTx',
  'Oracle.query': 'OracleQueryTx',
  'Oracle.respond': 'OracleRespondTx',
};

/**
 * internalCallDeltas is what an internal call (a dry-run's `tx_events`) moved: a `Chain.spend`'s or `Call.amount`'s
 * `amount` from `sender_id` (the paying contract's account) to `recipient_id` (an account, or the called contract's);
 * an AENS or oracle function what the transaction it amounts to costs its payer (a claim's name fee, a query's query
 * fee: the contract's account, or the account it acts for), as that transaction's rules say (its fee is 0). Another
 * function moves nothing known.
 */
export function internalCallDeltas(fn: string, internalTx: { readonly [key: string]: Json }): BalanceDelta[] {
  const type = INTERNAL_CALL_TYPES[fn];
  if (type !== undefined) {
    const told = txDeltas({ ...internalTx, type }, {});
    if ('unknown' in told) return [];
    return [...told.deltas, ...lockedAtClaim(fn, internalTx)].map((d) => ({ ...d, kind: fn }));
  }
  if (fn !== 'Chain.spend' && fn !== 'Call.amount') return [];
  const amount = toBigInt(internalTx.amount ?? 0);
  if (amount === 0n) return [];
  const from = accountOf(String(internalTx.sender_id ?? ''));
  const to = accountOf(String(internalTx.recipient_id ?? ''));
  return [
    ...(from === undefined ? [] : [{ account: from, amount: -amount, kind: fn }]),
    ...(to === undefined ? [] : [{ account: to, amount, kind: fn }]),
  ];
}

/**
 * closingChannel is what a closing transaction's facts need of its channel, from the channel's transactions that fund
 * it (its ChannelCreateTx, ChannelDepositTxs and ChannelWithdrawTxs, or transactions wrapping them): its parties, and
 * its amount (aesc_channels' channel_amount: the creation's two amounts, plus the deposits, less the withdrawals).
 * Undefined without its creation. Pure.
 */
export function closingChannel(fundings: readonly TxFields[]): TxFacts['channel'] {
  let amount = 0n;
  let parties: { initiator: string; responder: string } | undefined;
  for (const t of fundings) {
    const create = ownTx(t, 'ChannelCreateTx');
    if (create !== undefined) {
      parties = { initiator: String(create.initiator_id), responder: String(create.responder_id) };
      amount += int(create.initiator_amount) + int(create.responder_amount);
    }
    amount += int(ownTx(t, 'ChannelDepositTx')?.amount) - int(ownTx(t, 'ChannelWithdrawTx')?.amount);
  }
  return parties && { ...parties, amount };
}

/**
 * lockedAtClaim is what a contract's `AENS.claim` of a name no auction is held for locks: its name fee, in the
 * locked-coins account (aeprimop lock_namefee). A contract's claim is Lima's or later (FATE), where names of more than
 * 12 characters are not auctioned; an auctioned name's bid is held in its auction, what becomes of it (a refund when
 * outbid, the lock at the auction's end) told by the name's later events (auction-transfers.ts), as an account's.
 */
function lockedAtClaim(fn: string, internalTx: { readonly [key: string]: Json }): BalanceDelta[] {
  if (fn !== 'AENS.claim' || typeof internalTx.name !== 'string') return [];
  if (auctionTimeout(internalTx.name, Protocol.LIMA) > 0) return [];
  const fee = toBigInt(internalTx.name_fee ?? 0);
  return fee > 0n ? [{ account: LOCKED_COINS_ACCOUNT, amount: fee, kind: fn }] : [];
}

/**
 * internalCallPayer is the account an internal call of another function than `Chain.spend` and `Call.amount` (AENS.*,
 * Oracle.*: a name's or a query's fee) took AE from, or may have: its internal transaction's payer (payerOf: a
 * contract's account, or the account it acts for), which no transaction names as an account; none for those two,
 * whose sides internalCallDeltas names. The caller asks the node for its balance, so what the rules make of such a
 * call (or cannot) is reconciled.
 */
export function internalCallPayer(fn: string, internalTx: { readonly [key: string]: Json }): string | undefined {
  if (fn === 'Chain.spend' || fn === 'Call.amount') return undefined;
  return accountOf(String(payerOf(internalTx) ?? ''));
}

const WITHDRAW = Buffer.from(hash(Buffer.from('withdraw', 'utf8')).subarray(0, 4)).toString('hex');

/**
 * stakingWithdrawal is what a hyperchain's staking contract pays out in a call of its `withdraw(owner, amount)` that
 * returned `ok` (a wrapped one's inner call too): `amount` to the caller, by `Chain.spend` (MainStaking, as the
 * devnode's hc-staking.ts runs it). For a call whose internal calls no dry-run told (a gap), whose payout would
 * otherwise be missing until the range's end; none for another call. Pure.
 */
export function stakingWithdrawal(tx: TxFields, staking: string, ok: boolean): BalanceDelta[] {
  const call = isJsonObject(tx.tx) && isJsonObject(tx.tx.tx) ? tx.tx.tx : tx;
  if (!ok || call.type !== 'ContractCallTx' || call.contract_id !== staking) return [];
  let amount: bigint;
  try {
    const { functionId, args } = decodeCallData(String(call.call_data));
    if (functionId !== WITHDRAW || typeof args[1] !== 'bigint' || !isKind(args[0], 'address')) return [];
    amount = args[1];
  } catch (err) {
    if (err instanceof FateDecodeError) return [];
    throw err;
  }
  const to = accountOf(String(call.caller_id ?? ''));
  return to === undefined || amount <= 0n ? [] : [{ account: to, amount, kind: 'Chain.spend' }];
}

/** txDeltas is what a mined transaction (a wrapper with its inner one) does to balances, or why that is not known. */
export function txDeltas(tx: TxFields, facts: TxFacts): TxDeltas {
  const out: BalanceDelta[] = [];
  const kind = String(tx.type);
  const move = (id: Json | undefined, amount: bigint): void => {
    const account = accountOf(String(id ?? ''));
    if (account !== undefined && amount !== 0n) out.push({ account, amount, kind });
  };
  const unknown = apply(tx, facts, move, (inner) => txDeltas(inner, facts));
  if (unknown !== undefined) return { unknown };
  return { deltas: out };
}

type Move = (id: Json | undefined, amount: bigint) => void;

const int = (v: Json | undefined): bigint => (v === undefined || v === null ? 0n : toBigInt(v));

/**
 * apply moves what `tx` moves through `move`, and gives why it cannot when it cannot. A wrapper's inner transaction
 * is told by `inner`, its deltas added under the wrapper's own kind.
 */
function apply(tx: TxFields, facts: TxFacts, move: Move, inner: (tx: TxFields) => TxDeltas): string | undefined {
  const fee = int(tx.fee);
  switch (tx.type) {
    case 'SpendTx': {
      move(tx.sender_id, -(fee + int(tx.amount)));
      const to = String(tx.recipient_id ?? '');
      if (to.startsWith('nm_') && facts.recipient === undefined) return 'a spend to a name not resolved';
      move(to.startsWith('nm_') ? facts.recipient : to, int(tx.amount));
      return undefined;
    }
    case 'OracleRegisterTx':
    case 'NamePreclaimTx':
    case 'NameUpdateTx':
    case 'NameTransferTx':
    case 'NameRevokeTx':
      move(tx.account_id, -fee);
      return undefined;
    case 'OracleExtendTx':
    case 'OracleRespondTx':
      // the response's query fee is the `reward_oracle` transfer
      move(tx.oracle_id, -fee);
      return undefined;
    case 'OracleQueryTx':
      move(tx.sender_id, -(fee + int(tx.query_fee)));
      return undefined;
    case 'NameClaimTx':
      // a bid's refund to the bidder it outbids is the auction's `fee_refund_name` (auction-transfers.ts)
      move(tx.account_id, -(fee + int(tx.name_fee)));
      return undefined;
    case 'ContractCreateTx':
    case 'ContractCallTx': {
      if (facts.call === undefined) return 'no call info (gas used) for the contract transaction';
      const create = tx.type === 'ContractCreateTx';
      const payer = create ? tx.owner_id : tx.caller_id;
      // the caller pays the fee and the gas used; the amount (and a create's deposit) only when the call succeeded,
      // the amount into the contract's account (the deposit stays with the contract object, in no account)
      const kept = facts.call.ok ? int(tx.amount) + int(tx.deposit) : 0n;
      move(payer, -(fee + facts.call.gasUsed * int(tx.gas_price) + kept));
      if (!facts.call.ok || int(tx.amount) === 0n) return undefined;
      const contract = create ? contractId(String(tx.owner_id), int(tx.nonce)) : String(tx.contract_id ?? '');
      if (contract.startsWith('nm_')) return 'a call with an amount of a contract named by a name not resolved';
      // a generalized account's inner create (nonce 0) makes its contract's id of its authorisation, not of a nonce
      if (create && int(tx.nonce) === 0n) return 'a create with an amount by a generalized account';
      move(contract, int(tx.amount));
      return undefined;
    }
    case 'GAAttachTx':
    case 'GAMetaTx': {
      if (facts.gaGasUsed === undefined) return 'no gas used known for the generalized account';
      const owner = tx.type === 'GAAttachTx' ? tx.owner_id : tx.ga_id;
      move(owner, -(fee + facts.gaGasUsed * int(tx.gas_price)));
      // an inner transaction that failed is undone, its fee too: the GA paid the meta transaction's fee and the
      // authentication's gas only (aega_meta_tx:process_inner, set_meta_result: the GA call's return type `error`)
      return tx.type === 'GAMetaTx' && facts.gaOk !== false ? wrapped(tx, move, inner) : undefined;
    }
    case 'PayingForTx': {
      const signed = innerOf(tx);
      if (signed === undefined) return 'a PayingForTx without its inner transaction';
      move(tx.payer_id, -(fee + paidCharge(signed, facts)));
      return paidDeltas(signed, facts, move, inner);
    }
    case 'ChannelCreateTx':
      move(tx.initiator_id, -(fee + int(tx.initiator_amount)));
      move(tx.responder_id, -int(tx.responder_amount));
      return undefined;
    case 'ChannelDepositTx':
      move(tx.from_id, -(fee + int(tx.amount)));
      return undefined;
    case 'ChannelWithdrawTx':
      move(tx.to_id, int(tx.amount) - fee);
      return undefined;
    case 'ChannelCloseMutualTx':
    case 'ChannelSettleTx': {
      if (facts.channel === undefined) return 'the parties of the channel are not known';
      // a mutual close pays its fee from the channel's coins, a settle from its sender's; what the final amounts (and
      // a mutual close's fee) leave in the channel is locked (aeprimop channel_close_mutual, channel_settle)
      const mutual = tx.type === 'ChannelCloseMutualTx';
      if (!mutual) move(tx.from_id, -fee);
      const [initiator, responder] = [int(tx.initiator_amount_final), int(tx.responder_amount_final)];
      move(facts.channel.initiator, initiator);
      move(facts.channel.responder, responder);
      const left = facts.channel.amount - initiator - responder - (mutual ? fee : 0n);
      if (left > 0n) move(LOCKED_COINS_ACCOUNT, left);
      return undefined;
    }
    case 'ChannelCloseSoloTx':
    case 'ChannelSlashTx':
    case 'ChannelSnapshotSoloTx':
    case 'ChannelSetDelegatesTx':
      move(tx.from_id, -fee);
      return undefined;
    case 'ChannelForceProgressTx':
      // its off-chain call runs on chain: the sender pays the gas it used at the update's gas price with the fee
      // (aesc_utils:process_force_progress, consume_gas_and_fee)
      if (facts.call === undefined) return 'no call info (gas used) for the force progress';
      move(tx.from_id, -(fee + innerGas(tx, facts)));
      return undefined;
    case 'HCVoteTx':
      return undefined;
    default:
      return `the balance changes of a ${String(tx.type)} are not known`;
  }
}

/** innerOf is the transaction a wrapper (GAMetaTx, PayingForTx) holds. */
const innerOf = (tx: TxFields): TxFields | undefined =>
  isJsonObject(tx.tx) && isJsonObject(tx.tx.tx) ? tx.tx.tx : undefined;

/**
 * paidCharge is what a PayingForTx's payer pays of the transaction it pays for: its fee and gas, and those of a GA's
 * inner transaction that ran, the payer staying in the GA's environment (aeprimop spend_fee and the gas operations
 * charge the payer a PayingForTx sets: establish_payer).
 */
function paidCharge(tx: TxFields, facts: TxFacts): bigint {
  const signed = tx.type === 'GAMetaTx' && facts.gaOk !== false ? innerOf(tx) : undefined;
  return int(tx.fee) + innerGas(tx, facts) + (signed === undefined ? 0n : paidCharge(signed, facts));
}

/**
 * paidDeltas moves what a paid-for transaction does besides its payer's charge (paidCharge): its origin gets back what
 * its rules took of it as fee and gas; a mutual close's fee is the payer's, its channel paying out as a close without
 * one would (aeprimop channel_close_mutual: a payer and `Fee > 0`); a GA's fee and gas are the payer's alone, its
 * inner transaction paid for in turn when it ran.
 */
function paidDeltas(tx: TxFields, facts: TxFacts, move: Move, inner: (tx: TxFields) => TxDeltas): string | undefined {
  if (tx.type === 'GAMetaTx') {
    if (facts.gaGasUsed === undefined) return 'no gas used known for the generalized account';
    const signed = innerOf(tx);
    if (signed === undefined) return 'a GAMetaTx without its inner transaction';
    return facts.gaOk === false ? undefined : paidDeltas(signed, facts, move, inner);
  }
  const told = inner(tx.type === 'ChannelCloseMutualTx' ? { ...tx, fee: 0 } : tx);
  if ('unknown' in told) return told.unknown;
  for (const d of told.deltas) move(d.account, d.amount);
  if (tx.type !== 'ChannelCloseMutualTx') move(payerOf(tx), int(tx.fee) + innerGas(tx, facts));
  return undefined;
}

/** wrapped moves a GAMetaTx's inner transaction's deltas. */
function wrapped(tx: TxFields, move: Move, inner: (tx: TxFields) => TxDeltas): string | undefined {
  const signed = innerOf(tx);
  if (signed === undefined) return `a ${String(tx.type)} without its inner transaction`;
  const told = inner(signed);
  if ('unknown' in told) return told.unknown;
  for (const d of told.deltas) move(d.account, d.amount);
  return undefined;
}

/**
 * innerGas is what a contract, force progress or generalized account transaction's gas cost (0 where not known or
 * none), at its call's gas price (callGasPrice).
 */
function innerGas(tx: TxFields, facts: TxFacts): bigint {
  const used =
    tx.type === 'ContractCallTx' || tx.type === 'ContractCreateTx' || tx.type === 'ChannelForceProgressTx'
      ? facts.call?.gasUsed
      : tx.type === 'GAAttachTx' || tx.type === 'GAMetaTx'
        ? facts.gaGasUsed
        : undefined;
  return used === undefined ? 0n : used * callGasPrice(tx);
}

/** payerOf is the account a transaction's fee is taken from and whose nonce it uses (the node's aetx:origin). */
export function payerOf(tx: TxFields): Json | undefined {
  return (
    tx.sender_id ??
    tx.account_id ??
    tx.owner_id ??
    tx.caller_id ??
    tx.initiator_id ??
    tx.from_id ??
    tx.to_id ??
    tx.payer_id ??
    tx.ga_id ??
    tx.oracle_id
  );
}

/**
 * accountOf is the account whose balance an id's changes move: an `ak_` itself, an oracle's or a contract's account,
 * else none.
 */
export function accountOf(id: string): string | undefined {
  if (id.startsWith('ak_')) return id;
  // remembered: a range's changes meet the same contracts again and again, each a Base58 and checksum both ways
  if (id.startsWith('ok_') || id.startsWith('ct_')) return withPrefix(id, 'ak');
  return undefined;
}
