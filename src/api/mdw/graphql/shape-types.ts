/**
 * @module ae_mdw's GraphQL object types generated from the shape tables (src/shapes/shape-table.ts): a field
 * `fooBar` reads the REST key `foo_bar` (Absinthe's naming of the same render), so a value is the REST answer's
 * value, never computed again. Fields of ours that load or compute more are given beside the table.
 */
import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLList,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigMap,
  type GraphQLOutputType,
} from 'graphql';
import { camelName, type Field, type GraphQLTypeName, type Shape } from '../../../shapes/shape-table.ts';
import { BigIntScalar, IntScalar, JsonScalar } from './scalars.ts';
import type { GraphQLContext, RestObject } from './context.ts';

/** ExtraFields: a type's fields beyond its table, by GraphQL name (a loaded block, a count read on its own). */
export type ExtraFields = Readonly<Record<string, GraphQLFieldConfig<RestObject, GraphQLContext>>>;

const SCALARS: Readonly<Record<string, GraphQLOutputType>> = {
  Int: IntScalar,
  BigInt: BigIntScalar,
  String: GraphQLString,
  Boolean: GraphQLBoolean,
  Float: GraphQLFloat,
  JSON: JsonScalar,
};

const KIND_TYPES: Readonly<Record<Field['kind'], GraphQLTypeName>> = {
  integer: 'Int',
  bigint: 'BigInt',
  string: 'String',
  boolean: 'Boolean',
  number: 'Float',
  object: 'JSON',
  array: '[JSON]',
};

/** graphqlTypeName is a field's GraphQL type: the table's, or its JSON type's (an array of its items'). */
export function graphqlTypeName(field: Field): GraphQLTypeName {
  if (field.graphql) return field.graphql;
  if (field.kind === 'array' && field.items) return `[${graphqlTypeName(field.items)}]`;
  return KIND_TYPES[field.kind];
}

/** outputType is the GraphQL type of a name (`[Int]` a list of `Int`). */
export function outputType(name: GraphQLTypeName): GraphQLOutputType {
  if (name.startsWith('[')) return new GraphQLList(outputType(name.slice(1, -1) as GraphQLTypeName));
  const scalar = SCALARS[name];
  if (!scalar) throw new Error(`no GraphQL type ${name}`);
  return scalar;
}

/** MADE: the object types made so far, by GraphQL name, with the table each was made of. */
const MADE = new Map<string, { shape: Shape; type: GraphQLObjectType<RestObject, GraphQLContext> }>();

/**
 * shapeType is the object type of a shape, the extra fields after the table's; `name` picks one of its GraphQL names
 * where it has several (each is a type of its own). A name's type is made once: a query field names its shape here
 * and gets the same type every other field of that shape has, so no type is declared by hand; a type with fields of
 * ours is made where they are given (graphql/types-chain.ts), and asking for it again with other fields fails.
 */
export function shapeType(
  s: Shape,
  extra: ExtraFields = {},
  name?: string,
): GraphQLObjectType<RestObject, GraphQLContext> {
  const names = s.graphql ?? [];
  const chosen = name ?? (names.length === 1 ? names[0] : undefined);
  if (!chosen || !names.includes(chosen))
    throw new Error(`shape ${s.openapi ?? '?'} has no GraphQL name ${name ?? ''}`);
  const made = MADE.get(chosen);
  if (made && (made.shape !== s || Object.keys(extra).length > 0))
    throw new Error(`GraphQL type ${chosen} is made once, of one table, with its extra fields`);
  if (made) return made.type;
  const type = objectOf(chosen, s, extra);
  MADE.set(chosen, { shape: s, type });
  return type;
}

function objectOf(name: string, s: Shape, extra: ExtraFields): GraphQLObjectType<RestObject, GraphQLContext> {
  return new GraphQLObjectType<RestObject, GraphQLContext>({
    name,
    // a thunk: extra fields may name types declared after this one
    fields: () => {
      const config: GraphQLFieldConfigMap<RestObject, GraphQLContext> = {};
      for (const [key, field] of Object.entries(s.fields)) {
        if (field.in === 'openapi') continue;
        const restKey = field.from ?? key;
        config[camelName(key)] = { type: outputType(graphqlTypeName(field)), resolve: (source) => source[restKey] };
      }
      return { ...config, ...extra };
    },
  });
}
