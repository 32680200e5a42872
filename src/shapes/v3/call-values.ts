/**
 * @module How ae_mdw sends a contract call's stored typed values (`{type, value}`, indexer/contracts/typed-values.ts)
 * and its outcome. Its transaction renderer (format.ex `custom_encode`) passes them through `encode_raw_values`, which
 * writes a boolean as the text `"true"`/`"false"`; a ContractCallTx's `result` is what its ContractCall record holds
 * (`ok` for a call that returned or reverted, `invalid` for one that failed), `return` the typed value, `invalid` for
 * a revert; a ContractCreateTx's and a GAAttachTx's `args` are the init call's arguments typed at the top only
 * (`args_type_value`), the elements of a list, tuple, map or variant bare. Values in another form (the compiler's,
 * with COMPILER_URL) pass as they are but for the booleans. Pure.
 */
import { isJsonObject, type Json } from '../../chain/json.ts';

type Typed = { type: string; value: Json };
type Entry = { key: Json; val: Json };

const isTyped = (v: Json): v is Typed & { [key: string]: Json } =>
  isJsonObject(v) && typeof v.type === 'string' && 'value' in v;
const isEntry = (v: Json): v is Entry & { [key: string]: Json } => isJsonObject(v) && 'key' in v && 'val' in v;

/** mdwEncoded is a stored value as ae_mdw sends it: every boolean as its text. */
export function mdwEncoded(value: Json): Json {
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(mdwEncoded);
  if (isJsonObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mdwEncoded(v)]));
  return value;
}

/** A ContractCallTx's `result` and `return` as ae_mdw's ContractCall record holds them, by the call's return type. */
export function callOutcome(returnType: Json, decoded: Json): { result: Json; return: Json } {
  if (returnType === 'ok') return { result: 'ok', return: mdwEncoded(decoded) };
  // ae_mdw records a revert as an ok call returning `invalid`, and a failed one as `invalid` (its return, the node's
  // call record printed as an Erlang term, has no counterpart here)
  if (returnType === 'revert') return { result: 'ok', return: 'invalid' };
  if (returnType === 'error') return { result: 'invalid', return: null };
  return { result: null, return: mdwEncoded(decoded) };
}

/** callFields is a ContractCallTx's `arguments`, `result` and `return` as ae_mdw sends them (a call's, a call transaction's). */
export function callFields(
  returnType: Json,
  args: Json,
  decoded: Json,
): { arguments: Json; result: Json; return: Json } {
  return { arguments: mdwEncoded(args ?? []), ...callOutcome(returnType, decoded) };
}

/** A leaf value as the renderer writes it: ae_mdw's transactions encode booleans as text, a GAAttachTx's do not. */
type Leaf = (value: Json) => Json;

/**
 * topTypedArgs is an init call's arguments as ae_mdw's `args_type_value` writes them, each typed, its elements bare
 * (`element_value`): a nested list or tuple as `{type, value: {kind: value, …}}` (its elements by kind, the last of
 * a kind kept), a map's entry as `{key, val}` bare, anything else bare. Deeper values are the untouched Elixir terms
 * as `encode_raw_values` writes them: a typed value `[type, value]`, but a tuple `{"tuple": […]}` and a list
 * `{"list": […]}` (its special cases).
 */
function topTypedArgs(args: Json, leaf: Leaf): Json {
  const rawValue = (v: Json): Json => {
    if (!isTyped(v)) return rawItem(v);
    return Array.isArray(v.value) ? v.value.map(rawItem) : leaf(v.value);
  };
  const rawItem = (item: Json): Json => {
    if (isTyped(item)) {
      if (item.type === 'tuple' || item.type === 'list') return { [item.type]: rawValue(item) };
      return [item.type, rawValue(item)];
    }
    if (isEntry(item)) return { key: rawItem(item.key), val: rawItem(item.val) };
    return leaf(item);
  };
  const elementValue = (item: Json): Json => {
    if (isTyped(item)) {
      const items = item.value;
      if (Array.isArray(items) && items.length > 0 && isTyped(items[0]!))
        return {
          type: item.type,
          value: Object.fromEntries(items.map((e) => [isTyped(e) ? e.type : '', rawValue(e)])),
        };
      return rawValue(item);
    }
    if (isEntry(item)) return { key: rawValue(item.key), val: rawValue(item.val) };
    return leaf(item);
  };
  if (!Array.isArray(args)) return leaf(args ?? []);
  return args.map((arg) =>
    isTyped(arg) && Array.isArray(arg.value)
      ? { type: arg.type, value: arg.value.map(elementValue) }
      : (leaf(arg) as Json),
  );
}

/** initArgs is a ContractCreateTx's `args` (format.ex passes them through `encode_raw_values`: booleans as text). */
export function initArgs(args: Json): Json {
  return topTypedArgs(args, mdwEncoded);
}

/** gaAttachArgs is a GAAttachTx's `args`: the same form, sent as it is (ae_mdw's booleans stay booleans there). */
export function gaAttachArgs(args: Json): Json {
  return topTypedArgs(args, (value) => value);
}
