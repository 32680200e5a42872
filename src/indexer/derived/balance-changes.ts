/**
 * @module Every change of an account's AE balance with its cause (migration 1100, issue 76): derived from a range's
 * stored transactions, internal calls and internal transfers by the node's rules (chain/balance-deltas.ts), and its
 * name auctions' refunds and locks from the names' events, a contract's bids among them (chain/auction-transfers.ts),
 * each with the balance after it, and reconciled at the range's end with the node's balance of every account it
 * touched: what the rules cannot tell (an unknown type, a call whose internal calls no dry-run gave: inside or after a
 * GAMetaTx or PayingForTx, a pruned block; a rule the node applies differently) becomes 'unexplained' rows where the
 * node's state shows it arising (difference-steps.ts), else one after the first such transaction naming the account or
 * after the range's last block, so every balance served at a range's end is the node's, and after each of its blocks
 * as well where the node could tell.
 */
import {
  accountOf,
  closingChannel,
  internalCallDeltas,
  internalCallPayer,
  stakingWithdrawal,
  transferDeltas,
  txDeltas,
  type BalanceDelta,
  type TxFacts,
} from '../../chain/balance-deltas.ts';
import { auctionTransfers } from '../../chain/auction-transfers.ts';
import { LOCKED_COINS_ACCOUNT } from '../../chain/derived-ids.ts';
import { idOfKey } from '../../chain/id-key.ts';
import { toBigInt } from '../../chain/json.ts';
import { renderStoredTxFields, storedTxAmounts } from '../../chain/stored-tx.ts';
import { innerTx } from '../../chain/tx-fields.ts';
import type { TxFields } from '../../chain/tx-serialize.ts';
import type { Logger } from '../../base/log.ts';
import type { Queryable } from '../../db/connection/pool.ts';
import {
  auctionEvents,
  balanceEvents,
  balanceCallFacts,
  balanceTransactions,
  channelFundings,
  internalCallGaps,
  namedIds,
  resolvedRecipients,
  rangeBlocks,
  signedByHash,
  withCallFacts,
  type BalanceEventRow,
  type BalanceTxRow,
  type Place,
  type RangeBlock,
} from '../../db/queries/balance-inputs.ts';
import type { BalanceChangeRow } from '../../db/writes/balance-changes.ts';
import { AFTER_BLOCK } from '../../db/queries/balance-changes.ts';
import { hyperchainRecord } from '../../db/queries/hyperchain.ts';
import type { HeightRange } from '../../db/queries/height-range.ts';
import type { IndexerMetrics } from '../metrics.ts';
import type { HeldTransaction, KnownTransactions } from './written-transactions.ts';

/**
 * A change derived at a place, with the transaction that caused it where that is not the transaction at its place
 * (null: that one, or none at key-block level): the hash is read with the row (balance-changes.ts COLUMNS), not kept.
 */
export interface PlacedDelta extends Place, BalanceDelta {
  readonly txHash: string | null;
}

/** A transaction whose changes the rules cannot tell, and why (its accounts are reconciled at the range's end). */
export interface UntoldTx extends Place {
  readonly txHash: string;
  readonly reason: string;
}

/** An account whose derived balance at a range's end is not the node's. */
export interface BalanceDifference {
  readonly accountId: string;
  readonly height: number;
  readonly derived: bigint;
  readonly node: bigint;
}

/** A range's changes: derived ones in chain order, and the transactions they lack. */
export interface DerivedDeltas {
  readonly deltas: readonly PlacedDelta[];
  readonly untold: readonly UntoldTx[];
}

/** A transaction whose changes the rules cannot tell, with the accounts it names (which it may have moved). */
export interface UntoldNaming extends UntoldTx {
  readonly accounts: readonly string[];
}

/** A range's derived changes, what they lack, and the accounts some internal call may have moved otherwise. */
export interface RangeDeltas {
  readonly deltas: readonly PlacedDelta[];
  readonly untold: UntoldNaming[];
  /** the payers of the internal calls whose cost is not derived (AENS.*, Oracle.*: internalCallPayer), and where */
  readonly unfollowed: readonly { readonly account: string; readonly height: number }[];
  /** the accounts the range's internal transfers touched (transferredAccounts) */
  readonly transferred: ReadonlyMap<string, TransferredAccount>;
  /** the range's blocks in chain order, where they were read */
  readonly blocks?: readonly RangeBlock[];
}

/** An account internal transfers touched: the highest height of them, and whether one is a Lima contract's amount. */
export interface TransferredAccount {
  readonly height: number;
  readonly contract: boolean;
}

/**
 * transferredAccounts gives the accounts a range's internal transfers touched (`events`: balanceEvents' rows, whose
 * transfers carry an account): each `ak_` account a transfer credits or debits (rewards, name fees, oracle rewards and
 * refunds, genesis and fork credits), `contract` where a Lima contract's amount credits it, and the locked-coins
 * account where a claim's name fee moved to it (an auction's refunds and locks are not among the events: their
 * accounts are their changes'). Pure.
 */
export function transferredAccounts(
  events: readonly Pick<BalanceEventRow, 'height' | 'kind' | 'accountId'>[],
): Map<string, TransferredAccount> {
  const touched = new Map<string, TransferredAccount>();
  const touch = (account: string, height: number, contract: boolean): void => {
    const seen = touched.get(account);
    touched.set(account, {
      height: Math.max(height, seen?.height ?? height),
      contract: contract || seen?.contract === true,
    });
  };
  for (const e of events) {
    // an internal call's row carries no account: its payer is the transaction's or internalCallPayer's
    if (e.accountId === null) continue;
    if (e.accountId.startsWith('ak_')) touch(e.accountId, e.height, e.kind === 'contracts_lima');
    if (e.kind === 'fee_lock_name' || e.kind === 'fee_spend_name') touch(LOCKED_COINS_ACCOUNT, e.height, false);
  }
  return touched;
}

/**
 * untoldAccounts gives the accounts a range's untold transactions may have moved, each with the highest height of
 * them: the accounts each names, and the locked-coins account wherever one is untold, which none names and any may
 * have paid (a contract call's `AENS.claim` locks its name fee there at once: issue 88's rule, in a call no dry-run
 * told). Unread, a batch holding such a call and no name transaction of its own kept that account's balance short
 * of the node's until a later batch's name fee read it. Pure.
 */
export function untoldAccounts(untold: readonly Pick<UntoldNaming, 'height' | 'accounts'>[]): Map<string, number> {
  const touched = new Map<string, number>();
  for (const u of untold)
    for (const a of [...u.accounts, LOCKED_COINS_ACCOUNT])
      touched.set(a, Math.max(u.height, touched.get(a) ?? u.height));
  return touched;
}

/**
 * readRangeDeltas derives the changes of a range of stored heights from its stored rows; the transactions it cannot
 * tell are those the rules cannot (a type not known, a contract call without its call info, …) and the contract
 * calls whose internal calls no dry-run told (the int_calls area's gaps), each with the accounts it names.
 */
export async function readRangeDeltas(
  db: Queryable,
  range: HeightRange,
  known?: KnownTransactions,
): Promise<RangeDeltas> {
  // the range's blocks name its transactions where `known` holds them (and tell where a difference arose)
  let blocks: RangeBlock[] | undefined;
  let held: (Place & HeldTransaction)[] | undefined;
  if (known !== undefined) {
    blocks = await rangeBlocks(db, range);
    held = heldTransactions(blocks, known);
  }
  const { txs, fields } = await rangeTransactions(db, range, held);
  // each transaction's spend to a name and closed channel, told once (each looked into its wrapped transaction)
  const toName = fields.map(sendsToName);
  const closes = fields.map(closedChannel);
  const recipients = await resolvedRecipients(
    db,
    txs.filter((_, i) => toName[i]),
  );
  const closing = [...new Set(closes.filter((c) => c !== undefined))];
  const fundings = await channelFundings(db, closing);
  const channels = new Map(
    [...fundings].map(([id, signed]) => [id, closingChannel(signed.map((s) => storedTxAmounts(s)))] as const),
  );
  const events = await balanceEvents(db, range);
  const auctions = auctionTransfers(
    (await auctionEvents(db, range)).map((e) => ({ ...e, nameFee: BigInt(e.nameFee) })),
    range,
  );
  const derived = derivedDeltas(
    txs.map((t, i) => {
      // a place's key built only where some name resolved (few of a range's transactions send to a name)
      const key = recipients.size === 0 ? undefined : recipients.get(placeKey(t));
      const channel = closes[i];
      return {
        row: t,
        tx: fields[i]!,
        facts: factsOf(
          t,
          key === undefined ? selfPaid(fields[i]!, toName[i]!) : idOfKey(key),
          channel === undefined ? undefined : channels.get(channel),
        ),
      };
    }),
    // an auction's refund or lock after its place's internal calls and transfers, as the transfers area's own were
    inChainOrder(
      events.map((e) => ({
        height: e.height,
        microIndex: e.microIndex,
        txIndex: e.txIndex,
        txHash: e.txHash,
        deltas:
          e.internalTx !== null
            ? internalCallDeltas(e.kind, e.internalTx)
            : transferDeltas(e.kind, e.accountId ?? '', toBigInt(e.amount ?? '0')),
      })),
      auctions.map((t) => ({ ...placeOf(t), txHash: t.txHash, deltas: transferDeltas(t.kind, t.account, t.amount) })),
    ),
  );
  const gapRows = await internalCallGaps(db, range);
  // each gap's transaction: a search of the range's (in chain order), where a key text per transaction was made
  const gapAt = gapRows.map((g) => indexOfPlace(txs, g));
  const gaps = gapRows.map((g, i) => ({
    ...g,
    txHash: txs[gapAt[i] ?? -1]?.hash ?? '',
  }));
  // a hyperchain's staking withdrawals among the gaps: their payout is the contract's rule, known without a dry-run
  const staking = (await hyperchainRecord(db))?.contracts?.staking;
  const payouts =
    staking == null
      ? []
      : await stakingPayouts(
          db,
          gaps.flatMap((g, j) => {
            const i = gapAt[j];
            return i === undefined ? [] : [{ gap: g, tx: txs[i]! }];
          }),
          staking,
        );
  const untold = [...derived.untold, ...gaps].sort(comparePlaces);
  const named = await namedIds(db, untold);
  return {
    ...(blocks === undefined ? {} : { blocks }),
    deltas: inChainOrder(derived.deltas, payouts),
    untold: untold.map((u) => ({
      ...u,
      accounts: (named.get(placeKey(u)) ?? []).flatMap((key) => accountOf(idOfKey(key)) ?? []),
    })),
    unfollowed: events.flatMap((e) => {
      const account = e.internalTx === null ? undefined : internalCallPayer(e.kind, e.internalTx);
      return account === undefined ? [] : [{ account, height: e.height }];
    }),
    transferred: transferredAccounts(events),
  };
}

/**
 * stakingPayouts are the payouts of a hyperchain's staking withdrawals among a range's calls whose internal calls no
 * dry-run told (stakingWithdrawal), of their call data (not among the amounts: read back for these few where the
 * range's transactions were read without their bytes).
 */
async function stakingPayouts(
  db: Queryable,
  calls: readonly { readonly gap: Place; readonly tx: BalanceTxRow }[],
  staking: string,
): Promise<PlacedDelta[]> {
  const signed = await signedByHash(
    db,
    calls.flatMap(({ tx }) => (tx.signed === null ? [tx.hash] : [])),
  );
  return calls.flatMap(({ gap, tx }) =>
    stakingWithdrawal(renderStoredTxFields(tx.signed ?? signed.get(tx.hash)!), staking, tx.returnType === 'ok').map(
      (d) => placedDelta(gap, null, d),
    ),
  );
}

/**
 * heldTransactions are the transactions of a range's blocks (in chain order) as `known` holds them, each at its place;
 * undefined where it does not hold every micro block's. Pure.
 */
export function heldTransactions(
  blocks: readonly { readonly height: number; readonly microIndex: number; readonly hash: string }[],
  known: KnownTransactions,
): (Place & HeldTransaction)[] | undefined {
  const held: (Place & HeldTransaction)[] = [];
  for (const b of blocks) {
    if (b.microIndex < 0) continue;
    const txs = known(b.hash);
    if (txs === undefined) return undefined;
    txs.forEach((t, txIndex) => held.push({ height: b.height, microIndex: b.microIndex, txIndex, ...t }));
  }
  return held;
}

/**
 * rangeTransactions gives a range's transactions with their calls' outcomes, and their ids and amounts
 * (storedTxAmounts: the call data, payloads and signatures were most of a full rendering): as `held` has them, with
 * their calls' outcomes alone read, else read with their signed bytes.
 */
async function rangeTransactions(
  db: Queryable,
  range: HeightRange,
  held: readonly (Place & HeldTransaction)[] | undefined,
): Promise<{ txs: BalanceTxRow[]; fields: TxFields[] }> {
  if (held !== undefined) {
    const txs = withCallFacts(
      held.map((t) => ({ height: t.height, microIndex: t.microIndex, txIndex: t.txIndex, hash: t.hash, signed: null })),
      await balanceCallFacts(db, range),
    );
    return { txs, fields: held.map((t) => t.fields) };
  }
  const txs = await balanceTransactions(db, range);
  return { txs, fields: txs.map((t) => storedTxAmounts(t.signed!)) };
}

/** A transaction to derive, with the facts the node's API gives beside its fields. */
export interface TxToDerive {
  readonly row: Place & { readonly hash: string };
  readonly tx: TxFields;
  readonly facts: TxFacts;
}

/** An event's changes at its place (an internal call's or transfer's). */
export interface EventDeltas extends Place {
  readonly txHash: string | null;
  readonly deltas: readonly BalanceDelta[];
}

/**
 * derivedDeltas merges a range's transactions and events (each in chain order) into its changes in chain order: at a
 * place the transaction's own, then its internal calls', then the transfers'. Pure.
 */
export function derivedDeltas(txs: readonly TxToDerive[], events: readonly EventDeltas[]): DerivedDeltas {
  const deltas: PlacedDelta[] = [];
  const untold: UntoldTx[] = [];
  // an event's changes; `hashHere`: the hash of the transaction at its place (none: no transaction there)
  const take = (ev: EventDeltas, hashHere: string | undefined): void => {
    // the transaction at the change's place is its cause unless it names another (a refund names the bid it returns)
    const txHash = ev.txHash === hashHere ? null : ev.txHash;
    for (const d of ev.deltas) deltas.push(placedDelta(ev, txHash, d));
  };
  let e = 0;
  for (const t of txs) {
    const place = t.row;
    // the events before this transaction's place (key-block level, earlier ones: no transaction of the range is at
    // theirs, each having taken its place's events), then its own, then its place's (no closure per transaction)
    for (; e < events.length && comparePlaces(events[e]!, place) < 0; e++) take(events[e]!, undefined);
    const told = txDeltas(t.tx, t.facts);
    if ('unknown' in told) untold.push({ ...placeOf(place), txHash: t.row.hash, reason: told.unknown });
    else for (const d of told.deltas) deltas.push(placedDelta(place, null, d));
    for (; e < events.length && comparePlaces(events[e]!, place) === 0; e++) take(events[e]!, t.row.hash);
  }
  for (; e < events.length; e++) take(events[e]!, undefined);
  return { deltas, untold };
}

/** What reconciling a range with the node needs besides its changes. */
export interface Reconciliation {
  /** each account's balance before the range (absent: none stored, 0 unless `inferOpening`) */
  readonly before: ReadonlyMap<string, bigint>;
  /** the node's balance at the range's end of each account it gave exactly */
  readonly atEnd: ReadonlyMap<string, bigint>;
  /** the place after the range's last block */
  readonly end: Place;
  /** the places whose changes the rules could not tell, each with the accounts it names (in chain order) */
  readonly untold?: readonly (Place & { readonly accounts: readonly string[] })[];
  /**
   * no genesis accounts are known (GENESIS_ACCOUNTS_FILE): an account without a balance before the range held what
   * the node's balance at its end leaves after the range's changes, stored as its genesis balance (`accounts_roma`)
   */
  readonly inferOpening?: boolean;
  /**
   * where inside the range the node's state showed an account's difference arising (difference-steps.ts): its parts,
   * each stored as an 'unexplained' change there, when they add up to the difference at the range's end
   */
  readonly located?: ReadonlyMap<string, readonly (Place & { readonly amount: bigint })[]>;
  /**
   * with `inferOpening`: an account's genesis balance as the node's state after the range's first block tells it
   * (openingBalances), so that what the range's changes lack is a difference, not part of its genesis balance
   */
  readonly openings?: ReadonlyMap<string, bigint>;
}

/** A range's changes reconciled with the node (reconcileRange): what balanceChangeRows adds to the derived ones. */
export interface Reconciled {
  /** the accounts whose derived balance at the range's end is not the node's */
  readonly differences: BalanceDifference[];
  /** the accounts first seen whose whole difference is taken for their genesis balance, none being told */
  readonly inferred: string[];
  /** the genesis balance of each account first seen without genesis accounts known */
  readonly opening: ReadonlyMap<string, bigint>;
  /** the 'unexplained' changes that make each difference the node's */
  readonly placed: readonly PlacedDelta[];
}

/**
 * reconcileRange tells, for each account whose balance at the range's end the node gave (`atEnd`) and differs from
 * the derived one, the 'unexplained' changes making it the node's: where the node's state showed it arising
 * (`located`), else after the first place the rules could not tell that names the account (a call whose internal calls
 * no dry-run told, a type not known), else after the range's last block. An account first seen without genesis
 * accounts known (`inferOpening`) opens at height 0 with its opening as the node told it (`openings`), the rest a
 * difference as above; else, as long as none is told, with its whole difference, the account then listed in
 * `inferred` (a difference arising inside the range would be taken for genesis money). Pure.
 */
export function reconcileRange(deltas: readonly PlacedDelta[], rec: Reconciliation): Reconciled {
  const { before, atEnd, end } = rec;
  const derived = new Map<string, bigint>();
  for (const d of deltas) derived.set(d.account, (derived.get(d.account) ?? before.get(d.account) ?? 0n) + d.amount);
  const opening = new Map<string, bigint>();
  const inferred: string[] = [];
  const differences: BalanceDifference[] = [];
  const placed: PlacedDelta[] = [];
  // the first untold place naming each account (one pass, not a search of them all for each account that differs)
  const firstUntold = new Map<string, Place>();
  for (const u of rec.untold ?? []) for (const a of u.accounts) if (!firstUntold.has(a)) firstUntold.set(a, u);
  for (const [accountId, node] of atEnd) {
    let held = derived.get(accountId) ?? before.get(accountId) ?? 0n;
    if (held === node) continue;
    // a genesis balance is never below zero: a first range that takes the account below is a difference
    if (rec.inferOpening === true && !before.has(accountId) && node > held) {
      const told = rec.openings?.get(accountId);
      if (told === undefined) {
        opening.set(accountId, node - held);
        inferred.push(accountId);
        continue;
      }
      // an account the genesis state does not hold opens with nothing: all of it a difference
      if (told > 0n) {
        opening.set(accountId, told);
        held += told;
      }
      if (held === node) continue;
    }
    differences.push({ accountId, height: end.height, derived: held, node });
    const parts = rec.located?.get(accountId);
    if (parts !== undefined && parts.reduce((sum, p) => sum + p.amount, 0n) === node - held) {
      for (const p of parts)
        placed.push(placedDelta(p, null, { account: accountId, amount: p.amount, kind: 'unexplained' }));
      continue;
    }
    const cause = firstUntold.get(accountId);
    const at = cause ?? { ...placeOf(end), txIndex: AFTER_BLOCK };
    placed.push(placedDelta(at, null, { account: accountId, amount: node - held, kind: 'unexplained' }));
  }
  return { differences, inferred, opening, placed };
}

/**
 * balanceChangeRows makes the rows of a range's changes: one per account, place and cause (their amounts summed), each
 * with the balance after it from the account's balance before the range, the 'unexplained' ones of its reconciliation
 * with the node among them and a genesis row at height 0 for each account it opens (reconcileRange; `reconciled`: that
 * of `rec`, already made). Pure.
 */
export function balanceChangeRows(
  deltas: readonly PlacedDelta[],
  rec: Reconciliation,
  reconciled: Reconciled = reconcileRange(deltas, rec),
): { rows: BalanceChangeRow[]; differences: BalanceDifference[]; inferred: string[] } {
  const { opening, placed, differences, inferred } = reconciled;
  const genesis = { height: 0, microIndex: -1, txIndex: -1, seq: 0, kind: 'accounts_roma', txHash: null };
  const rows: BalanceChangeRow[] = [];
  for (const [accountId, balance] of opening)
    if (balance !== 0n) rows.push({ accountId, ...genesis, delta: balance, balance });
  // pushed one by one, never spread into push: a stretch of 10 000 heights holds more changes than a call takes
  // arguments
  const held = (id: string): bigint => opening.get(id) ?? rec.before.get(id) ?? 0n;
  for (const r of changeRows(inChainOrder(deltas, placed), held)) if (r.delta !== 0n) rows.push(r);
  return { rows, differences, inferred };
}

/**
 * inChainOrder places each added change after the changes in chain order at or before its place, the added ones in
 * their order where they share a place (stable). One merge: inserting each into the array in turn cost a stretch's
 * thousands of 'unexplained' parts a scan and a copy of its tens of thousands of changes each. Pure.
 */
export function inChainOrder<T extends Place>(deltas: readonly T[], added: readonly T[]): T[] {
  if (added.length === 0) return deltas.slice();
  const sorted = added.map((u, i) => [u, i] as const).sort(([a, i], [b, j]) => comparePlaces(a, b) || i - j);
  const out: T[] = [];
  let d = 0;
  for (const [u] of sorted) {
    while (d < deltas.length && comparePlaces(deltas[d]!, u) <= 0) out.push(deltas[d++]!);
    out.push(u);
  }
  while (d < deltas.length) out.push(deltas[d++]!);
  return out;
}

/** changeRows sums an account's changes of one cause at one place into a row, with the balance after it. Pure. */
function changeRows(deltas: readonly PlacedDelta[], held: (account: string) => bigint): BalanceChangeRow[] {
  const rows: BalanceChangeRow[] = [];
  // each account's balance and last row, which a change at the same place of the same cause adds to in place (a copy
  // per change and three lookups were 39 of the area's 250 ms of JS a 1 000-generation load); the changes are in
  // chain order, so an account's rows at a place follow one another and the next seq is its last's + 1
  const accounts = new Map<string, { balance: bigint; last: Mutable<BalanceChangeRow> | undefined }>();
  for (const d of deltas) {
    let account = accounts.get(d.account);
    if (account === undefined) accounts.set(d.account, (account = { balance: held(d.account), last: undefined }));
    account.balance += d.amount;
    const prev = account.last;
    const samePlace = prev !== undefined && comparePlaces(prev, d) === 0;
    if (samePlace && prev.kind === d.kind && prev.txHash === d.txHash) {
      prev.delta += d.amount;
      prev.balance = account.balance;
      continue;
    }
    const row = {
      accountId: d.account,
      height: d.height,
      microIndex: d.microIndex,
      txIndex: d.txIndex,
      seq: samePlace ? prev.seq + 1 : 0,
      kind: d.kind,
      txHash: d.txHash,
      delta: d.amount,
      balance: account.balance,
    };
    account.last = row;
    rows.push(row);
  }
  return rows;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const MAX_LOGGED = 20;

/**
 * balanceDifferenceReport counts the accounts whose derived balance was not the node's and logs each of the first
 * ones once (the difference is stored as its 'unexplained' row: a later read finds it there).
 */
export function balanceDifferenceReport(
  log: Logger,
  metrics: Pick<IndexerMetrics, 'balanceDifferences'> | undefined,
): (differences: readonly BalanceDifference[], untold: readonly UntoldTx[]) => void {
  let logged = 0;
  return (differences, untold) => {
    metrics?.balanceDifferences.inc(differences.length);
    for (const d of differences) {
      if (logged++ >= MAX_LOGGED) break;
      log.warn(
        {
          account: d.accountId,
          height: d.height,
          derived: d.derived.toString(),
          node: d.node.toString(),
          untold: untold.slice(0, 3),
          ...(logged === MAX_LOGGED ? { further: 'counted only (mdw_balance_differences_total)' } : {}),
        },
        "an account's derived balance is not the node's: the difference is stored as an 'unexplained' change",
      );
    }
  };
}

/** comparePlaces orders places in chain order. Pure. */
export function comparePlaces(a: Place, b: Place): number {
  return a.height - b.height || a.microIndex - b.microIndex || a.txIndex - b.txIndex;
}

/** indexOfPlace is the index of the transaction at a place among `txs` (in chain order), undefined where none is. Pure. */
function indexOfPlace(txs: readonly Place[], p: Place): number | undefined {
  let lo = 0;
  let hi = txs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const c = comparePlaces(txs[mid]!, p);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

const placeKey = (p: Place): string => `${p.height}:${p.microIndex}:${p.txIndex}`;
const placeOf = (p: Place): Place => ({ height: p.height, microIndex: p.microIndex, txIndex: p.txIndex });

/** placedDelta is a change at a place, built member by member: one shape for every change, and no spread's copy. */
const placedDelta = (p: Place, txHash: string | null, d: BalanceDelta): PlacedDelta => ({
  height: p.height,
  microIndex: p.microIndex,
  txIndex: p.txIndex,
  account: d.account,
  amount: d.amount,
  kind: d.kind,
  txHash,
});

/**
 * factsOf is what the API tells of a transaction beside its fields, each fact set only where it is known: set member by
 * member, where five conditional spreads made an object each per transaction.
 */
function factsOf(t: BalanceTxRow, recipient: string | undefined, channel: TxFacts['channel'] | undefined): TxFacts {
  const facts: Mutable<TxFacts> = {};
  if (t.gasUsed !== null) facts.call = { gasUsed: BigInt(t.gasUsed), ok: t.returnType === 'ok' };
  if (t.gaGasUsed !== null) facts.gaGasUsed = BigInt(t.gaGasUsed);
  if (t.gaReturnType !== null) facts.gaOk = t.gaReturnType === 'ok';
  if (recipient !== undefined) facts.recipient = recipient;
  if (channel !== undefined) facts.channel = channel;
  return facts;
}

/** sendsToName: a spend (or a wrapped one) whose recipient is a name. */
function sendsToName(tx: TxFields): boolean {
  const own = tx.type === 'SpendTx' ? tx : innerTx(tx);
  return own?.type === 'SpendTx' && String(own.recipient_id).startsWith('nm_');
}

/**
 * selfPaid is the recipient of a plain spend to a name that resolved to no other account than those the spend names:
 * its sender. The node mines no spend to a name it cannot resolve, and the row of the account a name resolved to is
 * the spend's own row of that account when it names it already (account_transactions keeps one row per account and
 * place), so no `recipient_id` row shows it.
 */
function selfPaid(tx: TxFields, toName: boolean): string | undefined {
  return tx.type === 'SpendTx' && toName ? String(tx.sender_id) : undefined;
}

/** closedChannel is the channel a mutual close or settle (or a wrapped one) pays out. */
function closedChannel(tx: TxFields): string | undefined {
  const own = innerTx(tx) ?? tx;
  return own.type === 'ChannelCloseMutualTx' || own.type === 'ChannelSettleTx' ? String(own.channel_id) : undefined;
}
