/**
 * @module The vocabulary of the shape tables: one declaration of an answer's fields (its REST key, its JSON type, and
 * where the two APIs see it differently), from which the OpenAPI component (api/mdw/rest/openapi-shapes.ts) and the
 * GraphQL object type (api/mdw/graphql/shape-types.ts) are generated, and the type of the object its renderer writes
 * (ShapeValue). Pure data: no package, so shapes/ stays pure.
 */
import type { Json } from '../chain/json.ts';

/** A GraphQL type of ae_mdw's schema that a field can have (the scalars, and lists of them). */
export type GraphQLTypeName = 'Int' | 'BigInt' | 'String' | 'Boolean' | 'Float' | 'JSON' | `[${string}]`;

/** Where a field is declared: both APIs (the default), only the OpenAPI component, or only the GraphQL type. */
export type FieldIn = 'both' | 'openapi' | 'graphql';

/** Field is one key of an answer. */
export interface Field {
  readonly kind: 'integer' | 'bigint' | 'string' | 'boolean' | 'number' | 'object' | 'array';
  readonly nullable?: boolean;
  /** a string's pattern (an id's prefix) */
  readonly pattern?: string;
  readonly enum?: readonly string[];
  /** an array's items (none: any JSON) */
  readonly items?: Field;
  /** an object's fields that the OpenAPI component lists (none: any object) */
  readonly fields?: ShapeFields;
  /** an object that allows no other keys */
  readonly closed?: boolean;
  readonly in?: FieldIn;
  /** the GraphQL type where ae_mdw's schema gives another than the JSON type's (a token id as `Int`) */
  readonly graphql?: GraphQLTypeName;
  /** the OpenAPI schema where it is not the JSON type's (a schema declared elsewhere) */
  readonly schema?: Readonly<Record<string, unknown>>;
  /** the REST key a GraphQL-only field reads (ae_mdw's `partial` is `mdw_syncing`) */
  readonly from?: string;
  /** a key some answers leave out (the OpenAPI component does not require it) */
  readonly optional?: boolean;
}

/** ShapeFields: an answer's fields by REST key, in the order the OpenAPI component lists them. */
export type ShapeFields = Readonly<Record<string, Field>>;

/** Shape is one answer: its fields, and its name in each API (none: that API has no such type). */
export interface Shape {
  /** the OpenAPI component's name */
  readonly openapi?: string;
  /** the GraphQL object type's names (ae_mdw declares some answers under several names) */
  readonly graphql?: readonly string[];
  readonly fields: ShapeFields;
  /** whether the OpenAPI component allows keys beyond its fields (ae_mdw's answers mostly do) */
  readonly closed?: boolean;
}

export const int = { kind: 'integer' } as const satisfies Field;
/** an integer that may exceed 2^53: a bare JSON integer, or a decimal string with int-as-string */
export const big = { kind: 'bigint' } as const satisfies Field;
export const str = { kind: 'string' } as const satisfies Field;
export const bool = { kind: 'boolean' } as const satisfies Field;
export const num = { kind: 'number' } as const satisfies Field;
/** any JSON object (GraphQL: `JSON`) */
export const obj = { kind: 'object' } as const satisfies Field;

/** id is a string with the id's prefix (`ak`, `th`, …). */
export function id(prefix: string): { readonly kind: 'string'; readonly pattern: string } {
  return { kind: 'string', pattern: `^${prefix}_` };
}

/** nullable is a field that may be null. */
export function nullable<F extends Field>(field: F): F & { readonly nullable: true } {
  return { ...field, nullable: true };
}

/** list is an array of items (none: any JSON values). */
export function list(items?: Field): Field & { readonly kind: 'array' } {
  return items ? { kind: 'array', items } : { kind: 'array' };
}

/** object is a JSON object whose fields the OpenAPI component lists (GraphQL: `JSON`). */
export function object(fields: ShapeFields, closed = false): Field & { readonly kind: 'object' } {
  return closed ? { kind: 'object', fields, closed } : { kind: 'object', fields };
}

/** only declares a field in one API: the other does not list it (the REST answer may still carry it). */
export function only<W extends Exclude<FieldIn, 'both'>, F extends Field>(where: W, field: F): F & { readonly in: W } {
  return { ...field, in: where };
}

/** optional is a field some answers leave out (a hyperchain's `validators_count` where others have `miners_count`). */
export function optional<F extends Field>(field: F): F & { readonly optional: true } {
  return { ...field, optional: true };
}

/** asGraphQL gives a field the GraphQL type ae_mdw's schema declares where it is not the JSON type's. */
export function asGraphQL<F extends Field>(graphql: GraphQLTypeName, field: F): F {
  return { ...field, graphql };
}

/** shape declares an answer. */
export function shape<F extends ShapeFields>(names: Omit<Shape, 'fields'>, fields: F): Shape & { readonly fields: F } {
  return { ...names, fields };
}

/** JsonOf is the value a field of a JSON type holds in a rendered object (a big integer as a bigint, or a safe number). */
type JsonOf<F extends Field> = F['kind'] extends 'integer' | 'number'
  ? number
  : F['kind'] extends 'bigint'
    ? bigint | number
    : F['kind'] extends 'string'
      ? string
      : F['kind'] extends 'boolean'
        ? boolean
        : F['kind'] extends 'array'
          ? Json[]
          : F['kind'] extends 'object'
            ? { [key: string]: Json }
            : Json;

/** ValueOf is the value a rendered object holds for a field: of its JSON type, or null where it is nullable. */
type ValueOf<F extends Field> = F extends { readonly nullable: true } ? JsonOf<F> | null : JsonOf<F>;

/** Kept is whether a field is one an answer always has (`always`) or may leave out (`optional`), by its declaration. */
type Kept<F, As extends 'always' | 'optional'> = F extends { readonly in: 'graphql' }
  ? false
  : F extends { readonly optional: true }
    ? As extends 'optional'
      ? true
      : false
    : As extends 'always'
      ? true
      : false;

/**
 * ShapeValue is the object a renderer writes for a shape: every field its OpenAPI component lists, each of its JSON
 * type (null where nullable), those it requires always. A renderer whose object is checked against it (`satisfies`)
 * cannot leave one out.
 */
export type ShapeValue<S extends { readonly fields: ShapeFields }> = {
  [K in keyof S['fields'] as Kept<S['fields'][K], 'always'> extends true ? K : never]: ValueOf<S['fields'][K]>;
} & {
  [K in keyof S['fields'] as Kept<S['fields'][K], 'optional'> extends true ? K : never]?: ValueOf<S['fields'][K]>;
};

/** camelName is the GraphQL name of a REST key (`micro_block_index` → `microBlockIndex`), as Absinthe names it. */
export function camelName(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
