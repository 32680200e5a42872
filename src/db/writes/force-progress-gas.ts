/**
 * @module The gas used by stored force progresses' calls (channel_events.gas_used, migration 1143), which the ga area
 * asks the node for where a sync stored none.
 */
import type { Queryable } from '../connection/pool.ts';
import type { HeightRange } from '../queries/height-range.ts';

/** A stored ChannelForceProgressTx (or a wrapper of one): its channel event's key and its transaction's hash. */
export interface StoredForceProgress {
  readonly channelId: string;
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly hash: string;
}

/** forceProgresses lists the force progresses of a range (their channel events), in chain order. */
export async function forceProgresses(db: Queryable, range: HeightRange): Promise<StoredForceProgress[]> {
  const { rows } = await db.query<StoredForceProgress>({
    name: 'mdw_force_progresses',
    text: `SELECT channel_id AS "channelId", height, micro_index AS "microIndex", tx_index AS "txIndex", tx_hash AS hash
             FROM channel_events
            WHERE height BETWEEN $1 AND $2 AND (height > $1 OR micro_index >= $3)
              AND tx_type = 'ChannelForceProgressTx'
            ORDER BY height, micro_index, tx_index`,
    values: [range.from, range.to, range.fromMicro],
  });
  return rows;
}

/** setForceProgressGas stores the gas each force progress's call used (null: not known). */
export async function setForceProgressGas(
  db: Queryable,
  rows: readonly (StoredForceProgress & { readonly gasUsed: bigint | null })[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.query({
    name: 'mdw_force_progress_gas_set',
    text: `UPDATE channel_events e SET gas_used = v.gas_used
             FROM unnest($1::text[], $2::int[], $3::int[], $4::int[], $5::numeric[])
                  AS v(channel_id, height, micro_index, tx_index, gas_used)
            WHERE e.channel_id = v.channel_id AND e.height = v.height AND e.micro_index = v.micro_index
              AND e.tx_index = v.tx_index`,
    values: [
      rows.map((r) => r.channelId),
      rows.map((r) => r.height),
      rows.map((r) => r.microIndex),
      rows.map((r) => r.txIndex),
      rows.map((r) => r.gasUsed?.toString() ?? null),
    ],
  });
}
