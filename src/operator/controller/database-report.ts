/**
 * @module What the operator learns from `mdw db usage` (a Job's termination message), and the decisions it takes
 * from it: which generation a Middleware without status adopts, which number a new generation gets, and whether a
 * new generation fits in the database's volume. Pure. The operator never connects to PostgreSQL itself.
 */
import { SpaceCheckResult, type SpaceCheck } from '../api/middleware-types.ts';

/**
 * SchemaReport is one `<prefix><N>` schema as `mdw db usage` reports it. An image from before the schema identity
 * (migration 1010) reports neither its newest migration nor its owner: absent, they read as null (none recorded).
 */
export interface SchemaReport {
  readonly name: string;
  readonly generation: number;
  readonly bytes: number;
  readonly migrated: boolean;
  readonly height: number | null;
  /** Its newest applied migration. */
  readonly migration?: string | null;
  /** metadata.uid of the Middleware it records as its owner. */
  readonly owner_uid?: string | null;
  /** `<namespace>/<name>` of that Middleware. */
  readonly owner_name?: string | null;
  /** The network id of the chain it holds. */
  readonly network_id?: string | null;
}

/** DatabaseReport is the whole answer of `mdw db usage`; `version` and `newestMigration` are the image's own. */
export interface DatabaseReport {
  /** absent: the image is older than the first that reports it. */
  readonly version?: string;
  readonly newestMigration?: string | null;
  readonly databaseBytes: number;
  readonly schemas: readonly SchemaReport[];
}

/** OPTIONAL_TEXT: the schema fields an older image does not report; each is text or null. */
const OPTIONAL_TEXT = ['migration', 'owner_uid', 'owner_name', 'network_id'] as const;

/** SPACE_MARGIN: a new generation is taken to need its active one's size plus this share (indexes being built, growth). */
export const SPACE_MARGIN = 0.2;

/** parseDatabaseReport reads a termination message; a string says what is wrong with it. */
export function parseDatabaseReport(text: string): DatabaseReport | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `not JSON: ${text.slice(0, 200)}`;
  }
  const v = value as { version?: unknown; newestMigration?: unknown; databaseBytes?: unknown; schemas?: unknown };
  if (!isSize(v.databaseBytes) || !Array.isArray(v.schemas)) return 'no databaseBytes or schemas';
  if (!isOptionalText(v.version) || !isOptionalText(v.newestMigration)) return 'a malformed version or newestMigration';
  const schemas: SchemaReport[] = [];
  for (const s of v.schemas as Array<Record<string, unknown>>) {
    const { name, generation, bytes, migrated, height } = s;
    if (
      typeof name !== 'string' ||
      !Number.isSafeInteger(generation) ||
      (generation as number) < 1 ||
      !isSize(bytes) ||
      typeof migrated !== 'boolean' ||
      (height !== null && !isSize(height)) ||
      OPTIONAL_TEXT.some((key) => !isOptionalText(s[key]))
    )
      return `a malformed schema entry: ${JSON.stringify(s).slice(0, 200)}`;
    const known = Object.fromEntries(OPTIONAL_TEXT.filter((key) => key in s).map((key) => [key, s[key]]));
    schemas.push({
      name,
      generation: generation as number,
      bytes,
      migrated,
      height: height as number | null,
      ...known,
    });
  }
  return {
    ...(typeof v.version === 'string' ? { version: v.version } : {}),
    ...(v.newestMigration === undefined ? {} : { newestMigration: v.newestMigration as string | null }),
    databaseBytes: v.databaseBytes,
    schemas,
  };
}

/** Adoption is the generation a Middleware without status serves from, and the schemas it leaves alone. */
export interface Adoption {
  /** undefined: no migrated schema, start at the first generation. */
  readonly generation: number | undefined;
  readonly others: readonly SchemaReport[];
}

/**
 * adoptFromDatabase picks the generation to serve: the migrated schema with the most stored heights (the one that
 * served: a pending generation that never caught up stores fewer), the higher number on a tie. Unmigrated schemas
 * (a migration that never finished) are never adopted.
 */
export function adoptFromDatabase(report: DatabaseReport): Adoption {
  const candidates = report.schemas.filter((s) => s.migrated);
  const best = candidates.reduce<SchemaReport | undefined>(
    (a, s) =>
      a === undefined ||
      (s.height ?? -1) > (a.height ?? -1) ||
      ((s.height ?? -1) === (a.height ?? -1) && s.generation > a.generation)
        ? s
        : a,
    undefined,
  );
  return { generation: best?.generation, others: report.schemas.filter((s) => s !== best) };
}

/** freeGeneration is `candidate`, or one above every schema the database holds: a schema is never reused. */
export function freeGeneration(report: DatabaseReport, candidate: number): number {
  return Math.max(candidate, ...report.schemas.map((s) => s.generation + 1));
}

/**
 * spaceCheck tells whether a new generation fits: it is taken to need the active generation's size plus
 * SPACE_MARGIN, and the volume (capacityBytes; PostgreSQL cannot see it) holds the database's whole size already.
 */
export function spaceCheck(
  report: DatabaseReport,
  activeGeneration: number,
  capacityBytes: number | undefined,
): SpaceCheck {
  if (capacityBytes === undefined)
    return {
      result: SpaceCheckResult.Skipped,
      message: `spec.database.storageCapacity is unset, so free space cannot be known (the database holds ${formatBytes(report.databaseBytes)}): the check is skipped`,
    };
  const active = report.schemas.find((s) => s.generation === activeGeneration)?.bytes ?? 0;
  const needed = Math.ceil(active * (1 + SPACE_MARGIN));
  const free = capacityBytes - report.databaseBytes;
  const sizes = `generation ${activeGeneration} holds ${formatBytes(active)}, so the new one needs about ${formatBytes(needed)} (+${SPACE_MARGIN * 100} %); ${formatBytes(Math.max(free, 0))} of ${formatBytes(capacityBytes)} are free (the database holds ${formatBytes(report.databaseBytes)})`;
  return free >= needed
    ? { result: SpaceCheckResult.Sufficient, message: sizes }
    : { result: SpaceCheckResult.Insufficient, message: `not enough database space: ${sizes}` };
}

/** formatBytes writes a size for people: "1.5 GiB". */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

function isOptionalText(v: unknown): boolean {
  return v === undefined || v === null || typeof v === 'string';
}

function isSize(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}
