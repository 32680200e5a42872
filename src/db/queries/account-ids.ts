/**
 * @module The numbers account_transactions names ids by (migration 0095): account_ids keeps each id's key (its tag and
 * 32 bytes, src/chain/id-key.ts) once, and a 4-byte number stands for it in the big tables. A number is
 * 8 × n + the key's tag, so the kind of id a number stands for is `num & 7`.
 */
import { KEY_TAGS, idKey } from '../../chain/id-key.ts';
import type { Queryable } from '../pool.ts';

/** ID_NUMBER_COLUMNS: the column of each table that holds ids' numbers. */
export const ID_NUMBER_COLUMNS: Readonly<Record<string, string>> = {
  account_transactions: 'account',
  stats_accounts: 'account',
  stats_active_accounts: 'account',
};

/** accountNumberSql is the SQL of the number of the id whose key is the parameter `param` (NULL if none: no row matches). */
export function accountNumberSql(param: string): string {
  return `(SELECT num FROM account_ids WHERE key = ${param})`;
}

/** isAccountSql is the SQL that tests whether the number `column` stands for an account (ak_) id. */
export function isAccountSql(column: string): string {
  return `${column} & 7 = ${KEY_TAGS.ak}`;
}

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
      const { rows } = await db.query<{ num: number; key: string }>(NUMBER_IDS, [[...missing.keys()]]);
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
