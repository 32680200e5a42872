/** @module The Middleware CRD (apiextensions.k8s.io/v1), generated from the types' constants: the one source of truth. */
import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import type { KubeObject } from '../kube/client.ts';
import { APP_NAME, LABEL_COMPONENT, LABEL_NAME, LABEL_PART_OF } from './labels.ts';
import { SPEC_DEFAULTS as D } from './defaults.ts';
import { FIELD_DOCS } from './field-docs.ts';
import { MANAGED_ENV, MANAGED_ENV_PREFIX } from './managed-env.ts';
import { arr, bool, int, map, obj, resources, str } from './crd-schema.ts';
import type { JsonSchema } from './crd-schema.ts';
import {
  ConditionStatus,
  ConditionType,
  GROUP,
  LogLevel,
  NAMES,
  Phase,
  PullPolicy,
  ReclaimPolicy,
  ReloadState,
  ReloadStrategy,
  RootV3,
  ServiceType,
  SpaceCheckResult,
  VERSION,
} from './middleware-types.ts';
import { BOUNDS as B, PATTERNS as P } from './patterns.ts';
import {
  AUTOSCALING_BOUNDS,
  ENV_ONE_SOURCE,
  ENV_VALUE_OR_SOURCE,
  IMMUTABLE_PREFIX,
  INPLACE_NEEDS_HEIGHTS,
  PDB_EXCLUSIVE,
  READ_REPLICAS_ONE_SOURCE,
  RELOAD_NEEDS_NEW_ID,
  REPLICAS_WITHIN_AUTOSCALING,
} from './validation.ts';

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

// Descriptions written in the schema win; every other node takes its field's doc comment (field-docs.ts).
function withFieldDocs(node: JsonSchema, path: string): JsonSchema {
  const out: JsonSchema = { ...node };
  const description = node.description ?? FIELD_DOCS[path];
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
      spec: specSchema(),
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

function specSchema(): JsonSchema {
  const url = (description: string) => str({ pattern: P.httpUrl, maxLength: B.urlLength, description });
  const name = (description: string) => str({ pattern: P.resourceName, maxLength: B.resourceNameLength, description });
  return obj(
    {
      nodeUrls: arr(url('Node external API URL.'), {
        min: B.nodeUrls.min,
        max: B.nodeUrls.max,
        listType: 'set',
        description: 'Node external API URLs (port 3013); the first is the primary.',
      }),
      nodeInternalUrl: url('Node internal API URL (port 3113); forwarded by the servers when set.'),
      compilerUrl: url('Sophia compiler URL; contract calls are decoded in-process when unset.'),
      database: obj(
        {
          urlSecretRef: secretKeyRef('Secret key holding DATABASE_URL.'),
          // no default: it is the Middleware's own (<name>_g), which a schema default cannot express
          schemaPrefix: str({
            pattern: P.schemaPrefix,
            maxLength: B.schemaPrefixLength,
            description: 'Generation g lives in schema <schemaPrefix><g>; default <name>_g. Immutable.',
          }),
          storageCapacity: str({ pattern: P.byteQuantity, maxLength: 64 }),
          readReplicas: readReplicasSchema(),
        },
        {
          required: ['urlSecretRef'],
          // on the object, not the field: a field's transition rule does not see it removed
          rules: [
            {
              rule: '!has(oldSelf.schemaPrefix) || (has(self.schemaPrefix) && self.schemaPrefix == oldSelf.schemaPrefix)',
              message: IMMUTABLE_PREFIX,
            },
          ],
        },
      ),
      image: str({ maxLength: 1024, description: "Middleware image; default: the operator's own image." }),
      imagePullPolicy: str({ enum: Object.values(PullPolicy), default: D.imagePullPolicy }),
      imagePullSecrets: arr(obj({ name: name('Secret name.') }, { required: ['name'] }), {
        max: 64,
        listType: 'map',
        mapKeys: ['name'],
      }),
      server: serverSchema(),
      populator: obj(
        {
          resources: resources('Populator container resources.'),
          batchTransactions: int(B.batchTransactions, {
            description:
              'BATCH_TRANSACTIONS: a batch takes no further generation once it holds this many transactions (lower it for a small memory limit).',
          }),
          env: envSchema(),
        },
        { default: {} },
      ),
      metrics: obj(
        {
          serviceMonitor: obj(
            {
              enabled: bool({
                default: D.serviceMonitorEnabled,
                description: 'Create a monitoring.coreos.com/v1 ServiceMonitor.',
              }),
              interval: str({ pattern: P.duration, maxLength: 32, default: D.serviceMonitorInterval }),
            },
            { default: {} },
          ),
        },
        { default: {} },
      ),
      forkWindow: int(B.forkWindow, {
        default: D.forkWindow,
        description: 'FORK_WINDOW: generations re-checked at every poll.',
      }),
      statusMaxBlockAge: int(B.statusMaxBlockAge, {
        default: D.statusMaxBlockAge,
        description: 'STATUS_MAX_BLOCK_AGE: seconds before /middleware/status turns 503.',
      }),
      logLevel: str({ enum: Object.values(LogLevel), default: D.logLevel }),
      paused: bool({ default: D.paused, description: 'Stop reconciling (ReconciliationPaused condition).' }),
      reclaimPolicy: str({
        enum: Object.values(ReclaimPolicy),
        default: D.reclaimPolicy,
        description:
          'What deleting the Middleware does to the schemas of its generations: Retain keeps them, Delete drops them first.',
      }),
      reload: reloadSchema(),
      promotion: obj(
        {
          syncedWithinBlocks: int(B.syncedWithinBlocks, {
            default: D.syncedWithinBlocks,
            description: 'K: max lag of a synced generation.',
          }),
          stableWindowSeconds: int(B.stableWindowSeconds, {
            default: D.stableWindowSeconds,
            description: 'How long it must stay synced.',
          }),
        },
        { default: {} },
      ),
    },
    { required: ['nodeUrls', 'database'] },
  );
}

/** secretKeyRef is the schema of a SecretKeyRef: one key of a Secret in the Middleware's namespace. */
function secretKeyRef(description?: string): JsonSchema {
  const name = str({ pattern: P.resourceName, maxLength: B.resourceNameLength, description: 'Secret name.' });
  const key = str({ pattern: P.secretKey, maxLength: B.resourceNameLength });
  return obj({ name, key }, { required: ['name', 'key'], ...(description === undefined ? {} : { description }) });
}

function readReplicasSchema(): JsonSchema {
  return obj(
    {
      cnpg: obj(
        {
          cluster: str({ pattern: P.instanceName, maxLength: B.cnpgClusterLength }),
          credentialsSecretName: str({ pattern: P.resourceName, maxLength: B.resourceNameLength }),
        },
        { required: ['cluster'] },
      ),
      urlsSecretRef: secretKeyRef(),
      maxLagSeconds: int(B.replicaMaxLagSeconds),
    },
    { rules: [{ rule: 'has(self.cnpg) != has(self.urlsSecretRef)', message: READ_REPLICAS_ONE_SOURCE }] },
  );
}

/**
 * envSchema is a container's extra variables (core/v1 EnvVar, its sources but the file one). A name the operator sets
 * itself is refused naming the field that sets it, the same sentence validateMiddleware writes (managed-env.ts).
 */
function envSchema(): JsonSchema {
  const name = str({ pattern: P.resourceName, maxLength: B.resourceNameLength });
  const key = str({ pattern: P.secretKey, maxLength: B.resourceNameLength });
  const keyRef = (of: string) =>
    obj(
      { name, key, optional: bool() },
      { required: ['name', 'key'], description: `A key of a ${of} in the Middleware's namespace.` },
    );
  const quantity: JsonSchema = { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true };
  const sources = {
    secretKeyRef: keyRef('Secret'),
    configMapKeyRef: keyRef('ConfigMap'),
    fieldRef: obj(
      { fieldPath: str({ maxLength: 1024 }), apiVersion: str({ maxLength: 64 }) },
      { required: ['fieldPath'], description: 'A field of the pod (metadata.name, status.podIP, …).' },
    ),
    resourceFieldRef: obj(
      { resource: str({ maxLength: 256 }), containerName: str({ maxLength: 253 }), divisor: quantity },
      { required: ['resource'], description: 'A resource of the container (limits.memory, …).' },
    ),
  };
  const oneSource = `[${Object.keys(sources)
    .map((s) => `has(self.${s})`)
    .join(', ')}].filter(s, s).size() == 1`;
  const managed = Object.keys(MANAGED_ENV).map((n) => JSON.stringify(n));
  const reasons = Object.entries(MANAGED_ENV).map(([n, why]) => `${JSON.stringify(n)}: ${JSON.stringify(why)}`);
  const variable = obj(
    {
      name: str({
        pattern: P.envName,
        maxLength: B.envNameLength,
        description: "Name of the variable (README's Configuration lists the middleware's); not one the operator sets.",
      }),
      value: str({ maxLength: B.envValueLength }),
      valueFrom: obj(sources, {
        description: 'Where the kubelet reads the value from: exactly one source.',
        rules: [{ rule: oneSource, message: ENV_ONE_SOURCE }],
      }),
    },
    {
      required: ['name'],
      rules: [
        {
          rule: `!(self.name in [${managed.join(', ')}])`,
          message: 'names a variable the operator sets itself (docs/operator-crd.md#server-environment)',
          messageExpression: `self.name + ' ${MANAGED_ENV_PREFIX} ' + {${reasons.join(', ')}}[self.name]`,
        },
        { rule: '!(has(self.value) && has(self.valueFrom))', message: ENV_VALUE_OR_SOURCE },
      ],
    },
  );
  return arr(variable, { max: B.env.max, listType: 'map', mapKeys: ['name'] });
}

function serverSchema(): JsonSchema {
  return obj(
    {
      replicas: int(B.replicas, {
        default: D.serverReplicas,
        description: 'Servers per generation (the scale subresource).',
      }),
      resources: resources('Server container resources.'),
      http: obj(
        {
          type: str({ enum: Object.values(ServiceType), default: D.httpServiceType }),
          port: int(B.port, { default: D.httpPort }),
        },
        { default: {} },
      ),
      websocket: obj({ port: int(B.port, { default: D.websocketPort }) }, { default: {} }),
      ingress: obj(
        {
          className: str({ pattern: P.resourceName, maxLength: B.resourceNameLength }),
          host: str({ pattern: P.host, maxLength: B.resourceNameLength }),
          tlsSecretName: str({ pattern: P.resourceName, maxLength: B.resourceNameLength }),
          annotations: map(str()),
          websocketPath: str({
            pattern: P.path,
            maxLength: 1024,
            description: 'Path prefix routed to the websocket port.',
          }),
        },
        { required: ['host'] },
      ),
      pdb: obj(
        {
          enabled: bool({ default: D.pdbEnabled }),
          minAvailable: int(B.pdbCount),
          maxUnavailable: int(B.pdbCount, {
            description: `Default ${D.pdbMaxUnavailable} when minAvailable is unset too.`,
          }),
        },
        {
          default: {},
          rules: [{ rule: '!(has(self.minAvailable) && has(self.maxUnavailable))', message: PDB_EXCLUSIVE }],
        },
      ),
      autoscaling: obj(
        {
          minReplicas: int(B.autoscalingReplicas, { default: D.autoscalingMinReplicas }),
          maxReplicas: int(B.autoscalingReplicas),
          targetCPUUtilizationPercentage: int(B.cpuPercent, { default: D.autoscalingTargetCPU }),
        },
        {
          required: ['maxReplicas'],
          description: 'A HorizontalPodAutoscaler that scales this Middleware through its scale subresource.',
          rules: [{ rule: 'self.minReplicas <= self.maxReplicas', message: AUTOSCALING_BOUNDS }],
        },
      ),
      rootV3: str({ enum: Object.values(RootV3), default: D.rootV3 }),
      trustedProxies: arr(str({ pattern: P.addressOrNetwork, maxLength: B.addressOrNetworkLength }), {
        max: B.trustedProxies.max,
        listType: 'set',
      }),
      env: envSchema(),
    },
    {
      default: {},
      rules: [
        {
          rule: '!has(self.autoscaling) || (self.replicas >= self.autoscaling.minReplicas && self.replicas <= self.autoscaling.maxReplicas)',
          message: REPLICAS_WITHIN_AUTOSCALING,
        },
      ],
    },
  );
}

function reloadSchema(): JsonSchema {
  return obj(
    {
      id: str({ pattern: P.reloadId, maxLength: B.reloadIdLength, description: 'Change it to request a new reload.' }),
      heights: str({
        pattern: P.heights,
        maxLength: B.heightsLength,
        description: 'Heights for `mdw -H` ("1,3-4,6").',
      }),
      strategy: str({ enum: Object.values(ReloadStrategy), default: D.reloadStrategy }),
      autoPromote: bool({
        default: D.autoPromote,
        description: 'false: wait for approval (set true) before switching.',
      }),
      retainPrevious: str({
        pattern: P.duration,
        maxLength: 32,
        default: D.retainPrevious,
        description: 'How long the previous generation is kept for rollback after a switch ("30m", "6h", "0s").',
      }),
      deadline: str({
        pattern: P.duration,
        maxLength: 32,
        default: D.reloadDeadline,
        description:
          'How long a BlueGreen reload may take until its new generation passes the promotion gate ("48h"); past it the reload fails and the generation is dropped.',
      }),
    },
    {
      required: ['id'],
      rules: [
        { rule: "self.strategy != 'InPlace' || has(self.heights)", message: INPLACE_NEEDS_HEIGHTS },
        {
          rule:
            'self.id != oldSelf.id || (self.strategy == oldSelf.strategy && has(self.heights) == has(oldSelf.heights)' +
            ' && (!has(self.heights) || self.heights == oldSelf.heights))',
          message: RELOAD_NEEDS_NEW_ID,
        },
      ],
    },
  );
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
    previousGeneration: generation('Generation kept for rollback until previousExpiresAt.'),
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
      },
      { required: ['id', 'strategy', 'generation', 'state'] },
    ),
  });
}
