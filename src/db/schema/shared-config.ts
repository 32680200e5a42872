/**
 * @module The users' configuration outside the data generation (docs/webhooks.md, "Blue/green reloads"): API keys with
 * their quota counters, and webhooks with their filters, are what users made through the API and `mdw keys`, not
 * chain data, so a blue/green reload into a new generation schema must not lose them. With DATABASE_CONFIG_SCHEMA a
 * schema of its own (the operator sets `<schemaPrefix>config`) they live there, on every pool's search_path after the
 * generation's (db/connection/pool.ts): after its migrations, the first generation moves its tables there, a later one
 * merges what its own hold (nothing, when it is new) and drops them. webhook_deliveries stays in the generation (keyed
 * by height, written in its batches) and refers to the shared hooks.
 */
import { quoteIdent, type PoolClient } from '../connection/pool.ts';

/** The configuration's tables, each after those it refers to. */
export const CONFIG_TABLES = ['api_keys', 'api_quota_usage', 'api_held', 'webhooks', 'webhook_match_keys'] as const;

/**
 * shareConfiguration moves or merges the generation `schema`'s configuration tables into `configSchema`, in the
 * caller's transaction; nothing when they are one schema, or when the generation holds none any more. Two generations
 * migrating at once take turns.
 */
export async function shareConfiguration(client: PoolClient, schema: string, configSchema: string): Promise<string[]> {
  if (configSchema === schema) return [];
  const here = quoteIdent(schema);
  const shared = quoteIdent(configSchema);
  const { rows } = await client.query<{ table: string; there: boolean }>(
    `SELECT t AS table, to_regclass(format('%I.%I', $2::text, t)) IS NOT NULL AS there
       FROM unnest($3::text[]) WITH ORDINALITY AS u (t, i)
      WHERE to_regclass(format('%I.%I', $1::text, t)) IS NOT NULL ORDER BY i`,
    [schema, configSchema, CONFIG_TABLES],
  );
  if (rows.length === 0) return [];
  await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`mdw_config:${configSchema}`]);
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${shared}`);
  for (const { table, there } of rows) {
    const t = quoteIdent(table);
    if (!there) await client.query(`ALTER TABLE ${here}.${t} SET SCHEMA ${shared}`);
    else await client.query(`INSERT INTO ${shared}.${t} SELECT * FROM ${here}.${t} ON CONFLICT DO NOTHING`);
  }
  const merged = rows.filter((r) => r.there).map((r) => r.table);
  if (merged.includes('webhooks')) {
    // this generation's deliveries refer to the shared hooks from now on
    const { rows: fks } = await client.query<{ name: string }>(
      `SELECT conname AS name FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'f'`,
      [`${here}.webhook_deliveries`],
    );
    for (const { name } of fks) {
      await client.query(`ALTER TABLE ${here}.webhook_deliveries DROP CONSTRAINT ${quoteIdent(name)}`);
      await client.query(
        `ALTER TABLE ${here}.webhook_deliveries ADD CONSTRAINT ${quoteIdent(name)}
           FOREIGN KEY (webhook_id) REFERENCES ${shared}.webhooks ON DELETE CASCADE`,
      );
    }
  }
  // webhook_match_keys before the webhooks it refers to
  for (const table of [...merged].reverse()) await client.query(`DROP TABLE ${here}.${quoteIdent(table)}`);
  return rows.map((r) => r.table);
}
