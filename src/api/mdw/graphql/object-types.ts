/**
 * @module Building ae_mdw's GraphQL object types over the REST answers: a field `fooBar` reads the REST key
 * `foo_bar` (Absinthe's naming of the same render), so a value is the REST answer's value, never computed again.
 * Pages are ae_mdw's `{data, prevCursor, nextCursor}`.
 */
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  GraphQLList,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigMap,
  type GraphQLOutputType,
} from 'graphql';
import type { Json } from '../../../chain/json.ts';
import { preloaded } from './batch.ts';
import { BigIntScalar, IntScalar, JsonScalar } from './scalars.ts';
import type { GraphQLContext, RestObject } from './context.ts';

/** The short names the type tables use. */
export const S = GraphQLString;
export const I = IntScalar;
export const B = BigIntScalar;
export const J = JsonScalar;
export const F = GraphQLFloat;
export const Bool = GraphQLBoolean;
export const list = (type: GraphQLOutputType): GraphQLList<GraphQLOutputType> => new GraphQLList(type);

/** A field of a table: its type (read from the snake_case key), or a full field config (an extension of ours). */
export type FieldSpec = GraphQLOutputType | GraphQLFieldConfig<RestObject, GraphQLContext>;

/** snakeKey is the REST key of a GraphQL field name (`microBlockIndex` → `micro_block_index`). */
export function snakeKey(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * objectType makes an object type whose fields read the REST object's keys. `keys` names a REST key that the
 * snake_case rule does not give (`last24hsTransactions` is `last_24hs_transactions`).
 */
export function objectType(
  name: string,
  fields: Readonly<Record<string, FieldSpec>>,
  keys: Readonly<Record<string, string>> = {},
): GraphQLObjectType<RestObject, GraphQLContext> {
  return new GraphQLObjectType<RestObject, GraphQLContext>({
    name,
    fields: () => {
      const config: GraphQLFieldConfigMap<RestObject, GraphQLContext> = {};
      for (const [field, spec] of Object.entries(fields)) {
        if ('type' in spec) {
          config[field] = spec;
          continue;
        }
        const key = keys[field] ?? snakeKey(field);
        config[field] = { type: spec, resolve: (source) => source[key] };
      }
      return config;
    },
  });
}

/** A page as the resolvers pass it on: the REST items and the opaque cursors of the next and previous pages. */
export interface PageValue {
  readonly data: readonly Json[];
  readonly nextCursor: string | null;
  readonly prevCursor: string | null;
}

const pages = new Map<GraphQLOutputType, GraphQLObjectType>();

/** pageOf is ae_mdw's `<Type>Page` of a type, made once per type. */
export function pageOf(item: GraphQLObjectType): GraphQLObjectType<PageValue, GraphQLContext> {
  const made = pages.get(item);
  if (made) return made as GraphQLObjectType<PageValue, GraphQLContext>;
  const page = new GraphQLObjectType<PageValue, GraphQLContext>({
    name: `${item.name}Page`,
    fields: {
      // the loaded fields the query selects of the items (a transaction's block) read first, one batch each
      data: {
        type: list(item),
        resolve: (page, _args, { loaders }, info) => preloaded(page.data, item, info, loaders),
      },
      prevCursor: { type: GraphQLString, description: 'the previous page, for `cursor` (null at the first)' },
      nextCursor: { type: GraphQLString, description: 'the next page, for `cursor` (null at the last)' },
    },
  });
  pages.set(item, page);
  return page;
}

/** enumOf is one of ae_mdw's enums: Absinthe's upper-case names, each standing for its lower-case REST value. */
export function enumOf(name: string, values: readonly string[]): GraphQLEnumType {
  return new GraphQLEnumType({
    name,
    values: Object.fromEntries(values.map((v) => [v.toUpperCase().replace(/-/g, '_'), { value: v }])),
  });
}
