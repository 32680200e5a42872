/**
 * @module The devnode's registrar rule and the node's reading of an id it refuses; the ids themselves are the
 * chain's (src/chain/derived-ids.ts). Pure.
 */
import { isEncoded, type Prefix } from '../chain/encoding.ts';
export { channelId, commitmentId, contractId, nameId as nameHash, oracleQueryId } from '../chain/derived-ids.ts';

/** NODE_PREFIXES are the kinds the node's encoder knows (aeser_api_encoder's prefixes). */
const NODE_PREFIXES = 'ak ok ct ch nm cm oq pp sg kh mh bf bx bs th st tx cb ba ov or pi ss cs ck cv'.split(
  ' ',
) as Prefix[];

/** DecodeErrorCode is why the node's `aeser_api_encoder:safe_decode` refuses an id: the `error_code` of its 400s. */
export type DecodeErrorCode = 'invalid_prefix' | 'invalid_encoding';

/**
 * decodeErrorCode is safe_decode's error for `value` where one of `allowed` is expected, undefined when it is one:
 * a valid id of another kind is `invalid_prefix`; anything else (unknown prefix, bad checksum or size) is
 * `invalid_encoding`.
 */
export function decodeErrorCode(value: string, allowed: readonly Prefix[]): DecodeErrorCode | undefined {
  if (isEncoded(value, allowed)) return undefined;
  return isEncoded(value, NODE_PREFIXES) ? 'invalid_prefix' : 'invalid_encoding';
}

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
