/**
 * @module The AEX-9 settle of a batch (issue 88: db/writes/aex9-state.ts aex9Unsettled, migration 1157). Batch after
 * batch it finds the tokens the former statement found (kept here as the oracle: every token read up to the batch's
 * top, matched with every AEX-9 event up to there), through forks' rollbacks (a token whose read went with them
 * touched below the next batch), a rollback with nothing loaded after it, a generation that grows, reloads and a
 * re-derivation of heights below the top in steps other than the batches that wrote them; and at the top, on a chain
 * twice as long, it reads the same rows where the former read them all.
 */
import { expect } from 'chai';
import type { Pool, Queryable } from '../../../src/db/connection/pool.ts';
import { aex9Unsettled, writeAex9State, type Aex9Unsettled } from '../../../src/db/writes/aex9-state.ts';
import { deleteTokenRows } from '../../../src/db/writes/derive-backfill.ts';
import { createMigratedDatabase } from '../../support/postgres.ts';

const TOKENS = 6;
const ACCOUNTS = 5;
/**
 * the heights of chain `a` where a rare token moves what its sender never held (read at each): within the batches of
 * 10 that write them, two to a batch, so a fork from 35, a reload of 23-27 and a re-derivation from 13 leave it
 * touched before their first height and read after it, or not read any more; chain `c` calls it once, at 66
 */
const RARE = new Set([3, 12, 18, 22, 29, 33, 37]);

/** random gives the same numbers in [0, 1) for the same key (mulberry32 over the key's hash) */
function random(key: string): () => number {
  let a = [...key].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, 7);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Rows {
  readonly events: unknown[][];
  readonly calls: unknown[][];
}

/**
 * generation is what height `h` of chain `salt` holds: two micro blocks of three transactions, each a transfer of a
 * token (a call with its event: accounts other than the first hold nothing at first, so some go below zero and their
 * token is read from then on), a call of a token without an event, or another transaction; the tokens' balances at
 * creation at height 1. `key` draws the transactions (the height's own unless given).
 */
function generation(h: number, salt: string, key = `${salt}:${h}`): Rows {
  const next = random(key);
  const events: unknown[][] = [];
  const calls: unknown[][] = [];
  if (h === 1)
    for (let t = 0; t < TOKENS; t++) events.push([`ct_${t}`, 'ak_0', 1, 0, 0, -1, 1, `th_seed_${t}`, 'seed', '1000']);
  for (let micro = 0; micro < 2; micro++)
    for (let tx = 0; tx < 3; tx++) {
      const hash = `th_${key}_${micro}_${tx}`;
      const token = `ct_${Math.floor(next() * TOKENS)}`;
      const draw = next();
      if (draw < 0.5) {
        const from = `ak_${Math.floor(next() * ACCOUNTS)}`;
        const to = `ak_${Math.floor(next() * ACCOUNTS)}`;
        const amount = 1 + Math.floor(next() * 20);
        events.push([token, from, h, micro, tx, 0, 0, hash, 'transfer', String(-amount)]);
        events.push([token, to, h, micro, tx, 0, 1, hash, 'transfer', String(amount)]);
        calls.push([hash, h, micro, tx, token]);
      } else if (draw < 0.7) calls.push([hash, h, micro, tx, token]);
    }
  if (salt === 'a' && RARE.has(h)) {
    const hash = `th_rare_${h}`;
    events.push(['ct_rare', 'ak_3', h, 1, 3, 0, 0, hash, 'transfer', '-1']);
    events.push(['ct_rare', 'ak_4', h, 1, 3, 0, 1, hash, 'transfer', '1']);
    calls.push([hash, h, 1, 3, 'ct_rare']);
  }
  // and on chain `c`, a call of it without an event
  if (salt === 'c' && h === 66) calls.push(['th_rare_call', h, 1, 3, 'ct_rare']);
  return { events, calls };
}

async function insertBlocks(db: Queryable, from: number, to: number, salt: string, micros = 2): Promise<void> {
  await db.query(
    `INSERT INTO key_blocks (height, hash, prev_hash, prev_key_hash, beneficiary, miner, time_ms, data)
     SELECT h, 'kh_' || $3 || h, 'kh_', 'kh_', 'ak_b', 'ak_m', h, '{}' FROM generate_series($1::int, $2::int) h`,
    [from, to, salt],
  );
  await db.query(
    `INSERT INTO micro_blocks (hash, height, micro_index, time_ms, tx_count, header)
     SELECT 'mh_' || $3 || h || '_' || m, h, m, h, 3, '{}'
       FROM generate_series($1::int, $2::int) h, generate_series(0, $4::int - 1) m`,
    [from, to, salt, micros],
  );
}

async function insertTokenRows(db: Queryable, rows: Rows): Promise<void> {
  const column = (list: unknown[][], i: number): unknown[] => list.map((r) => r[i]);
  if (rows.events.length > 0)
    await db.query(
      `INSERT INTO aex9_events (contract_id, account, height, micro_index, tx_index, log_idx, side, tx_hash, kind, delta)
       SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::int[], $6::int[], $7::smallint[],
                            $8::text[], $9::text[], $10::numeric[])`,
      Array.from({ length: 10 }, (_, i) => column(rows.events, i)),
    );
  if (rows.calls.length > 0)
    await db.query(
      `INSERT INTO contract_calls (tx_hash, height, micro_index, tx_index, contract_id, caller_id)
       SELECT h, height, m, t, c, 'ak_0' FROM unnest($1::text[], $2::int[], $3::int[], $4::int[], $5::text[])
                                                AS x(h, height, m, t, c)`,
      Array.from({ length: 5 }, (_, i) => column(rows.calls, i)),
    );
}

const generations = (from: number, to: number, salt: (h: number) => string): Rows => {
  const all = Array.from({ length: to - from + 1 }, (_, i) => generation(from + i, salt(from + i)));
  return { events: all.flatMap((g) => g.events), calls: all.flatMap((g) => g.calls) };
};

/** the statement before migration 1157, the oracle: every token read up to `to`, every AEX-9 event up to `to` */
async function formerUnsettled(db: Queryable, from: number, to: number): Promise<Aex9Unsettled[]> {
  const { rows } = await db.query<Aex9Unsettled>(formerStatement, [from, to]);
  return rows;
}

const balanceAt = (to: string): string =>
  `b.amount - coalesce((SELECT sum(a.delta) FROM aex9_events a
                         WHERE a.contract_id = b.contract_id AND a.account = b.account AND a.height > ${to}), 0)`;

const formerStatement = `WITH batch AS (
       SELECT contract_id, account FROM aex9_events WHERE height BETWEEN $1 AND $2 AND kind <> 'state'),
     last_read AS (
       SELECT DISTINCT ON (contract_id) contract_id, height, micro_index, tx_index
         FROM aex9_state_reads WHERE height <= $2
        ORDER BY contract_id, height DESC, micro_index DESC, tx_index DESC),
     broken AS (
       SELECT DISTINCT ON (contract_id) contract_id, reason FROM (
         SELECT b.contract_id, 'negative_balance' AS reason, 1 AS rank
           FROM (SELECT DISTINCT contract_id, account FROM batch) e
           JOIN aex9_balances b ON b.contract_id = e.contract_id AND b.account = e.account
          WHERE ${balanceAt('$2')} < 0
         UNION ALL
         SELECT s.contract_id, 'negative_supply', 2 FROM aex9_contract_state s
          WHERE s.contract_id IN (SELECT contract_id FROM batch)
            AND s.initial_supply + s.event_supply
                - coalesce((SELECT sum(a.delta) FROM aex9_events a WHERE a.contract_id = s.contract_id AND a.height > $2), 0)
                < 0) x
        ORDER BY contract_id, rank),
     candidates AS (
       SELECT c.contract_id, r.height AS rh, r.micro_index AS rm, r.tx_index AS rt,
              CASE WHEN t.balances_unknown AND k.reason IS NOT NULL THEN 'creation_unknown' ELSE k.reason END AS reason
         FROM (SELECT contract_id FROM broken UNION SELECT contract_id FROM last_read) c
         LEFT JOIN last_read r ON r.contract_id = c.contract_id
         LEFT JOIN broken k ON k.contract_id = c.contract_id
         LEFT JOIN aexn_contracts t ON t.contract_id = c.contract_id),
     touches AS (
       SELECT e.contract_id, e.height, e.micro_index, e.tx_index, e.tx_hash
         FROM candidates c JOIN aex9_events e ON e.contract_id = c.contract_id
        WHERE e.kind <> 'state' AND e.height <= $2
          AND (CASE WHEN c.rh IS NULL THEN e.height >= $1
                    ELSE (e.height, e.micro_index, e.tx_index) > (c.rh, c.rm, c.rt) END)
       UNION ALL
       SELECT k.contract_id, k.height, k.micro_index, k.tx_index, k.tx_hash
         FROM candidates c JOIN contract_calls k ON k.contract_id = c.contract_id
        WHERE k.height BETWEEN $1 AND $2
          AND (c.rh IS NULL OR (k.height, k.micro_index, k.tx_index) > (c.rh, c.rm, c.rt))),
     latest AS (
       SELECT DISTINCT ON (contract_id) * FROM touches
        ORDER BY contract_id, height DESC, micro_index DESC, tx_index DESC)
     SELECT l.contract_id AS "contractId", l.height, l.micro_index AS "microIndex", l.tx_index AS "txIndex",
            l.tx_hash AS "txHash", m.hash AS "blockHash", coalesce(c.reason, 'touched') AS reason, c.rh IS NULL AS first
       FROM latest l
       JOIN candidates c ON c.contract_id = l.contract_id
       JOIN micro_blocks m ON m.height = l.height AND m.micro_index = l.micro_index
      ORDER BY l.contract_id`;

/** what the settles found: tokens in all, and those touched below their batch (a read a delete removed) */
interface Found {
  tokens: number;
  below: number;
  called: number;
}

/**
 * settle finds the tokens of heights from..to, given the calls the batch holds, as the former statement does with the
 * calls stored at those heights, and writes their reads
 */
async function settle(db: Queryable, from: number, to: number, calls: Rows['calls'], found: Found): Promise<void> {
  const expected = await formerUnsettled(db, from, to);
  const got = await aex9Unsettled(
    db,
    from,
    to,
    calls.map((c) => String(c[4])),
  );
  expect(got, `heights ${from}-${to}`).to.deep.equal(expected);
  found.tokens += got.length;
  found.below += got.filter((t) => t.height < from).length;
  found.called += got.filter((t) => t.txHash === 'th_rare_call').length;
  // half of them as if the node kept no state (their negative balances set to zero), half at balances of their own
  const reads = got.map((token, i) => ({
    token,
    balances: i % 2 === 0 ? undefined : new Map([['ak_0', BigInt(token.height)]]),
  }));
  await writeAex9State(db, reads, to);
}

/** load writes heights from..to of chain `salt` in batches of `size` and settles each */
async function load(db: Queryable, from: number, to: number, size: number, salt: string, found: Found) {
  for (let a = from; a <= to; a += size) {
    const b = Math.min(a + size - 1, to);
    await insertBlocks(db, a, b, salt);
    const rows = generations(a, b, () => salt);
    await insertTokenRows(db, rows);
    await settle(db, a, b, rows.calls, found);
  }
}

describe('AEX-9 settle of a batch (migration 1157)', function () {
  this.timeout(300_000);

  describe('finds the tokens the former statement found', () => {
    let db: { pool: Pool; drop(): Promise<void> };
    before(async () => {
      db = await createMigratedDatabase('settle');
    });
    after(() => db?.drop());

    it('batch after batch, through rollbacks, a grown generation, reloads and a re-derivation below the top', async () => {
      const q = db.pool;
      const found: Found = { tokens: 0, below: 0, called: 0 };
      const salts = new Map<number, string>();
      const loaded = async (from: number, to: number, size: number, salt: string): Promise<void> => {
        for (let h = from; h <= to; h++) salts.set(h, salt);
        await load(q, from, to, size, salt, found);
      };
      await loaded(1, 40, 10, 'a');
      // a fork from 35: the batch across it read tokens its events touched before 35
      await q.query('DELETE FROM key_blocks WHERE height >= 35');
      await loaded(35, 50, 8, 'b');
      // the top generation grows by a micro block: its height settled again
      await q.query(
        `INSERT INTO micro_blocks (hash, height, micro_index, time_ms, tx_count, header) VALUES ('mh_grown', 50, 2, 50, 3, '{}')`,
      );
      const grown = generation(50, 'grown');
      const added = {
        events: grown.events.map((e) => [...e.slice(0, 3), 2, ...e.slice(4, 7), `${String(e[7])}_g`, ...e.slice(8)]),
        calls: grown.calls.map((c) => [`${String(c[0])}_g`, c[1], 2, ...c.slice(3)]),
      };
      await insertTokenRows(q, added);
      // the batch holds the added micro block alone
      await settle(q, 50, 50, added.calls, found);
      // reloads of heights inside a batch that wrote them, and on from there
      for (const [a, b] of [
        [23, 27],
        [28, 31],
      ] as const) {
        await q.query('DELETE FROM key_blocks WHERE height BETWEEN $1 AND $2', [a, b]);
        await loaded(a, b, b - a + 1, salts.get(a)!);
      }
      // the token area derived again from 13 up in steps of 5 (deriveStoredTokens), rows above each step still there
      for (let a = 13; a <= 50; a += 5) {
        const b = Math.min(a + 4, 50);
        await deleteTokenRows(q, a, b);
        const rows = generations(a, b, (h) => salts.get(h)!);
        // the calls are stored already: the derivation reads them
        await insertTokenRows(q, { events: rows.events, calls: [] });
        await settle(q, a, b, rows.calls, found);
      }
      // a rollback with nothing loaded after it, then another chain from there
      await q.query('DELETE FROM key_blocks WHERE height >= 45');
      await loaded(45, 80, 10, 'c');
      expect(found.tokens, 'tokens read').to.be.above(50);
      expect(found.below, 'tokens touched below their batch, their reads deleted').to.be.above(0);
      expect(found.called, 'a token read again for a call without events').to.equal(1);
    });
  });

  describe('at the top, reads as many rows on a chain twice as long', () => {
    const examined = async (
      generationsLoaded: number,
    ): Promise<{ now: number; nowGeneric: number; former: number; formerGeneric: number }> => {
      const db = await createMigratedDatabase('grows');
      try {
        await load(db.pool, 1, generationsLoaded, 10, 'a', { tokens: 0, below: 0, called: 0 });
        const from = generationsLoaded + 1;
        const to = generationsLoaded + 10;
        await insertBlocks(db.pool, from, to, 'a');
        // the same batch on both chains: its transactions drawn by their place in it
        const all = Array.from({ length: 10 }, (_, i) => generation(from + i, 'a', `top:${i}`));
        // and the rare token, read at 37 and not touched since
        await insertTokenRows(db.pool, {
          events: [
            ...all.flatMap((g) => g.events),
            ['ct_rare', 'ak_4', to, 1, 3, 0, 0, 'th_rare_top', 'transfer', '-1'],
            ['ct_rare', 'ak_3', to, 1, 3, 0, 1, 'th_rare_top', 'transfer', '1'],
          ],
          calls: [...all.flatMap((g) => g.calls), ['th_rare_top', to, 1, 3, 'ct_rare']],
        });
        await db.pool.query('ANALYZE');
        let asked: { text: string; values: unknown[] } | undefined;
        const capture: Queryable = {
          query: ((query: { text: string; values: unknown[] }) => {
            asked = query;
            return Promise.resolve({ rows: [] });
          }) as Queryable['query'],
        };
        await aex9Unsettled(
          capture,
          from,
          to,
          all.flatMap((g) => g.calls.map((c) => String(c[4]))),
        );
        return {
          now: await rowsRead(db.pool, asked!.text, asked!.values, false),
          nowGeneric: await rowsRead(db.pool, asked!.text, asked!.values, true),
          former: await rowsRead(db.pool, formerStatement, [from, to], false),
          formerGeneric: await rowsRead(db.pool, formerStatement, [from, to], true),
        };
      } finally {
        await db.drop();
      }
    };

    it('the rows of AEX-9 events, reads and calls the statement reads, planned for its values or generic', async () => {
      const short = await examined(300);
      const long = await examined(600);
      expect(long.former, 'the former statement reads the chain').to.be.above(short.former * 1.8);
      expect(long.formerGeneric, 'so does its generic plan').to.be.above(short.formerGeneric * 1.8);
      expect(long.now).to.equal(short.now);
      expect(long.nowGeneric).to.equal(short.nowGeneric);
      expect(long.now).to.be.below(short.former / 5);
    });
  });
});

interface PlanNode {
  readonly 'Relation Name'?: string;
  readonly 'Actual Rows': number;
  readonly 'Actual Loops': number;
  readonly 'Rows Removed by Filter'?: number;
  readonly 'Rows Removed by Index Recheck'?: number;
  readonly Plans?: PlanNode[];
}

/**
 * rowsRead runs the statement (undone after) and counts the rows its scans of the AEX-9 and call tables read, planned
 * for its values or (`generic`) as a prepared statement's generic plan, which the populator's named statement may take
 * after its fifth run
 */
async function rowsRead(pool: Pool, text: string, values: unknown[], generic: boolean): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    let explain = `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`;
    if (generic) {
      await client.query('SET LOCAL plan_cache_mode = force_generic_plan');
      await client.query(`PREPARE measured AS ${text}`);
      const literal = (v: unknown): string =>
        client.escapeLiteral(Array.isArray(v) ? `{${v.map(String).join(',')}}` : String(v));
      explain = `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE measured(${values.map(literal).join(', ')})`;
    }
    const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(explain, generic ? [] : values);
    let read = 0;
    const walk = (n: PlanNode): void => {
      if (['aex9_events', 'aex9_state_reads', 'contract_calls'].includes(n['Relation Name'] ?? ''))
        read +=
          (n['Actual Rows'] + (n['Rows Removed by Filter'] ?? 0) + (n['Rows Removed by Index Recheck'] ?? 0)) *
          n['Actual Loops'];
      for (const c of n.Plans ?? []) walk(c);
    };
    walk(rows[0]!['QUERY PLAN'][0].Plan);
    return read;
  } finally {
    await client.query('ROLLBACK');
    if (generic) await client.query('DEALLOCATE measured');
    client.release();
  }
}
