/**
 * @module What the fake API server does with a custom resource whose CustomResourceDefinition it holds, after the
 * Kubernetes documentation page "Extend the Kubernetes API with CustomResourceDefinitions": pruning unknown fields
 * ("Field pruning"), defaulting ("Defaulting"), OpenAPI validation ("Validation") and CEL rules ("Validation rules",
 * evaluated by @bufbuild/cel, not reimplemented), and the subresources a CRD declares ("Subresources").
 */
import { celEnv, celError, isCelError, parse, plan } from '@bufbuild/cel';
import type { CelInput, CelResult } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { Ajv } from 'ajv';
import type { ValidateFunction } from 'ajv';
import { KubeError, describeRef } from './client.ts';
import type { KubeObject } from './client.ts';
import { canonicalJson, copyJson, isPlainObject } from './merge.ts';
import type { PlainObject } from './merge.ts';

/** Schema is one node of an openAPIV3Schema. */
type Schema = PlainObject;

/** ScaleSubresource names the fields the scale subresource reads and writes (JSON paths such as `.spec.replicas`). */
export interface ScaleSubresource {
  readonly specReplicasPath: string;
  readonly statusReplicasPath: string;
  readonly labelSelectorPath?: string;
}

/** CustomKind is a served version of a CRD: its schema and subresources. */
export class CustomKind {
  readonly kind: string;
  readonly hasStatus: boolean;
  readonly scale: ScaleSubresource | undefined;
  readonly #schema: Schema;
  readonly #validate: ValidateFunction;

  constructor(kind: string, version: PlainObject) {
    const subresources = (version.subresources ?? {}) as PlainObject;
    this.kind = kind;
    this.#schema = ((version.schema as PlainObject | undefined)?.openAPIV3Schema ?? {}) as Schema;
    this.hasStatus = subresources.status !== undefined;
    this.scale = subresources.scale as ScaleSubresource | undefined;
    this.#validate = validatorOf(this.#schema);
  }

  /**
   * admit is what the API server does to a custom resource before it stores it: prune the fields the schema does not
   * know, apply its defaults, then check it against the schema and its CEL rules (transition rules see `old`); an
   * invalid object is a 422 Invalid naming every problem. On an update, a value left as it was is not checked again
   * ("Validation ratcheting"), so a status write goes through on an object an older CRD let in.
   */
  admit(obj: KubeObject, old?: KubeObject): KubeObject {
    const out = defaulted(pruned(copyJson(obj), this.#schema, true), this.#schema) as KubeObject;
    const plain = JSON.parse(JSON.stringify(out)) as PlainObject;
    const oldPlain = old === undefined ? undefined : (JSON.parse(JSON.stringify(old)) as PlainObject);
    const unchanged = (pointer: string): boolean => {
      if (oldPlain === undefined) return false;
      const at = (o: unknown) =>
        pointer
          .split('/')
          .slice(1)
          .reduce<unknown>((v, k) => (isPlainObject(v) || Array.isArray(v) ? (v as PlainObject)[k] : undefined), o);
      return canonicalJson(at(plain)) === canonicalJson(at(oldPlain));
    };
    const problems = this.#validate(plain)
      ? []
      : (this.#validate.errors ?? [])
          .filter((e) => !unchanged(e.instancePath))
          .map((e) => `${e.instancePath.replaceAll('/', '.') || '<root>'}: ${e.message ?? ''}`);
    problems.push(...ruleProblems(this.#schema, plain, oldPlain, ''));
    if (problems.length > 0) {
      throw new KubeError(422, 'Invalid', `${describeRef(refParts(obj))} is invalid: ${problems.join('; ')}`);
    }
    return out;
  }
}

/** customKindOf reads the CustomKind a CRD serves for apiVersion, undefined when it does not serve that version. */
export function customKindOf(crd: KubeObject, apiVersion: string): CustomKind | undefined {
  const spec = (crd.spec ?? {}) as PlainObject;
  const names = (spec.names ?? {}) as PlainObject;
  const versions = (spec.versions ?? []) as PlainObject[];
  const version = versions.find((v) => `${String(spec.group)}/${String(v.name)}` === apiVersion && v.served === true);
  return version === undefined ? undefined : new CustomKind(String(names.kind), version);
}

/** readPath reads a simple JSON path (`.spec.server.replicas`) of obj. */
export function readPath(obj: unknown, path: string): unknown {
  let here = obj;
  for (const k of path.split('.').filter((s) => s !== '')) here = isPlainObject(here) ? here[k] : undefined;
  return here;
}

/** writePath sets a simple JSON path of obj, creating the maps on the way. */
export function writePath(obj: PlainObject, path: string, value: unknown): void {
  const keys = path.split('.').filter((s) => s !== '');
  let here = obj;
  for (const k of keys.slice(0, -1)) {
    if (!isPlainObject(here[k])) here[k] = {};
    here = here[k] as PlainObject;
  }
  const last = keys[keys.length - 1];
  if (last !== undefined) here[last] = value;
}

function refParts(obj: KubeObject) {
  return {
    apiVersion: obj.apiVersion,
    kind: obj.kind,
    name: obj.metadata.name ?? '',
    ...(obj.metadata.namespace === undefined ? {} : { namespace: obj.metadata.namespace }),
  };
}

/** pruned drops every field the schema does not specify (metadata of the root is the API server's own). */
function pruned(value: unknown, schema: Schema, root = false): unknown {
  if (Array.isArray(value)) {
    const items = schema.items;
    return isPlainObject(items) ? value.map((v) => pruned(v, items)) : value;
  }
  if (!isPlainObject(value) || schema['x-kubernetes-int-or-string'] === true) return value;
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  const additional = schema.additionalProperties;
  const keepUnknown = schema['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = root || schema['x-kubernetes-embedded-resource'] === true;
  const out: PlainObject = {};
  for (const [k, v] of Object.entries(value)) {
    if (embedded && (k === 'apiVersion' || k === 'kind' || k === 'metadata')) out[k] = v;
    else if (props[k] !== undefined) out[k] = pruned(v, props[k]);
    else if (isPlainObject(additional)) out[k] = pruned(v, additional);
    else if (keepUnknown || additional === true) out[k] = v;
  }
  return out;
}

/** defaulted fills absent properties that have a default, then descends (a defaulted map gets its own defaults). */
function defaulted(value: unknown, schema: Schema): unknown {
  if (Array.isArray(value)) {
    const items = schema.items;
    return isPlainObject(items) ? value.map((v) => defaulted(v, items)) : value;
  }
  if (!isPlainObject(value)) return value;
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  const out: PlainObject = { ...value };
  for (const [k, s] of Object.entries(props)) {
    if (out[k] === undefined && s.default !== undefined) out[k] = copyJson(s.default);
    if (out[k] !== undefined) out[k] = defaulted(out[k], s);
  }
  if (isPlainObject(schema.additionalProperties)) {
    for (const k of Object.keys(out)) {
      if (props[k] === undefined) out[k] = defaulted(out[k], schema.additionalProperties);
    }
  }
  return out;
}

/**
 * ruleProblems evaluates every `x-kubernetes-validations` rule where the value exists; a transition rule (one that
 * reads oldSelf) only where the old object has the value too, as on a real API server.
 */
function ruleProblems(schema: Schema, value: unknown, old: unknown, path: string): string[] {
  if (value === undefined) return [];
  const out: string[] = [];
  for (const r of (schema['x-kubernetes-validations'] ?? []) as PlainObject[]) {
    const rule = String(r.rule);
    const transition = /\boldSelf\b/.test(rule);
    if (transition && old === undefined) continue;
    if (!transition && old !== undefined && canonicalJson(old) === canonicalJson(value)) continue; // ratcheting
    const result = evaluate(rule, {
      self: toCel(value, schema),
      ...(transition ? { oldSelf: toCel(old, schema) } : {}),
    });
    if (result !== true) {
      const why = isCelError(result) ? `${rule}: ${result.message}` : String(r.message ?? `failed rule: ${rule}`);
      out.push(`${path === '' ? '<root>' : path}: Invalid value: ${why}`);
    }
  }
  if (isPlainObject(value)) {
    const props = (schema.properties ?? {}) as Record<string, Schema>;
    const oldMap = isPlainObject(old) ? old : {};
    for (const [k, s] of Object.entries(props)) out.push(...ruleProblems(s, value[k], oldMap[k], `${path}.${k}`));
  }
  if (Array.isArray(value) && isPlainObject(schema.items)) {
    const items = schema.items;
    // an item is correlated with an equal old item only (enough for ratcheting: unchanged items pass)
    const olds = new Set((Array.isArray(old) ? old : []).map((o) => canonicalJson(o)));
    value.forEach((v, i) =>
      out.push(...ruleProblems(items, v, olds.has(canonicalJson(v)) ? v : undefined, `${path}[${i}]`)),
    );
  }
  return out;
}

/** CEL_ENV: the standard library and the strings extension, as the Kubernetes CEL environment has them. */
const CEL_ENV = celEnv({ funcs: strings });
const PLANS = new Map<string, (bindings: Record<string, CelInput>) => CelResult>();

/** evaluate runs a rule, planned once per rule text; a rule that does not parse is an error result. */
function evaluate(rule: string, bindings: Record<string, CelInput>): CelResult {
  try {
    let planned = PLANS.get(rule);
    if (planned === undefined) {
      planned = plan(CEL_ENV, parse(rule)) as (bindings: Record<string, CelInput>) => CelResult;
      PLANS.set(rule, planned);
    }
    return planned(bindings);
  } catch (err) {
    return celError(err as Error);
  }
}

/** toCel converts JSON to CEL values by the schema: objects are maps, integers are CEL ints (bigint). */
function toCel(value: unknown, schema: Schema | undefined): CelInput {
  if (Array.isArray(value)) {
    const items = isPlainObject(schema?.items) ? schema.items : undefined;
    return value.map((v) => toCel(v, items));
  }
  if (isPlainObject(value)) {
    const props = (schema?.properties ?? {}) as Record<string, Schema>;
    const additional = isPlainObject(schema?.additionalProperties) ? schema.additionalProperties : undefined;
    return new Map(Object.entries(value).map(([k, v]) => [k, toCel(v, props[k] ?? additional)]));
  }
  if (typeof value === 'number' && schema?.type !== 'number' && Number.isInteger(value)) return BigInt(value);
  return value as CelInput;
}

/** VALIDATORS: compiled schemas by their text (compiling is the slow part; every fake of a test run shares them). */
const VALIDATORS = new Map<string, ValidateFunction>();

function validatorOf(schema: Schema): ValidateFunction {
  const text = canonicalJson(schema);
  const known = VALIDATORS.get(text);
  if (known !== undefined) return known;
  // strict: false lets the x-kubernetes-* keywords through; the formats are the ones Kubernetes schemas use
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
  ajv.addFormat('date-time', (s: string) => !Number.isNaN(Date.parse(s)));
  const compiled = ajv.compile(schema);
  VALIDATORS.set(text, compiled);
  return compiled;
}
