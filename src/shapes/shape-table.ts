/**
 * @module The vocabulary of the shape tables: one declaration of an answer's fields (its REST key, its JSON type, and
 * where the two APIs see it differently), from which the OpenAPI component (api/mdw/rest/openapi-shapes.ts) and the
 * GraphQL object type (api/mdw/graphql/shape-types.ts) are generated. Pure data: no package, so shapes/ stays pure.
 */

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

export const int: Field = { kind: 'integer' };
/** an integer that may exceed 2^53: a bare JSON integer, or a decimal string with int-as-string */
export const big: Field = { kind: 'bigint' };
export const str: Field = { kind: 'string' };
export const bool: Field = { kind: 'boolean' };
export const num: Field = { kind: 'number' };
/** any JSON object (GraphQL: `JSON`) */
export const obj: Field = { kind: 'object' };

/** id is a string with the id's prefix (`ak`, `th`, …). */
export function id(prefix: string): Field {
  return { kind: 'string', pattern: `^${prefix}_` };
}

/** nullable is a field that may be null. */
export function nullable(field: Field): Field {
  return { ...field, nullable: true };
}

/** list is an array of items (none: any JSON values). */
export function list(items?: Field): Field {
  return items ? { kind: 'array', items } : { kind: 'array' };
}

/** object is a JSON object whose fields the OpenAPI component lists (GraphQL: `JSON`). */
export function object(fields: ShapeFields, closed = false): Field {
  return closed ? { kind: 'object', fields, closed } : { kind: 'object', fields };
}

/** only declares a field in one API: the other does not list it (the REST answer may still carry it). */
export function only(where: Exclude<FieldIn, 'both'>, field: Field): Field {
  return { ...field, in: where };
}

/** optional is a field some answers leave out (a hyperchain's `validators_count` where others have `miners_count`). */
export function optional(field: Field): Field {
  return { ...field, optional: true };
}

/** asGraphQL gives a field the GraphQL type ae_mdw's schema declares where it is not the JSON type's. */
export function asGraphQL(graphql: GraphQLTypeName, field: Field): Field {
  return { ...field, graphql };
}

/** shape declares an answer. */
export function shape(names: Omit<Shape, 'fields'>, fields: ShapeFields): Shape {
  return { ...names, fields };
}

/** camelName is the GraphQL name of a REST key (`micro_block_index` → `microBlockIndex`), as Absinthe names it. */
export function camelName(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
