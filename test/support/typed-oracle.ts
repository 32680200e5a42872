/**
 * @module Tests: a typed value as stored or as /mdw/v3 sends it (`{type, value}`, booleans as text there) turned into the value
 * aepp-calldata decodes from the same bytes without a type (its canonical form), so that the library is the oracle of
 * every value; each kind must hold a value of its own shape, or this throws.
 */
import { decode } from '@aeternity/aepp-sdk';
import type { Json } from '../../src/chain/json.ts';

const PREFIX: Readonly<Record<string, string>> = {
  address: 'ak_',
  contract: 'ct_',
  oracle: 'ok_',
  oracle_query: 'oq_',
};

const fail = (kind: string, value: Json): never => {
  throw new Error(`a ${kind} of the wrong shape: ${JSON.stringify(value, (_k, v: unknown) => String(v))}`);
};

/** canonicalOf is the canonical value of one typed value (a variant by its tag: no names without types). */
export function canonicalOf(typed: Json): unknown {
  const { type, value } = typed as { type: string; value: Json };
  switch (type) {
    case 'int':
    case 'bits':
      if (typeof value !== 'number' && typeof value !== 'bigint') return fail(type, value);
      return BigInt(value);
    case 'bool':
      // stored as a boolean, sent as its text
      if (typeof value === 'boolean') return value;
      if (value !== 'true' && value !== 'false') return fail(type, value);
      return value === 'true';
    case 'string':
      if (typeof value !== 'string') return fail(type, value);
      return value;
    case 'address':
    case 'contract':
    case 'oracle':
    case 'oracle_query':
      if (typeof value !== 'string' || !value.startsWith(PREFIX[type]!)) return fail(type, value);
      return value;
    case 'bytes':
      if (typeof value !== 'string' || !value.startsWith('ba_')) return fail(type, value);
      return new Uint8Array(decode(value as `ba_${string}`));
    case 'unit':
      if (value !== '') return fail(type, value);
      return [];
    case 'list':
    case 'tuple':
      if (!Array.isArray(value) || (type === 'tuple' && value.length === 0)) return fail(type, value);
      return value.map(canonicalOf);
    case 'map':
      if (!Array.isArray(value)) return fail(type, value);
      return new Map(
        value.map((e) => {
          const { key, val } = e as { key: Json; val: Json };
          return [canonicalOf(key), canonicalOf(val)];
        }),
      );
    case 'variant': {
      if (!Array.isArray(value) || typeof value[0] !== 'number') return fail(type, value);
      const [tag, ...args] = value;
      return { [tag]: args.map(canonicalOf) };
    }
    default:
      return fail(type, value);
  }
}

/** kindsOf lists the kinds of a typed value and of every value inside it. */
export function kindsOf(typed: Json): string[] {
  const { type, value } = typed as { type: string; value: Json };
  const inner = !Array.isArray(value)
    ? []
    : type === 'map'
      ? value.flatMap((e) => [...kindsOf((e as { key: Json }).key), ...kindsOf((e as { val: Json }).val)])
      : value.filter((v) => typeof v === 'object').flatMap(kindsOf);
  return [type, ...inner];
}
