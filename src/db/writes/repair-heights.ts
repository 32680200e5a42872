/**
 * @module The stored heights a repair reloads at the populator's start (repair_heights, migration 1142): the
 * seeds a migration recorded, the list the start made of them, and what the list is made from (the GA transactions
 * at the seeds, the ids their wrong rows named, the later heights holding events of those ids).
 */
import { idKey, txTypeCode } from '../../chain/id-key.ts';
import { withTransaction, type Pool, type Queryable } from '../connection/pool.ts';

/** A repair's heights: `seed` as a migration recorded them, `reload` the list made of them, ascending. */
export interface RepairHeights {
  readonly seed: readonly number[];
  readonly reload: readonly number[];
}

/** repairHeights reads a repair's heights by stage. */
export async function repairHeights(db: Queryable, repair: string): Promise<RepairHeights> {
  const { rows } = await db.query<{ height: number; stage: 'seed' | 'reload' }>(
    'SELECT height, stage FROM repair_heights WHERE repair = $1 ORDER BY height',
    [repair],
  );
  return {
    seed: rows.filter((r) => r.stage === 'seed').map((r) => r.height),
    reload: rows.filter((r) => r.stage === 'reload').map((r) => r.height),
  };
}

/** A stored transaction that is or wraps a GAMetaTx. */
export interface StoredGaMeta {
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly hash: string;
  readonly signed: Buffer;
}

const GA_META = txTypeCode('GAMetaTx');
const PAYING_FOR = txTypeCode('PayingForTx');

/** seedGaMetas lists the GAMetaTx (and the PayingForTx paying for one) at a repair's seed heights, in chain order. */
export async function seedGaMetas(db: Queryable, repair: string): Promise<StoredGaMeta[]> {
  const { rows } = await db.query<StoredGaMeta>(
    `SELECT t.height, t.micro_index AS "microIndex", t.tx_index AS "txIndex", t.hash, t.signed
       FROM repair_heights r
       JOIN transactions t ON t.height = r.height
      WHERE r.repair = $1 AND r.stage = 'seed'
        AND (t.tx_type = $2 OR (t.tx_type = $3 AND t.inner_type = 'GAMetaTx'))
      ORDER BY t.height, t.micro_index, t.tx_index`,
    [repair, GA_META, PAYING_FOR],
  );
  return rows;
}

/** A transaction's position. */
export interface TxAt {
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
}

/** namesAt lists the names with an event at the positions given (a contract call's AENS calls among them). */
export async function namesAt(db: Queryable, at: readonly TxAt[]): Promise<Array<{ name: string; height: number }>> {
  if (at.length === 0) return [];
  const { rows } = await db.query<{ name: string; height: number }>(
    `SELECT DISTINCT n.name_hash AS name, n.height
       FROM unnest($1::int[], $2::int[], $3::int[]) AS p(height, micro_index, tx_index)
       JOIN name_events n ON (n.height, n.micro_index, n.tx_index) = (p.height, p.micro_index, p.tx_index)`,
    [at.map((p) => p.height), at.map((p) => p.microIndex), at.map((p) => p.txIndex)],
  );
  return rows;
}

/** An id (nm_, ok_, ch_) and the height after which the heights naming it are wanted. */
export interface IdAfter {
  readonly id: string;
  readonly after: number;
}

/**
 * heightsNamingAfter lists the stored heights above each id's `after` whose rows derive from the state of that id: a
 * name's events (its transactions' and contracts' AENS calls) and the transactions listed under it (a name given as a
 * recipient or an oracle: resolved through its pointers as of their block), an oracle's events (its expiry after
 * each; not its queries and responses, which read no state of it), a channel's events (its state after each). Each by
 * the primary key or an index led by the id.
 */
export async function heightsNamingAfter(db: Queryable, ids: readonly IdAfter[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<{ height: number }>(
    `WITH ids(id, key, after) AS (SELECT * FROM unnest($1::text[], $2::bytea[], $3::int[]))
     SELECT n.height FROM ids JOIN name_events n ON n.name_hash = ids.id AND n.height > ids.after
     UNION SELECT o.height FROM ids JOIN oracle_events o ON o.oracle_id = ids.id AND o.height > ids.after
     UNION SELECT c.height FROM ids JOIN channel_events c ON c.channel_id = ids.id AND c.height > ids.after
     UNION SELECT a.height FROM ids JOIN account_ids k ON k.key = ids.key
                                    JOIN account_transactions a ON a.account = k.num AND a.height > ids.after
     ORDER BY 1`,
    // the listed transactions of a name only (an oracle's are its queries and responses)
    [ids.map((i) => i.id), ids.map((i) => (i.id.startsWith('nm_') ? idKey(i.id) : null)), ids.map((i) => i.after)],
  );
  return rows.map((r) => r.height);
}

/** The types of the transactions that may send to a name: a spend, a contract call, and the wrappers carrying one. */
const SENDING_TYPES = ['SpendTx', 'ContractCallTx', 'GAMetaTx', 'PayingForTx'].map(txTypeCode);

/**
 * heightsSendingToAfter lists the stored heights above each name's `after` holding a spend or a contract call sent to
 * the name: listed under the account (contract) the name pointed at in their block and not under the name
 * (nameReferences' `pointeeOnly`), so no index finds them; their stored bytes name it (its serialised id, or its text
 * where a transaction is kept as JSON). One pass over those types' transactions above the lowest `after`.
 */
export async function heightsSendingToAfter(db: Queryable, names: readonly IdAfter[]): Promise<number[]> {
  if (names.length === 0) return [];
  const { rows } = await db.query<{ height: number }>(
    `SELECT DISTINCT t.height FROM transactions t
      WHERE t.tx_type = ANY ($4::smallint[]) AND t.height > $5
        AND EXISTS (SELECT 1 FROM unnest($1::bytea[], $2::bytea[], $3::int[]) AS n(key, text, after)
                     WHERE t.height > n.after AND (position(n.key IN t.signed) > 0 OR position(n.text IN t.signed) > 0))
      ORDER BY 1`,
    [
      names.map((n) => idKey(n.id)),
      names.map((n) => Buffer.from(n.id, 'utf8')),
      names.map((n) => n.after),
      SENDING_TYPES,
      Math.min(...names.map((n) => n.after)),
    ],
  );
  return rows.map((r) => r.height);
}

/** listRepairHeights replaces a repair's seeds with the heights to reload, in one transaction. */
export async function listRepairHeights(pool: Pool, repair: string, heights: readonly number[]): Promise<void> {
  await withTransaction(pool, async (client) => {
    await client.query(`DELETE FROM repair_heights WHERE repair = $1 AND stage = 'seed'`, [repair]);
    await client.query(
      `INSERT INTO repair_heights (repair, height, stage) SELECT $1, h, 'reload' FROM unnest($2::int[]) AS h
       ON CONFLICT (repair, height) DO NOTHING`,
      [repair, heights],
    );
  });
}

/** clearRepair forgets a repair once its heights are reloaded. */
export async function clearRepair(db: Queryable, repair: string): Promise<void> {
  await db.query('DELETE FROM repair_heights WHERE repair = $1', [repair]);
}
