/**
 * @module What the balances area derives AE balance changes from (issue 76): the stored transactions of a range of
 * heights with their calls' gas, its internal transfers and internal calls, the accounts names resolved to and the
 * parties of channels that close; and the balance each account had before the range.
 */
import { LONGEST_AUCTION } from '../../chain/aens.ts';
import type { Json } from '../../chain/json.ts';
import type { Queryable } from '../connection/pool.ts';
import type { HeightRange } from './height-range.ts';
import { comparePositions } from './positions.ts';

/** A stored place: height, micro block (−1 at key-block level) and index in it (−1 at key-block level). */
export interface Place {
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
}

/** A block of a range (a key block: microIndex −1), in whose state after it the node can be asked a balance. */
export interface RangeBlock {
  readonly height: number;
  readonly microIndex: number;
  readonly hash: string;
}

/** A stored transaction with what its balance changes need beside its fields. */
export interface BalanceTxRow extends Place {
  readonly hash: string;
  /** its signed bytes (null where the caller holds its fields: withCallFacts) */
  readonly signed: Buffer | null;
  /** its contract call's gas used and return type (call info), or its force progress's call's gas used, when known */
  readonly gasUsed: string | null;
  readonly returnType: string | null;
  /** its generalized account's own call's gas used and return type (ga_calls), when it has one */
  readonly gaGasUsed: string | null;
  readonly gaReturnType: string | null;
}

/** An internal transfer or internal call of a range, as a change's input. */
export interface BalanceEventRow extends Place {
  readonly kind: string;
  readonly txHash: string | null;
  readonly accountId: string | null;
  readonly amount: string | null;
  readonly internalTx: { [key: string]: Json } | null;
}

const IN_RANGE = (alias: string): string =>
  `${alias}.height BETWEEN $1 AND $2 AND (${alias}.height > $1 OR ${alias}.micro_index >= $3)`;

/** A range's calls' and GA calls' outcomes (balanceCallFacts), which withCallFacts gives their transactions. */
export interface CallFacts {
  readonly calls: (Place & CallOutcome)[];
  readonly gaCalls: (Place & CallOutcome)[];
}

interface CallOutcome {
  readonly gasUsed: string | null;
  readonly returnType: string | null;
}

type FactRow = Place & CallOutcome & { part: number; hash: string | null; signed: Buffer | null };

/** The range reads of a range's calls' outcomes: parts 1 (calls, force progresses' too) and 2 (GA calls). */
const CALL_FACTS = `SELECT 1 AS part, c.height, c.micro_index AS "microIndex", c.tx_index AS "txIndex", NULL::text AS hash,
                  NULL::bytea AS signed, c.call_info->>'gas_used' AS "gasUsed", c.call_info->>'return_type' AS "returnType"
             FROM contract_calls c WHERE ${IN_RANGE('c')}
           UNION ALL
           SELECT 2, g.height, g.micro_index, g.tx_index, NULL, NULL, g.gas_used::text, g.return_type
             FROM ga_calls g WHERE ${IN_RANGE('g')}
           UNION ALL
           -- a force progress's call, whose gas its payer pays (it returns no outcome its payment depends on)
           SELECT 1, e.height, e.micro_index, e.tx_index, NULL, NULL, e.gas_used::text, 'ok'
             FROM channel_events e
            WHERE ${IN_RANGE('e')} AND e.tx_type = 'ChannelForceProgressTx' AND e.gas_used IS NOT NULL`;

/**
 * balanceTransactions lists a range's transactions in chain order, each with its signed bytes and its call's (a force
 * progress's too) and GA call's gas: one statement of four range reads, merged here, where a join probed
 * contract_calls and ga_calls once per transaction (a stretch's 100 000) and sorted the transactions' signed bytes on
 * disk past work_mem. The rows are sorted here, not by PostgreSQL: they come in the order they were written, the
 * chain's, which the sort (TimSort) only checks.
 */
export async function balanceTransactions(db: Queryable, range: HeightRange): Promise<BalanceTxRow[]> {
  const { rows } = await db.query<FactRow>({
    name: 'mdw_balance_transactions',
    text: `SELECT 0 AS part, t.height, t.micro_index AS "microIndex", t.tx_index AS "txIndex", t.hash, t.signed,
                  NULL::text AS "gasUsed", NULL::text AS "returnType"
             FROM transactions t WHERE ${IN_RANGE('t')}
           UNION ALL
           ${CALL_FACTS}`,
    values: [range.from, range.to, range.fromMicro],
  });
  const txs = rows.filter((r) => r.part === 0) as (FactRow & { hash: string })[];
  return withCallFacts(txs.sort(comparePositions), callFactsOf(rows));
}

/**
 * balanceCallFacts reads a range's calls' and GA calls' outcomes alone, for the caller that holds its transactions
 * (their signed bytes, sent as hex text, were most of what balanceTransactions' statement cost PostgreSQL).
 */
export async function balanceCallFacts(db: Queryable, range: HeightRange): Promise<CallFacts> {
  const { rows } = await db.query<FactRow>({
    name: 'mdw_balance_call_facts',
    text: CALL_FACTS,
    values: [range.from, range.to, range.fromMicro],
  });
  return callFactsOf(rows);
}

function callFactsOf(rows: readonly FactRow[]): CallFacts {
  return { calls: rows.filter((r) => r.part === 1), gaCalls: rows.filter((r) => r.part === 2) };
}

/**
 * withCallFacts gives each transaction (in chain order) its call's and GA call's gas used and return type. Pure (it
 * sorts the facts' lists).
 */
export function withCallFacts(
  txs: readonly (Place & { readonly hash: string; readonly signed: Buffer | null })[],
  facts: CallFacts,
): BalanceTxRow[] {
  const call = atPlaces(facts.calls);
  const ga = atPlaces(facts.gaCalls);
  return txs.map((t) => {
    const c = call(t);
    const g = ga(t);
    return {
      height: t.height,
      microIndex: t.microIndex,
      txIndex: t.txIndex,
      hash: t.hash,
      signed: t.signed,
      gasUsed: c?.gasUsed ?? null,
      returnType: c?.returnType ?? null,
      gaGasUsed: g?.gasUsed ?? null,
      gaReturnType: g?.returnType ?? null,
    };
  });
}

/** signedByHash gives the signed bytes of the stored transactions of the hashes given (those stored), by hash. */
export async function signedByHash(db: Queryable, hashes: readonly string[]): Promise<Map<string, Buffer>> {
  if (hashes.length === 0) return new Map();
  const { rows } = await db.query<{ hash: string; signed: Buffer }>({
    name: 'mdw_balance_signed_by_hash',
    text: 'SELECT t.hash, t.signed FROM transactions t WHERE t.hash = ANY ($1::text[])',
    values: [hashes],
  });
  return new Map(rows.map((r) => [r.hash, r.signed]));
}

/**
 * atPlaces gives the row at each place asked in chain order (a merge walk of the rows sorted: no key built per
 * transaction for the few that have one).
 */
function atPlaces<T extends Place>(rows: T[]): (at: Place) => T | undefined {
  rows.sort(comparePositions);
  let i = 0;
  return (at) => {
    while (i < rows.length && comparePositions(rows[i]!, at) < 0) i++;
    return i < rows.length && comparePositions(rows[i]!, at) === 0 ? rows[i] : undefined;
  };
}

/**
 * balanceEvents lists a range's internal transfers (Lima's contracts' amounts included) and its internal calls (those
 * that move AE, `Chain.spend` and `Call.amount`, and the others, whose payer is reconciled), in chain order, a call's
 * internal calls before the transfers at its place. The auctions' refunds and locks are not among them: the balances
 * derive them from auctionEvents (a batch's transfers derive before its contracts' bids are known, and again after);
 * nor are the name fees of a contract's claims (at a place holding internal calls), which their AENS.claim moves
 * (balance-deltas.ts internalCallDeltas) whether or not the transfers have derived again since.
 */
export async function balanceEvents(db: Queryable, range: HeightRange): Promise<BalanceEventRow[]> {
  const { rows } = await db.query<BalanceEventRow>({
    name: 'mdw_balance_events',
    text: `SELECT * FROM (
             SELECT c.height, c.micro_index AS "microIndex", c.tx_index AS "txIndex", 0 AS part, c.local_idx AS idx,
                    c.function AS kind, NULL::text AS "txHash", NULL::text AS "accountId", NULL::text AS amount,
                    c.internal_tx AS "internalTx"
               FROM contract_internal_calls c
              WHERE ${IN_RANGE('c')}
             UNION ALL
             SELECT i.height, i.micro_index, i.tx_index, 1, 0, i.kind, nullif(i.ref_tx_hash, ''), i.account_id,
                    i.amount::text, NULL
               FROM internal_transfers i
              WHERE ${IN_RANGE('i')} AND i.kind <> 'fee_refund_name'
                AND (i.kind <> 'fee_lock_name' OR i.micro_index >= 0)
                AND NOT (i.kind IN ('fee_lock_name', 'fee_spend_name')
                         AND EXISTS (SELECT 1 FROM contract_internal_calls x WHERE x.height = i.height
                                        AND x.micro_index = i.micro_index AND x.tx_index = i.tx_index))) e
            ORDER BY height, "microIndex", "txIndex", part, idx, kind, "accountId"`,
    values: [range.from, range.to, range.fromMicro],
  });
  return rows;
}

/** A claim or bid of a name in an auction, a contract's `AENS.claim` (migration 1112) among them. */
export interface AuctionEventRow extends Place {
  readonly nameHash: string;
  readonly kind: string;
  readonly owner: string;
  readonly nameFee: string;
  readonly auctionEnd: number;
  readonly txHash: string;
}

/**
 * auctionEvents lists, in chain order, the claims and bids of the auctions running in a range (ending at its first
 * height − 1 or later, claimed or bid by its end: those auction-transfers.ts needs), the contracts' among them (the
 * balances area derives after the internal calls' area, which writes them), of the names that may have a refund or
 * a lock in the range: a bid in it, or an auction ending at its first height − 1 up to its last − 1. A name's refunds
 * and locks follow from its own events alone: the other running auctions' (most of them, a batch's range being short
 * beside an auction) are left out (issue 88: each batch read all of them). The names first, once (an array: as `IN`, the
 * generic plan probed them once per running auction's row). An auction ends at most LONGEST_AUCTION (+ 1 on a
 * hyperchain, whose heights count from the next one) after a claim or bid: the index scans that far only.
 */
export async function auctionEvents(db: Queryable, range: HeightRange): Promise<AuctionEventRow[]> {
  const { rows } = await db.query<AuctionEventRow>({
    name: 'mdw_balance_auction_events',
    text: `SELECT e.height, e.micro_index AS "microIndex", e.tx_index AS "txIndex", e.name_hash AS "nameHash", e.kind,
                  e.owner, e.name_fee::text AS "nameFee", e.auction_end AS "auctionEnd", e.tx_hash AS "txHash"
             FROM name_events e
            WHERE e.auction_end BETWEEN $1::int - 1 AND $2::int + $3::int AND e.height <= $2
              AND e.kind IN ('claim', 'bid') AND e.name_fee IS NOT NULL
              AND e.name_hash = ANY (ARRAY(SELECT t.name_hash FROM name_events t
                                            WHERE t.kind = 'bid' AND t.height BETWEEN $1 AND $2
                                           UNION
                                           SELECT t.name_hash FROM name_events t
                                            WHERE t.auction_end BETWEEN $1::int - 1 AND $2::int - 1))
            ORDER BY e.height, e.micro_index, e.tx_index, e.local_idx NULLS FIRST`,
    values: [range.from, range.to, LONGEST_AUCTION + 1],
  });
  return rows;
}

/**
 * resolvedRecipients maps each place given to the id its `recipient_id` name resolved to (its account row: an account,
 * or a contract or oracle the name pointed at as its account).
 */
export async function resolvedRecipients(db: Queryable, places: readonly Place[]): Promise<Map<string, Buffer>> {
  if (places.length === 0) return new Map();
  const { rows } = await db.query<{ at: string; key: Buffer }>({
    name: 'mdw_balance_resolved_recipients',
    text: `SELECT p.h || ':' || p.m || ':' || p.t AS at, k.key
             FROM unnest($1::int[], $2::int[], $3::int[]) AS p(h, m, t)
             -- each place's rows probed by their height (OFFSET 0 keeps the probe, and the pattern tested on its rows
             -- alone: the join the planner made of it tested the pattern on every row of account_transactions, 34 ms
             -- for a stretch's 300 places on a 2 000-generation chain, growing with the table)
             CROSS JOIN LATERAL (
               SELECT a.account, a.fields FROM account_transactions a
                WHERE a.height = p.h AND a.micro_index = p.m AND a.tx_index = p.t OFFSET 0) a
             JOIN account_ids k ON k.num = a.account
            WHERE a.fields ~ '(^| )(tx\\.)*recipient_id( |$)' AND get_byte(k.key, 0) <> 2`,
    values: [places.map((p) => p.height), places.map((p) => p.microIndex), places.map((p) => p.txIndex)],
  });
  return new Map(rows.map((r) => [r.at, r.key]));
}

/**
 * channelFundings gives, for each channel id given, its stored transactions that fund it (its ChannelCreateTx, which
 * names its parties, its ChannelDepositTxs and ChannelWithdrawTxs; wrapped ones as their wrapper), in chain order.
 */
export async function channelFundings(db: Queryable, channelIds: readonly string[]): Promise<Map<string, Buffer[]>> {
  const fundings = new Map<string, Buffer[]>();
  if (channelIds.length === 0) return fundings;
  const { rows } = await db.query<{ channel_id: string; signed: Buffer }>({
    name: 'mdw_balance_channel_fundings',
    text: `SELECT c.channel_id, t.signed
             FROM channel_events c
             JOIN transactions t ON t.height = c.height AND t.micro_index = c.micro_index AND t.tx_index = c.tx_index
            WHERE c.channel_id = ANY ($1::text[])
              AND c.tx_type IN ('ChannelCreateTx', 'ChannelDepositTx', 'ChannelWithdrawTx')
            ORDER BY c.channel_id, c.height, c.micro_index, c.tx_index`,
    values: [channelIds],
  });
  for (const r of rows)
    (fundings.get(r.channel_id) ?? fundings.set(r.channel_id, []).get(r.channel_id)!).push(r.signed);
  return fundings;
}

/**
 * aeBalancesBefore gives each account's balance after its last change before the range (before micro block
 * `fromMicro` of `from`, or before `from`); an account without one is absent.
 */
export async function aeBalancesBefore(
  db: Queryable,
  range: HeightRange,
  accounts: readonly string[],
): Promise<Map<string, bigint>> {
  if (accounts.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; balance: string }>({
    name: 'mdw_balances_before',
    text: `SELECT a.id, b.balance::text AS balance
             FROM unnest($1::text[]) AS a(id)
             CROSS JOIN LATERAL (
               SELECT c.balance FROM account_balance_changes c
                WHERE c.account_id = a.id AND (c.height, c.micro_index) < ($2, $3)
                ORDER BY c.height DESC, c.micro_index DESC, c.tx_index DESC, c.seq DESC LIMIT 1) b`,
    values: [accounts, range.from, range.fromMicro],
  });
  return new Map(rows.map((r) => [r.id, BigInt(r.balance)]));
}

/**
 * contractsAmong gives which of the ids (`ct_`) are contracts the stored chain knows: created, or called. A change
 * names a contract by its account (`ak_`), which the AE ranking leaves out.
 */
export async function contractsAmong(db: Queryable, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const { rows } = await db.query<{ id: string }>({
    name: 'mdw_balance_contracts_among',
    text: `SELECT i.id FROM unnest($1::text[]) AS i(id)
            WHERE EXISTS (SELECT 1 FROM contracts c WHERE c.contract_id = i.id)
               OR EXISTS (SELECT 1 FROM contract_calls c WHERE c.contract_id = i.id)`,
    values: [ids],
  });
  return new Set(rows.map((r) => r.id));
}

/**
 * genesisUnknown: the stored chain's genesis accounts are not known from the configured file (its genesis key block
 * is stored, with no `accounts_roma` transfer at height 0): an account's balance before its first change is then
 * inferred from the node's balance after the range that first touches it.
 */
export async function genesisUnknown(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ unknown: boolean }>({
    name: 'mdw_balance_genesis_unknown',
    text: `SELECT EXISTS (SELECT 1 FROM key_blocks WHERE height = 0)
              AND NOT EXISTS (SELECT 1 FROM internal_transfers WHERE height = 0 AND kind = 'accounts_roma') AS unknown`,
  });
  return rows[0]?.unknown === true;
}

/** internalCallGaps lists a range's contract calls whose internal calls no dry-run told, and why (int_calls area). */
export async function internalCallGaps(db: Queryable, range: HeightRange): Promise<(Place & { reason: string })[]> {
  const { rows } = await db.query<Place & { reason: string }>({
    name: 'mdw_balance_internal_call_gaps',
    text: `SELECT g.height, g.micro_index AS "microIndex", g.tx_index AS "txIndex", g.reason
             FROM contract_internal_call_gaps g
            WHERE ${IN_RANGE('g')}
            ORDER BY g.height, g.micro_index, g.tx_index`,
    values: [range.from, range.to, range.fromMicro],
  });
  return rows;
}

/** namedIds gives the stored keys of the ids each transaction given names (account_transactions), by its place. */
export async function namedIds(db: Queryable, places: readonly Place[]): Promise<Map<string, Buffer[]>> {
  const named = new Map<string, Buffer[]>();
  if (places.length === 0) return named;
  const { rows } = await db.query<{ at: string; key: Buffer }>({
    name: 'mdw_balance_named_ids',
    text: `SELECT p.h || ':' || p.m || ':' || p.t AS at, k.key
             FROM unnest($1::int[], $2::int[], $3::int[]) AS p(h, m, t)
             -- a probe per place, as resolvedRecipients'
             CROSS JOIN LATERAL (
               SELECT a.account FROM account_transactions a
                WHERE a.height = p.h AND a.micro_index = p.m AND a.tx_index = p.t OFFSET 0) a
             JOIN account_ids k ON k.num = a.account`,
    values: [places.map((p) => p.height), places.map((p) => p.microIndex), places.map((p) => p.txIndex)],
  });
  for (const r of rows) named.set(r.at, [...(named.get(r.at) ?? []), r.key]);
  return named;
}

/** lastMicroIndex is the index of the last stored micro block of a height (−1 when it has none). */
export async function lastMicroIndex(db: Queryable, height: number): Promise<number> {
  const { rows } = await db.query<{ m: number | null }>({
    name: 'mdw_balance_last_micro',
    text: 'SELECT max(micro_index) AS m FROM micro_blocks WHERE height = $1',
    values: [height],
  });
  return rows[0]?.m ?? -1;
}

/**
 * rangeBlocks lists a range's stored blocks in chain order, each key block (micro index −1) before its micro blocks:
 * where the node's state can be asked an account's balance inside the range.
 */
export async function rangeBlocks(db: Queryable, range: HeightRange): Promise<RangeBlock[]> {
  const { rows } = await db.query<RangeBlock>({
    name: 'mdw_balance_range_blocks',
    text: `SELECT height, micro_index AS "microIndex", hash FROM (
             SELECT k.height, -1 AS micro_index, k.hash FROM key_blocks k
              WHERE k.height BETWEEN $1 AND $2 AND (k.height > $1 OR $3 < 0)
             UNION ALL
             SELECT m.height, m.micro_index, m.hash FROM micro_blocks m WHERE ${IN_RANGE('m')}) b
            ORDER BY height, micro_index`,
    values: [range.from, range.to, range.fromMicro],
  });
  return rows;
}
