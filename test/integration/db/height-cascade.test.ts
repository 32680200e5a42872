/**
 * @module Every per-height table follows a delete of its key blocks: no table references key_blocks by a foreign key
 * (a check per inserted row the populator does not need), and each one with a height column is emptied by a
 * statement trigger on key_blocks (migrations/1005_height_cascade.sql), so a fork rollback or a -H reload leaves no
 * row of a deleted height. A new table that is forgotten there fails here, before any rollback test happens to cover
 * it.
 */
import { expect } from 'chai';
import type { Pool } from '../../../src/db/connection/pool.ts';
import { createMigratedDatabase } from '../../support/postgres.ts';

/** Tables with a height column whose rows do not belong to that height, and why. */
const NOT_PER_HEIGHT: Readonly<Record<string, string>> = {
  key_blocks: 'the heights themselves',
  sync_state: 'the stored top',
  aex9_balances: "a balance's last change, kept by aex9_events' own triggers as their rows come and go",
  aex9_event_balances: "an event's running balance, kept by aex9_events' own triggers as their rows come and go",
  name_count_edges: "a height names expire or become active at (ahead of the top), kept by name_state's triggers",
  repair_heights: "a stored height the populator's start reloads from the node (migration 1142), forgotten once done",
};

describe('height cascade: every per-height table is emptied by a delete on key_blocks', function () {
  this.timeout(120_000);
  let db: { pool: Pool; drop(): Promise<void> };
  before(async () => {
    db = await createMigratedDatabase('cascade');
  });
  after(async () => {
    await db?.drop();
  });

  it('has no foreign key to key_blocks', async () => {
    const { rows } = await db.pool.query<{ name: string }>(
      `SELECT conname AS name FROM pg_constraint
        WHERE contype = 'f' AND confrelid = 'key_blocks'::regclass`,
    );
    expect(rows.map((r) => r.name)).to.deep.equal([]);
  });

  it('deletes each table with a height column from a statement trigger on key_blocks', async () => {
    const { rows: tables } = await db.pool.query<{ table: string }>(
      `SELECT c.table_name AS table FROM information_schema.columns c
         JOIN information_schema.tables t USING (table_schema, table_name)
        WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.column_name = 'height'
        ORDER BY 1`,
    );
    // each trigger's function with the tables it is given (the shared cascade_deleted_heights deletes from each)
    const { rows: triggers } = await db.pool.query<{ body: string; args: string[] }>(
      `SELECT p.prosrc AS body,
              string_to_array(rtrim(encode(g.tgargs, 'escape'), '\\000'), '\\000') AS args
         FROM pg_trigger g JOIN pg_proc p ON p.oid = g.tgfoid
        WHERE g.tgrelid = 'key_blocks'::regclass AND NOT g.tgisinternal
          AND (g.tgtype::int & 8) <> 0 AND (g.tgtype::int & 1) = 0`, // TRIGGER_TYPE_DELETE, FOR EACH STATEMENT
    );
    const deletes = /DELETE FROM %I WHERE height IN \(SELECT height FROM old_blocks\)/;
    // a hyperchain's rows go with the key block whose batch loaded them (1014_hyperchain.sql), their `height` being
    // what they are about (a scheduled height) where it differs
    const loads = /DELETE FROM %I WHERE loaded_at IN \(SELECT height FROM old_blocks\)/;
    const { rows: loaded } = await db.pool.query<{ table: string }>(
      `SELECT table_name AS table FROM information_schema.columns
        WHERE table_schema = current_schema() AND column_name = 'loaded_at'`,
    );
    const byLoad = new Set(loaded.map((t) => t.table));
    const deleted = (table: string): boolean =>
      triggers.some((g) => (byLoad.has(table) ? loads : deletes).test(g.body) && g.args.includes(table));
    const forgotten = [...new Set([...tables.map((t) => t.table), ...byLoad])].filter(
      (t) => NOT_PER_HEIGHT[t] === undefined && !deleted(t),
    );
    expect(tables.length).to.be.greaterThan(20);
    expect(byLoad.size).to.be.greaterThan(5);
    expect(forgotten).to.deep.equal([]);
  });
});
