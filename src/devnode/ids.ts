/**
 * @module The devnode's registrar rule; the ids themselves and the node's reading of an id it refuses are the
 * chain's (src/chain/derived-ids.ts, src/chain/decode-error.ts). Pure.
 */
export { decodeErrorCode } from '../chain/decode-error.ts';
export { channelId, commitmentId, contractId, nameId as nameHash, oracleQueryId } from '../chain/derived-ids.ts';

/** NAME_PATTERN is what the devnode's registrar accepts: one lower-case label under `.chain`. */
const NAME_PATTERN = /^[a-z0-9-]{1,63}\.chain$/;

/** nameValidationError gives the node's reason atom for a name it cannot register, or undefined. */
export function nameValidationError(name: string): string | undefined {
  const lower = name.toLowerCase();
  const parts = lower.split('.');
  if (parts.length < 2 || parts.some((p) => p === '')) return 'no_registrar';
  if (parts.length > 2) return 'multiple_namespaces';
  if (parts[1] !== 'chain') return 'registrar_unknown';
  if (!NAME_PATTERN.test(lower)) return 'invalid_name';
  return undefined;
}
