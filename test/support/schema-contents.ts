/**
 * @module What a schema holds, for telling an emptied one (db/schema/admin.ts, emptySchema) from a freshly migrated
 * one: every table's rows, every sequence's state, the triggers switched off, the migrations applied (their names: the
 * times differ).
 */
import pg from 'pg';
import pino from 'pino';
import { migrate, STATE_TABLE } from '../../src/db/schema/migrator.ts';
import { queryOnce } from './postgres.ts';

export interface SchemaContents {
  readonly tables: Record<string, unknown[]>;
  readonly sequences: Record<string, unknown>;
  readonly disabledTriggers: string[];
  readonly migrations: string[];
}

/** schemaContents reads every relation of `schema` in the database at `url`. */
export async function schemaContents(url: string, schema: string): Promise<SchemaContents> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; kind: string }>(
      `SELECT c.relname AS name, c.relkind AS kind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'S') AND c.relname <> $2 ORDER BY 1`,
      [schema, STATE_TABLE],
    );
    const tables: Record<string, unknown[]> = {};
    const sequences: Record<string, unknown> = {};
    for (const { name, kind } of rows) {
      const relation = `"${schema}"."${name}"`;
      if (kind === 'S') sequences[name] = (await client.query(`SELECT last_value, is_called FROM ${relation}`)).rows[0];
      else tables[name] = (await client.query(`SELECT to_jsonb(t) AS row FROM ${relation} t ORDER BY 1`)).rows;
    }
    const disabled = await client.query<{ name: string }>(
      `SELECT c.relname || '.' || t.tgname AS name FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
         JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND t.tgenabled = 'D' ORDER BY 1`,
      [schema],
    );
    const migrations = await client.query<{ name: string }>(`SELECT name FROM "${schema}".${STATE_TABLE} ORDER BY 1`);
    return {
      tables,
      sequences,
      disabledTriggers: disabled.rows.map((r) => r.name),
      migrations: migrations.rows.map((r) => r.name),
    };
  } finally {
    await client.end();
  }
}

/**
 * freshContents is what a schema migrated anew in the database at `url` holds, the users' configuration in
 * `configSchema` when given (as `-v --full`'s scratch is migrated), else in it; the schema is dropped after.
 */
export async function freshContents(url: string, configSchema?: string): Promise<SchemaContents> {
  const schema = 'fresh_for_comparison';
  await migrate({ databaseUrl: url, schema, ...(configSchema && { configSchema }) }, pino({ level: 'silent' }));
  try {
    return await schemaContents(url, schema);
  } finally {
    await queryOnce(url, `DROP SCHEMA ${schema} CASCADE`);
  }
}
