/**
 * @module `mdw snapshot import`: a snapshot (snapshot-export.ts) restored into an empty schema, after refusing one of
 * another network than the node's or of a newer migration level than this binary's and checking every part's SHA-256
 * and the whole's; the schema is migrated to the snapshot's level, filled over several connections whose transactions
 * commit together, migrated on to this binary's newest, and compared with the node where -v compares (verify.ts): the
 * top and sampled heights, and sampled accounts' balances. The populator then goes on from the snapshot's top.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createZstdDecompress } from 'node:zlib';
import type { Readable } from 'node:stream';
import { AppError, ErrorCode } from '../../base/errors.ts';
import type { Logger } from '../../base/log.ts';
import { VERSION } from '../../base/version.ts';
import type { Config } from '../../config/middleware.ts';
import { createWritePool, type Pool } from '../../db/connection/pool.ts';
import { dropSchema } from '../../db/schema/admin.ts';
import { migrate, migrationNames, type MigrateOptions } from '../../db/schema/migrator.ts';
import {
  analyzeTables,
  recordRestored,
  relationCount,
  restoredSnapshot,
  restoreTables,
  type RestoredSnapshot,
  type RestoreTimes,
} from '../../db/schema/snapshot.ts';
import { topKeyBlock } from '../../db/queries/blocks.ts';
import { nodeChains } from '../../node/chain-identity.ts';
import {
  MANIFEST_FILE,
  parseManifest,
  sampleHeights,
  snapshotRefusal,
  type SnapshotManifest,
  type SnapshotPart,
} from './snapshot-manifest.ts';
import { verifyChain } from './verify.ts';

/** What an import compares with the node: heights besides the top, and accounts' balances. */
export interface ImportSample {
  readonly heights: number;
  readonly accounts: number;
}

export interface ImportReport {
  readonly manifest: SnapshotManifest;
  /** the migrations applied after the restore: those of this binary newer than the snapshot's level */
  readonly migrated: readonly string[];
  /** the heights compared with the node, the top among them */
  readonly heightsChecked: number;
  /** the accounts whose AE balance was compared with the node's (none while the snapshot's balances were deriving) */
  readonly accountsChecked: number;
  /** the differences the comparison found (each printed through `out`); 0 for a sound import */
  readonly differences: number;
  readonly ms: { readonly verify: number; readonly restore: number; readonly check: number };
  /** where the restore's and the check's time went (ms): see ImportPhases */
  readonly phases: ImportPhases;
}

/**
 * An import's phases, in milliseconds of wall time but for `copy` and `indexes`, each summed over the restore's
 * connections (they run at once: together more than `rows`, the wall time from the first COPY to the commit).
 */
export interface ImportPhases {
  /** the migrations: to the snapshot's level before the rows, and this binary's newer ones after */
  readonly migrate: number;
  readonly copy: number;
  readonly indexes: number;
  readonly rows: number;
  readonly analyze: number;
  /** the comparison with the node: the sampled heights, and the sampled accounts' balances (at once) */
  readonly heights: number;
  readonly accounts: number;
}

/**
 * The connections a restore fills tables on at once, each table's COPY and index builds on one of them: PostgreSQL
 * works a table's COPY on one core, so one connection leaves the others idle while the largest table goes in.
 */
export const RESTORE_CONNECTIONS = 4;

/**
 * importSnapshot imports the snapshot in `dir` into `cfg.databaseSchema`, which must hold nothing (MDW_SNAPSHOT_REFUSED
 * otherwise), and prints through `out` what the comparison with the node finds. Refusals come before anything is
 * written; a failure while restoring drops the schema again. The tables are restored over `connections` connections.
 */
export async function importSnapshot(
  deps: { cfg: Config; log: Logger; out: (line: string) => void },
  dir: string,
  sample: ImportSample,
  connections = RESTORE_CONNECTIONS,
): Promise<ImportReport> {
  const { cfg, log, out } = deps;
  const schema = cfg.databaseSchema;
  const text = await readManifest(dir);
  const manifest = parseManifest(text, dir);
  const snapshot = { manifestSha256: createHash('sha256').update(text).digest('hex'), top: manifest.top };
  const [node] = await nodeChains(cfg.nodeUrls, { timeoutMs: cfg.nodeTimeoutMs, wait: false, attempts: 1 }, log);
  if (node === undefined)
    throw new AppError(ErrorCode.NODE_UNREACHABLE, 502, `no node of ${cfg.nodeUrls.join(', ')} answered`);
  const refusal = snapshotRefusal(manifest, node, migrationNames(), VERSION);
  if (refusal) throw refusal;
  const pool = createWritePool(cfg, 'mdw-snapshot-import', log, connections);
  const target = { databaseUrl: cfg.databaseUrl, schema, configSchema: cfg.databaseConfigSchema };
  try {
    const held = await relationCount(pool, schema);
    // an import of this snapshot that restored the schema and failed comparing it (its Job runs it again) compares
    // again, while no populator went on from it; any other schema holding something is refused
    const again = held > 0 && (await holdsOnly(pool, schema, snapshot));
    if (held > 0 && !again)
      throw new AppError(
        ErrorCode.SNAPSHOT_REFUSED,
        409,
        `schema "${schema}" is not empty (${held} tables and sequences): import into a new schema (--schema), or ` +
          `drop it first (mdw migrate --drop --schema ${schema})`,
      );
    if (again) log.info({ schema, top: manifest.top.height }, 'the schema holds this snapshot: comparing it again');
    const filled = again
      ? await migrateOnly(target, log)
      : await fill(dir, manifest, { cfg, log, pool, connections, target });
    await recordRestored(pool, schema, snapshot);
    const started = performance.now();
    const heights = sampleHeights(manifest.top.height, sample.heights, Math.random);
    // the heights and the accounts at once: each check keeps to its own concurrency, both far within the node's
    // budget of reads (NODE_MAX_READS)
    const timed = async <T>(work: Promise<T>): Promise<[T, number]> => [await work, performance.now() - started];
    const [[verified, heightsMs], [state, accountsMs]] = await Promise.all([
      timed(verifyChain({ cfg, log, out }, { heights })),
      timed(verifyChain({ cfg, log, out }, { state: true, sample: sample.accounts, accountsOnly: true })),
    ]).catch((err: unknown) => {
      throw uncheckedImport(err, schema, manifest.top.height);
    });
    return {
      manifest,
      migrated: filled.migrated,
      heightsChecked: verified.checked,
      accountsChecked: state.state.reduce((n, c) => n + c.items, 0),
      differences: verified.differences + state.differences,
      ms: { ...filled.ms, check: performance.now() - started },
      phases: { ...filled.phases, heights: heightsMs, accounts: accountsMs },
    };
  } finally {
    await pool.end();
  }
}

/** holdsOnly says whether `schema` holds `snapshot` as an import restored it, with no block written after its top. */
async function holdsOnly(pool: Pool, schema: string, snapshot: RestoredSnapshot): Promise<boolean> {
  const restored = await restoredSnapshot(pool, schema);
  if (restored?.manifestSha256 !== snapshot.manifestSha256) return false;
  return (await topKeyBlock(pool))?.hash === snapshot.top.hash;
}

/** What filling the schema took: the migrations applied after the rows, and the phases' times (ms). */
interface Filled {
  readonly migrated: readonly string[];
  readonly ms: { readonly verify: number; readonly restore: number };
  readonly phases: Omit<ImportPhases, 'heights' | 'accounts'>;
}

/**
 * fill checks every part's SHA-256, restores the rows into the empty schema (dropping it again on a failure) and
 * migrates it on to this binary's newest.
 */
async function fill(
  dir: string,
  manifest: SnapshotManifest,
  deps: { cfg: Config; log: Logger; pool: Pool; connections: number; target: MigrateOptions },
): Promise<Filled> {
  const { cfg, log, target } = deps;
  let started = performance.now();
  await verifyParts(dir, manifest);
  const verify = performance.now() - started;
  started = performance.now();
  const restored = await restore(dir, manifest, deps).catch(async (err: unknown) => {
    // the schema was empty: it goes, for the next import to find it so
    await dropSchema(cfg.databaseUrl, cfg.databaseSchema);
    throw err;
  });
  const at = performance.now();
  const migrated = await migrate(target, log);
  return {
    migrated,
    ms: { verify, restore: performance.now() - started },
    phases: {
      migrate: restored.migrate + performance.now() - at,
      copy: restored.times.copy,
      indexes: restored.times.indexes,
      rows: restored.times.wall,
      analyze: restored.analyze,
    },
  };
}

/** migrateOnly is a schema restored by an earlier run of the import: this binary's newer migrations, if any. */
async function migrateOnly(target: MigrateOptions, log: Logger): Promise<Filled> {
  const started = performance.now();
  const migrated = await migrate(target, log);
  const none = { copy: 0, indexes: 0, rows: 0, analyze: 0 };
  return { migrated, ms: { verify: 0, restore: 0 }, phases: { migrate: performance.now() - started, ...none } };
}

/**
 * uncheckedImport is the error of an import restored whole whose comparison with the node failed (the node away or
 * too slow even after the client's retries): the schema is kept, for an hour of restore at mainnet's size must not be
 * lost to a node's bad minute, and the same import run again (a Job's retry) only compares. Its code stays the cause's,
 * so the command exits as for any node away.
 */
function uncheckedImport(err: unknown, schema: string, top: number): unknown {
  if (!(err instanceof AppError)) return err;
  return new AppError(
    err.code,
    err.status,
    `schema "${schema}" is restored and migrated (top ${top}), but comparing it with the node failed: ` +
      `${err.message}; the schema is kept: the same import run again compares it again without restoring it twice, ` +
      `\`mdw migrate --drop --schema ${schema}\` drops it`,
    { cause: err },
  );
}

/**
 * restore migrates the empty schema to the snapshot's level and fills its tables over `connections` connections
 * (restoreTables: their transactions commit together), then gathers the planner's statistics; its phases' times.
 */
async function restore(
  dir: string,
  manifest: SnapshotManifest,
  deps: { cfg: Config; log: Logger; pool: Pool; connections: number },
): Promise<{ migrate: number; times: RestoreTimes; analyze: number }> {
  const { cfg, log, pool } = deps;
  const schema = cfg.databaseSchema;
  let started = performance.now();
  await migrate(
    { databaseUrl: cfg.databaseUrl, schema, configSchema: cfg.databaseConfigSchema, only: manifest.migrations },
    log,
  );
  const migrateMs = performance.now() - started;
  const clients = await Promise.all(Array.from({ length: deps.connections }, () => pool.connect()));
  try {
    const tables = manifest.parts.map((part) => ({
      name: part.table,
      columns: part.columns,
      bytes: part.rawBytes,
      open: () => partRows(dir, part),
    }));
    const times = await restoreTables(clients, schema, tables, manifest.sequences, (table, rows) => {
      const part = manifest.parts.find((p) => p.table === table)!;
      if (rows !== part.rows)
        throw corrupt(`${dir}: table ${table} restored ${rows} rows, the manifest says ${part.rows}`);
      log.info({ table, rows }, 'table imported');
    });
    started = performance.now();
    await analyzeTables(clients, schema, tables);
    return { migrate: migrateMs, times, analyze: performance.now() - started };
  } finally {
    for (const client of clients) client.release();
  }
}

async function readManifest(dir: string): Promise<string> {
  try {
    return await readFile(join(dir, MANIFEST_FILE), 'utf8');
  } catch (err) {
    throw corrupt(`${dir}: no ${MANIFEST_FILE} (${(err as Error).message}): not a snapshot, or one not written whole`);
  }
}

/** verifyParts reads every part once, refusing (MDW_SNAPSHOT_CORRUPT) one that is missing or whose SHA-256 differs. */
async function verifyParts(dir: string, manifest: SnapshotManifest): Promise<void> {
  const whole = createHash('sha256');
  for (const part of manifest.parts) {
    const hash = createHash('sha256');
    try {
      for await (const chunk of createReadStream(join(dir, part.file))) {
        hash.update(chunk as Buffer);
        whole.update(chunk as Buffer);
      }
    } catch (err) {
      throw corrupt(`${dir}: part ${part.file} cannot be read (${(err as Error).message})`);
    }
    const sha256 = hash.digest('hex');
    if (sha256 !== part.sha256)
      throw corrupt(`${dir}: part ${part.file} has SHA-256 ${sha256}, the manifest says ${part.sha256}: it is damaged`);
  }
  const sha256 = whole.digest('hex');
  if (sha256 !== manifest.sha256)
    throw corrupt(`${dir}: the parts together have SHA-256 ${sha256}, the manifest says ${manifest.sha256}`);
}

/** partRows is a part's rows in COPY's text format, decompressed as they are read. */
function partRows(dir: string, part: SnapshotPart): Readable {
  const rows = createZstdDecompress();
  // a read or decompression failure ends `rows` with it, which fails the table's COPY and so the restore
  pipeline(createReadStream(join(dir, part.file)), rows).catch((err: unknown) => rows.destroy(err as Error));
  return rows;
}

function corrupt(message: string): AppError {
  return new AppError(ErrorCode.SNAPSHOT_CORRUPT, 500, message);
}
