/**
 * @module Descriptions of the Middleware's fields for the CRD (`kubectl explain`), keyed by schema path. Generated
 * from middleware-types.ts' doc comments by test/operator/api/field-docs.test.ts: do not edit; UPDATE_GOLDEN=1.
 */
export const FIELD_DOCS: Readonly<Record<string, string>> = {
  '.apiVersion': 'middleware.aeternity.io/v1alpha1.',
  '.kind': 'Middleware.',
  '.metadata': 'Standard object metadata.',
  '.spec': 'What the Middleware should run: node, database, servers, populator, reloads.',
  '.spec.compilerUrl': 'COMPILER_URL: a Sophia compiler HTTP API; contract calls are decoded in-process without it.',
  '.spec.database': 'The PostgreSQL database all generations share, one schema each.',
  '.spec.database.readReplicas':
    'Replicas the servers read from; the populator, migration and reload Jobs stay on the primary.',
  '.spec.database.readReplicas.cnpg': "A CloudNativePG cluster's read-only Service, with credentials from a Secret.",
  '.spec.database.readReplicas.cnpg.cluster':
    "Name of the CloudNativePG Cluster, in the Middleware's namespace: the servers read through its `<cluster>-ro` Service.",
  '.spec.database.readReplicas.cnpg.credentialsSecretName':
    "Secret with the keys `user`, `password` and `dbname` (CloudNativePG's `<cluster>-app` has them); default: the primary's Secret (database.urlSecretRef.name), so the replicas are read with the primary's credentials.",
  '.spec.database.readReplicas.maxLagSeconds':
    "READ_REPLICA_MAX_LAG_SECONDS: seconds a server's replica may lag behind the primary before its /readyz fails (default 30).",
  '.spec.database.readReplicas.urlsSecretRef':
    "Secret key holding the replicas' PostgreSQL URLs, comma-separated (DATABASE_READ_URLS).",
  '.spec.database.readReplicas.urlsSecretRef.key': 'Key of the Secret whose value is used.',
  '.spec.database.readReplicas.urlsSecretRef.name': "Name of the Secret, in the Middleware's namespace.",
  '.spec.database.schemaPrefix':
    'Schemas are named `<schemaPrefix><generation>`; default `<name>_g` (mainnet_g1, mainnet_g2, …), so Middlewares sharing a database never share a schema (one that ran before this default keeps `mdw_g`). Immutable.',
  '.spec.database.storageCapacity':
    "Capacity of the database's volume, a quantity (\"500Gi\"): PostgreSQL cannot tell its volume's free space. With it, a BlueGreen reload starts only when the new generation (the active one's size plus 20 %) fits beside the database's size; unset, that check is skipped (condition DatabaseSpace Unknown, and an Event says so).",
  '.spec.database.urlSecretRef': 'Secret key holding the PostgreSQL connection URL (DATABASE_URL).',
  '.spec.database.urlSecretRef.key': 'Key of the Secret whose value is used.',
  '.spec.database.urlSecretRef.name': "Name of the Secret, in the Middleware's namespace.",
  '.spec.image': "Container image of the middleware; default: the operator's own image.",
  '.spec.imagePullPolicy': 'imagePullPolicy of every middleware container.',
  '.spec.imagePullSecrets': 'Secrets for pulling the image from a private registry.',
  '.spec.imagePullSecrets[]':
    'LocalObjectReference contains enough information to let you locate the referenced object inside the same namespace.',
  '.spec.imagePullSecrets[].name':
    'Name of the referent. This field is effectively required, but due to backwards compatibility is allowed to be empty. Instances of this type with an empty value here are almost certainly wrong. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names',
  '.spec.logLevel': 'LOG_LEVEL of every middleware container.',
  '.spec.metrics': "How the middleware pods' /metrics are scraped.",
  '.spec.metrics.serviceMonitor':
    'A prometheus-operator ServiceMonitor over the stable, preview and populator Services.',
  '.spec.metrics.serviceMonitor.enabled':
    'Whether the operator creates the ServiceMonitor (needs the prometheus-operator CRDs).',
  '.spec.metrics.serviceMonitor.interval': 'Scrape interval, as a duration ("30s").',
  '.spec.nodeInternalUrl': "NODE_INTERNAL_URL: the node's internal API (port 3113), forwarded by the servers when set.",
  '.spec.nodeUrls': 'Node external API URLs; the first is the primary.',
  '.spec.nodeUrls[]': 'An item of: Node external API URLs; the first is the primary.',
  '.spec.populator': 'The populator (`mdw -p`) of each generation.',
  '.spec.populator.batchTransactions': 'BATCH_TRANSACTIONS: transactions written in one database transaction at most.',
  '.spec.populator.env':
    'More variables of the populator container and of the reload Jobs, which load the chain as it does (FETCH_CONCURRENCY, REWARD_RULES, DEX_*, …); the ones the operator sets itself are refused.',
  '.spec.populator.env[]': 'EnvVar represents an environment variable present in a Container.',
  '.spec.populator.env[].name':
    "Name of the environment variable. May consist of any printable ASCII characters except \\'=\\'.",
  '.spec.populator.env[].value':
    'Variable references $(VAR_NAME) are expanded using the previously defined environment variables in the container and any service environment variables. If a variable cannot be resolved, the reference in the input string will be unchanged. Double $$ are reduced to a single $, which allows for escaping the $(VAR_NAME) syntax: i.e. \\"$$(VAR_NAME)\\" will produce the string literal \\"$(VAR_NAME)\\". Escaped references will never be expanded, regardless of whether the variable exists or not. Defaults to \\"\\".',
  '.spec.populator.env[].valueFrom.configMapKeyRef.key': 'The key to select.',
  '.spec.populator.env[].valueFrom.configMapKeyRef.name':
    'Name of the referent. This field is effectively required, but due to backwards compatibility is allowed to be empty. Instances of this type with an empty value here are almost certainly wrong. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names',
  '.spec.populator.env[].valueFrom.configMapKeyRef.optional':
    'Specify whether the ConfigMap or its key must be defined',
  '.spec.populator.env[].valueFrom.fieldRef.apiVersion':
    'Version of the schema the FieldPath is written in terms of, defaults to \\"v1\\".',
  '.spec.populator.env[].valueFrom.fieldRef.fieldPath': 'Path of the field to select in the specified API version.',
  '.spec.populator.env[].valueFrom.resourceFieldRef.containerName':
    'Container name: required for volumes, optional for env vars',
  '.spec.populator.env[].valueFrom.resourceFieldRef.divisor':
    'Specifies the output format of the exposed resources, defaults to \\"1\\"',
  '.spec.populator.env[].valueFrom.resourceFieldRef.resource': 'Required: resource to select',
  '.spec.populator.env[].valueFrom.secretKeyRef.key':
    'The key of the secret to select from. Must be a valid secret key.',
  '.spec.populator.env[].valueFrom.secretKeyRef.name':
    'Name of the referent. This field is effectively required, but due to backwards compatibility is allowed to be empty. Instances of this type with an empty value here are almost certainly wrong. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names',
  '.spec.populator.env[].valueFrom.secretKeyRef.optional': 'Specify whether the Secret or its key must be defined',
  '.spec.populator.resources': 'CPU and memory of the populator container.',
  '.spec.populator.resources.limits':
    'Limits describes the maximum amount of compute resources allowed. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
  '.spec.populator.resources.limits{}':
    'A value of: Limits describes the maximum amount of compute resources allowed. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
  '.spec.populator.resources.requests':
    'Requests describes the minimum amount of compute resources required. If Requests is omitted for a container, it defaults to Limits if that is explicitly specified, otherwise to an implementation-defined value. Requests cannot exceed Limits. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
  '.spec.populator.resources.requests{}':
    'A value of: Requests describes the minimum amount of compute resources required. If Requests is omitted for a container, it defaults to Limits if that is explicitly specified, otherwise to an implementation-defined value. Requests cannot exceed Limits. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
  '.spec.promotion': 'The gate a new generation passes before the stable Services switch to it.',
  '.spec.reclaimPolicy':
    'Retain (default): deleting the Middleware keeps its schemas; Delete drops them with Jobs first.',
  '.spec.reload': 'A data reload: set a new id to request one (`mdw reload` does).',
  '.spec.reload.autoPromote': 'false: the new generation waits for approval (set it to true to promote).',
  '.spec.reload.deadline':
    'How long a BlueGreen reload may take from its start until its generation passes the gate ("48h"); past it the reload ends Failed and its generation is dropped (a populator that crash-loops, a full disk).',
  '.spec.reload.heights':
    'Height list like `mdw -H` takes ("1,3-4,6"); required for InPlace, optional for BlueGreen (default: whole chain).',
  '.spec.reload.id': 'Identifies the request: a new id requests a new reload.',
  '.spec.reload.retainPrevious':
    'How long the previous generation stays after a switch, as a duration ("30m", "6h", "0s").',
  '.spec.reload.strategy':
    'BlueGreen builds a new generation beside the serving one; InPlace reloads heights in the serving one.',
  '.spec.server': 'The read-only API servers (`mdw -s`) of each generation.',
  '.spec.server.autoscaling': 'A HorizontalPodAutoscaler over the servers.',
  '.spec.server.autoscaling.maxReplicas': 'Most servers the autoscaler starts.',
  '.spec.server.autoscaling.minReplicas': 'Fewest servers the autoscaler keeps.',
  '.spec.server.autoscaling.targetCPUUtilizationPercentage':
    "Average CPU use, in percent of the servers' requests, that the autoscaler aims at.",
  '.spec.server.env':
    "More variables of the server containers (README's Configuration: CORS_ORIGINS, WEBSOCKET_*, API_CACHE_MAX_BYTES, …), a value or a Secret's, ConfigMap's or the pod's; the ones the operator sets itself are refused.",
  '.spec.server.env[]': 'EnvVar represents an environment variable present in a Container.',
  '.spec.server.env[].name':
    "Name of the environment variable. May consist of any printable ASCII characters except \\'=\\'.",
  '.spec.server.env[].value':
    'Variable references $(VAR_NAME) are expanded using the previously defined environment variables in the container and any service environment variables. If a variable cannot be resolved, the reference in the input string will be unchanged. Double $$ are reduced to a single $, which allows for escaping the $(VAR_NAME) syntax: i.e. \\"$$(VAR_NAME)\\" will produce the string literal \\"$(VAR_NAME)\\". Escaped references will never be expanded, regardless of whether the variable exists or not. Defaults to \\"\\".',
  '.spec.server.env[].valueFrom.configMapKeyRef.key': 'The key to select.',
  '.spec.server.env[].valueFrom.configMapKeyRef.name':
    'Name of the referent. This field is effectively required, but due to backwards compatibility is allowed to be empty. Instances of this type with an empty value here are almost certainly wrong. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names',
  '.spec.server.env[].valueFrom.configMapKeyRef.optional': 'Specify whether the ConfigMap or its key must be defined',
  '.spec.server.env[].valueFrom.fieldRef.apiVersion':
    'Version of the schema the FieldPath is written in terms of, defaults to \\"v1\\".',
  '.spec.server.env[].valueFrom.fieldRef.fieldPath': 'Path of the field to select in the specified API version.',
  '.spec.server.env[].valueFrom.resourceFieldRef.containerName':
    'Container name: required for volumes, optional for env vars',
  '.spec.server.env[].valueFrom.resourceFieldRef.divisor':
    'Specifies the output format of the exposed resources, defaults to \\"1\\"',
  '.spec.server.env[].valueFrom.resourceFieldRef.resource': 'Required: resource to select',
  '.spec.server.env[].valueFrom.secretKeyRef.key': 'The key of the secret to select from. Must be a valid secret key.',
  '.spec.server.env[].valueFrom.secretKeyRef.name':
    'Name of the referent. This field is effectively required, but due to backwards compatibility is allowed to be empty. Instances of this type with an empty value here are almost certainly wrong. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names',
  '.spec.server.env[].valueFrom.secretKeyRef.optional': 'Specify whether the Secret or its key must be defined',
  '.spec.server.http': "The stable Service's HTTP port.",
  '.spec.server.http.port': 'Port of the HTTP API on the stable Service.',
  '.spec.server.http.type': 'Service type of the stable Service (ClusterIP, NodePort, LoadBalancer).',
  '.spec.server.ingress': 'An Ingress in front of the stable Service.',
  '.spec.server.ingress.annotations': 'Annotations of the Ingress (cert-manager, controller settings).',
  '.spec.server.ingress.annotations{}': 'A value of: Annotations of the Ingress (cert-manager, controller settings).',
  '.spec.server.ingress.className': "IngressClass that serves it; the cluster's default class when absent.",
  '.spec.server.ingress.host': 'Host name the Ingress answers for.',
  '.spec.server.ingress.tlsSecretName': 'Secret holding the TLS certificate for host; no TLS when absent.',
  '.spec.server.ingress.websocketPath':
    'When set, this path prefix is routed to the websocket port; everything else goes to HTTP.',
  '.spec.server.pdb': "The servers' PodDisruptionBudget (default: on, at most one unavailable).",
  '.spec.server.pdb.enabled': "Whether each generation's servers get a PodDisruptionBudget.",
  '.spec.server.pdb.maxUnavailable': 'Servers a voluntary disruption may take at once.',
  '.spec.server.pdb.minAvailable': 'Servers that must stay up through a voluntary disruption (a drain).',
  '.spec.server.replicas': 'Servers of the active generation (the scale subresource writes it).',
  '.spec.server.resources': 'CPU and memory of each server container.',
  '.spec.server.resources.limits':
    'Limits describes the maximum amount of compute resources allowed. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
  '.spec.server.resources.limits{}':
    'A value of: Limits describes the maximum amount of compute resources allowed. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
  '.spec.server.resources.requests':
    'Requests describes the minimum amount of compute resources required. If Requests is omitted for a container, it defaults to Limits if that is explicitly specified, otherwise to an implementation-defined value. Requests cannot exceed Limits. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
  '.spec.server.resources.requests{}':
    'A value of: Requests describes the minimum amount of compute resources required. If Requests is omitted for a container, it defaults to Limits if that is explicitly specified, otherwise to an implementation-defined value. Requests cannot exceed Limits. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
  '.spec.server.rootV3':
    "ROOT_V3: the root /v3 is the node's API (node, default) or also ae_mdw's, as before the gateway layout (mdw).",
  '.spec.server.trustedProxies':
    "TRUSTED_PROXIES: addresses and CIDR networks of the proxies in front of the servers (the ingress controller's pods): a client behind them is told by its X-Forwarded-For address (ae_mdw's sockets per address).",
  '.spec.server.trustedProxies[]':
    "An item of: TRUSTED_PROXIES: addresses and CIDR networks of the proxies in front of the servers (the ingress controller's pods): a client behind them is told by its X-Forwarded-For address (ae_mdw's sockets per address).",
  '.spec.server.websocket': "The stable Service's websocket port.",
  '.spec.server.websocket.port': 'Port of the websocket on the stable Service.',
  '.status': 'What the operator observed, written through the status subresource.',
  '.status.activeGeneration': 'Data generation the stable Service selects.',
  '.status.conditions':
    'metav1.Condition list: Reconciled, MigrationsApplied, Available, Synced, Reindexing, Degraded, ….',
  '.status.conditions[]': 'MiddlewareCondition has the metav1.Condition shape.',
  '.status.conditions[].lastTransitionTime': 'When the status last changed.',
  '.status.conditions[].message': 'Human-readable details.',
  '.status.conditions[].observedGeneration': 'metadata.generation the condition was computed from.',
  '.status.conditions[].reason': 'CamelCase reason of the last transition, for machines.',
  '.status.conditions[].status': 'True, False or Unknown.',
  '.status.conditions[].type': 'What the condition is about (Reconciled, Available, Synced, …).',
  '.status.height': 'Top stored height of the active generation.',
  '.status.lag': 'nodeHeight - height of the active generation.',
  '.status.nodeHeight': "The node's height, as the active generation's status endpoint read it.",
  '.status.observedGeneration': 'metadata.generation of the spec the status describes.',
  '.status.operand':
    'The operand image the workloads run, once its version was checked (a new image rolls only after its check).',
  '.status.operand.image': 'The image reference the workloads run.',
  '.status.operand.newestMigration': 'The newest migration the image ships.',
  '.status.operand.version': 'The version the image reported (package.json of its build).',
  '.status.pendingGeneration': 'Data generation being built behind the preview Service.',
  '.status.phase':
    'One word for people: Pending, Migrating, Syncing, Available, Reindexing, Degraded, Paused, Invalid.',
  '.status.previousExpiresAt': 'When the retained previous generation is dropped.',
  '.status.previousGeneration': 'Generation kept for rollback until previousExpiresAt.',
  '.status.readyReplicas': 'Servers of the active generation that are ready.',
  '.status.reload': 'Progress of the reload spec.reload requests.',
  '.status.reload.cleanupGeneration': 'The generation being cleaned up (workloads deleted, schema dropped).',
  '.status.reload.completedAt': 'When the reload reached its terminal state.',
  '.status.reload.fromGeneration': 'The generation that served when the reload started.',
  '.status.reload.generation': 'Data generation being built (BlueGreen) or reloaded (InPlace).',
  '.status.reload.height': 'Top stored height of the generation being built, at the last look.',
  '.status.reload.heights': 'The heights handed to `-H`.',
  '.status.reload.id': 'The spec.reload.id this reports on.',
  '.status.reload.lag': 'nodeHeight - height, at the last look.',
  '.status.reload.message': 'What the reload does now, or why it waits.',
  '.status.reload.nodeHeight': "The node's height its status endpoint read, at the last look.",
  '.status.reload.outcome': 'The terminal state the clean-up ends in.',
  '.status.reload.promotedAt': 'When the stable Services switched to the new generation.',
  '.status.reload.spaceCheck': 'The free-space check before a BlueGreen reload: its result and the sizes it compared.',
  '.status.reload.spaceCheck.message': 'The sizes compared (or why nothing was compared).',
  '.status.reload.spaceCheck.result': 'Sufficient, Insufficient or Skipped.',
  '.status.reload.startedAt': 'When the reload started.',
  '.status.reload.state':
    'Where the reload stands (Migrating, CatchingUp, AwaitingPromotion, Promoted, CleaningUp, Completed, …).',
  '.status.reload.strategy': 'The strategy of the reload.',
  '.status.reload.syncedSince': 'Since when the generation has been within promotion.syncedWithinBlocks of the node.',
  '.status.replicas': 'Scale subresource: servers of the active generation.',
  '.status.schemaPrefix':
    "The prefix this Middleware's schemas live under, recorded at its first generation (spec.database.schemaPrefix or its default).",
  '.status.selector': "Scale subresource: label selector (string form) of the active generation's server pods.",
};
