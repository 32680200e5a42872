/**
 * @module The writer's codes of transaction types (migration 1011): the node's tag of a type the code knows, and for any
 * other type the negative code unknown_tx_types gives its name, added as a batch first holds it.
 */
import { isKnownTxType, txTypeCode } from '../../chain/id-key.ts';
import type { Queryable } from '../connection/pool.ts';

/** A transaction of a type the code does not know: its type name and where it is. */
export interface UnknownTxType {
  readonly name: string;
  readonly height: number;
  readonly hash: string;
}

// Adds the names of $1 that have no code (with where the batch first holds each) and returns every name's code,
// `added` for the new ones. The SELECT reads the statement's snapshot: a name added here is only in `added`.
const CODE_TYPES = `WITH met AS (SELECT * FROM unnest($1::text[], $2::int[], $3::text[]) AS m(name, height, hash)),
  added AS (INSERT INTO unknown_tx_types (name, first_height, first_hash)
            SELECT name, height, hash FROM met ORDER BY name ON CONFLICT (name) DO NOTHING RETURNING code, name)
  SELECT code, name, true AS added FROM added
  UNION ALL SELECT u.code, u.name, false FROM unknown_tx_types u JOIN met ON met.name = u.name`;

/**
 * TxTypeCodes gives the writer the code of each type it writes and remembers the codes of unknown types; codes added
 * in a transaction that then fails are rolled back with it: the writer calls `forget` after a failed batch.
 */
export class TxTypeCodes {
  readonly #unknown = new Map<string, number>();

  /**
   * resolve makes `code` know every type of `txs`, adding in `db` (the writer's transaction) the unknown ones that
   * have no code; returns those it added (each with the first transaction the batch holds of it).
   */
  async resolve(db: Queryable, txs: readonly UnknownTxType[]): Promise<UnknownTxType[]> {
    const missing = new Map<string, UnknownTxType>();
    for (const tx of txs)
      if (!isKnownTxType(tx.name) && !this.#unknown.has(tx.name) && !missing.has(tx.name)) missing.set(tx.name, tx);
    if (missing.size === 0) return [];
    const met = [...missing.values()];
    const { rows } = await db.query<{ code: number; name: string; added: boolean }>(CODE_TYPES, [
      met.map((t) => t.name),
      met.map((t) => t.height),
      met.map((t) => t.hash),
    ]);
    for (const r of rows) this.#unknown.set(r.name, r.code);
    return rows.filter((r) => r.added).map((r) => missing.get(r.name)!);
  }

  /** code is the stored code of a type: its tag when the code knows it, else the code `resolve` found. */
  code(type: string): number {
    if (isKnownTxType(type)) return txTypeCode(type);
    const code = this.#unknown.get(type);
    if (code === undefined) throw new Error(`no code resolved for transaction type ${type.slice(0, 60)}`);
    return code;
  }

  /** forget drops the remembered codes (after a failed transaction, which may have rolled some back). */
  forget(): void {
    this.#unknown.clear();
  }
}
