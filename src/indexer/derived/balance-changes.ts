/**
 * @module Every change of an account's AE balance with its cause (migration 1100, issue 76): derived from a range's
 * stored transactions, internal calls and internal transfers by the node's rules (chain/balance-deltas.ts), each with
 * the balance after it, and reconciled at the range's end with the node's balance of every account it touched: what
 * the rules cannot tell (an unknown type, a call inside a GAMetaTx or PayingForTx whose internal calls no dry-run
 * gives, a rule the node applies differently) becomes one 'unexplained' row after the range's last block, so every
 * balance served at a range's end is the node's.
 */
import {
  internalCallDeltas,
  transferDeltas,
  txDeltas,
  type BalanceDelta,
  type TxFacts,
} from '../../chain/balance-deltas.ts';
import { reprefix } from '../../chain/encoding.ts';
import { idOfKey } from '../../chain/id-key.ts';
import { toBigInt } from '../../chain/json.ts';
import { renderStoredTxFields } from '../../chain/stored-tx.ts';
import { innerTx } from '../../chain/tx-fields.ts';
import type { TxFields } from '../../chain/tx-serialize.ts';
import type { Logger } from '../../base/log.ts';
import type { Queryable } from '../../db/connection/pool.ts';
import {
  balanceEvents,
  balanceTransactions,
  channelCreations,
  contractsAmong,
  resolvedRecipients,
  type BalanceEventRow,
  type BalanceTxRow,
  type Place,
} from '../../db/queries/balance-inputs.ts';
import type { BalanceChangeRow } from '../../db/writes/balance-changes.ts';
import { AFTER_BLOCK } from '../../db/queries/balance-changes.ts';
import type { HeightRange } from '../../db/queries/height-range.ts';
import type { IndexerMetrics } from '../metrics.ts';

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

/** readRangeDeltas derives the changes of a range of stored heights from its stored rows. */
export async function readRangeDeltas(db: Queryable, range: HeightRange): Promise<DerivedDeltas> {
  const txs = await balanceTransactions(db, range);
  const fields = txs.map((t) => renderStoredTxFields(t.signed));
  const toNames = txs.filter((_, i) => sendsToName(fields[i]!));
  const recipients = await resolvedRecipients(db, toNames);
  const closing = [...new Set(fields.flatMap((f) => closedChannel(f) ?? []))];
  const created = await channelCreations(db, closing);
  const parties = new Map(
    [...created].map(([id, signed]) => {
      const tx = renderStoredTxFields(signed);
      return [id, { initiator: String(tx.initiator_id), responder: String(tx.responder_id) }] as const;
    }),
  );
  const events = await balanceEvents(db, range);
  const contracts = await contractsPaid(db, events);
  return derivedDeltas(
    txs.map((t, i) => {
      const key = recipients.get(placeKey(t));
      const channel = closedChannel(fields[i]!);
      return {
        row: t,
        tx: fields[i]!,
        facts: factsOf(
          t,
          key === undefined ? undefined : idOfKey(key),
          channel === undefined ? undefined : parties.get(channel),
        ),
      };
    }),
    events.map((e) => ({
      height: e.height,
      microIndex: e.microIndex,
      txIndex: e.txIndex,
      txHash: e.txHash,
      deltas:
        e.internalTx !== null
          ? internalCallDeltas(e.kind, e.internalTx).filter((d) => !contracts.has(d.account))
          : transferDeltas(e.kind, e.accountId ?? '', toBigInt(e.amount ?? '0')),
    })),
  );
}

/** contractsPaid are the accounts (`ak_`) of internal calls' sides that are contracts, whose balance is not followed. */
async function contractsPaid(db: Queryable, events: readonly BalanceEventRow[]): Promise<Set<string>> {
  const sides = new Set(
    events.flatMap((e) =>
      e.internalTx === null ? [] : [e.internalTx.sender_id, e.internalTx.recipient_id].map((id) => String(id ?? '')),
    ),
  );
  const accounts = [...sides].filter((id) => id.startsWith('ak_'));
  const known = await contractsAmong(
    db,
    accounts.map((id) => reprefix(id, 'ct')),
  );
  return new Set(accounts.filter((id) => known.has(reprefix(id, 'ct'))));
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
  const hashAt = new Map(txs.map((t) => [placeKey(t.row), t.row.hash]));
  let e = 0;
  const eventsWhile = (goes: (at: Place) => boolean): void => {
    for (; e < events.length && goes(events[e]!); e++) {
      const ev = events[e]!;
      // the transaction at the change's place is its cause unless it names another (a refund names the bid it returns)
      const txHash = ev.txHash === hashAt.get(placeKey(ev)) ? null : ev.txHash;
      for (const d of ev.deltas) deltas.push({ ...placeOf(ev), txHash, ...d });
    }
  };
  for (const t of txs) {
    const place = placeOf(t.row);
    // the events before this transaction's place (key-block level, earlier ones), then its own, then its place's
    eventsWhile((at) => comparePlaces(at, place) < 0);
    const told = txDeltas(t.tx, t.facts);
    if ('unknown' in told) untold.push({ ...place, txHash: t.row.hash, reason: told.unknown });
    else for (const d of told.deltas) deltas.push({ ...place, txHash: null, ...d });
    eventsWhile((at) => comparePlaces(at, place) === 0);
  }
  eventsWhile(() => true);
  return { deltas, untold };
}

/**
 * balanceChangeRows makes the rows of a range's changes: one per account, place and cause (their amounts summed), each
 * with the balance after it from the account's balance before the range (0 where it has none), and for each account
 * whose balance at the range's end the node gave (`atEnd`) and differs from the derived one, an 'unexplained' row at
 * `end` making it the node's. Pure.
 */
export function balanceChangeRows(
  deltas: readonly PlacedDelta[],
  before: ReadonlyMap<string, bigint>,
  atEnd: ReadonlyMap<string, bigint>,
  end: Place,
): { rows: BalanceChangeRow[]; differences: BalanceDifference[] } {
  const rows: BalanceChangeRow[] = [];
  const balance = new Map<string, bigint>();
  // each account's last row (its index in rows), which a change at the same place of the same cause adds to
  const last = new Map<string, number>();
  const seqs = new Map<string, number>();
  for (const d of deltas) {
    const held = balance.get(d.account) ?? before.get(d.account) ?? 0n;
    balance.set(d.account, held + d.amount);
    const i = last.get(d.account);
    const prev = i === undefined ? undefined : rows[i]!;
    if (prev && comparePlaces(prev, d) === 0 && prev.kind === d.kind && prev.txHash === d.txHash) {
      rows[i!] = { ...prev, delta: prev.delta + d.amount, balance: prev.balance + d.amount };
      continue;
    }
    const at = `${placeKey(d)}:${d.account}`;
    const seq = seqs.get(at) ?? 0;
    seqs.set(at, seq + 1);
    last.set(d.account, rows.length);
    rows.push({
      accountId: d.account,
      ...placeOf(d),
      seq,
      kind: d.kind,
      txHash: d.txHash,
      delta: d.amount,
      balance: held + d.amount,
    });
  }
  const differences: BalanceDifference[] = [];
  for (const [accountId, node] of atEnd) {
    const derived = balance.get(accountId) ?? before.get(accountId) ?? 0n;
    if (derived === node) continue;
    differences.push({ accountId, height: end.height, derived, node });
    rows.push({
      accountId,
      ...placeOf(end),
      txIndex: AFTER_BLOCK,
      seq: 0,
      kind: 'unexplained',
      txHash: null,
      delta: node - derived,
      balance: node,
    });
  }
  return { rows: rows.filter((r) => r.delta !== 0n), differences };
}

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

const placeKey = (p: Place): string => `${p.height}:${p.microIndex}:${p.txIndex}`;
const placeOf = (p: Place): Place => ({ height: p.height, microIndex: p.microIndex, txIndex: p.txIndex });

function factsOf(t: BalanceTxRow, recipient: string | undefined, channel: TxFacts['channel'] | undefined): TxFacts {
  return {
    ...(t.gasUsed === null ? {} : { call: { gasUsed: BigInt(t.gasUsed), ok: t.returnType === 'ok' } }),
    ...(t.gaGasUsed === null ? {} : { gaGasUsed: BigInt(t.gaGasUsed) }),
    ...(recipient === undefined ? {} : { recipient }),
    ...(channel === undefined ? {} : { channel }),
  };
}

/** sendsToName: a spend (or a wrapped one) whose recipient is a name. */
function sendsToName(tx: TxFields): boolean {
  const own = tx.type === 'SpendTx' ? tx : innerTx(tx);
  return own?.type === 'SpendTx' && String(own.recipient_id).startsWith('nm_');
}

/** closedChannel is the channel a mutual close or settle (or a wrapped one) pays out. */
function closedChannel(tx: TxFields): string | undefined {
  const own = innerTx(tx) ?? tx;
  return own.type === 'ChannelCloseMutualTx' || own.type === 'ChannelSettleTx' ? String(own.channel_id) : undefined;
}
