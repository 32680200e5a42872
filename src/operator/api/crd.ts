/** @module The Middleware CRD (apiextensions.k8s.io/v1): the spec from the field table (spec-fields.ts), the status, columns. */
import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import type { KubeObject } from '../kube/client.ts';
import { APP_NAME, LABEL_COMPONENT, LABEL_NAME, LABEL_PART_OF } from './labels.ts';
import { FIELD_DOCS } from './field-docs.ts';
import { fieldSchema } from './field-schema.ts';
import { arr, int, obj, str } from './crd-schema.ts';
import type { JsonSchema } from './crd-schema.ts';
import {
  ConditionStatus,
  ConditionType,
  GROUP,
  NAMES,
  Phase,
  ReloadState,
  RestoreState,
  SpaceCheckResult,
  VERSION,
} from './middleware-types.ts';
import { BOUNDS as B, PATTERNS as P } from './patterns.ts';
import { SPEC_FIELDS } from './spec-fields.ts';
import { ReloadStrategy } from './spec-values.ts';

/** CRD_NAME is `<plural>.<group>`, the CRD object's name. */
const CRD_NAME = `${NAMES.plural}.${GROUP}`;

/** CRD_FILE is where the generated CRD is checked in (relative to the repository root). */
export const CRD_FILE = `crds/${GROUP}_${NAMES.plural}.yaml`;

/** buildCrd returns the CustomResourceDefinition of Middleware with schema, subresources and printer columns. */
export function buildCrd(): V1CustomResourceDefinition & KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: CRD_NAME,
      labels: { [LABEL_NAME]: APP_NAME, [LABEL_COMPONENT]: 'crd', [LABEL_PART_OF]: APP_NAME },
    },
    spec: {
      group: GROUP,
      names: { ...NAMES, shortNames: [...NAMES.shortNames], categories: [...NAMES.categories] },
      scope: 'Namespaced',
      versions: [
        {
          name: VERSION,
          served: true,
          storage: true,
          schema: { openAPIV3Schema: middlewareOpenApiSchema() },
          subresources: {
            status: {},
            scale: {
              specReplicasPath: '.spec.server.replicas',
              statusReplicasPath: '.status.replicas',
              labelSelectorPath: '.status.selector',
            },
          },
          additionalPrinterColumns: [
            { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Available")].status' },
            { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
            {
              name: 'Active',
              type: 'integer',
              jsonPath: '.status.activeGeneration',
              description: 'Serving data generation',
            },
            { name: 'Pending', type: 'integer', jsonPath: '.status.pendingGeneration', priority: 1 },
            { name: 'Height', type: 'integer', jsonPath: '.status.height' },
            { name: 'Lag', type: 'integer', jsonPath: '.status.lag' },
            { name: 'Replicas', type: 'integer', jsonPath: '.status.readyReplicas', description: 'Ready servers' },
            {
              name: 'Reconciled',
              type: 'string',
              jsonPath: '.status.conditions[?(@.type=="Reconciled")].status',
              priority: 1,
            },
            {
              name: 'Reload',
              type: 'string',
              jsonPath: '.status.reload.state',
              description: 'State of the last requested reload',
              priority: 1,
            },
            {
              name: 'Synced',
              type: 'string',
              jsonPath: '.status.conditions[?(@.type=="Synced")].status',
              priority: 1,
            },
            {
              name: 'Paused',
              type: 'string',
              jsonPath: '.status.conditions[?(@.type=="ReconciliationPaused")].status',
              priority: 1,
            },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
        },
      ],
    },
  };
}

/** renderCrdYaml is the checked-in form of the CRD (crds/…yaml and the chart's template body). */
export function renderCrdYaml(): string {
  return stringify(buildCrd(), { lineWidth: 0, aliasDuplicateObjects: false });
}

/** middlewareOpenApiSchema is the openAPIV3Schema of the stored version (for validators and tests). */
export function middlewareOpenApiSchema(): JsonSchema {
  return withFieldDocs(rootSchema(), '');
}

/** schemaPaths lists the path of every node of a schema (`.spec.server`, `[]` items, `{}` map values). */
export function schemaPaths(node: JsonSchema, path = ''): string[] {
  return [...(path === '' ? [] : [path]), ...children(node, path).flatMap(([p, child]) => schemaPaths(child, p))];
}

/**
 * Descriptions written in the schema win; every other node takes its field's doc comment (field-docs.ts), but the
 * root's metadata, of which the API server takes nothing but `type: object` (it serves metadata's own schema there).
 */
function withFieldDocs(node: JsonSchema, path: string): JsonSchema {
  const out: JsonSchema = { ...node };
  const description = path === '.metadata' ? undefined : (node.description ?? FIELD_DOCS[path]);
  if (description !== undefined) out.description = description;
  const props = node.properties as Record<string, JsonSchema> | undefined;
  if (props !== undefined)
    out.properties = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, withFieldDocs(v, `${path}.${k}`)]));
  if (isSchema(node.items)) out.items = withFieldDocs(node.items, `${path}[]`);
  if (isSchema(node.additionalProperties))
    out.additionalProperties = withFieldDocs(node.additionalProperties, `${path}{}`);
  return out;
}

function children(node: JsonSchema, path: string): [string, JsonSchema][] {
  const props = Object.entries((node.properties ?? {}) as Record<string, JsonSchema>).map(
    ([k, v]): [string, JsonSchema] => [`${path}.${k}`, v],
  );
  const items: [string, JsonSchema][] = isSchema(node.items) ? [[`${path}[]`, node.items]] : [];
  const values: [string, JsonSchema][] = isSchema(node.additionalProperties)
    ? [[`${path}{}`, node.additionalProperties]]
    : [];
  return [...props, ...items, ...values];
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function rootSchema(): JsonSchema {
  return obj(
    {
      apiVersion: str(),
      kind: str(),
      metadata: { type: 'object' },
      spec: fieldSchema(SPEC_FIELDS),
      status: statusSchema(),
    },
    {
      description: 'Middleware runs an æternity middleware: a populator, servers and blue/green data generations.',
      required: ['spec'],
      rules: [
        {
          rule: `self.metadata.name.size() <= ${B.instanceNameLength} && self.metadata.name.matches('${P.instanceName}')`,
          message: `metadata.name must be a DNS-1035 label of at most ${B.instanceNameLength} characters (it names the Service)`,
        },
      ],
    },
  );
}

/** snapshotSource is a snapshot's source as the status records it (the spec's, checked there). */
function snapshotSource(): JsonSchema {
  return obj({
    url: str({ maxLength: B.urlLength, description: 'URL of the snapshot directory.' }),
    volume: obj(
      {
        claimName: str({ maxLength: B.resourceNameLength, description: 'PersistentVolumeClaim holding the snapshot.' }),
        path: str({ maxLength: 1024, description: 'Directory of the snapshot inside the volume.' }),
      },
      { description: 'The volume holding the snapshot.' },
    ),
  });
}

function statusSchema(): JsonSchema {
  const time = () => str({ format: 'date-time' });
  const generation = (description: string) => int({ min: 0, max: 2 ** 31 - 1 }, { description });
  const count = () => int({ min: 0, max: 2 ** 53 - 1 });
  // Lag is reported as measured: with several nodes the middleware can briefly be ahead of the one it asked.
  const lag = () => int({ min: -(2 ** 53 - 1), max: 2 ** 53 - 1 });
  return obj({
    observedGeneration: count(),
    phase: str({ enum: Object.values(Phase) }),
    conditions: arr(
      obj(
        {
          type: str({ enum: Object.values(ConditionType) }),
          status: str({ enum: Object.values(ConditionStatus) }),
          reason: str({ maxLength: 1024 }),
          message: str({ maxLength: 32768 }),
          observedGeneration: count(),
          lastTransitionTime: time(),
        },
        { required: ['type', 'status', 'reason', 'message', 'lastTransitionTime'] },
      ),
      {
        max: 16,
        listType: 'map',
        mapKeys: ['type'],
      },
    ),
    activeGeneration: generation('Data generation behind the stable Service.'),
    pendingGeneration: generation('Data generation being built behind the preview Service.'),
    previousGeneration: generation(
      'Generation switched from, running until previousExpiresAt (for a rollback, or draining after one).',
    ),
    previousExpiresAt: time(),
    height: count(),
    nodeHeight: count(),
    lag: lag(),
    replicas: count(),
    readyReplicas: count(),
    selector: str({ maxLength: 4096 }),
    schemaPrefix: str({ pattern: P.schemaPrefix, maxLength: B.schemaPrefixLength }),
    operand: obj(
      { image: str({ maxLength: 1024 }), version: str({ maxLength: 256 }), newestMigration: str({ maxLength: 256 }) },
      { required: ['image', 'version'] },
    ),
    reload: obj(
      {
        id: str({ maxLength: B.reloadIdLength }),
        strategy: str({ enum: Object.values(ReloadStrategy) }),
        generation: generation('Generation built or reloaded.'),
        state: str({ enum: Object.values(ReloadState) }),
        startedAt: time(),
        syncedSince: time(),
        height: count(),
        nodeHeight: count(),
        lag: lag(),
        completedAt: time(),
        message: str({ maxLength: 32768 }),
        fromGeneration: generation('Generation that served when the reload started.'),
        heights: str({ maxLength: B.heightsLength }),
        promotedAt: time(),
        cleanupGeneration: generation('Generation being cleaned up.'),
        outcome: str({ enum: Object.values(ReloadState) }),
        spaceCheck: obj(
          { result: str({ enum: Object.values(SpaceCheckResult) }), message: str({ maxLength: 32768 }) },
          { required: ['result', 'message'] },
        ),
        snapshot: snapshotSource(),
      },
      { required: ['id', 'strategy', 'generation', 'state'] },
    ),
    bootstrap: obj(
      {
        generation: generation('Generation restored from spec.bootstrap.snapshot.'),
        snapshot: snapshotSource(),
        state: str({ enum: Object.values(RestoreState) }),
        message: str({ maxLength: 32768 }),
        startedAt: time(),
        completedAt: time(),
      },
      { required: ['generation', 'snapshot', 'state', 'message'] },
    ),
  });
}
