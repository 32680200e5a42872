/**
 * @module `mdw snapshot export`: a synced schema written to a directory while the populator goes on writing: every
 * table read in one REPEATABLE READ snapshot (one consistent state, whatever the populator commits meanwhile), shared
 * by several connections, each table through COPY into a zstd-compressed part with its SHA-256, then the manifest (snapshot-manifest.ts) naming the
 * chain, the top block, the migration level and the version. Streams only: memory stays flat whatever the chain's size.
 */
import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants as zlib, createZstdCompress } from 'node:zlib';
import { AppError, ErrorCode } from '../../base/errors.ts';
import { largestFirst } from '../../base/workers.ts';
import type { Logger } from '../../base/log.ts';
import { VERSION } from '../../base/version.ts';
import type { Config } from '../../config/middleware.ts';
import { createReadPool, withSnapshot, type PoolClient } from '../../db/connection/pool.ts';
import { topKeyBlock } from '../../db/queries/blocks.ts';
import { schemaFacts } from '../../db/queries/schema-identity.ts';
import { STATE_TABLE } from '../../db/schema/migrator.ts';
import { CONFIG_TABLES } from '../../db/schema/shared-config.ts';
import {
  copyTableOut,
  exportedSnapshot,
  joinSnapshot,
  lockForSnapshot,
  schemaSequences,
  schemaTables,
  type SnapshotTable,
} from '../../db/schema/snapshot.ts';
import {
  MANIFEST_FILE,
  partFile,
  SNAPSHOT_FORMAT,
  type SnapshotManifest,
  type SnapshotPart,
} from './snapshot-manifest.ts';

/**
 * The tables a snapshot leaves out: the migrations' log (the import migrates to the snapshot's level itself), and the
 * users' configuration with the webhooks' deliveries, which are a deployment's own, not the chain's (API keys,
 * webhooks and their queue).
 */
const NOT_IN_SNAPSHOT: readonly string[] = [STATE_TABLE, ...CONFIG_TABLES, 'webhook_deliveries', 'snapshot_restored'];

/** zstd's level: its default, 3, compresses COPY's text about 4 to 1 at several times gzip's speed. */
const ZSTD_LEVEL = 3;

/**
 * The connections an export reads tables on at once, all in the one snapshot: PostgreSQL sends a table's COPY from one
 * core and the compression of a part runs on one of libuv's threads, so one connection leaves the other cores idle.
 */
const EXPORT_CONNECTIONS = 4;

/**
 * exportSnapshot writes the schema `cfg.databaseSchema` into `dir` (created; refused when it holds anything) and
 * returns its manifest. It needs no node: the chain's identity is the one the schema recorded.
 */
export async function exportSnapshot(deps: { cfg: Config; log: Logger }, dir: string): Promise<SnapshotManifest> {
  const { cfg, log } = deps;
  const schema = cfg.databaseSchema;
  const held = await mkdir(dir, { recursive: true })
    .then(() => readdir(dir))
    .catch((err: unknown) => {
      throw refused(`the directory ${dir} cannot be made or read: ${(err as Error).message}`);
    });
  if (held.length > 0)
    throw refused(`the directory ${dir} is not empty: give a new or empty directory for the snapshot`);
  const pool = createReadPool(cfg, 'mdw-snapshot-export', log, { max: EXPORT_CONNECTIONS });
  try {
    const manifest = await withSnapshot(pool, async (client) => {
      // the first statement takes the snapshot every later one reads
      const facts = await schemaFacts(client, schema);
      if (facts.applied.length === 0) throw refused(`schema "${schema}" is not migrated: nothing to export`);
      const tables = await schemaTables(client, schema, NOT_IN_SNAPSHOT);
      await lockForSnapshot(client, schema, tables);
      const top = await topKeyBlock(client);
      if (top === undefined) throw refused(`schema "${schema}" holds no block: nothing to export`);
      const { networkId, genesisHash } = facts.identity ?? {};
      if (!networkId || !genesisHash)
        throw refused(
          `schema "${schema}" has no recorded chain identity (network id, genesis hash): start its populator once ` +
            'with this version, which records it, then export',
        );
      const sequences = await schemaSequences(client, schema, NOT_IN_SNAPSHOT);
      const written = new Map<string, SnapshotPart>();
      const writeOne = async (reader: PoolClient, table: SnapshotTable): Promise<void> => {
        const part = await writePart(reader, schema, table, dir);
        log.info({ table: part.table, rows: part.rows, rawBytes: part.rawBytes, bytes: part.bytes }, 'table exported');
        written.set(part.table, part);
      };
      // the other connections read the snapshot this transaction took, the tables each taking the largest left
      const snapshotId = await exportedSnapshot(client);
      const others = await Promise.all(Array.from({ length: EXPORT_CONNECTIONS - 1 }, () => pool.connect()));
      try {
        await joinSnapshot(others, snapshotId, () => largestFirst([client, ...others], tables, writeOne));
      } finally {
        for (const other of others) other.release();
      }
      const parts = tables.map((t) => written.get(t.name)!);
      return {
        format: SNAPSHOT_FORMAT,
        version: VERSION,
        createdAt: new Date().toISOString(),
        schema,
        chain: { networkId, genesisHash },
        top: { height: top.height, hash: top.hash },
        migrations: [...facts.applied].sort(),
        compression: 'zstd',
        parts,
        sequences,
        sha256: await wholeSha256(dir, parts),
      } satisfies SnapshotManifest;
    });
    // the manifest last, whole or not at all: a directory without one is no snapshot
    const path = join(dir, MANIFEST_FILE);
    await writeFile(`${path}.partial`, `${JSON.stringify(manifest, null, 2)}\n`);
    await rename(`${path}.partial`, path);
    return manifest;
  } finally {
    await pool.end();
  }
}

/** writePart copies one table into its compressed file, hashing the file's bytes as they go. */
async function writePart(client: PoolClient, schema: string, table: SnapshotTable, dir: string): Promise<SnapshotPart> {
  const file = partFile(table.name);
  const raw = new Measure(undefined);
  const compressed = new Measure(createHash('sha256'));
  const copy = copyTableOut(client, schema, table);
  await pipeline(
    copy.stream,
    raw,
    createZstdCompress({ params: { [zlib.ZSTD_c_compressionLevel]: ZSTD_LEVEL } }),
    compressed,
    createWriteStream(join(dir, file)),
  );
  return {
    table: table.name,
    file,
    columns: table.columns,
    rows: copy.rows(),
    rawBytes: raw.bytes,
    bytes: compressed.bytes,
    sha256: compressed.hex(),
  };
}

/**
 * wholeSha256 is the SHA-256 of the parts' files one after another, in the manifest's order: read again once all are
 * written, as they are written at once (a second read of compressed bytes, a tenth of what the COPYs sent).
 */
async function wholeSha256(dir: string, parts: readonly SnapshotPart[]): Promise<string> {
  const whole = createHash('sha256');
  for (const part of parts)
    for await (const chunk of createReadStream(join(dir, part.file))) whole.update(chunk as Buffer);
  return whole.digest('hex');
}

/** Measure passes bytes through, counting them and feeding its hash, if any. */
class Measure extends Transform {
  bytes = 0;
  readonly #hash: Hash | undefined;

  constructor(hash: Hash | undefined) {
    super();
    this.#hash = hash;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    this.#hash?.update(chunk);
    done(null, chunk);
  }

  /** hex is the hash's digest, once every byte passed */
  hex(): string {
    return this.#hash!.digest('hex');
  }
}

function refused(message: string): AppError {
  return new AppError(ErrorCode.SNAPSHOT_REFUSED, 409, message);
}
