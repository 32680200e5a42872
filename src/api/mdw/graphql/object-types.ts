/**
 * @module ae_mdw's GraphQL pages (`{data, prevCursor, nextCursor}`) and enums over the object types generated from
 * the shape tables (shape-types.ts).
 */
import { GraphQLEnumType, GraphQLList, GraphQLObjectType, GraphQLString, type GraphQLOutputType } from 'graphql';
import type { Json } from '../../../chain/json.ts';
import { preloaded } from './batch.ts';
import { IntScalar } from './scalars.ts';
import type { GraphQLContext } from './context.ts';

/** The short names of the fields written out of tables. */
export const S = GraphQLString;
export const I = IntScalar;
export const list = (type: GraphQLOutputType): GraphQLList<GraphQLOutputType> => new GraphQLList(type);

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
