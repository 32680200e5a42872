/** @module How the node names its refusal of an id it cannot decode (the `error_code` of its 400s). Pure. */
import { isEncoded, type Prefix } from './encoding.ts';

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
