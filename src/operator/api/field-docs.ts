/**
 * @module Descriptions of the Middleware's fields for the CRD (`kubectl explain`), keyed by schema path. Generated
 * from middleware-types.ts' doc comments by test/operator/api/field-docs.test.ts: do not edit; UPDATE_GOLDEN=1.
 */
export const FIELD_DOCS: Readonly<Record<string, string>> = {
  '.apiVersion': 'middleware.aeternity.io/v1alpha1.',
  '.kind': 'Middleware.',
  '.metadata': 'Standard object metadata.',
  '.spec': 'What the Middleware should run: node, database, servers, populator, reloads.',
  '.spec.imagePullSecrets[]':
    'LocalObjectReference contains enough information to let you locate the referenced object inside the same namespace.',
  '.spec.imagePullSecrets[].name':
    'Name of the referent. This field is effectively required, but due to backwards compatibility is allowed to be empty. Instances of this type with an empty value here are almost certainly wrong. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names',
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
  '.spec.populator.resources.limits':
    'Limits describes the maximum amount of compute resources allowed. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
  '.spec.populator.resources.limits{}':
    'A value of: Limits describes the maximum amount of compute resources allowed. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
  '.spec.populator.resources.requests':
    'Requests describes the minimum amount of compute resources required. If Requests is omitted for a container, it defaults to Limits if that is explicitly specified, otherwise to an implementation-defined value. Requests cannot exceed Limits. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
  '.spec.populator.resources.requests{}':
    'A value of: Requests describes the minimum amount of compute resources required. If Requests is omitted for a container, it defaults to Limits if that is explicitly specified, otherwise to an implementation-defined value. Requests cannot exceed Limits. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
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
  '.spec.server.resources.limits':
    'Limits describes the maximum amount of compute resources allowed. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
  '.spec.server.resources.limits{}':
    'A value of: Limits describes the maximum amount of compute resources allowed. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
  '.spec.server.resources.requests':
    'Requests describes the minimum amount of compute resources required. If Requests is omitted for a container, it defaults to Limits if that is explicitly specified, otherwise to an implementation-defined value. Requests cannot exceed Limits. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
  '.spec.server.resources.requests{}':
    'A value of: Requests describes the minimum amount of compute resources required. If Requests is omitted for a container, it defaults to Limits if that is explicitly specified, otherwise to an implementation-defined value. Requests cannot exceed Limits. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
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
