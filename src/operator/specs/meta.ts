/** @module Names, labels, selectors and owner references of everything the operator creates for a Middleware. Pure. */
import { createHash } from 'node:crypto';
import type { V1ObjectMeta, V1OwnerReference } from '@kubernetes/client-node';
import type { KubeObject } from '../kube/client.ts';
import { API_VERSION, GROUP, KIND } from '../api/middleware-types.ts';
import {
  APP_NAME,
  LABEL_COMPONENT,
  LABEL_INSTANCE,
  LABEL_MANAGED_BY,
  LABEL_NAME,
  LABEL_PART_OF,
} from '../api/labels.ts';
import type { Middleware } from '../api/middleware-types.ts';
import { resolveSpec } from '../api/defaults.ts';
import { schemaPrefixOf } from '../api/schema-prefix.ts';
import type { ResolvedSpec } from '../api/defaults.ts';

// the label keys are the Middleware API's (api/labels.ts: its CRD carries them too); the builders take them from here
export { APP_NAME, LABEL_COMPONENT, LABEL_INSTANCE, LABEL_MANAGED_BY, LABEL_NAME, LABEL_PART_OF };
/** LABEL_GENERATION marks the data generation an object belongs to; the stable Service selects on it. */
export const LABEL_GENERATION = `${GROUP}/generation`;
/** LABEL_SERVICE_ROLE tells the stable Service from the preview one. */
export const LABEL_SERVICE_ROLE = `${GROUP}/service-role`;
/** ANNOTATION_INPUT_HASH holds the hash of a child's desired content; reconcile skips the write when it is unchanged. */
export const ANNOTATION_INPUT_HASH = `${GROUP}/input-hash`;

/** ANNOTATION_SCHEMA on a Job names the PostgreSQL schema it works on (for humans and clean-up). */
export const ANNOTATION_SCHEMA = `${GROUP}/schema`;

/** MANAGED_BY is the value of app.kubernetes.io/managed-by, and the operator's server-side-apply field manager. */
export const MANAGED_BY = 'mdw-operator';
/** FIELD_MANAGER is the fieldManager of every server-side apply the operator makes. */
export const FIELD_MANAGER = MANAGED_BY;

/** Component: the role a child plays, the value of app.kubernetes.io/component. */
export const Component = {
  server: 'server',
  populator: 'populator',
  migration: 'migration',
  reload: 'reload',
  restore: 'restore',
  dropSchema: 'drop-schema',
  databaseUsage: 'db-usage',
} as const;
export type Component = (typeof Component)[keyof typeof Component];

/** MAX_NAME_LENGTH: DNS-1123/1035 labels (Services, label values, Job names) are at most 63 characters. */
const MAX_NAME_LENGTH = 63;

/** BuildContext is everything the builders need besides the generation: the object, its resolved spec, the image. */
export interface BuildContext {
  readonly mw: Middleware;
  readonly spec: ResolvedSpec;
  /** spec.image, or the operator's own image when unset (resolved by the caller from its config). */
  readonly image: string;
}

/** createBuildContext resolves the spec's defaults and the image (spec.image, else the operator's default image). */
export function createBuildContext(mw: Middleware, defaultImage: string): BuildContext {
  const spec = resolveSpec(mw.spec, schemaPrefixOf(mw));
  return { mw, spec, image: spec.image ?? defaultImage };
}

/** Built is a builder's result: a typed Kubernetes object that is also a KubeObject for the port. */
export type Built<T> = T & KubeObject;

/** boundedName joins parts with '-' and, when longer than max, cuts it and appends a hash of the full name. */
export function boundedName(parts: readonly (string | number)[], max = MAX_NAME_LENGTH): string {
  const full = parts.join('-');
  if (full.length <= max) return full;
  const suffix = shortHash(full, 8);
  return `${full.slice(0, max - suffix.length - 1).replace(/[-.]+$/, '')}-${suffix}`;
}

/** childName names a child of the Middleware: `<name>-<part>-<part>…`, at most 63 characters. */
export function childName(mw: Middleware, ...parts: readonly (string | number)[]): string {
  return boundedName([instanceName(mw), ...parts]);
}

/** generationSuffix is the `g<N>` part of generation-scoped names. */
export function generationSuffix(generation: number): string {
  return `g${generation}`;
}

/** schemaName is the PostgreSQL schema of a data generation: `<schemaPrefix><generation>`. */
export function schemaName(spec: ResolvedSpec, generation: number): string {
  return `${spec.database.schemaPrefix}${generation}`;
}

/**
 * configSchemaName is the schema of the users' configuration (API keys, webhooks: migration 1133), shared by every
 * generation so that a blue/green reload keeps it: `<schemaPrefix>config`, which no generation's number can be.
 */
export function configSchemaName(spec: ResolvedSpec): string {
  return `${spec.database.schemaPrefix}config`;
}

/** ownerName is `<namespace>/<name>`: the Middleware as its schemas record their owner (MIDDLEWARE_NAME). */
export function ownerName(mw: Middleware): string {
  return `${mw.metadata.namespace ?? 'default'}/${instanceName(mw)}`;
}

/** writerLeaseName is the Lease the populator of a generation holds so two never write one schema. */
export function writerLeaseName(mw: Middleware, generation: number): string {
  return childName(mw, 'writer', generationSuffix(generation));
}

/** serviceAccountName is the ServiceAccount every operand pod of the Middleware runs as. */
export function serviceAccountName(mw: Middleware): string {
  return childName(mw, 'mdw');
}

/** selectorFor is the label set that identifies a component's pods (of one generation when given); never changes. */
export function selectorFor(mw: Middleware, component: Component, generation?: number): Record<string, string> {
  const selector: Record<string, string> = {
    [LABEL_NAME]: APP_NAME,
    [LABEL_INSTANCE]: labelValue(instanceName(mw)),
    [LABEL_COMPONENT]: component,
  };
  if (generation !== undefined) selector[LABEL_GENERATION] = String(generation);
  return selector;
}

/** labelsFor is selectorFor plus the descriptive labels (part-of, managed-by). */
export function labelsFor(mw: Middleware, component: Component, generation?: number): Record<string, string> {
  return { ...selectorFor(mw, component, generation), [LABEL_PART_OF]: APP_NAME, [LABEL_MANAGED_BY]: MANAGED_BY };
}

/** instanceSelector matches every object of one Middleware, whatever its component or generation. */
export function instanceSelector(mw: Middleware): Record<string, string> {
  return { [LABEL_NAME]: APP_NAME, [LABEL_INSTANCE]: labelValue(instanceName(mw)) };
}

/** instanceLabels are the labels of children that belong to the whole instance, not one component. */
export function instanceLabels(mw: Middleware): Record<string, string> {
  return { ...instanceSelector(mw), [LABEL_PART_OF]: APP_NAME, [LABEL_MANAGED_BY]: MANAGED_BY };
}

/** formatSelector renders labels as a selector string ("a=b,c=d"), e.g. for status.selector and list calls. */
export function formatSelector(labels: Readonly<Record<string, string>>): string {
  return Object.keys(labels)
    .sort()
    .map((k) => `${k}=${labels[k]}`)
    .join(',');
}

/** serverPodSelector is status.selector: the string form of the active generation's server pod labels (scale subresource). */
export function serverPodSelector(mw: Middleware, activeGeneration: number): string {
  return formatSelector(selectorFor(mw, Component.server, activeGeneration));
}

/** ownerRefTo makes the Middleware the controlling owner, so deleting it garbage-collects the child. */
function ownerRefTo(mw: Middleware): V1OwnerReference {
  return {
    apiVersion: API_VERSION,
    kind: KIND,
    name: instanceName(mw),
    uid: mw.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** childMeta is the metadata of a child: name, namespace, labels and the owner reference. */
export function childMeta(ctx: BuildContext, name: string, labels: Record<string, string>): V1ObjectMeta {
  return { name, namespace: ctx.mw.metadata.namespace, labels, ownerReferences: [ownerRefTo(ctx.mw)] };
}

/** labelValue bounds a value to the 63 characters a label allows (hash-suffixed when cut). */
export function labelValue(value: string): string {
  return boundedName([value]);
}

/** shortHash is the first `length` hex digits of sha256(text). */
function shortHash(text: string, length: number): string {
  return createHash('sha256').update(text).digest('hex').slice(0, length);
}

function instanceName(mw: Middleware): string {
  return mw.metadata.name ?? '';
}
