/**
 * @module Which schema prefix a Middleware's generations live under: its own by default (`<name>_g`), so that two
 * Middlewares on one database never name the same schema; `mdw_g` for those that ran before that default. Pure.
 */
import { createHash } from 'node:crypto';
import type { Middleware } from './middleware-types.ts';
import { BOUNDS } from './patterns.ts';

/** LEGACY_SCHEMA_PREFIX: every Middleware's default before the per-Middleware one; those that ran on it keep it. */
export const LEGACY_SCHEMA_PREFIX = 'mdw_g';

/** HASH_LENGTH: hex digits of the name's hash in a prefix cut to the bound. */
const HASH_LENGTH = 8;

/**
 * defaultSchemaPrefix is `<name>_g` with the name's `-` as `_` (a DNS-1035 label becomes a lower-case SQL identifier);
 * a name too long for BOUNDS.schemaPrefixLength is cut and followed by a hash of the whole name. Two default
 * prefixes never overlap: each ends in `_g`, never in a digit.
 */
export function defaultSchemaPrefix(name: string): string {
  const base = name.replaceAll('-', '_');
  const prefix = `${base}_g`;
  if (prefix.length <= BOUNDS.schemaPrefixLength) return prefix;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, HASH_LENGTH);
  return `${base.slice(0, BOUNDS.schemaPrefixLength - HASH_LENGTH - 3)}_${hash}_g`;
}

/**
 * schemaPrefixOf is the prefix the Middleware's schemas live under: spec.database.schemaPrefix when set, else the
 * one its status recorded, else `mdw_g` for a Middleware that already serves a generation without having recorded
 * one (it ran under an operator whose default that was), else its own default.
 */
export function schemaPrefixOf(mw: Middleware): string {
  const status = mw.status;
  if (mw.spec.database.schemaPrefix !== undefined) return mw.spec.database.schemaPrefix;
  if (status?.schemaPrefix !== undefined) return status.schemaPrefix;
  return status?.activeGeneration !== undefined ? LEGACY_SCHEMA_PREFIX : defaultSchemaPrefix(mw.metadata.name ?? '');
}

/**
 * schemaPrefixChange says why the spec's prefix cannot be used: its schemas live under the one the status recorded
 * (the CRD refuses an edit, but not a field removed and set again, or an object replaced); undefined when it can.
 */
export function schemaPrefixChange(mw: Middleware): string | undefined {
  const recorded = mw.status?.schemaPrefix;
  const wanted = mw.spec.database.schemaPrefix;
  if (recorded === undefined || wanted === undefined || wanted === recorded) return undefined;
  return `spec.database.schemaPrefix is ${wanted}, but this Middleware's schemas live under ${recorded}: set it back to ${recorded} (or remove it)`;
}
