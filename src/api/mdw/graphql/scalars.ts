/**
 * @module ae_mdw's GraphQL scalars: `BigInt` as a decimal string, `JSON` passed through, and its `Int`, which (as
 * Absinthe's integer) is any integer: heights and indexes, and also times in milliseconds that no 32-bit Int holds.
 */
import { GraphQLEnumType, GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { withRawBigInts } from '../../../chain/json.ts';

/** INTEGER: a decimal integer text, as a BigInt argument may be given. */
const INTEGER = /^-?\d+$/;

/** BigIntScalar goes out as a string (no client's JSON rounds it) and is taken as an integer literal or a numeric string. */
export const BigIntScalar = new GraphQLScalarType<bigint, string>({
  name: 'BigInt',
  description: 'An integer of any size, written as a decimal string (as ae_mdw writes it).',
  serialize(value) {
    if (typeof value === 'bigint') return value.toString();
    if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
    if (typeof value === 'string' && INTEGER.test(value)) return value;
    throw new GraphQLError(`BigInt cannot represent ${String(value)}`);
  },
  parseValue: (value) => bigIntOf(value),
  parseLiteral: (ast) => bigIntOf(ast.kind === Kind.INT || ast.kind === Kind.STRING ? ast.value : undefined),
});

function bigIntOf(value: unknown): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && INTEGER.test(value)) return BigInt(value);
  throw new GraphQLError(`BigInt cannot represent ${String(value)}`);
}

/**
 * IntScalar replaces graphql-js's 32-bit Int under the same name: ae_mdw's `Int` fields hold millisecond times, and
 * an integer past 2^53 goes out with all its digits (the answer is written by the exact JSON writer). As an argument
 * it is a safe integer. A bigint goes out as raw JSON, as the JSON scalar's do: the endpoint writes the result without
 * a walk of its own over every field (stringifyRawBigInts).
 */
export const IntScalar = new GraphQLScalarType<number, unknown>({
  name: 'Int',
  description: 'An integer (ae_mdw: times in milliseconds too, beyond 32 bits).',
  serialize(value) {
    if (typeof value === 'bigint') return JSON.rawJSON(value.toString());
    if (typeof value === 'number' && Number.isInteger(value)) return value;
    throw new GraphQLError(`Int cannot represent ${String(value)}`);
  },
  parseValue: (value) => safeInteger(value),
  parseLiteral: (ast) => safeInteger(ast.kind === Kind.INT ? Number(ast.value) : undefined),
});

function safeInteger(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  throw new GraphQLError(`Int cannot represent ${String(value)}`);
}

/**
 * JsonScalar carries a JSON value of the REST answer as it is (transactions' `tx`, pointers, auctions), its bigints
 * as raw JSON (the REST answer's exact integers).
 */
export const JsonScalar = new GraphQLScalarType<unknown, unknown>({
  name: 'JSON',
  description: 'Any JSON value, as the REST answer holds it.',
  serialize: (value) => withRawBigInts(value),
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => literalValue(ast, variables ?? undefined),
});

function literalValue(ast: ValueNode, variables: Readonly<Record<string, unknown>> | undefined): unknown {
  switch (ast.kind) {
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.STRING:
    case Kind.ENUM:
      return ast.value;
    case Kind.BOOLEAN:
      return ast.value;
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return ast.values.map((v) => literalValue(v, variables));
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((f) => [f.name.value, literalValue(f.value, variables)]));
    case Kind.VARIABLE:
      return variables?.[ast.name.value];
  }
}

/** DirectionEnum: a list's walk, as the REST `direction` parameter. */
export const DirectionEnum = new GraphQLEnumType({
  name: 'Direction',
  values: { FORWARD: { value: 'forward' }, BACKWARD: { value: 'backward' } },
});
