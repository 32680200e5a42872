/** @module A height path parameter of the node's API (`/key-blocks/height/{h}`), read as its validator does. Pure. */

/** NodeHeight is the reading: the height, or the node's 400 `validation_error` kind with the data it reports. */
export type NodeHeight =
  | { readonly height: bigint }
  | { readonly error: 'wrong_type'; readonly data: string }
  | { readonly error: 'not_in_range'; readonly data: bigint };

/**
 * readNodeHeight reads `text` as aehttp_api_validate does: Erlang's binary_to_integer first (an optional sign, then
 * digits; anything else is wrong_type with the text), then the parameter's minimum, 0 for a height (not_in_range,
 * with the integer; a micro block's transaction index has minimum 1). The maximum differs between the node's two
 * specs; the caller that answers for the node checks it.
 */
export function readNodeHeight(text: string, minimum = 0n): NodeHeight {
  if (!/^[+-]?\d+$/.test(text)) return { error: 'wrong_type', data: text };
  const height = BigInt(text);
  return height < minimum ? { error: 'not_in_range', data: height } : { height };
}
