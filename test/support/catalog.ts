/**
 * @module What PostgreSQL's catalog says a schema is made of (tables' columns in order with their types, collations,
 * defaults and nullability; constraints; indexes; triggers; functions with their bodies and settings; sequences),
 * as comparable text: two schemas migrated differently are the same schema when their catalogs are equal. The
 * schema's own name is written as `<schema>`, so two schemas of one database compare.
 */
import pg from 'pg';

const QUERIES: Record<string, string> = {
  columns: `SELECT c.relname || '.' || a.attname || ' #' || row_number() OVER (PARTITION BY c.relname ORDER BY a.attnum)
                   || ' ' || format_type(a.atttypid, a.atttypmod) || ' collate ' || coalesce(co.collname, '-')
                   || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END
                   || coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '') AS line
              FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
              LEFT JOIN pg_collation co ON co.oid = a.attcollation AND a.attcollation <> 100
              LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
             WHERE c.relnamespace = $1::regnamespace AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped`,
  constraints: `SELECT c.relname || ' ' || k.conname || ' ' || pg_get_constraintdef(k.oid) AS line
                  FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid
                 WHERE k.connamespace = $1::regnamespace`,
  indexes: `SELECT pg_get_indexdef(i.indexrelid) AS line FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
             WHERE c.relnamespace = $1::regnamespace`,
  triggers: `SELECT pg_get_triggerdef(t.oid) AS line FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
              WHERE c.relnamespace = $1::regnamespace AND NOT t.tgisinternal`,
  functions: `SELECT p.oid::regprocedure::text || ' returns ' || format_type(p.prorettype, NULL) || ' ' || l.lanname
                     || ' volatile ' || p.provolatile::text || ' parallel ' || p.proparallel::text
                     || ' strict ' || p.proisstrict
                     || ' set ' || coalesce(array_to_string(p.proconfig, ','), '-') || E'\\n' || p.prosrc AS line
                FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
               WHERE p.pronamespace = $1::regnamespace`,
  sequences: `SELECT c.relname || ' ' || format_type(s.seqtypid, NULL) || ' ' || s.seqstart || ' ' || s.seqincrement
                     || ' ' || s.seqmin || ' ' || s.seqmax || ' ' || s.seqcache || ' ' || s.seqcycle AS line
                FROM pg_sequence s JOIN pg_class c ON c.oid = s.seqrelid WHERE c.relnamespace = $1::regnamespace`,
  tables: `SELECT c.relname || ' ' || c.relkind::text || ' ' || c.relpersistence::text || ' '
                  || coalesce(array_to_string(c.reloptions, ','), '-')
                  AS line
             FROM pg_class c WHERE c.relnamespace = $1::regnamespace`,
};

/** catalogOf lists what the catalog holds for `schema`, by kind, each kind's lines sorted. */
export async function catalogOf(url: string, schema: string): Promise<Record<string, string[]>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const catalog: Record<string, string[]> = {};
    for (const [kind, sql] of Object.entries(QUERIES)) {
      const { rows } = await client.query<{ line: string }>(sql, [schema]);
      catalog[kind] = rows
        .map((r) => r.line.split(`"${schema}"`).join('<schema>').split(schema).join('<schema>'))
        .sort();
    }
    return catalog;
  } finally {
    await client.end();
  }
}
