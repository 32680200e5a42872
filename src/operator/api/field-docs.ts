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
  '.spec.jobs.reloadResources.limits':
    'Limits describes the maximum amount of compute resources allowed. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
  '.spec.jobs.reloadResources.limits{}':
    'A value of: Limits describes the maximum amount of compute resources allowed. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
  '.spec.jobs.reloadResources.requests':
    'Requests describes the minimum amount of compute resources required. If Requests is omitted for a container, it defaults to Limits if that is explicitly specified, otherwise to an implementation-defined value. Requests cannot exceed Limits. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
  '.spec.jobs.reloadResources.requests{}':
    'A value of: Requests describes the minimum amount of compute resources required. If Requests is omitted for a container, it defaults to Limits if that is explicitly specified, otherwise to an implementation-defined value. Requests cannot exceed Limits. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
  '.spec.jobs.resources.limits':
    'Limits describes the maximum amount of compute resources allowed. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
  '.spec.jobs.resources.limits{}':
    'A value of: Limits describes the maximum amount of compute resources allowed. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
  '.spec.jobs.resources.requests':
    'Requests describes the minimum amount of compute resources required. If Requests is omitted for a container, it defaults to Limits if that is explicitly specified, otherwise to an implementation-defined value. Requests cannot exceed Limits. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
  '.spec.jobs.resources.requests{}':
    'A value of: Requests describes the minimum amount of compute resources required. If Requests is omitted for a container, it defaults to Limits if that is explicitly specified, otherwise to an implementation-defined value. Requests cannot exceed Limits. More info: https://kubernetes.io/docs/concepts/configuration/manage-resources-containers/',
  '.spec.jobs.tolerations[]':
    'The pod this Toleration is attached to tolerates any taint that matches the triple <key,value,effect> using the matching operator <operator>.',
  '.spec.jobs.tolerations[].effect':
    'Effect indicates the taint effect to match. Empty means match all taint effects. When specified, allowed values are NoSchedule, PreferNoSchedule and NoExecute.',
  '.spec.jobs.tolerations[].key':
    'Key is the taint key that the toleration applies to. Empty means match all taint keys. If the key is empty, operator must be Exists; this combination means to match all values and all keys.',
  '.spec.jobs.tolerations[].operator':
    "Operator represents a key\\'s relationship to the value. Valid operators are Exists, Equal, Lt, and Gt. Defaults to Equal. Exists is equivalent to wildcard for value, so that a pod can tolerate all taints of a particular category. Lt and Gt perform numeric comparisons (requires feature gate TaintTolerationComparisonOperators).",
  '.spec.jobs.tolerations[].tolerationSeconds':
    'TolerationSeconds represents the period of time the toleration (which must be of effect NoExecute, otherwise this field is ignored) tolerates the taint. By default, it is not set, which means tolerate the taint forever (do not evict). Zero and negative values will be treated as 0 (evict immediately) by the system.',
  '.spec.jobs.tolerations[].value':
    'Value is the taint value the toleration matches to. If the operator is Exists, the value should be empty, otherwise just a regular string.',
  '.spec.jobs.topologySpreadConstraints[]':
    'TopologySpreadConstraint specifies how to spread matching pods among the given topology.',
  '.spec.jobs.topologySpreadConstraints[].matchLabelKeys':
    "MatchLabelKeys is a set of pod label keys to select the pods over which spreading will be calculated. The keys are used to lookup values from the incoming pod labels, those key-value labels are ANDed with labelSelector to select the group of existing pods over which spreading will be calculated for the incoming pod. The same key is forbidden to exist in both MatchLabelKeys and LabelSelector. MatchLabelKeys cannot be set when LabelSelector isn\\'t set. Keys that don\\'t exist in the incoming pod labels will be ignored. A null or empty list means only match against labelSelector. This is a beta field and requires the MatchLabelKeysInPodTopologySpread feature gate to be enabled (enabled by default).",
  '.spec.jobs.topologySpreadConstraints[].matchLabelKeys[]':
    "An item of: MatchLabelKeys is a set of pod label keys to select the pods over which spreading will be calculated. The keys are used to lookup values from the incoming pod labels, those key-value labels are ANDed with labelSelector to select the group of existing pods over which spreading will be calculated for the incoming pod. The same key is forbidden to exist in both MatchLabelKeys and LabelSelector. MatchLabelKeys cannot be set when LabelSelector isn\\'t set. Keys that don\\'t exist in the incoming pod labels will be ignored. A null or empty list means only match against labelSelector. This is a beta field and requires the MatchLabelKeysInPodTopologySpread feature gate to be enabled (enabled by default).",
  '.spec.jobs.topologySpreadConstraints[].maxSkew':
    "MaxSkew describes the degree to which pods may be unevenly distributed. When `whenUnsatisfiable=DoNotSchedule`, it is the maximum permitted difference between the number of matching pods in the target topology and the global minimum. The global minimum is the minimum number of matching pods in an eligible domain or zero if the number of eligible domains is less than MinDomains. For example, in a 3-zone cluster, MaxSkew is set to 1, and pods with the same labelSelector spread as 2/2/1: In this case, the global minimum is 1. | zone1 | zone2 | zone3 | | P P | P P | P | - if MaxSkew is 1, incoming pod can only be scheduled to zone3 to become 2/2/2; scheduling it onto zone1(zone2) would make the ActualSkew(3-1) on zone1(zone2) violate MaxSkew(1). - if MaxSkew is 2, incoming pod can be scheduled onto any zone. When `whenUnsatisfiable=ScheduleAnyway`, it is used to give higher precedence to topologies that satisfy it. It\\'s a required field. Default value is 1 and 0 is not allowed.",
  '.spec.jobs.topologySpreadConstraints[].minDomains':
    'MinDomains indicates a minimum number of eligible domains. When the number of eligible domains with matching topology keys is less than minDomains, Pod Topology Spread treats \\"global minimum\\" as 0, and then the calculation of Skew is performed. And when the number of eligible domains with matching topology keys equals or greater than minDomains, this value has no effect on scheduling. As a result, when the number of eligible domains is less than minDomains, scheduler won\\\'t schedule more than maxSkew Pods to those domains. If value is nil, the constraint behaves as if MinDomains is equal to 1. Valid values are integers greater than 0. When value is not nil, WhenUnsatisfiable must be DoNotSchedule. For example, in a 3-zone cluster, MaxSkew is set to 2, MinDomains is set to 5 and pods with the same labelSelector spread as 2/2/2: | zone1 | zone2 | zone3 | | P P | P P | P P | The number of domains is less than 5(MinDomains), so \\"global minimum\\" is treated as 0. In this situation, new pod with the same labelSelector cannot be scheduled, because computed skew will be 3(3 - 0) if new Pod is scheduled to any of the three zones, it will violate MaxSkew.',
  '.spec.jobs.topologySpreadConstraints[].nodeAffinityPolicy':
    "NodeAffinityPolicy indicates how we will treat Pod\\'s nodeAffinity/nodeSelector when calculating pod topology spread skew. Options are: - Honor: only nodes matching nodeAffinity/nodeSelector are included in the calculations. - Ignore: nodeAffinity/nodeSelector are ignored. All nodes are included in the calculations. If this value is nil, the behavior is equivalent to the Honor policy.",
  '.spec.jobs.topologySpreadConstraints[].nodeTaintsPolicy':
    'NodeTaintsPolicy indicates how we will treat node taints when calculating pod topology spread skew. Options are: - Honor: nodes without taints, along with tainted nodes for which the incoming pod has a toleration, are included. - Ignore: node taints are ignored. All nodes are included. If this value is nil, the behavior is equivalent to the Ignore policy.',
  '.spec.jobs.topologySpreadConstraints[].topologyKey':
    'TopologyKey is the key of node labels. Nodes that have a label with this key and identical values are considered to be in the same topology. We consider each <key, value> as a \\"bucket\\", and try to put balanced number of pods into each bucket. We define a domain as a particular instance of a topology. Also, we define an eligible domain as a domain whose nodes meet the requirements of nodeAffinityPolicy and nodeTaintsPolicy. e.g. If TopologyKey is \\"kubernetes.io/hostname\\", each Node is a domain of that topology. And, if TopologyKey is \\"topology.kubernetes.io/zone\\", each zone is a domain of that topology. It\\\'s a required field.',
  '.spec.jobs.topologySpreadConstraints[].whenUnsatisfiable':
    'WhenUnsatisfiable indicates how to deal with a pod if it doesn\\\'t satisfy the spread constraint. - DoNotSchedule (default) tells the scheduler not to schedule it. - ScheduleAnyway tells the scheduler to schedule the pod in any location, but giving higher precedence to topologies that would help reduce the skew. A constraint is considered \\"Unsatisfiable\\" for an incoming pod if and only if every possible node assignment for that pod would violate \\"MaxSkew\\" on some topology. For example, in a 3-zone cluster, MaxSkew is set to 1, and pods with the same labelSelector spread as 3/1/1: | zone1 | zone2 | zone3 | | P P P | P | P | If WhenUnsatisfiable is set to DoNotSchedule, incoming pod can only be scheduled to zone2(zone3) to become 3/2/1(3/1/2) as ActualSkew(2-1) on zone2(zone3) satisfies MaxSkew(1). In other words, the cluster can still be imbalanced, but scheduler won\\\'t make it *more* imbalanced. It\\\'s a required field.',
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
  '.spec.populator.tolerations[]':
    'The pod this Toleration is attached to tolerates any taint that matches the triple <key,value,effect> using the matching operator <operator>.',
  '.spec.populator.tolerations[].effect':
    'Effect indicates the taint effect to match. Empty means match all taint effects. When specified, allowed values are NoSchedule, PreferNoSchedule and NoExecute.',
  '.spec.populator.tolerations[].key':
    'Key is the taint key that the toleration applies to. Empty means match all taint keys. If the key is empty, operator must be Exists; this combination means to match all values and all keys.',
  '.spec.populator.tolerations[].operator':
    "Operator represents a key\\'s relationship to the value. Valid operators are Exists, Equal, Lt, and Gt. Defaults to Equal. Exists is equivalent to wildcard for value, so that a pod can tolerate all taints of a particular category. Lt and Gt perform numeric comparisons (requires feature gate TaintTolerationComparisonOperators).",
  '.spec.populator.tolerations[].tolerationSeconds':
    'TolerationSeconds represents the period of time the toleration (which must be of effect NoExecute, otherwise this field is ignored) tolerates the taint. By default, it is not set, which means tolerate the taint forever (do not evict). Zero and negative values will be treated as 0 (evict immediately) by the system.',
  '.spec.populator.tolerations[].value':
    'Value is the taint value the toleration matches to. If the operator is Exists, the value should be empty, otherwise just a regular string.',
  '.spec.populator.topologySpreadConstraints[]':
    'TopologySpreadConstraint specifies how to spread matching pods among the given topology.',
  '.spec.populator.topologySpreadConstraints[].matchLabelKeys':
    "MatchLabelKeys is a set of pod label keys to select the pods over which spreading will be calculated. The keys are used to lookup values from the incoming pod labels, those key-value labels are ANDed with labelSelector to select the group of existing pods over which spreading will be calculated for the incoming pod. The same key is forbidden to exist in both MatchLabelKeys and LabelSelector. MatchLabelKeys cannot be set when LabelSelector isn\\'t set. Keys that don\\'t exist in the incoming pod labels will be ignored. A null or empty list means only match against labelSelector. This is a beta field and requires the MatchLabelKeysInPodTopologySpread feature gate to be enabled (enabled by default).",
  '.spec.populator.topologySpreadConstraints[].matchLabelKeys[]':
    "An item of: MatchLabelKeys is a set of pod label keys to select the pods over which spreading will be calculated. The keys are used to lookup values from the incoming pod labels, those key-value labels are ANDed with labelSelector to select the group of existing pods over which spreading will be calculated for the incoming pod. The same key is forbidden to exist in both MatchLabelKeys and LabelSelector. MatchLabelKeys cannot be set when LabelSelector isn\\'t set. Keys that don\\'t exist in the incoming pod labels will be ignored. A null or empty list means only match against labelSelector. This is a beta field and requires the MatchLabelKeysInPodTopologySpread feature gate to be enabled (enabled by default).",
  '.spec.populator.topologySpreadConstraints[].maxSkew':
    "MaxSkew describes the degree to which pods may be unevenly distributed. When `whenUnsatisfiable=DoNotSchedule`, it is the maximum permitted difference between the number of matching pods in the target topology and the global minimum. The global minimum is the minimum number of matching pods in an eligible domain or zero if the number of eligible domains is less than MinDomains. For example, in a 3-zone cluster, MaxSkew is set to 1, and pods with the same labelSelector spread as 2/2/1: In this case, the global minimum is 1. | zone1 | zone2 | zone3 | | P P | P P | P | - if MaxSkew is 1, incoming pod can only be scheduled to zone3 to become 2/2/2; scheduling it onto zone1(zone2) would make the ActualSkew(3-1) on zone1(zone2) violate MaxSkew(1). - if MaxSkew is 2, incoming pod can be scheduled onto any zone. When `whenUnsatisfiable=ScheduleAnyway`, it is used to give higher precedence to topologies that satisfy it. It\\'s a required field. Default value is 1 and 0 is not allowed.",
  '.spec.populator.topologySpreadConstraints[].minDomains':
    'MinDomains indicates a minimum number of eligible domains. When the number of eligible domains with matching topology keys is less than minDomains, Pod Topology Spread treats \\"global minimum\\" as 0, and then the calculation of Skew is performed. And when the number of eligible domains with matching topology keys equals or greater than minDomains, this value has no effect on scheduling. As a result, when the number of eligible domains is less than minDomains, scheduler won\\\'t schedule more than maxSkew Pods to those domains. If value is nil, the constraint behaves as if MinDomains is equal to 1. Valid values are integers greater than 0. When value is not nil, WhenUnsatisfiable must be DoNotSchedule. For example, in a 3-zone cluster, MaxSkew is set to 2, MinDomains is set to 5 and pods with the same labelSelector spread as 2/2/2: | zone1 | zone2 | zone3 | | P P | P P | P P | The number of domains is less than 5(MinDomains), so \\"global minimum\\" is treated as 0. In this situation, new pod with the same labelSelector cannot be scheduled, because computed skew will be 3(3 - 0) if new Pod is scheduled to any of the three zones, it will violate MaxSkew.',
  '.spec.populator.topologySpreadConstraints[].nodeAffinityPolicy':
    "NodeAffinityPolicy indicates how we will treat Pod\\'s nodeAffinity/nodeSelector when calculating pod topology spread skew. Options are: - Honor: only nodes matching nodeAffinity/nodeSelector are included in the calculations. - Ignore: nodeAffinity/nodeSelector are ignored. All nodes are included in the calculations. If this value is nil, the behavior is equivalent to the Honor policy.",
  '.spec.populator.topologySpreadConstraints[].nodeTaintsPolicy':
    'NodeTaintsPolicy indicates how we will treat node taints when calculating pod topology spread skew. Options are: - Honor: nodes without taints, along with tainted nodes for which the incoming pod has a toleration, are included. - Ignore: node taints are ignored. All nodes are included. If this value is nil, the behavior is equivalent to the Ignore policy.',
  '.spec.populator.topologySpreadConstraints[].topologyKey':
    'TopologyKey is the key of node labels. Nodes that have a label with this key and identical values are considered to be in the same topology. We consider each <key, value> as a \\"bucket\\", and try to put balanced number of pods into each bucket. We define a domain as a particular instance of a topology. Also, we define an eligible domain as a domain whose nodes meet the requirements of nodeAffinityPolicy and nodeTaintsPolicy. e.g. If TopologyKey is \\"kubernetes.io/hostname\\", each Node is a domain of that topology. And, if TopologyKey is \\"topology.kubernetes.io/zone\\", each zone is a domain of that topology. It\\\'s a required field.',
  '.spec.populator.topologySpreadConstraints[].whenUnsatisfiable':
    'WhenUnsatisfiable indicates how to deal with a pod if it doesn\\\'t satisfy the spread constraint. - DoNotSchedule (default) tells the scheduler not to schedule it. - ScheduleAnyway tells the scheduler to schedule the pod in any location, but giving higher precedence to topologies that would help reduce the skew. A constraint is considered \\"Unsatisfiable\\" for an incoming pod if and only if every possible node assignment for that pod would violate \\"MaxSkew\\" on some topology. For example, in a 3-zone cluster, MaxSkew is set to 1, and pods with the same labelSelector spread as 3/1/1: | zone1 | zone2 | zone3 | | P P P | P | P | If WhenUnsatisfiable is set to DoNotSchedule, incoming pod can only be scheduled to zone2(zone3) to become 3/2/1(3/1/2) as ActualSkew(2-1) on zone2(zone3) satisfies MaxSkew(1). In other words, the cluster can still be imbalanced, but scheduler won\\\'t make it *more* imbalanced. It\\\'s a required field.',
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
  '.spec.server.tolerations[]':
    'The pod this Toleration is attached to tolerates any taint that matches the triple <key,value,effect> using the matching operator <operator>.',
  '.spec.server.tolerations[].effect':
    'Effect indicates the taint effect to match. Empty means match all taint effects. When specified, allowed values are NoSchedule, PreferNoSchedule and NoExecute.',
  '.spec.server.tolerations[].key':
    'Key is the taint key that the toleration applies to. Empty means match all taint keys. If the key is empty, operator must be Exists; this combination means to match all values and all keys.',
  '.spec.server.tolerations[].operator':
    "Operator represents a key\\'s relationship to the value. Valid operators are Exists, Equal, Lt, and Gt. Defaults to Equal. Exists is equivalent to wildcard for value, so that a pod can tolerate all taints of a particular category. Lt and Gt perform numeric comparisons (requires feature gate TaintTolerationComparisonOperators).",
  '.spec.server.tolerations[].tolerationSeconds':
    'TolerationSeconds represents the period of time the toleration (which must be of effect NoExecute, otherwise this field is ignored) tolerates the taint. By default, it is not set, which means tolerate the taint forever (do not evict). Zero and negative values will be treated as 0 (evict immediately) by the system.',
  '.spec.server.tolerations[].value':
    'Value is the taint value the toleration matches to. If the operator is Exists, the value should be empty, otherwise just a regular string.',
  '.spec.server.topologySpreadConstraints[]':
    'TopologySpreadConstraint specifies how to spread matching pods among the given topology.',
  '.spec.server.topologySpreadConstraints[].matchLabelKeys':
    "MatchLabelKeys is a set of pod label keys to select the pods over which spreading will be calculated. The keys are used to lookup values from the incoming pod labels, those key-value labels are ANDed with labelSelector to select the group of existing pods over which spreading will be calculated for the incoming pod. The same key is forbidden to exist in both MatchLabelKeys and LabelSelector. MatchLabelKeys cannot be set when LabelSelector isn\\'t set. Keys that don\\'t exist in the incoming pod labels will be ignored. A null or empty list means only match against labelSelector. This is a beta field and requires the MatchLabelKeysInPodTopologySpread feature gate to be enabled (enabled by default).",
  '.spec.server.topologySpreadConstraints[].matchLabelKeys[]':
    "An item of: MatchLabelKeys is a set of pod label keys to select the pods over which spreading will be calculated. The keys are used to lookup values from the incoming pod labels, those key-value labels are ANDed with labelSelector to select the group of existing pods over which spreading will be calculated for the incoming pod. The same key is forbidden to exist in both MatchLabelKeys and LabelSelector. MatchLabelKeys cannot be set when LabelSelector isn\\'t set. Keys that don\\'t exist in the incoming pod labels will be ignored. A null or empty list means only match against labelSelector. This is a beta field and requires the MatchLabelKeysInPodTopologySpread feature gate to be enabled (enabled by default).",
  '.spec.server.topologySpreadConstraints[].maxSkew':
    "MaxSkew describes the degree to which pods may be unevenly distributed. When `whenUnsatisfiable=DoNotSchedule`, it is the maximum permitted difference between the number of matching pods in the target topology and the global minimum. The global minimum is the minimum number of matching pods in an eligible domain or zero if the number of eligible domains is less than MinDomains. For example, in a 3-zone cluster, MaxSkew is set to 1, and pods with the same labelSelector spread as 2/2/1: In this case, the global minimum is 1. | zone1 | zone2 | zone3 | | P P | P P | P | - if MaxSkew is 1, incoming pod can only be scheduled to zone3 to become 2/2/2; scheduling it onto zone1(zone2) would make the ActualSkew(3-1) on zone1(zone2) violate MaxSkew(1). - if MaxSkew is 2, incoming pod can be scheduled onto any zone. When `whenUnsatisfiable=ScheduleAnyway`, it is used to give higher precedence to topologies that satisfy it. It\\'s a required field. Default value is 1 and 0 is not allowed.",
  '.spec.server.topologySpreadConstraints[].minDomains':
    'MinDomains indicates a minimum number of eligible domains. When the number of eligible domains with matching topology keys is less than minDomains, Pod Topology Spread treats \\"global minimum\\" as 0, and then the calculation of Skew is performed. And when the number of eligible domains with matching topology keys equals or greater than minDomains, this value has no effect on scheduling. As a result, when the number of eligible domains is less than minDomains, scheduler won\\\'t schedule more than maxSkew Pods to those domains. If value is nil, the constraint behaves as if MinDomains is equal to 1. Valid values are integers greater than 0. When value is not nil, WhenUnsatisfiable must be DoNotSchedule. For example, in a 3-zone cluster, MaxSkew is set to 2, MinDomains is set to 5 and pods with the same labelSelector spread as 2/2/2: | zone1 | zone2 | zone3 | | P P | P P | P P | The number of domains is less than 5(MinDomains), so \\"global minimum\\" is treated as 0. In this situation, new pod with the same labelSelector cannot be scheduled, because computed skew will be 3(3 - 0) if new Pod is scheduled to any of the three zones, it will violate MaxSkew.',
  '.spec.server.topologySpreadConstraints[].nodeAffinityPolicy':
    "NodeAffinityPolicy indicates how we will treat Pod\\'s nodeAffinity/nodeSelector when calculating pod topology spread skew. Options are: - Honor: only nodes matching nodeAffinity/nodeSelector are included in the calculations. - Ignore: nodeAffinity/nodeSelector are ignored. All nodes are included in the calculations. If this value is nil, the behavior is equivalent to the Honor policy.",
  '.spec.server.topologySpreadConstraints[].nodeTaintsPolicy':
    'NodeTaintsPolicy indicates how we will treat node taints when calculating pod topology spread skew. Options are: - Honor: nodes without taints, along with tainted nodes for which the incoming pod has a toleration, are included. - Ignore: node taints are ignored. All nodes are included. If this value is nil, the behavior is equivalent to the Ignore policy.',
  '.spec.server.topologySpreadConstraints[].topologyKey':
    'TopologyKey is the key of node labels. Nodes that have a label with this key and identical values are considered to be in the same topology. We consider each <key, value> as a \\"bucket\\", and try to put balanced number of pods into each bucket. We define a domain as a particular instance of a topology. Also, we define an eligible domain as a domain whose nodes meet the requirements of nodeAffinityPolicy and nodeTaintsPolicy. e.g. If TopologyKey is \\"kubernetes.io/hostname\\", each Node is a domain of that topology. And, if TopologyKey is \\"topology.kubernetes.io/zone\\", each zone is a domain of that topology. It\\\'s a required field.',
  '.spec.server.topologySpreadConstraints[].whenUnsatisfiable':
    'WhenUnsatisfiable indicates how to deal with a pod if it doesn\\\'t satisfy the spread constraint. - DoNotSchedule (default) tells the scheduler not to schedule it. - ScheduleAnyway tells the scheduler to schedule the pod in any location, but giving higher precedence to topologies that would help reduce the skew. A constraint is considered \\"Unsatisfiable\\" for an incoming pod if and only if every possible node assignment for that pod would violate \\"MaxSkew\\" on some topology. For example, in a 3-zone cluster, MaxSkew is set to 1, and pods with the same labelSelector spread as 3/1/1: | zone1 | zone2 | zone3 | | P P P | P | P | If WhenUnsatisfiable is set to DoNotSchedule, incoming pod can only be scheduled to zone2(zone3) to become 3/2/1(3/1/2) as ActualSkew(2-1) on zone2(zone3) satisfies MaxSkew(1). In other words, the cluster can still be imbalanced, but scheduler won\\\'t make it *more* imbalanced. It\\\'s a required field.',
  '.status': 'What the operator observed, written through the status subresource.',
  '.status.activeGeneration': 'Data generation the stable Service selects.',
  '.status.bootstrap': "The first generation's restore from spec.bootstrap.snapshot, when it started from one.",
  '.status.bootstrap.completedAt': 'When its restore Job succeeded.',
  '.status.bootstrap.generation': 'The generation restored (the first one this Middleware created).',
  '.status.bootstrap.message': "What the restore does now, or the import's error.",
  '.status.bootstrap.snapshot': 'The source, as spec.bootstrap.snapshot named it then: later edits restore nothing.',
  '.status.bootstrap.startedAt': 'When the generation was created to be restored.',
  '.status.bootstrap.state': 'Restoring, Restored or Failed.',
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
  '.status.previousGeneration':
    'Generation switched from, running until previousExpiresAt (for a rollback, or draining after one).',
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
  '.status.reload.snapshot':
    'The snapshot the new generation is restored from (spec.reload.snapshot when the reload started).',
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
