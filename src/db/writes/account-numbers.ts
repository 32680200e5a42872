/**
 * @module The writer's numbering of ids (migration 1000): the number account_ids gives each id's key, new ids numbered
 * as a batch names them; queries/account-ids.ts reads the numbers.
 */
import { arrayParameter } from '../connection/array-text.ts';
import { idKey } from '../../chain/id-key.ts';
import type { Queryable } from '../connection/pool.ts';

// Numbers the ids of `$1` (keys as hex) that have none, and returns every id's number. The SELECT reads the
// statement's snapshot: an id another writer numbered in the meantime is missing from the answer (asked again).
// New keys go in in key order, so two writers numbering the same new ids wait for each other in one order.
const NUMBER_IDS = `WITH k AS (SELECT DISTINCT decode(h, 'hex') AS key FROM unnest($1::text[]) AS h),
  known AS (SELECT i.num, i.key FROM account_ids i JOIN k ON k.key = i.key),
  added AS (INSERT INTO account_ids (num, key)
            SELECT 8 * nextval('account_ids_seq') + get_byte(k.key, 0), k.key FROM k
             WHERE NOT EXISTS (SELECT 1 FROM known WHERE known.key = k.key) ORDER BY k.key
            ON CONFLICT (key) DO NOTHING RETURNING num, key)
  SELECT num, encode(key, 'hex') AS key FROM known UNION ALL SELECT num, encode(key, 'hex') FROM added`;

const MAX_CACHED = 200_000;

/** storedKeyHex is the key of an id the chain produced, as hex; throws on an id of no stored kind. */
function storedKeyHex(id: string): string {
  const key = idKey(id);
  if (key.length === 0) throw new TypeError(`not an id of a stored kind: ${id.slice(0, 60)}`);
  return key.toString('hex');
}

/**
 * AccountNumbers gives the writer the number of each id it writes, numbering new ones, and remembers them (a
 * bounded memo: most rows name ids seen before). The numbers it learns in a transaction that then fails may be
 * rolled back with it: the writer calls `forget` after a failed batch.
 */
export class AccountNumbers {
  readonly #numbers = new Map<string, number>();

  /** resolve makes `number` know every id of `ids`, numbering in `db` (the writer's transaction) those that have none. */
  async resolve(db: Queryable, ids: readonly string[]): Promise<void> {
    const missing = new Map<string, string>();
    for (const id of ids) if (!this.#numbers.has(id)) missing.set(storedKeyHex(id), id);
    if (this.#numbers.size + missing.size > MAX_CACHED) {
      this.#numbers.clear();
      for (const id of ids) missing.set(storedKeyHex(id), id);
    }
    // a second try sees (in a new snapshot) the ids another writer numbered while the first ran
    for (let attempt = 0; missing.size > 0; attempt++) {
      if (attempt === 3) throw new Error(`ids left without a number: ${[...missing.values()].slice(0, 3).join(' ')}`);
      const { rows } = await db.query<{ num: number; key: string }>({
        name: 'mdw_account_ids_number',
        text: NUMBER_IDS,
        values: [arrayParameter([...missing.keys()])],
      });
      for (const { num, key } of rows) {
        this.#numbers.set(missing.get(key)!, num);
        missing.delete(key);
      }
    }
  }

  /** number is the number of an id `resolve` was given. */
  number(id: string): number {
    const num = this.#numbers.get(id);
    if (num === undefined) throw new Error(`no number resolved for ${id.slice(0, 60)}`);
    return num;
  }

  /** forget drops every remembered number (after a failed transaction, which may have rolled some back). */
  forget(): void {
    this.#numbers.clear();
  }
}
