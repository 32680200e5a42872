/**
 * @module The writes of a hyperchain's consensus rows (migrations/1014_hyperchain.sql) in a batch's transaction, after
 * its blocks, or in the backfill's: each row carries the height whose batch wrote it (`loaded_at`), so deleting key
 * blocks removes them, and the backfill replaces the rows of stored heights by it.
 */
import type { HyperchainRecord } from '../queries/hyperchain.ts';
import type { Queryable } from '../connection/pool.ts';
import type { HyperchainBatch } from './hyperchain-rows.ts';

/** The tables of rows written per height (`loaded_at`): the hyperchain derived area's, the key blocks' trigger's. */
export const HYPERCHAIN_LOAD_TABLES = [
  'hc_epochs',
  'hc_schedule',
  'hc_produced',
  'hc_validators',
  'hc_delegates',
  'hc_rewards',
  'hc_pins',
] as const;

/** recordHyperchain records, once, whether the chain is a hyperchain and its contracts (`hc_chain`). */
export async function recordHyperchain(db: Queryable, record: HyperchainRecord): Promise<void> {
  await db.query({
    name: 'mdw_record_hyperchain',
    text: `INSERT INTO hc_chain (hyperchain, staking, election, rewards) VALUES ($1, $2, $3, $4)
     ON CONFLICT (singleton) DO NOTHING`,
    values: [
      record.hyperchain,
      record.contracts?.staking ?? null,
      record.contracts?.election ?? null,
      record.contracts?.rewards ?? null,
    ],
  });
}

/** deleteHyperchainLoads removes the rows the heights from..to wrote (to derive them again). */
export async function deleteHyperchainLoads(db: Queryable, from: number, to: number): Promise<void> {
  for (const table of HYPERCHAIN_LOAD_TABLES)
    await db.query(`DELETE FROM ${table} WHERE loaded_at BETWEEN $1 AND $2`, [from, to]);
}

/** writeHyperchain writes what the reader read about heights of a hyperchain (hyperchain/reader.ts). */
export async function writeHyperchain(db: Queryable, batch: HyperchainBatch): Promise<void> {
  const { record, produced, epochs, pins } = batch;
  if (!record.hyperchain) return;
  if (produced.length > 0)
    await db.query(
      `INSERT INTO hc_produced (height, producer, hole, eoe, loaded_at)
       SELECT h, p, o, e, h FROM unnest($1::int[], $2::text[], $3::bool[], $4::bool[]) AS x(h, p, o, e)`,
      [
        produced.map((r) => r.height),
        produced.map((r) => r.producer),
        produced.map((r) => r.hole),
        produced.map((r) => r.eoe),
      ],
    );
  // the delegates first: an epoch's were locked at a boundary three epochs before its own (or in this batch)
  const locked = epochs.flatMap((e) =>
    e.locked.flatMap((l) =>
      [...l.delegates].map(([d, stake]) => [l.validator, l.epoch, d, stake.toString(), e.loadedAt] as const),
    ),
  );
  if (locked.length > 0)
    await db.query(
      `INSERT INTO hc_delegates (validator, epoch, delegate, stake, loaded_at)
       SELECT v, e, d, s::numeric, l FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::int[]) AS x(v, e, d, s, l)`,
      [0, 1, 2, 3, 4].map((i) => locked.map((row) => row[i])),
    );
  const rewards = epochs.flatMap((e) =>
    e.rewards.map((r) => [r.epoch, r.validator, r.reward.toString(), e.loadedAt] as const),
  );
  if (rewards.length > 0)
    await db.query(
      `INSERT INTO hc_rewards (epoch, validator, reward, loaded_at)
       SELECT e, v, r::numeric, l FROM unnest($1::int[], $2::text[], $3::text[], $4::int[]) AS x(e, v, r, l)`,
      [0, 1, 2, 3].map((i) => rewards.map((row) => row[i])),
    );
  for (const e of epochs) {
    await db.query(
      `INSERT INTO hc_epochs (epoch, first, last, length, seed, parent_block_hash, start_time_ms, pin_reward, loaded_at)
       VALUES ($1, $2::int, $2::int + $3::int - 1, $3, $4, $5, $6, $7::numeric, $8)`,
      [e.epoch, e.first, e.length, e.seed, e.parentBlockHash, e.startTimeMs, e.pinReward.toString(), e.loadedAt],
    );
    const v = e.validators;
    await db.query(
      `INSERT INTO hc_validators (epoch, validator, position, stake, delegates, loaded_at)
       SELECT $1, v, i - 1, s::numeric,
              (SELECT count(*) FROM hc_delegates d WHERE d.epoch = $1 AND d.validator = x.v), $2
         FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS x(v, s, i)`,
      [e.epoch, e.loadedAt, v.map((x) => x.validator), v.map((x) => x.stake.toString())],
    );
    await db.query(
      `INSERT INTO hc_schedule (height, epoch, leader, loaded_at)
       SELECT $1 + i - 1, $2, l, $3 FROM unnest($4::text[]) WITH ORDINALITY AS x(l, i)`,
      [e.first, e.epoch, e.loadedAt, e.schedule],
    );
  }
  // an epoch without a seed (1 and 2: the node seeds them from the parent chain) is scheduled as its blocks show
  if (produced.length > 0)
    await db.query(
      `INSERT INTO hc_schedule (height, epoch, leader, loaded_at)
       SELECT x.h, e.epoch, x.p, x.h FROM unnest($1::int[], $2::text[]) AS x(h, p)
         JOIN hc_epochs e ON x.h BETWEEN e.first AND e.last AND e.seed IS NULL`,
      [produced.map((r) => r.height), produced.map((r) => r.producer)],
    );
  if (pins.length > 0)
    await db.query(
      `INSERT INTO hc_pins (epoch, leader, height, reward, loaded_at)
       SELECT x.e, x.l, x.h, p.pin_reward, x.h FROM unnest($1::int[], $2::text[], $3::int[]) AS x(e, l, h)
         JOIN hc_epochs p ON p.epoch = x.e AND p.pin_reward > 0`,
      [pins.map((p) => p.epoch), pins.map((p) => p.leader), pins.map((p) => p.height)],
    );
}
