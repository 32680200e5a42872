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

/**
 * Field is one node of the table. Phantom types (never set): T is the TypeScript type of its value, Filled the type
 * once withDefaults filled it in, HasDefault whether the node has a `default:` of its own.
 */
export interface Field<T = unknown, Filled = T, HasDefault extends boolean = boolean> {
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
  readonly __filled?: Filled;
  readonly __hasDefault?: HasDefault;
}

/** TypeOf is the TypeScript type of a field's value. */
export type TypeOf<F> = F extends Field<infer T, unknown> ? T : never;

/** FilledOf is the TypeScript type of a field's value with its defaults filled in (field-check.ts withDefaults). */
export type FilledOf<F> = F extends Field<unknown, infer Filled> ? Filled : never;

/** Defaulted is a field with a `default:`: filled in, its value is never undefined. */
type Defaulted<T> = Field<T, T, true>;

type Common<D> = {
  doc?: string;
  default?: D;
  env?: readonly string[];
  rules?: readonly FieldRule[];
};

function leaf<T, Filled = T, HasDefault extends boolean = boolean>(
  schema: JsonSchema,
  o: Common<unknown> & { check?: Field['check']; allowEmpty?: boolean },
): Field<T, Filled, HasDefault> {
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

type StrOptions<E extends string> = Common<NoInfer<E>> & {
  pattern?: string;
  enum?: readonly E[];
  maxLength?: number;
  format?: string;
  check?: (value: string) => string | undefined;
  allowEmpty?: boolean;
};

/** str is a string field with optional pattern, enum and length bounds. */
export function str<E extends string = string>(o: StrOptions<E> & { default: NoInfer<E> }): Defaulted<E>;
export function str<E extends string = string>(o?: StrOptions<E>): Field<E, E, false>;
export function str<E extends string = string>(o: StrOptions<E> = {}): Field<E> {
  const { pattern, enum: values, maxLength, format } = o;
  const schema: JsonSchema = { type: 'string' };
  if (pattern !== undefined) schema.pattern = pattern;
  if (values !== undefined) schema.enum = [...values];
  if (maxLength !== undefined) schema.maxLength = maxLength;
  if (format !== undefined) schema.format = format;
  return leaf(schema, o as Common<unknown>);
}

type Range = { min: number; max: number };

/** int is an integer field bounded by range (inclusive); int32 when the range fits. */
export function int(range: Range, o: Common<number> & { default: number }): Defaulted<number>;
export function int(range: Range, o?: Common<number>): Field<number, number, false>;
export function int(range: Range, o: Common<number> = {}): Field<number> {
  const format = range.max <= 2 ** 31 - 1 ? 'int32' : 'int64';
  return leaf({ type: 'integer', format, minimum: range.min, maximum: range.max }, o);
}

/** bool is a boolean field. */
export function bool(o: Common<boolean> & { default: boolean }): Defaulted<boolean>;
export function bool(o?: Common<boolean>): Field<boolean, boolean, false>;
export function bool(o: Common<boolean> = {}): Field<boolean> {
  return leaf({ type: 'boolean' }, o);
}

/** intOrString is a Kubernetes int-or-string (a resource quantity), with an optional pattern for the string form. */
export function intOrString(
  o: Common<never> & { pattern?: string } = {},
): Field<number | string, number | string, false> {
  const schema: JsonSchema = { anyOf: [{ type: 'integer' }, { type: 'string' }] };
  if (o.pattern !== undefined) schema.pattern = o.pattern;
  schema['x-kubernetes-int-or-string'] = true;
  return leaf(schema, o);
}

type Flat<T> = T extends object ? { [K in keyof T]: T[K] } : T;
type Fields = Record<string, Field<unknown>>;
type ObjType<P extends Fields, R extends keyof P> = Flat<
  { -readonly [K in R]: TypeOf<P[K]> } & { -readonly [K in Exclude<keyof P, R>]?: TypeOf<P[K]> }
>;
/** the properties with a default of their own: filled in, they are never absent */
type DefaultedKeys<P extends Fields> = {
  [K in keyof P]: P[K] extends Field<unknown, unknown, true> ? K : never;
}[keyof P];
type FilledObj<P extends Fields, R extends keyof P> = Flat<
  { -readonly [K in R | DefaultedKeys<P>]: FilledOf<P[K]> } & {
    -readonly [K in Exclude<keyof P, R | DefaultedKeys<P>>]?: FilledOf<P[K]>;
  }
>;
type ObjOptions<R> = Common<Record<string, never>> & { required?: readonly R[]; unknownKeys?: string };

/** obj is an object field with named properties; `required` lists the mandatory ones. */
export function obj<P extends Fields, R extends keyof P & string = never>(
  properties: P,
  o: ObjOptions<R> & { default: Record<string, never> },
): Field<ObjType<P, R>, FilledObj<P, R>, true>;
export function obj<P extends Fields, R extends keyof P & string = never>(
  properties: P,
  o?: ObjOptions<R>,
): Field<ObjType<P, R>, FilledObj<P, R>, false>;
export function obj<P extends Fields, R extends keyof P & string = never>(
  properties: P,
  o: ObjOptions<R> = {},
): Field<ObjType<P, R>, FilledObj<P, R>> {
  const { required, unknownKeys } = o;
  return {
    ...leaf<ObjType<P, R>, FilledObj<P, R>>({ type: 'object' }, o),
    properties,
    ...(required && required.length > 0 ? { required } : {}),
    unknownKeys,
  };
}

/** map is an object field with free keys, all values of one field. */
export function map<T, F>(
  values: Field<T, F>,
  o: Common<never> = {},
): Field<Record<string, T>, Record<string, F>, false> {
  return { ...leaf<Record<string, T>, Record<string, F>, false>({ type: 'object' }, o), values };
}

/** arr is a list field; listType `set` forbids duplicates, `map` keys items by mapKeys. */
export function arr<T, F>(
  items: Field<T, F>,
  o: Common<never> & { min?: number; max: number; listType?: 'atomic' | 'set' | 'map'; mapKeys?: readonly string[] },
): Field<T[], F[], false> {
  const schema: JsonSchema = { type: 'array', maxItems: o.max };
  if (o.min !== undefined) schema.minItems = o.min;
  if (o.listType) schema['x-kubernetes-list-type'] = o.listType;
  if (o.mapKeys) schema['x-kubernetes-list-map-keys'] = [...o.mapKeys];
  return { ...leaf<T[], F[], false>(schema, o), items };
}

/** opaque is an object the schema keeps whole (a core/v1 type such as Affinity): the API server checks it in the pod. */
export function opaque<T>(o: Common<never> = {}): Field<T, T, false> {
  return leaf({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, o);
}

/** typed gives a field the TypeScript type of the Kubernetes type it spells (V1EnvVar, V1ResourceRequirements, …). */
export function typed<T>(field: Field<unknown>): Field<T, T, false> {
  return field as Field<T, T, false>;
}

/** documented is field with its description set (or replaced). */
export function documented<F extends Field>(field: F, doc: string): F {
  return { ...field, doc };
}

/** fieldsWithEnv lists every variable a field sets, with the field's dotted path (FORK_WINDOW → `spec.forkWindow`). */
export function fieldsWithEnv(field: Field, path: string): { path: string; env: string }[] {
  const own = (field.env ?? []).map((env) => ({ path, env }));
  const children = Object.entries(field.properties ?? {}).flatMap(([k, f]) => fieldsWithEnv(f, `${path}.${k}`));
  return [...own, ...children];
}
