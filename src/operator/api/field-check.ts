/**
 * @module The operator's own reading of the field table (field.ts), as the API server reads the CRD generated from
 * it: structural defaulting, then every keyword and rule checked, each problem with its field path. Pure.
 */
import type { Field, FieldRule, FilledOf, TypeOf } from './field.ts';

/** Problem is one invalid field: a dotted path ("spec.server.replicas") and what is wrong with it. */
export interface Problem {
  readonly path: string;
  readonly message: string;
}

type Obj = Record<string, unknown>;

/** withDefaults fills in every `default:` of the field's schema where the value leaves it out, as the API server does. */
export function withDefaults<F extends Field>(field: F, value: TypeOf<F>): FilledOf<F>;
export function withDefaults(field: Field, value: unknown): unknown;
export function withDefaults(field: Field, value: unknown): unknown {
  const given =
    value === undefined && field.schema.default !== undefined ? structuredClone(field.schema.default) : value;
  if (Array.isArray(given) && field.items) return given.map((item) => withDefaults(field.items as Field, item));
  if (!isObj(given)) return given;
  const out: Obj = { ...given };
  for (const [key, child] of Object.entries(field.properties ?? {})) {
    const v = withDefaults(child, given[key]);
    if (v !== undefined) out[key] = v;
  }
  if (field.values) for (const [key, v] of Object.entries(given)) out[key] = withDefaults(field.values, v);
  return out;
}

/** checkField records every problem of a (defaulted) value of field at path. */
export function checkField(field: Field, value: unknown, path: string, problems: Problem[]): void {
  if (value === undefined) return;
  const before = problems.length;
  const own = ownProblem(field, value);
  if (own !== undefined) {
    problems.push({ path, message: own });
    return;
  }
  if (Array.isArray(value)) checkList(field, value, path, problems);
  else if (isObj(value) && field.schema['x-kubernetes-preserve-unknown-fields'] !== true)
    checkObject(field, value, path, problems);
  // a rule reads its node's fields: on a node with a problem already it would read nonsense
  if (problems.length > before) return;
  for (const rule of field.rules.filter((r) => !isTransition(r))) {
    if (!evaluate(rule, value, undefined)) problems.push({ path: at(rule, path), message: message(rule, value) });
  }
}

/** checkTransition records the problems of changing before into after: the rules that name oldSelf. */
export function checkTransition(
  field: Field,
  before: unknown,
  after: unknown,
  path: string,
  problems: Problem[],
): void {
  if (before === undefined || after === undefined) return;
  for (const rule of field.rules.filter(isTransition)) {
    if (!evaluate(rule, after, before)) problems.push({ path: at(rule, path), message: message(rule, after) });
  }
  if (!isObj(before) || !isObj(after)) return;
  for (const [key, child] of Object.entries(field.properties ?? {}))
    checkTransition(child, before[key], after[key], `${path}.${key}`, problems);
}

function ownProblem(field: Field, value: unknown): string | undefined {
  const s = field.schema;
  if (s['x-kubernetes-int-or-string'] === true) {
    if (typeof value === 'number') return Number.isInteger(value) ? undefined : 'must be an integer or a string';
    if (typeof value !== 'string') return 'must be an integer or a string';
    return typeof s.pattern === 'string' && !new RegExp(s.pattern).test(value) ? `must match ${s.pattern}` : undefined;
  }
  switch (s.type) {
    case 'string':
      return stringProblem(field, value);
    case 'integer': {
      if (typeof value !== 'number' || !Number.isInteger(value)) return 'must be an integer';
      const [min, max] = [s.minimum as number, s.maximum as number];
      return value < min || value > max ? `must be between ${min} and ${max}` : undefined;
    }
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'array':
      return Array.isArray(value) ? undefined : 'must be a list';
    default:
      return isObj(value) ? undefined : 'must be an object';
  }
}

function stringProblem(field: Field, value: unknown): string | undefined {
  const s = field.schema;
  if (Array.isArray(s.enum)) return s.enum.includes(value) ? undefined : `must be one of ${s.enum.join(', ')}`;
  if (typeof value !== 'string') return 'must be a string';
  if (value.length === 0 && field.allowEmpty !== true) return 'must not be empty';
  if (typeof s.maxLength === 'number' && value.length > s.maxLength) return `must be at most ${s.maxLength} characters`;
  if (typeof s.pattern === 'string' && !new RegExp(s.pattern).test(value)) return `must match ${s.pattern}`;
  return (field.check as ((v: string) => string | undefined) | undefined)?.(value);
}

function checkObject(field: Field, value: Obj, path: string, problems: Problem[]): void {
  for (const key of field.required ?? [])
    if (value[key] === undefined) problems.push({ path: `${path}.${key}`, message: 'is required' });
  for (const [key, child] of Object.entries(field.properties ?? {}))
    checkField(child, value[key], `${path}.${key}`, problems);
  if (field.values)
    for (const [key, v] of Object.entries(value)) checkField(field.values, v, `${path}.${key}`, problems);
  if (field.unknownKeys !== undefined)
    for (const key of Object.keys(value).filter((k) => !Object.hasOwn(field.properties ?? {}, k)))
      problems.push({ path: `${path}.${key}`, message: field.unknownKeys });
}

function checkList(field: Field, value: unknown[], path: string, problems: Problem[]): void {
  const { minItems, maxItems } = field.schema as { minItems?: number; maxItems?: number };
  if (minItems !== undefined && value.length < minItems)
    problems.push({ path, message: `must have at least ${minItems} item${minItems === 1 ? '' : 's'}` });
  if (maxItems !== undefined && value.length > maxItems)
    problems.push({ path, message: `must have at most ${maxItems} items` });
  value.forEach((item, i) => field.items && checkField(field.items, item, `${path}[${i}]`, problems));
  const listType = field.schema['x-kubernetes-list-type'];
  if (listType === 'set' && new Set(value.map((v) => JSON.stringify(v))).size !== value.length)
    problems.push({ path, message: 'must not repeat an item' });
  if (listType === 'map') {
    const [key = 'name'] = (field.schema['x-kubernetes-list-map-keys'] as string[] | undefined) ?? [];
    const seen = new Set<unknown>();
    value.forEach((item, i) => {
      const k = isObj(item) ? item[key] : undefined;
      if (k !== undefined && seen.has(k))
        problems.push({ path: `${path}[${i}].${key}`, message: `repeats ${String(k)}` });
      seen.add(k);
    });
  }
}

function isTransition(rule: FieldRule): boolean {
  return /\boldSelf\b/.test(rule.rule);
}

function evaluate(rule: FieldRule, self: unknown, oldSelf: unknown): boolean {
  return (rule.holds as (self: unknown, oldSelf: unknown) => boolean)(self, oldSelf);
}

function message(rule: FieldRule, self: unknown): string {
  return (rule.explain as ((self: unknown) => string) | undefined)?.(self) ?? rule.message;
}

function at(rule: FieldRule, path: string): string {
  return rule.reportAt === undefined ? path : `${path}.${rule.reportAt}`;
}

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
