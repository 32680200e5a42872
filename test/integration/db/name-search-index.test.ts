/**
 * @module The names' trigram index after the migrations (db/schema/name-search-index.ts) on a real PostgreSQL: a database that
 * refuses extensions migrates all the same with one warning saying what to run, and the next migrate builds the index
 * once a superuser ran it; a blue/green generation builds its own on the same extension, which dropping the first
 * generation (the default `public`) leaves in place; a role that is no superuser makes the extension from PostgreSQL 13.
 */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { dropSchema } from '../../../src/db/schema/admin.ts';
import { migrate, migrationNames } from '../../../src/db/schema/migrator.ts';
import { EXTENSION_SCHEMA, NAME_SEARCH_INDEX } from '../../../src/db/schema/name-search-index.ts';
import { createPool } from '../../../src/db/connection/pool.ts';
import { names } from '../../../src/db/queries/names.ts';
import { createTestDatabase, queryOnce } from '../../support/postgres.ts';

type Line = { level: number; msg: string; reason?: string };

/** migrateLogged migrates `schema` and returns what it logged */
async function migrateLogged(databaseUrl: string, schema: string): Promise<{ applied: string[]; lines: Line[] }> {
  const lines: Line[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Line) });
  const applied = await migrate({ databaseUrl, schema }, log);
  return { applied, lines };
}

/** the index's definition in `schema`, if it is there and valid */
async function indexIn(url: string, schema: string): Promise<string | undefined> {
  const { rows } = await queryOnce<{ def: string }>(
    url,
    `SELECT pg_get_indexdef(c.oid) AS def FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid
      WHERE c.relname = $1 AND c.relnamespace = $2::regnamespace AND i.indisvalid`,
    [NAME_SEARCH_INDEX, schema],
  );
  return rows[0]?.def;
}

async function extensionSchema(url: string): Promise<string | undefined> {
  const { rows } = await queryOnce<{ schema: string }>(
    url,
    "SELECT extnamespace::regnamespace::text AS schema FROM pg_extension WHERE extname = 'pg_trgm'",
  );
  return rows[0]?.schema;
}

const warnings = (lines: Line[]): Line[] => lines.filter((l) => l.level === 40);

describe("the names' trigram index, built after the migrations where pg_trgm can be made", function () {
  this.timeout(120_000);
  let db: { url: string; drop(): Promise<void> };
  before(async () => {
    db = await createTestDatabase();
  });
  after(async () => {
    await db?.drop();
  });

  it('a database refusing extensions migrates with one warning, and the next migrate builds the index once a superuser made it', async () => {
    // as a managed service's allow-list refuses an extension: for every role, superusers too
    await queryOnce(
      db.url,
      `CREATE FUNCTION public.refuse_extensions() RETURNS event_trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'extensions are refused in this database'; END $$`,
    );
    await queryOnce(
      db.url,
      `CREATE EVENT TRIGGER refuse_extensions ON ddl_command_start WHEN TAG IN ('CREATE EXTENSION')
       EXECUTE PROCEDURE public.refuse_extensions()`,
    );
    const refused = await migrateLogged(db.url, 'public');
    expect(refused.applied).to.deep.equal(migrationNames());
    const [warning, ...more] = warnings(refused.lines);
    expect(more).to.deep.equal([]);
    expect(warning!.msg).to.include(`CREATE EXTENSION pg_trgm SCHEMA ${EXTENSION_SCHEMA};`);
    expect(warning!.reason).to.equal('extensions are refused in this database');
    expect(await indexIn(db.url, 'public')).to.equal(undefined);
    expect(await extensionSchema(db.url)).to.equal(undefined);
    const { rows } = await queryOnce(db.url, 'SELECT 1 FROM pg_namespace WHERE nspname = $1', [EXTENSION_SCHEMA]);
    expect(rows, 'the schema made for it goes with the refused extension').to.deep.equal([]);

    // what the warning says to run, as a superuser; then a start (the populator's, `mdw migrate`) builds the index
    await queryOnce(db.url, 'DROP EVENT TRIGGER refuse_extensions');
    await queryOnce(db.url, `CREATE SCHEMA IF NOT EXISTS ${EXTENSION_SCHEMA}`);
    await queryOnce(db.url, `CREATE EXTENSION pg_trgm SCHEMA ${EXTENSION_SCHEMA}`);
    const allowed = await migrateLogged(db.url, 'public');
    expect(allowed.applied).to.deep.equal([]);
    expect(warnings(allowed.lines)).to.deep.equal([]);
    expect(allowed.lines.map((l) => l.msg)).to.include('name search index built');
    expect(await indexIn(db.url, 'public')).to.equal(
      `CREATE INDEX ${NAME_SEARCH_INDEX} ON public.name_state USING gin (name ${EXTENSION_SCHEMA}.gin_trgm_ops) WITH (gin_pending_list_limit='256')`,
    );
    // and a start with the index there does nothing more
    const kept = await migrateLogged(db.url, 'public');
    expect(kept.lines.filter((l) => l.level >= 30).map((l) => l.msg)).to.deep.equal([]);
  });

  it('a blue/green generation builds its own on the same extension, which dropping the first generation keeps', async () => {
    const g2 = await migrateLogged(db.url, 'public_g2');
    expect(warnings(g2.lines)).to.deep.equal([]);
    expect(await indexIn(db.url, 'public_g2')).to.include(`${EXTENSION_SCHEMA}.gin_trgm_ops`);
    await dropSchema(db.url, 'public');
    expect(await extensionSchema(db.url)).to.equal(EXTENSION_SCHEMA);
    expect(await indexIn(db.url, 'public_g2')).to.include(`${EXTENSION_SCHEMA}.gin_trgm_ops`);
    // a server's pool sees only its schema: the search runs there
    const pool = createPool({ databaseUrl: db.url, schema: 'public_g2', max: 1 }, pino({ level: 'silent' }));
    try {
      expect(await names(pool, { contains: 'a', order: 'expires' }, { limit: 10, offset: 0 })).to.deep.equal([]);
    } finally {
      await pool.end();
    }
  });

  it('a role that is no superuser, with CREATE on the database, makes pg_trgm from PostgreSQL 13 (trusted), else is warned', async () => {
    const own = await createTestDatabase();
    const role = `mdw_role_${randomBytes(4).toString('hex')}`;
    try {
      await queryOnce(own.url, `CREATE ROLE ${role} LOGIN PASSWORD 'role-pw'`);
      await queryOnce(own.url, `GRANT CREATE ON DATABASE ${new URL(own.url).pathname.slice(1)} TO ${role}`);
      const url = new URL(own.url);
      url.username = role;
      url.password = 'role-pw';
      const { lines } = await migrateLogged(url.toString(), 'mdw_g1');
      const version = await queryOnce<{ v: number }>(own.url, "SELECT current_setting('server_version_num')::int AS v");
      if (version.rows[0]!.v >= 130000) {
        expect(warnings(lines)).to.deep.equal([]);
        expect(await indexIn(own.url, 'mdw_g1')).to.include(`${EXTENSION_SCHEMA}.gin_trgm_ops`);
      } else {
        expect(warnings(lines)[0]?.reason).to.include('permission denied to create extension');
        expect(await indexIn(own.url, 'mdw_g1')).to.equal(undefined);
      }
    } finally {
      await own.drop();
      await queryOnce(db.url, `DROP ROLE IF EXISTS ${role}`);
    }
  });
});
