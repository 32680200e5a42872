/**
 * @module The field table of the Middleware's spec: every field declared once, with its type, bounds, default, CEL
 * rules, description and the variables it sets. The CRD's schema (crd.ts), validateMiddleware, the managed variables
 * (managed-env.ts) and docs/operator-crd.md's field table are generated from it, and MiddlewareSpec (middleware-types.ts)
 * is its TypeScript type: a field is added as a row here and nowhere else. Pure.
 */
import type {
  V1Affinity,
  V1EnvVar,
  V1LabelSelector,
  V1LocalObjectReference,
  V1ResourceRequirements,
  V1Toleration,
  V1TopologySpreadConstraint,
} from '@kubernetes/client-node';
import { parseProxyEntry } from '../../config/client-address.ts';
import { arr, bool, documented, int, intOrString, map, obj, opaque, str, typed } from './field.ts';
import type { Field, FieldRule } from './field.ts';
import { managedEnvOf, managedEnvProblemOf, MANAGED_ENV_PREFIX } from './managed-env.ts';
import { LogLevel, PullPolicy, ReclaimPolicy, ReloadStrategy, RootV3, ServiceType } from './spec-values.ts';
import { BOUNDS as B, PATTERNS as P } from './patterns.ts';
import { parseDurationSeconds } from './quantity.ts';

/** Messages of the CEL rules, which the operator writes too, so kubectl and the operator say the same thing. */
export const IMMUTABLE_PREFIX =
  'schemaPrefix is immutable (once set, it cannot be changed or removed): existing generations live under it';
export const RELOAD_NEEDS_NEW_ID =
  'strategy, heights and snapshot of a reload cannot change; request a new reload with a new id';
export const INPLACE_NEEDS_HEIGHTS = 'strategy InPlace requires heights';
export const PDB_EXCLUSIVE = 'set at most one of minAvailable and maxUnavailable';
export const AUTOSCALING_BOUNDS = 'minReplicas must not exceed maxReplicas';
export const READ_REPLICAS_ONE_SOURCE = 'set exactly one of cnpg and urlsSecretRef';
export const ENV_VALUE_OR_SOURCE = 'set at most one of value and valueFrom';
export const ENV_ONE_SOURCE = 'set exactly one of secretKeyRef, configMapKeyRef, fieldRef and resourceFieldRef';
export const NOT_AN_ADDRESS = 'must be an IP address or CIDR network (10.0.0.0/8, fd00::/8)';
export const SNAPSHOT_ONE_SOURCE = 'set exactly one of url and volume';
export const INPLACE_NO_SNAPSHOT = 'strategy InPlace reloads heights in the serving schema: it takes no snapshot';

/**
 * PDB_MAX_UNAVAILABLE is server.pdb.maxUnavailable's default, which no `default:` can spell: it applies only when
 * minAvailable is unset too (resolveSpec fills it in).
 */
export const PDB_MAX_UNAVAILABLE = 1;

const url = (doc: string, env?: string) =>
  str({ pattern: P.httpUrl, maxLength: B.urlLength, doc, ...(env === undefined ? {} : { env: [env] }) });
const resourceName = (doc?: string) =>
  str({ pattern: P.resourceName, maxLength: B.resourceNameLength, ...(doc === undefined ? {} : { doc }) });
const duration = (doc: string, def: string) => str({ pattern: P.duration, maxLength: 32, doc, default: def });

/** secretKeyRef is one key of a Secret in the Middleware's namespace. */
function secretKeyRef(doc: string, env?: string[]) {
  const name = resourceName('Secret name.');
  const key = str({
    pattern: P.secretKey,
    maxLength: B.resourceNameLength,
    doc: 'Key of the Secret whose value is used.',
  });
  return obj({ name, key }, { required: ['name', 'key'], doc, ...(env === undefined ? {} : { env }) });
}

/** QUANTITY_PATTERN is the resource.Quantity syntax of the Kubernetes API ("500m", "1Gi"). */
const QUANTITY_PATTERN =
  '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';

/** resources is a container's resource requests and limits (core/v1 ResourceRequirements). */
function resources(doc: string): Field<V1ResourceRequirements> {
  const quantity = intOrString({ pattern: QUANTITY_PATTERN });
  return typed(obj({ limits: map(quantity), requests: map(quantity) }, { doc }));
}

/** labels is a map of label values (the keys are checked by the API server when it takes the pod). */
const labels = (doc: string) =>
  map(str({ pattern: P.labelValue, maxLength: B.labelValueLength, allowEmpty: true, doc: `A value of: ${doc}` }), {
    doc,
  });
const annotations = (doc: string) => map(str({ allowEmpty: true, doc: `A value of: ${doc}` }), { doc });

/** toleration is a core/v1 Toleration: which taints the pods tolerate. */
const toleration = typed<V1Toleration>(
  obj(
    {
      key: str({
        maxLength: 317,
        doc: 'Taint key the toleration applies to; empty with operator Exists: every taint.',
      }),
      operator: str({ enum: ['Exists', 'Equal'], doc: 'Exists (any value) or Equal (default).' }),
      value: str({ maxLength: 63, allowEmpty: true, doc: 'Taint value, for operator Equal.' }),
      effect: str({
        enum: ['NoSchedule', 'PreferNoSchedule', 'NoExecute'],
        doc: 'Taint effect to match; every effect when absent.',
      }),
      tolerationSeconds: int(
        { min: -(2 ** 53 - 1), max: 2 ** 53 - 1 },
        { doc: 'How long a NoExecute taint is tolerated before the pod is evicted; for ever when absent.' },
      ),
    },
    { doc: 'A toleration of a taint (core/v1 Toleration).' },
  ),
);

/** spread is a core/v1 TopologySpreadConstraint: how the pods spread over zones or nodes. */
const spread = typed<V1TopologySpreadConstraint>(
  obj(
    {
      maxSkew: int({ min: 1, max: 1000 }, { doc: 'Most the pod counts of two domains may differ.' }),
      topologyKey: str({
        maxLength: 317,
        doc: 'Node label whose values are the domains (topology.kubernetes.io/zone).',
      }),
      whenUnsatisfiable: str({
        enum: ['DoNotSchedule', 'ScheduleAnyway'],
        doc: 'DoNotSchedule keeps a pod pending; ScheduleAnyway only prefers the spread.',
      }),
      labelSelector: opaque<V1LabelSelector>({
        doc: "Which pods are counted (a metav1.LabelSelector): match the component's labels, app.kubernetes.io/instance and app.kubernetes.io/component.",
      }),
      matchLabelKeys: arr(str({ maxLength: 317 }), {
        max: 16,
        listType: 'atomic',
        doc: "Pod label keys whose values select the pods counted with the incoming one's (pod-template-hash).",
      }),
      minDomains: int({ min: 1, max: 1000 }, { doc: 'Fewest eligible domains (with DoNotSchedule).' }),
      nodeAffinityPolicy: str({
        enum: ['Honor', 'Ignore'],
        doc: "Whether the pod's node affinity limits the domains.",
      }),
      nodeTaintsPolicy: str({ enum: ['Honor', 'Ignore'], doc: 'Whether node taints limit the domains.' }),
    },
    {
      required: ['maxSkew', 'topologyKey', 'whenUnsatisfiable'],
      doc: 'How the pods spread over a topology (core/v1 TopologySpreadConstraint).',
    },
  ),
);

/**
 * scheduling are the fields that place and label one component's pods, spelt as prometheus-operator spells them
 * (and as core/v1 PodSpec does): the operator copies them into the pod template.
 */
function scheduling(of: string) {
  return {
    nodeSelector: labels(`Node labels the ${of} pods must run on (PodSpec nodeSelector).`),
    tolerations: arr(toleration, { max: 64, listType: 'atomic', doc: `Taints the ${of} pods tolerate.` }),
    affinity: opaque<V1Affinity>({
      doc: `Node affinity, pod affinity and anti-affinity of the ${of} pods (a core/v1 Affinity, checked by the API server when it takes the pod).`,
    }),
    topologySpreadConstraints: arr(spread, {
      max: 16,
      listType: 'atomic',
      doc: `How the ${of} pods spread over zones or nodes.`,
    }),
    priorityClassName: str({
      pattern: P.resourceName,
      maxLength: B.resourceNameLength,
      doc: `PriorityClass of the ${of} pods.`,
    }),
    podMetadata: obj(
      {
        labels: labels(`Labels added to the ${of} pods; the operator's own labels win over a key named here too.`),
        annotations: annotations(`Annotations of the ${of} pods (a service mesh's, Vault's).`),
      },
      { doc: `Labels and annotations of the ${of} pods.` },
    ),
  };
}

/** SchedulingFields are the fields of scheduling(), whose type is PodScheduling (middleware-types.ts). */
export type SchedulingFields = ReturnType<typeof scheduling>;

/** MANAGED_ENV_RULE refuses a variable the operator sets itself, naming the field that sets it (managed-env.ts). */
const MANAGED_ENV_RULE: FieldRule = {
  // read when the CRD is generated: the list comes from this table, which holds the rule
  get rule() {
    return `!(self.name in [${Object.keys(managedEnvOf(SPEC_FIELDS))
      .map((n) => JSON.stringify(n))
      .join(', ')}])`;
  },
  message: 'names a variable the operator sets itself (docs/operator-crd.md#server-environment)',
  get messageExpression() {
    const reasons = Object.entries(managedEnvOf(SPEC_FIELDS)).map(
      ([n, why]) => `${JSON.stringify(n)}: ${JSON.stringify(why)}`,
    );
    return `self.name + ' ${MANAGED_ENV_PREFIX} ' + {${reasons.join(', ')}}[self.name]`;
  },
  // SPEC_FIELDS, declared below, is read only when a rule is evaluated or generated
  holds: (v: { name: string }) => managedEnvProblem(v.name) === undefined,
  explain: (v: { name: string }) => managedEnvProblem(v.name) ?? '',
  reportAt: 'name',
};

type EnvSource = Partial<Record<'secretKeyRef' | 'configMapKeyRef' | 'fieldRef' | 'resourceFieldRef', unknown>>;

/** env is a container's extra variables (core/v1 EnvVar, its sources but the file one). */
function env(doc: string): Field<V1EnvVar[]> {
  const name = str({ pattern: P.resourceName, maxLength: B.resourceNameLength });
  const key = str({ pattern: P.secretKey, maxLength: B.resourceNameLength });
  const keyRef = (of: string) =>
    obj(
      { name, key, optional: bool() },
      { required: ['name', 'key'], doc: `A key of a ${of} in the Middleware's namespace.` },
    );
  const sources = {
    secretKeyRef: keyRef('Secret'),
    configMapKeyRef: keyRef('ConfigMap'),
    fieldRef: obj(
      { fieldPath: str({ maxLength: 1024 }), apiVersion: str({ maxLength: 64 }) },
      { required: ['fieldPath'], doc: 'A field of the pod (metadata.name, status.podIP, …).' },
    ),
    resourceFieldRef: obj(
      { resource: str({ maxLength: 256 }), containerName: str({ maxLength: 253 }), divisor: intOrString() },
      { required: ['resource'], doc: 'A resource of the container (limits.memory, …).' },
    ),
  };
  const names = Object.keys(sources) as (keyof EnvSource)[];
  const variable = obj(
    {
      name: str({
        pattern: P.envName,
        maxLength: B.envNameLength,
        doc: "Name of the variable (README's Configuration lists the middleware's); not one the operator sets.",
      }),
      value: str({ maxLength: B.envValueLength, allowEmpty: true }),
      valueFrom: obj(sources, {
        doc: 'Where the kubelet reads the value from: exactly one source.',
        unknownKeys: 'is not a source this operator passes on',
        rules: [
          {
            rule: `[${names.map((s) => `has(self.${s})`).join(', ')}].filter(s, s).size() == 1`,
            message: ENV_ONE_SOURCE,
            holds: (v: EnvSource) => names.filter((s) => v[s] !== undefined).length === 1,
          },
        ],
      }),
    },
    {
      required: ['name'],
      rules: [
        MANAGED_ENV_RULE,
        {
          rule: '!(has(self.value) && has(self.valueFrom))',
          message: ENV_VALUE_OR_SOURCE,
          holds: (v: { value?: string; valueFrom?: unknown }) => v.value === undefined || v.valueFrom === undefined,
        },
      ],
    },
  );
  return arr(typed<V1EnvVar>(variable), { max: B.env.max, listType: 'map', mapKeys: ['name'], doc });
}

const readReplicas = obj(
  {
    cnpg: obj(
      {
        cluster: str({
          pattern: P.instanceName,
          maxLength: B.cnpgClusterLength,
          doc: "Name of the CloudNativePG Cluster, in the Middleware's namespace: the servers read through its `<cluster>-ro` Service.",
        }),
        credentialsSecretName: documented(
          resourceName(),
          "Secret with the keys `user`, `password` and `dbname` (CloudNativePG's `<cluster>-app` has them); default: the primary's Secret (database.urlSecretRef.name), so the replicas are read with the primary's credentials.",
        ),
      },
      {
        required: ['cluster'],
        doc: "A CloudNativePG cluster's read-only Service, with credentials from a Secret.",
        env: ['CNPG_RO_USER', 'CNPG_RO_PASSWORD', 'CNPG_RO_DBNAME'],
      },
    ),
    urlsSecretRef: secretKeyRef(
      "Secret key holding the replicas' PostgreSQL URLs, comma-separated (DATABASE_READ_URLS).",
    ),
    maxLagSeconds: int(B.replicaMaxLagSeconds, {
      doc: "READ_REPLICA_MAX_LAG_SECONDS: seconds a server's replica may lag behind the primary before its /readyz fails (default 30).",
      env: ['READ_REPLICA_MAX_LAG_SECONDS'],
    }),
  },
  {
    doc: 'Replicas the servers read from; the populator, migration and reload Jobs stay on the primary.',
    env: ['DATABASE_READ_URLS'],
    rules: [
      {
        rule: 'has(self.cnpg) != has(self.urlsSecretRef)',
        message: READ_REPLICAS_ONE_SOURCE,
        holds: (v: { cnpg?: unknown; urlsSecretRef?: unknown }) =>
          (v.cnpg === undefined) !== (v.urlsSecretRef === undefined),
      },
    ],
  },
);

const database = obj(
  {
    urlSecretRef: secretKeyRef('Secret key holding DATABASE_URL.', ['DATABASE_URL']),
    // no default: it is the Middleware's own (<name>_g), which a schema default cannot express
    schemaPrefix: str({
      pattern: P.schemaPrefix,
      maxLength: B.schemaPrefixLength,
      doc: 'Generation g lives in schema <schemaPrefix><g>; default <name>_g. Immutable.',
    }),
    storageCapacity: str({
      pattern: P.byteQuantity,
      maxLength: 64,
      doc: "Capacity of the database's volume, a quantity (\"500Gi\"): PostgreSQL cannot tell its volume's free space. With it, a BlueGreen reload starts only when the new generation (the active one's size plus 20 %) fits beside the database's size; unset, that check is skipped (condition DatabaseSpace Unknown, and an Event says so).",
    }),
    readReplicas,
  },
  {
    required: ['urlSecretRef'],
    doc: 'The PostgreSQL database all generations share, one schema each.',
    // on the object, not the field: a field's transition rule does not see it removed
    rules: [
      {
        rule: '!has(oldSelf.schemaPrefix) || (has(self.schemaPrefix) && self.schemaPrefix == oldSelf.schemaPrefix)',
        message: IMMUTABLE_PREFIX,
        holds: (v: { schemaPrefix?: string }, old: { schemaPrefix?: string }) =>
          old.schemaPrefix === undefined || v.schemaPrefix === old.schemaPrefix,
        reportAt: 'schemaPrefix',
      },
    ],
  },
);

const server = obj(
  {
    replicas: int(B.replicas, { default: 2, doc: 'Servers per generation (the scale subresource).' }),
    previewReplicas: int(B.autoscalingReplicas, {
      // one server answers the catch-up gate's probe; the full count follows once the generation is nearly synced
      default: 1,
      doc: "Servers of a pending generation while it catches up (at most replicas); it runs replicas once it is within promotion.syncedWithinBlocks, so that the switch keeps the stable Service's capacity.",
    }),
    resources: resources('Server container resources.'),
    ...scheduling('server'),
    http: obj(
      {
        type: str({
          enum: Object.values(ServiceType),
          default: 'ClusterIP',
          doc: 'Service type of the stable Service (ClusterIP, NodePort, LoadBalancer).',
        }),
        port: int(B.port, { default: 80, doc: 'Port of the HTTP API on the stable Service.' }),
      },
      { default: {}, doc: "The stable Service's HTTP port." },
    ),
    websocket: obj(
      { port: int(B.port, { default: 3020, doc: 'Port of the websocket on the stable Service.' }) },
      { default: {}, doc: "The stable Service's websocket port." },
    ),
    ingress: obj(
      {
        className: resourceName("IngressClass that serves it; the cluster's default class when absent."),
        host: str({ pattern: P.host, maxLength: B.resourceNameLength, doc: 'Host name the Ingress answers for.' }),
        tlsSecretName: resourceName('Secret holding the TLS certificate for host; no TLS when absent.'),
        annotations: map(
          str({ allowEmpty: true, doc: 'A value of: Annotations of the Ingress (cert-manager, controller settings).' }),
          { doc: 'Annotations of the Ingress (cert-manager, controller settings).' },
        ),
        websocketPath: str({ pattern: P.path, maxLength: 1024, doc: 'Path prefix routed to the websocket port.' }),
      },
      { required: ['host'], doc: 'An Ingress in front of the stable Service.' },
    ),
    pdb: obj(
      {
        enabled: bool({ default: true, doc: "Whether each generation's servers get a PodDisruptionBudget." }),
        minAvailable: int(B.pdbCount, { doc: 'Servers that must stay up through a voluntary disruption (a drain).' }),
        maxUnavailable: int(B.pdbCount, { doc: `Default ${PDB_MAX_UNAVAILABLE} when minAvailable is unset too.` }),
      },
      {
        default: {},
        doc: "The servers' PodDisruptionBudget (default: on, at most one unavailable).",
        rules: [
          {
            rule: '!(has(self.minAvailable) && has(self.maxUnavailable))',
            message: PDB_EXCLUSIVE,
            holds: (v: { minAvailable?: number; maxUnavailable?: number }) =>
              v.minAvailable === undefined || v.maxUnavailable === undefined,
          },
        ],
      },
    ),
    autoscaling: obj(
      {
        minReplicas: int(B.autoscalingReplicas, {
          default: 2,
          doc: 'Fewest servers the autoscaler keeps.',
        }),
        maxReplicas: int(B.autoscalingReplicas, { doc: 'Most servers the autoscaler starts.' }),
        targetCPUUtilizationPercentage: int(B.cpuPercent, {
          default: 80,
          doc: "Average CPU use, in percent of the servers' requests, that the autoscaler aims at.",
        }),
      },
      {
        required: ['maxReplicas'],
        doc: 'A HorizontalPodAutoscaler that scales this Middleware through its scale subresource.',
        rules: [
          {
            rule: 'self.minReplicas <= self.maxReplicas',
            message: AUTOSCALING_BOUNDS,
            holds: (v: { minReplicas: number; maxReplicas: number }) => v.minReplicas <= v.maxReplicas,
          },
        ],
      },
    ),
    rootV3: str({
      enum: Object.values(RootV3),
      // same as ROOT_V3's default in src/config/defaults.ts: the node's API at the root /v3, ae_mdw's at /mdw/v3
      default: 'node',
      doc: "ROOT_V3: the root /v3 is the node's API (node, default) or also ae_mdw's, as before the gateway layout (mdw).",
      env: ['ROOT_V3'],
    }),
    trustedProxies: arr(
      str({
        pattern: P.addressOrNetwork,
        maxLength: B.addressOrNetworkLength,
        doc: "An item of: TRUSTED_PROXIES: addresses and CIDR networks of the proxies in front of the servers (the ingress controller's pods): a client behind them is told by its X-Forwarded-For address (ae_mdw's sockets per address).",
        // the CRD's pattern checks the characters only (1.29 has no isCIDR): the operator checks the rest
        check: (entry) => (parseProxyEntry(entry) === undefined ? NOT_AN_ADDRESS : undefined),
      }),
      {
        max: B.trustedProxies.max,
        listType: 'set',
        doc: "TRUSTED_PROXIES: addresses and CIDR networks of the proxies in front of the servers (the ingress controller's pods): a client behind them is told by its X-Forwarded-For address (ae_mdw's sockets per address).",
        env: ['TRUSTED_PROXIES'],
      },
    ),
    shutdownDelaySeconds: int(B.shutdownDelaySeconds, {
      // about a second on a calm cluster until kube-proxy and the ingress controllers drop a deleted pod: 5 s leaves
      // room for a busy control plane; a cloud load balancer that deregisters its targets slowly wants more
      default: 5,
      doc: "SHUTDOWN_DELAY_MS: seconds a stopping server (a rolling update, a scale-down, a drain) keeps serving after SIGTERM, its /readyz 503, while Kubernetes takes it out of its Service's endpoints and kube-proxy, the ingress controllers and load balancers learn it; its pods' terminationGracePeriodSeconds is this plus 40. 0: it stops at once.",
      env: ['SHUTDOWN_DELAY_MS'],
    }),
    env: env(
      "More variables of the server containers (README's Configuration: CORS_ORIGINS, WEBSOCKET_*, API_CACHE_MAX_BYTES, …), a value or a Secret's, ConfigMap's or the pod's; the ones the operator sets itself are refused.",
    ),
  },
  // No rule ties replicas to autoscaling's range: the HPA owns replicas and moves it into the range itself, so
  // raising minReplicas (or lowering maxReplicas) must not be refused for the replicas the HPA has not set yet.
  { default: {}, doc: 'The read-only API servers (`mdw -s`) of each generation.' },
);

const api = obj(
  {
    keysSecretRef: secretKeyRef(
      'Secret key holding the API keys file, a JSON list of `{name, tier, key}` (or `sha256` in place of key): mounted into the servers as API_KEYS_FILE, which turns API keys on; the servers reread it within API_KEYS_REFRESH_MS, so a key added to or removed from the Secret takes effect without a restart (docs/operations.md, "API keys and quotas").',
      ['API_KEYS_FILE'],
    ),
  },
  { doc: "API keys and quotas of the servers; tiers in server.env's API_TIERS (a ConfigMap's key, say)." },
);

const populator = obj(
  {
    resources: resources('Populator container resources.'),
    ...scheduling('populator'),
    batchTransactions: int(B.batchTransactions, {
      doc: 'BATCH_TRANSACTIONS: a batch takes no further generation once it holds this many transactions (lower it for a small memory limit).',
      env: ['BATCH_TRANSACTIONS'],
    }),
    env: env(
      'More variables of the populator container and of the reload Jobs, which load the chain as it does (FETCH_CONCURRENCY, REWARD_RULES, DEX_*, …); the ones the operator sets itself are refused.',
    ),
  },
  { default: {}, doc: 'The populator (`mdw -p`) of each generation.' },
);

const webhooks = obj(
  {
    enabled: bool({
      default: false,
      doc: "Run the webhook sender inside each generation's populator (`mdw -p --webhooks`), which sends the deliveries the populator writes (docs/webhooks.md).",
    }),
    anonymous: bool({
      default: false,
      doc: 'WEBHOOKS_ANONYMOUS: the webhooks API answers requests without an API key, their hooks owned by no one; leave it off on a public instance.',
      env: ['WEBHOOKS_ANONYMOUS'],
    }),
    allowPrivate: bool({
      default: false,
      doc: 'WEBHOOKS_ALLOW_PRIVATE: deliver to receivers at private, loopback and link-local addresses (a receiver inside the cluster).',
      env: ['WEBHOOKS_ALLOW_PRIVATE'],
    }),
  },
  { default: {}, doc: 'Webhooks: signed deliveries of chain events to receivers (docs/webhooks.md).' },
);

const jobs = obj(
  {
    resources: resources('Container resources of the migration, schema drop and database usage Jobs.'),
    reloadResources: resources(
      'Container resources of the InPlace reload Jobs (`mdw -H`), which load the chain as the populator does, and of the snapshot restore Jobs (`mdw snapshot import`); default: spec.populator.resources.',
    ),
    migrationDeadline: str({
      pattern: P.duration,
      maxLength: 32,
      // the fixed deadline migration Jobs had before it was a field
      default: '1h',
      doc: 'How long a migration Job may run, retries included, before Kubernetes fails it (activeDeadlineSeconds): a migration of a large schema may need more than the default.',
      check: (v) => ((parseDurationSeconds(v) ?? 0) > 0 ? undefined : 'must be longer than 0s'),
    }),
    ...scheduling('Job'),
  },
  { default: {}, doc: 'The Jobs: migration, InPlace reload (`mdw -H`), schema drop and database usage.' },
);

const serviceAccountTemplate = obj(
  {
    metadata: obj(
      {
        annotations: annotations(
          "Annotations of the pods' ServiceAccount: a cloud's workload identity (iam.gke.io/gcp-service-account, eks.amazonaws.com/role-arn, azure.workload.identity/client-id).",
        ),
        labels: labels("Labels added to the pods' ServiceAccount (azure.workload.identity/use)."),
      },
      { doc: "Metadata of the pods' ServiceAccount." },
    ),
  },
  { doc: "The ServiceAccount every pod of the Middleware runs as (CloudNativePG's serviceAccountTemplate)." },
);

const metrics = obj(
  {
    serviceMonitor: obj(
      {
        enabled: bool({ default: false, doc: 'Create a monitoring.coreos.com/v1 ServiceMonitor.' }),
        interval: duration('Scrape interval, as a duration ("30s").', '30s'),
      },
      { default: {}, doc: 'A prometheus-operator ServiceMonitor over the stable, preview and populator Services.' },
    ),
  },
  { default: {}, doc: "How the middleware pods' /metrics are scraped." },
);

type SnapshotRule = { url?: string; volume?: { claimName: string; path?: string } };

/**
 * snapshot is where a new generation's schema comes from instead of the genesis: a directory `mdw snapshot export`
 * wrote, which a restore Job hands to `mdw snapshot import` before the generation's migration Job.
 */
function snapshot(doc: string) {
  return obj(
    {
      url: url(
        "HTTP(S) URL of a snapshot directory (the one `mdw snapshot export` wrote, served as files: <url>/manifest.json and its parts): the restore Job fetches it into an emptyDir, which needs the snapshot's size in ephemeral storage.",
      ),
      volume: obj(
        {
          claimName: resourceName("PersistentVolumeClaim in the Middleware's namespace holding the snapshot."),
          path: str({
            pattern: P.relativePath,
            maxLength: 1024,
            doc: 'Directory of the snapshot inside the volume; default: its root.',
          }),
        },
        { required: ['claimName'], doc: 'A volume holding the snapshot directory, mounted read-only.' },
      ),
    },
    {
      doc,
      rules: [
        {
          rule: 'has(self.url) != has(self.volume)',
          message: SNAPSHOT_ONE_SOURCE,
          holds: (v: SnapshotRule) => (v.url === undefined) !== (v.volume === undefined),
        },
      ],
    },
  );
}

type ReloadRule = { id: string; strategy: string; heights?: string; snapshot?: SnapshotRule };

/** sameSnapshot: a reload's snapshot, as the CEL rule compares it (absent on both sides, or the same source). */
function sameSnapshot(a: SnapshotRule | undefined, b: SnapshotRule | undefined): boolean {
  return a?.url === b?.url && a?.volume?.claimName === b?.volume?.claimName && a?.volume?.path === b?.volume?.path;
}

const reload = obj(
  {
    id: str({ pattern: P.reloadId, maxLength: B.reloadIdLength, doc: 'Change it to request a new reload.' }),
    heights: str({ pattern: P.heights, maxLength: B.heightsLength, doc: 'Heights for `mdw -H` ("1,3-4,6").' }),
    strategy: str({
      enum: Object.values(ReloadStrategy),
      default: 'BlueGreen',
      doc: 'BlueGreen builds a new generation beside the serving one; InPlace reloads heights in the serving one.',
    }),
    autoPromote: bool({ default: true, doc: 'false: wait for approval (set true) before switching.' }),
    // six hours for a rollback (graph-node reaps after 6–8 h)
    retainPrevious: duration(
      'How long the previous generation is kept for rollback after a switch ("30m", "6h", "0s").',
      '6h',
    ),
    // two days: a whole mainnet load takes hours, a stuck one should not hold the database for longer
    deadline: duration(
      'How long a BlueGreen reload may take until its new generation passes the promotion gate ("48h"); past it the reload fails and the generation is dropped.',
      '48h',
    ),
    snapshot: snapshot(
      "BlueGreen only: the new generation starts from this snapshot (`mdw snapshot import` in a restore Job) instead of the genesis, then its populator follows on from the snapshot's top (reloading heights first, with heights).",
    ),
  },
  {
    required: ['id'],
    doc: 'A data reload: set a new id to request one (`mdw reload` does).',
    rules: [
      {
        rule: "self.strategy != 'InPlace' || has(self.heights)",
        message: INPLACE_NEEDS_HEIGHTS,
        holds: (v: ReloadRule) => v.strategy !== ReloadStrategy.InPlace || v.heights !== undefined,
      },
      {
        rule: "self.strategy != 'InPlace' || !has(self.snapshot)",
        message: INPLACE_NO_SNAPSHOT,
        holds: (v: ReloadRule) => v.strategy !== ReloadStrategy.InPlace || v.snapshot === undefined,
      },
      {
        rule:
          'self.id != oldSelf.id || (self.strategy == oldSelf.strategy && has(self.heights) == has(oldSelf.heights)' +
          ' && (!has(self.heights) || self.heights == oldSelf.heights)' +
          ' && has(self.snapshot) == has(oldSelf.snapshot) && (!has(self.snapshot) || self.snapshot == oldSelf.snapshot))',
        message: RELOAD_NEEDS_NEW_ID,
        holds: (v: ReloadRule, old: ReloadRule) =>
          v.id !== old.id ||
          (v.strategy === old.strategy && v.heights === old.heights && sameSnapshot(v.snapshot, old.snapshot)),
      },
    ],
  },
);

/** SPEC_FIELDS is the table: the whole spec of a Middleware. */
export const SPEC_FIELDS = obj(
  {
    nodeUrls: arr(url('Node external API URL.'), {
      min: B.nodeUrls.min,
      max: B.nodeUrls.max,
      listType: 'set',
      doc: 'Node external API URLs (port 3013); the first is the primary.',
      env: ['NODE_URL', 'NODE_URLS'],
    }),
    nodeInternalUrl: url('Node internal API URL (port 3113); forwarded by the servers when set.', 'NODE_INTERNAL_URL'),
    compilerUrl: url('Sophia compiler URL; contract calls are decoded in-process when unset.', 'COMPILER_URL'),
    database,
    image: str({ maxLength: 1024, doc: "Middleware image; default: the operator's own image." }),
    imagePullPolicy: str({
      enum: Object.values(PullPolicy),
      default: 'IfNotPresent',
      doc: 'imagePullPolicy of every middleware container.',
    }),
    imagePullSecrets: arr(
      typed<V1LocalObjectReference>(obj({ name: resourceName('Secret name.') }, { required: ['name'] })),
      {
        max: 64,
        listType: 'map',
        mapKeys: ['name'],
        doc: 'Secrets for pulling the image from a private registry.',
      },
    ),
    server,
    api,
    populator,
    jobs,
    webhooks,
    serviceAccountTemplate,
    metrics,
    forkWindow: int(B.forkWindow, {
      // same as FORK_WINDOW's default in src/config/defaults.ts
      default: 30,
      doc: 'FORK_WINDOW: generations re-checked at every poll.',
      env: ['FORK_WINDOW'],
    }),
    statusMaxBlockAge: int(B.statusMaxBlockAge, {
      // same as STATUS_MAX_BLOCK_AGE's default in src/config/defaults.ts
      default: 900,
      doc: 'STATUS_MAX_BLOCK_AGE: seconds before /middleware/status turns 503.',
      env: ['STATUS_MAX_BLOCK_AGE'],
    }),
    logLevel: str({
      enum: Object.values(LogLevel),
      default: 'info',
      doc: 'LOG_LEVEL of every middleware container.',
      env: ['LOG_LEVEL'],
    }),
    paused: bool({ default: false, doc: 'Stop reconciling (ReconciliationPaused condition).' }),
    reclaimPolicy: str({
      enum: Object.values(ReclaimPolicy),
      // keep the data when the resource goes (CNPG's default for databases): a delete must not cost a full reload
      default: 'Retain',
      doc: 'What deleting the Middleware does to the schemas of its generations: Retain keeps them, Delete drops them first.',
    }),
    bootstrap: obj(
      {
        snapshot: snapshot(
          "The first generation starts from this snapshot (`mdw snapshot import` in a restore Job, before its migration Job) instead of the genesis; its populator then follows on from the snapshot's top. Read once, when the first generation's schema is created: a Middleware that adopts an existing schema, or an edit later, restores nothing.",
        ),
      },
      { doc: "How the first generation's schema is filled (CloudNativePG's bootstrap): from the genesis when absent." },
    ),
    reload,
    promotion: obj(
      {
        syncedWithinBlocks: int(B.syncedWithinBlocks, {
          default: 3,
          doc: 'K: max lag of a synced generation.',
        }),
        stableWindowSeconds: int(B.stableWindowSeconds, {
          default: 60,
          doc: 'How long it must stay synced.',
        }),
        switchDrainSeconds: int(B.switchDrainSeconds, {
          // Argo Rollouts' scaleDownDelaySeconds waits as long for the same reason; the fixed drain before the field
          default: 30,
          doc: 'Seconds the servers the stable Services stop selecting at a switch (a promotion, a rollback) keep running after it, while clients follow the switch (EndpointSlices, then kube-proxy); their websocket clients keep their connections until then. The rollback window (reload.retainPrevious) is never shorter.',
        }),
      },
      {
        default: {},
        doc: 'The gate a new generation passes before the stable Services switch to it, and the drain after a switch.',
      },
    ),
  },
  {
    required: ['nodeUrls', 'database'],
    doc: 'What the Middleware should run: node, database, servers, populator, reloads.',
  },
);

/** managedEnvProblem is why spec.*.env may not name `name`, or undefined when it may (managed-env.ts). */
export function managedEnvProblem(name: string): string | undefined {
  return managedEnvProblemOf(SPEC_FIELDS, name);
}
