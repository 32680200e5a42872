/**
 * @module The vocabulary of the field table (spec-fields.ts): one Field per CRD field, declaring its type, bounds,
 * default, CEL rules (with the same rule as a TypeScript predicate), description and the variable it sets. The CRD
 * schema (field-schema.ts), the operator's validation and defaulting (field-check.ts), the managed variables and the
 * docs' field table are all read from it. Each builder also carries the field's TypeScript type (`TypeOf`), which
 * middleware-types.ts is checked against at compile time. Pure.
 */
import type { JsonSchema, Rule } from './crd-schema.ts';

/** FieldRule is a CEL rule of the CRD and the same rule for the operator, which evaluates no CEL. */
export interface FieldRule extends Rule {
  /** holds is the rule over the defaulted value (and the old one for a transition rule, which names oldSelf). */
  readonly holds: (self: never, oldSelf: never) => boolean;
  /** explain writes the operator's message when it depends on the value (the CRD's messageExpression). */
  readonly explain?: (self: never) => string;
  /** reportAt is the child field the operator names in its problem (the field the rule is about). */
  readonly reportAt?: string;
}

/** Field is one node of the table; T is the TypeScript type of its value (phantom: never set). */
export interface Field<T = unknown> {
  /** the node's own schema keywords: type, format, pattern, bounds, enum, default, x-kubernetes-* (no children) */
  readonly schema: JsonSchema;
  readonly doc?: string | undefined;
  /** the variables of the middleware's containers this field sets (spec.*.env may not name them) */
  readonly env?: readonly string[] | undefined;
  readonly rules: readonly FieldRule[];
  readonly properties?: Readonly<Record<string, Field>>;
  readonly required?: readonly string[];
  readonly items?: Field;
  readonly values?: Field;
  /** a check the schema cannot spell (evaluated by the operator only); returns the problem or undefined */
  readonly check?: ((value: never) => string | undefined) | undefined;
  /** a message for keys the object does not declare; unset, the operator ignores them as the API server prunes them */
  readonly unknownKeys?: string | undefined;
  /** an empty string is a value (the operator refuses empty strings elsewhere: an unset field is left out) */
  readonly allowEmpty?: boolean | undefined;
  readonly __type?: T;
}

/** TypeOf is the TypeScript type of a field's value. */
export type TypeOf<F> = F extends Field<infer T> ? T : never;

type Common<D> = {
  doc?: string;
  default?: D;
  env?: readonly string[];
  rules?: readonly FieldRule[];
};

function leaf<T>(schema: JsonSchema, o: Common<unknown> & { check?: Field['check']; allowEmpty?: boolean }): Field<T> {
  const { doc, env, rules, check, allowEmpty, default: def } = o;
  return {
    schema: def === undefined ? schema : { ...schema, default: def },
    doc,
    env,
    rules: rules ?? [],
    check,
    allowEmpty,
  };
}

/** str is a string field with optional pattern, enum and length bounds. */
export function str<E extends string = string>(
  o: Common<NoInfer<E>> & {
    pattern?: string;
    enum?: readonly E[];
    maxLength?: number;
    format?: string;
    check?: (value: string) => string | undefined;
    allowEmpty?: boolean;
  } = {},
): Field<E> {
  const { pattern, enum: values, maxLength, format } = o;
  const schema: JsonSchema = { type: 'string' };
  if (pattern !== undefined) schema.pattern = pattern;
  if (values !== undefined) schema.enum = [...values];
  if (maxLength !== undefined) schema.maxLength = maxLength;
  if (format !== undefined) schema.format = format;
  return leaf(schema, o as Common<unknown>);
}

/** int is an integer field bounded by range (inclusive); int32 when the range fits. */
export function int(range: { min: number; max: number }, o: Common<number> = {}): Field<number> {
  const format = range.max <= 2 ** 31 - 1 ? 'int32' : 'int64';
  return leaf({ type: 'integer', format, minimum: range.min, maximum: range.max }, o);
}

/** bool is a boolean field. */
export function bool(o: Common<boolean> = {}): Field<boolean> {
  return leaf({ type: 'boolean' }, o);
}

/** intOrString is a Kubernetes int-or-string (a resource quantity), with an optional pattern for the string form. */
export function intOrString(o: Common<never> & { pattern?: string } = {}): Field<number | string> {
  const schema: JsonSchema = { anyOf: [{ type: 'integer' }, { type: 'string' }] };
  if (o.pattern !== undefined) schema.pattern = o.pattern;
  schema['x-kubernetes-int-or-string'] = true;
  return leaf(schema, o);
}

type Flat<T> = T extends object ? { [K in keyof T]: T[K] } : T;
type ObjType<P extends Record<string, Field<unknown>>, R extends keyof P> = Flat<
  { -readonly [K in R]: TypeOf<P[K]> } & { -readonly [K in Exclude<keyof P, R>]?: TypeOf<P[K]> }
>;

/** obj is an object field with named properties; `required` lists the mandatory ones. */
export function obj<P extends Record<string, Field<unknown>>, R extends keyof P & string = never>(
  properties: P,
  o: Common<Record<string, never>> & { required?: readonly R[]; unknownKeys?: string } = {},
): Field<ObjType<P, R>> {
  const { required, unknownKeys } = o;
  return {
    ...leaf<ObjType<P, R>>({ type: 'object' }, o),
    properties,
    ...(required && required.length > 0 ? { required } : {}),
    unknownKeys,
  };
}

/** map is an object field with free keys, all values of one field. */
export function map<T>(values: Field<T>, o: Common<never> = {}): Field<Record<string, T>> {
  return { ...leaf<Record<string, T>>({ type: 'object' }, o), values };
}

/** arr is a list field; listType `set` forbids duplicates, `map` keys items by mapKeys. */
export function arr<T>(
  items: Field<T>,
  o: Common<never> & { min?: number; max: number; listType?: 'atomic' | 'set' | 'map'; mapKeys?: readonly string[] },
): Field<T[]> {
  const schema: JsonSchema = { type: 'array', maxItems: o.max };
  if (o.min !== undefined) schema.minItems = o.min;
  if (o.listType) schema['x-kubernetes-list-type'] = o.listType;
  if (o.mapKeys) schema['x-kubernetes-list-map-keys'] = [...o.mapKeys];
  return { ...leaf<T[]>(schema, o), items };
}

/** opaque is an object the schema keeps whole (a core/v1 type such as Affinity): the API server checks it in the pod. */
export function opaque<T>(o: Common<never> = {}): Field<T> {
  return leaf({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, o);
}

/** typed gives a field the TypeScript type of the Kubernetes type it spells (V1EnvVar, V1ResourceRequirements, …). */
export function typed<T>(field: Field<unknown>): Field<T> {
  return field as Field<T>;
}

/** documented is field with its description set (or replaced). */
export function documented<T>(field: Field<T>, doc: string): Field<T> {
  return { ...field, doc };
}

/** fieldsWithEnv lists every variable a field sets, with the field's dotted path (FORK_WINDOW → `spec.forkWindow`). */
export function fieldsWithEnv(field: Field, path: string): { path: string; env: string }[] {
  const own = (field.env ?? []).map((env) => ({ path, env }));
  const children = Object.entries(field.properties ?? {}).flatMap(([k, f]) => fieldsWithEnv(f, `${path}.${k}`));
  return [...own, ...children];
}
