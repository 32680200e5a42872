/** @module Tiny builders for structural OpenAPI v3 schemas (the vocabulary of the generated CRD). Pure. */

/** JsonSchema is one node of an OpenAPI v3 (structural) schema, Kubernetes extensions included. */
export type JsonSchema = { [key: string]: unknown };

/** Rule is one CEL `x-kubernetes-validations` entry. */
export interface Rule {
  readonly rule: string;
  readonly message: string;
  /** a CEL expression whose string replaces message (the value that failed named in it) */
  readonly messageExpression?: string;
  readonly fieldPath?: string;
}

type Common = { description?: string; default?: unknown; rules?: readonly Rule[] };

/** str is a string schema with optional pattern, enum and length bounds. */
export function str(
  o: Common & {
    pattern?: string;
    enum?: readonly string[];
    maxLength?: number;
    minLength?: number;
    format?: string;
  } = {},
): JsonSchema {
  const { rules, ...rest } = o;
  return withRules({ type: 'string', ...rest, ...(rest.enum ? { enum: [...rest.enum] } : {}) }, rules);
}

/** int is an integer schema bounded by range (inclusive). */
export function int(range: { min: number; max: number }, o: Common = {}): JsonSchema {
  const { rules, ...rest } = o;
  const format = range.max <= 2 ** 31 - 1 ? 'int32' : 'int64';
  return withRules({ type: 'integer', format, minimum: range.min, maximum: range.max, ...rest }, rules);
}

/** obj is an object schema with named properties; `required` lists the mandatory ones. */
export function obj(
  properties: Record<string, JsonSchema>,
  o: Common & { required?: readonly string[] } = {},
): JsonSchema {
  const { rules, required, ...rest } = o;
  const schema: JsonSchema = { type: 'object', ...rest, properties };
  if (required && required.length > 0) schema.required = [...required];
  return withRules(schema, rules);
}

/** arr is a list schema; listType `set` forbids duplicates, `map` keys items by mapKeys. */
export function arr(
  items: JsonSchema,
  o: Common & { min?: number; max: number; listType?: 'atomic' | 'set' | 'map'; mapKeys?: readonly string[] },
): JsonSchema {
  const { rules, min, max, listType, mapKeys, ...rest } = o;
  const schema: JsonSchema = { type: 'array', ...rest, items, maxItems: max };
  if (min !== undefined) schema.minItems = min;
  if (listType) schema['x-kubernetes-list-type'] = listType;
  if (mapKeys) schema['x-kubernetes-list-map-keys'] = [...mapKeys];
  return withRules(schema, rules);
}

/** stripKubernetesExtensions removes `x-kubernetes-*` keys so a plain JSON-schema validator (ajv) accepts the schema. */
export function stripKubernetesExtensions(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(stripKubernetesExtensions);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!key.startsWith('x-kubernetes-')) out[key] = stripKubernetesExtensions(value);
  }
  return out;
}

function withRules(schema: JsonSchema, rules: readonly Rule[] | undefined): JsonSchema {
  if (rules && rules.length > 0) schema['x-kubernetes-validations'] = rules.map((r) => ({ ...r }));
  return schema;
}
