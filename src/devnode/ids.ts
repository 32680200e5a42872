/**
 * @module The devnode's registrar rule; the ids themselves and the node's reading of an id it refuses are the
 * chain's (src/chain/derived-ids.ts, src/chain/decode-error.ts). Pure.
 */
export { decodeErrorCode } from '../chain/decode-error.ts';
export { channelId, commitmentId, contractId, nameId as nameHash, oracleQueryId } from '../chain/derived-ids.ts';

/** LABEL is what the devnode's registrar accepts of a name's label: lower-case letters, digits and dashes. */
const LABEL = /^[a-z0-9-]{1,63}$/;

/**
 * nameValidationError gives the node's reason atom for a name it cannot register (under one of `registrars`), or
 * undefined.
 */
export function nameValidationError(name: string, registrars: readonly string[] = ['chain']): string | undefined {
  const lower = name.toLowerCase();
  const parts = lower.split('.');
  if (parts.length < 2 || parts.some((p) => p === '')) return 'no_registrar';
  if (parts.length > 2) return 'multiple_namespaces';
  if (!registrars.includes(parts[1]!)) return 'registrar_unknown';
  if (!LABEL.test(parts[0]!)) return 'invalid_name';
  return undefined;
}
