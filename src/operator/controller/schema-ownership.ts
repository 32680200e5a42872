/**
 * @module Which schemas are a Middleware's own (pure): the owner a schema records (migrations/1010), the rule for a
 * schema that records none, and the Middlewares whose schemas would collide with another's on one database.
 */
import type { Middleware } from '../api/middleware-types.ts';
import { schemaPrefixOf } from '../api/schema-prefix.ts';
import { ownerName } from '../specs/meta.ts';
import type { DatabaseReport, SchemaReport } from './database-report.ts';

/** Ownership: the Middleware's own schema, another Middleware's, or one that could be either (never touched). */
export type Ownership =
  | { readonly kind: 'own'; readonly why: string }
  | { readonly kind: 'other'; readonly owner: string }
  | { readonly kind: 'unknown'; readonly why: string };

/**
 * prefixesOverlap is true when one schema name could be a generation of both prefixes: they are equal, or one is
 * the other followed by digits (`mdw_g` and `mdw_g1` both name `mdw_g12`).
 */
export function prefixesOverlap(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return long.startsWith(short) && /^[0-9]*$/.test(long.slice(short.length));
}

/**
 * sharesDatabase is true when both read their database URL from the same key of the same Secret. The operator reads
 * no Secret, so two Secrets naming one database are told apart only by the owner each schema records.
 */
export function sharesDatabase(a: Middleware, b: Middleware): boolean {
  const x = a.spec.database.urlSecretRef;
  const y = b.spec.database.urlSecretRef;
  return a.metadata.namespace === b.metadata.namespace && x.name === y.name && x.key === y.key;
}

/** rivalsOf lists the other Middlewares (of `all`) on mw's database whose schema prefix overlaps mw's. */
export function rivalsOf(mw: Middleware, all: readonly Middleware[]): Middleware[] {
  const prefix = schemaPrefixOf(mw);
  return all.filter(
    (other) => !isSame(other, mw) && sharesDatabase(mw, other) && prefixesOverlap(prefix, schemaPrefixOf(other)),
  );
}

/**
 * collisionOf is the rival that came first (created earlier; the name breaks a tie), which keeps its schemas: mw is
 * then refused. Undefined when mw came first or has no rival.
 */
export function collisionOf(mw: Middleware, all: readonly Middleware[]): Middleware | undefined {
  return rivalsOf(mw, all)
    .filter((other) => cameFirst(other, mw))
    .sort((a, b) => (cameFirst(a, b) ? -1 : 1))[0];
}

/**
 * ownershipOf tells whose `schema` is. Recorded owner: mw's own when it is mw's uid, or mw's namespace/name with a
 * uid no live Middleware has (mw re-created, or restored from a backup); any other recorded owner's otherwise. No
 * recorded owner (a schema from before migration 1010): mw's own only when exactly one Middleware of that database,
 * mw, could have made it, i.e. no other Middleware on it has a prefix that names the schema.
 */
export function ownershipOf(schema: SchemaReport, mw: Middleware, all: readonly Middleware[]): Ownership {
  const uid = schema.owner_uid ?? null;
  if (uid !== null) {
    const owner = `${schema.owner_name ?? '?'} (uid ${uid})`;
    if (uid === mw.metadata.uid) return { kind: 'own', why: 'it records this Middleware as its owner' };
    const live = all.some((other) => other.metadata.uid === uid);
    if (!live && schema.owner_name === ownerName(mw))
      return { kind: 'own', why: `it records ${owner}, a former Middleware of this name` };
    return { kind: 'other', owner };
  }
  const makers = rivalsOf(mw, all).filter((other) => prefixesOverlap(schemaPrefixOf(other), schema.name));
  if (makers.length === 0)
    return { kind: 'own', why: 'it records no owner, and no other Middleware of this database could have made it' };
  const names = makers.map((m) => ownerName(m)).join(', ');
  return { kind: 'unknown', why: `it records no owner, and ${names} on the same database could have made it too` };
}

function cameFirst(a: Middleware, b: Middleware): boolean {
  const at = (m: Middleware) => new Date(m.metadata.creationTimestamp ?? 0).getTime() || 0;
  if (at(a) !== at(b)) return at(a) < at(b);
  return ownerName(a) < ownerName(b);
}

function isSame(a: Middleware, b: Middleware): boolean {
  return a.metadata.uid !== undefined ? a.metadata.uid === b.metadata.uid : ownerName(a) === ownerName(b);
}

/**
 * takenSchemas describes the schemas of `report` named in `names` that record another Middleware as their owner: a
 * Middleware that runs on one (the earlier operator let it adopt another's generation) must stop writing it.
 */
export function takenSchemas(
  report: DatabaseReport,
  names: readonly string[],
  mw: Middleware,
  all: readonly Middleware[],
): string[] {
  return report.schemas.flatMap((schema) => {
    if (!names.includes(schema.name)) return [];
    const ownership = ownershipOf(schema, mw, all);
    return ownership.kind === 'other' ? [`${schema.name} (owned by ${ownership.owner})`] : [];
  });
}
