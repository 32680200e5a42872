/**
 * @module `mdw snapshot export`: a synced schema written to a directory while the populator goes on writing: every
 * table read in one REPEATABLE READ transaction (one consistent state, whatever the populator commits meanwhile),
 * each through COPY into a zstd-compressed part with its SHA-256, then the manifest (snapshot-manifest.ts) naming the
 * chain, the top block, the migration level and the version. Streams only: memory stays flat whatever the chain's size.
 */
import { createHash, type Hash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants as zlib, createZstdCompress } from 'node:zlib';
import { AppError, ErrorCode } from '../../base/errors.ts';
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
const NOT_IN_SNAPSHOT: readonly string[] = [STATE_TABLE, ...CONFIG_TABLES, 'webhook_deliveries'];

/** zstd's level: its default, 3, compresses COPY's text about 4 to 1 at several times gzip's speed. */
const ZSTD_LEVEL = 3;

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
  const pool = createReadPool(cfg, 'mdw-snapshot-export', log, { max: 1 });
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
      const whole = createHash('sha256');
      const parts: SnapshotPart[] = [];
      for (const table of tables) {
        const part = await writePart(client, schema, table, dir, whole);
        log.info({ table: part.table, rows: part.rows, rawBytes: part.rawBytes, bytes: part.bytes }, 'table exported');
        parts.push(part);
      }
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
        sha256: whole.digest('hex'),
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

/** writePart copies one table into its compressed file, hashing the file's bytes (into `whole` too) as they go. */
async function writePart(
  client: PoolClient,
  schema: string,
  table: SnapshotTable,
  dir: string,
  whole: Hash,
): Promise<SnapshotPart> {
  const file = partFile(table.name);
  const raw = new Measure([]);
  const compressed = new Measure([createHash('sha256'), whole]);
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

/** Measure passes bytes through, counting them and feeding each of its hashes. */
class Measure extends Transform {
  bytes = 0;
  readonly #hashes: readonly Hash[];

  constructor(hashes: readonly Hash[]) {
    super();
    this.#hashes = hashes;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    for (const hash of this.#hashes) hash.update(chunk);
    done(null, chunk);
  }

  /** hex is the first hash's digest, once every byte passed */
  hex(): string {
    return this.#hashes[0]!.digest('hex');
  }
}

function refused(message: string): AppError {
  return new AppError(ErrorCode.SNAPSHOT_REFUSED, 409, message);
}
