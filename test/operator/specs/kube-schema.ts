/** @module Test helper: validates objects against the Kubernetes schemas (kubernetes-models) and flags unknown fields. */
import { ObjectSerializer } from '@kubernetes/client-node/dist/gen/models/ObjectSerializer.js';
import { Ajv } from 'ajv';
import type { ValidateFunction } from 'ajv';
import { canonicalJson } from '../../../src/operator/specs/hash.ts';
import { middlewareOpenApiSchema } from '../../../src/operator/api/crd.ts';
import { stripKubernetesExtensions } from '../../../src/operator/api/crd-schema.ts';
import { API_VERSION, KIND } from '../../../src/operator/api/middleware-types.ts';

type Obj = { apiVersion?: unknown; kind?: unknown; [k: string]: unknown };
type ModelClass = new (data: unknown) => { validate(): void };

/**
 * kubeSchemaProblems returns why obj is not a valid Kubernetes object of its apiVersion/kind ([] when valid):
 * JSON-schema errors from kubernetes-models (like kubeconform), fields the Kubernetes types do not know
 * (like kubeconform -strict), and for a Middleware the CRD's own schema (ajv).
 */
export async function kubeSchemaProblems(obj: Obj): Promise<string[]> {
  const apiVersion = String(obj.apiVersion);
  const kind = String(obj.kind);
  if (apiVersion === API_VERSION && kind === KIND) return middlewareSchemaProblems(obj);
  const problems: string[] = [];
  const Model = await modelClass(apiVersion, kind);
  try {
    new Model(obj).validate();
  } catch (err) {
    problems.push(`${kind}: ${(err as Error).message}`);
  }
  const typeName = serializerType(apiVersion, kind);
  if (typeName !== undefined) {
    // A round trip through the client's typed models keeps exactly the fields the Kubernetes types declare.
    const known = ObjectSerializer.serialize(ObjectSerializer.deserialize(obj, typeName, ''), typeName, '') as unknown;
    for (const path of droppedPaths(obj, known, '')) problems.push(`${kind}: unknown field ${path}`);
  }
  return problems;
}

let middlewareValidator: ValidateFunction | undefined;

/** middlewareSchemaProblems validates a Middleware against the generated CRD schema (CEL rules are not evaluated). */
export function middlewareSchemaProblems(obj: unknown): string[] {
  if (!middlewareValidator) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31 });
    ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
    ajv.addFormat('date-time', (s: string) => !Number.isNaN(Date.parse(s)));
    middlewareValidator = ajv.compile(stripKubernetesExtensions(middlewareOpenApiSchema()) as object);
  }
  if (middlewareValidator(obj)) return [];
  return (middlewareValidator.errors ?? []).map((e) => `Middleware: ${e.instancePath || '/'} ${e.message ?? ''}`);
}

async function modelClass(apiVersion: string, kind: string): Promise<ModelClass> {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const module =
    group === 'monitoring.coreos.com'
      ? `@kubernetes-models/prometheus-operator/${group}/${version}/${kind}`
      : `kubernetes-models/${group === '' ? '' : `${group}/`}${version}/${kind}`;
  const loaded = (await import(module)) as Record<string, ModelClass>;
  const Model = loaded[kind];
  if (!Model) throw new Error(`no schema for ${apiVersion} ${kind}`);
  return Model;
}

function serializerType(apiVersion: string, kind: string): string | undefined {
  const version = apiVersion.split('/').pop() ?? '';
  const name = `${version.charAt(0).toUpperCase()}${version.slice(1)}${kind}`;
  // The client's serializer drops fields its type does not declare, and passes unknown type names (ServiceMonitor) through.
  const probe = ObjectSerializer.serialize({ probeField: 1 }, name, '') as Record<string, unknown>;
  return probe.probeField === undefined ? name : undefined;
}

function droppedPaths(original: unknown, kept: unknown, path: string): string[] {
  if (Array.isArray(original)) {
    return original.flatMap((item, i) =>
      droppedPaths(item, Array.isArray(kept) ? kept[i] : undefined, `${path}[${i}]`),
    );
  }
  if (typeof original !== 'object' || original === null) return [];
  if (typeof kept !== 'object' || kept === null) return [path];
  const out: string[] = [];
  for (const [key, value] of Object.entries(original)) {
    if (value === undefined) continue;
    const next = (kept as Record<string, unknown>)[key];
    if (next === undefined) out.push(`${path}.${key}`);
    else if (canonicalJson(next) !== canonicalJson(value)) out.push(...droppedPaths(value, next, `${path}.${key}`));
  }
  return out;
}
