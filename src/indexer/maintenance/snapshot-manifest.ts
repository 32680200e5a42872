/**
 * @module A snapshot's manifest and the rules an import applies to it before touching anything, pure: what the
 * snapshot holds (chain, top block, migration level, version, one part per table with its SHA-256) as
 * docs/operations.md, "Starting from a snapshot", describes it; whether this binary and its node may import it; the
 * heights an import compares with the node.
 */
import { AppError, ErrorCode } from '../../base/errors.ts';
import type { NodeChain } from '../../node/chain-identity.ts';

/** The format this version writes and reads; another is refused. */
export const SNAPSHOT_FORMAT = 'mdw-snapshot/1';

/** The manifest's file in a snapshot's directory, written last: a directory without it is no snapshot. */
export const MANIFEST_FILE = 'manifest.json';

/** One table's rows: COPY's text format, zstd-compressed, in a file of the snapshot's directory. */
export interface SnapshotPart {
  readonly table: string;
  readonly file: string;
  readonly columns: readonly string[];
  readonly rows: number;
  /** COPY's bytes before compression */
  readonly rawBytes: number;
  /** the file's bytes */
  readonly bytes: number;
  /** SHA-256 of the file, hex */
  readonly sha256: string;
}

export interface SnapshotManifest {
  readonly format: typeof SNAPSHOT_FORMAT;
  /** the mdw version that exported it */
  readonly version: string;
  readonly createdAt: string;
  /** the schema it was exported from */
  readonly schema: string;
  readonly chain: { readonly networkId: string; readonly genesisHash: string };
  /** its highest key block */
  readonly top: { readonly height: number; readonly hash: string };
  /** the migrations the schema had applied, sorted: its level is the last */
  readonly migrations: readonly string[];
  readonly compression: 'zstd';
  readonly parts: readonly SnapshotPart[];
  /** the sequences' state (bigints as text) */
  readonly sequences: readonly { readonly name: string; readonly value: string; readonly called: boolean }[];
  /** SHA-256 of the whole: the parts' files one after another, in the order listed */
  readonly sha256: string;
}

/** partFile is the file of a table's rows. Pure. */
export function partFile(table: string): string {
  return `${table}.copy.zst`;
}

/** parseManifest reads a manifest's text, refusing (MDW_SNAPSHOT_CORRUPT) one this version does not read. */
export function parseManifest(text: string, where: string): SnapshotManifest {
  let m: Partial<SnapshotManifest>;
  try {
    m = JSON.parse(text) as Partial<SnapshotManifest>;
  } catch (err) {
    throw corrupt(`${where}: the manifest is not JSON (${(err as Error).message})`);
  }
  if (m?.format !== SNAPSHOT_FORMAT)
    throw corrupt(`${where}: the manifest's format is ${String(m?.format)}, not ${SNAPSHOT_FORMAT} (this version's)`);
  const wellFormed =
    typeof m.chain?.networkId === 'string' &&
    typeof m.chain.genesisHash === 'string' &&
    Number.isSafeInteger(m.top?.height) &&
    typeof m.top?.hash === 'string' &&
    Array.isArray(m.migrations) &&
    m.migrations.length > 0 &&
    Array.isArray(m.parts) &&
    m.parts.every(
      (p) =>
        typeof p.table === 'string' &&
        p.file === partFile(p.table) &&
        Array.isArray(p.columns) &&
        Number.isSafeInteger(p.rows) &&
        /^[0-9a-f]{64}$/.test(p.sha256),
    ) &&
    Array.isArray(m.sequences) &&
    m.compression === 'zstd' &&
    /^[0-9a-f]{64}$/.test(m.sha256 ?? '');
  if (!wellFormed) throw corrupt(`${where}: the manifest lacks a field or holds one of a wrong type`);
  return m as SnapshotManifest;
}

/**
 * snapshotRefusal is why this binary, whose migrations are `known` and whose node serves `node`, must not import the
 * snapshot (an AppError naming both sides), or undefined: the snapshot is of another network or genesis
 * (MDW_CHAIN_IDENTITY_MISMATCH), or applied a migration this binary does not ship (MDW_DB_SCHEMA_NEWER). Pure.
 */
export function snapshotRefusal(
  manifest: SnapshotManifest,
  node: NodeChain,
  known: readonly string[],
  version: string,
): AppError | undefined {
  const { chain } = manifest;
  if (chain.networkId !== node.networkId || chain.genesisHash !== node.genesisHash)
    return new AppError(
      ErrorCode.CHAIN_IDENTITY_MISMATCH,
      409,
      `the snapshot holds network ${chain.networkId} (genesis ${chain.genesisHash}), but node ${node.url} serves ` +
        `network ${node.networkId} (genesis ${node.genesisHash}): import a snapshot of that network, or fix NODE_URL`,
    );
  const files = new Set(known);
  const unknown = manifest.migrations.filter((name) => !files.has(name));
  if (unknown.length > 0)
    return new AppError(
      ErrorCode.DB_SCHEMA_NEWER,
      409,
      `the snapshot is at migration ${manifest.migrations.at(-1)} (mdw ${manifest.version}), newer than this ` +
        `binary (mdw ${version}), whose newest is ${[...known].sort().at(-1) ?? 'none'}: it does not know ` +
        `${unknown.join(', ')}. Import it with mdw ${manifest.version} or newer`,
    );
  return undefined;
}

/**
 * sampleHeights is the heights an import compares with the node: the top, then `count` others drawn with `random`
 * (in [0, 1)) from below it, each once (all of them on a shorter chain), ascending. Pure for a given `random`.
 */
export function sampleHeights(top: number, count: number, random: () => number): number[] {
  const drawn = new Set<number>([top]);
  const wanted = Math.min(count, top) + 1;
  while (drawn.size < wanted) drawn.add(Math.floor(random() * top));
  return [...drawn].sort((a, b) => a - b);
}

function corrupt(message: string): AppError {
  return new AppError(ErrorCode.SNAPSHOT_CORRUPT, 500, message);
}
