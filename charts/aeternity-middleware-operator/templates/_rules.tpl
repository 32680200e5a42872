# Generated from src/operator (crd.ts, rbac.ts): do not edit; regenerate with UPDATE_GOLDEN=1.
{{- define "mdw-operator.rules" -}}
- apiGroups:
    - middleware.aeternity.io
  resources:
    - middlewares
  verbs:
    - get
    - list
    - patch
    - watch
- apiGroups:
    - middleware.aeternity.io
  resources:
    - middlewares/status
  verbs:
    - patch
- apiGroups:
    - middleware.aeternity.io
  resources:
    - middlewares/finalizers
  verbs:
    - update
- apiGroups:
    - apps
  resources:
    - deployments
  verbs:
    - create
    - delete
    - list
    - patch
    - watch
- apiGroups:
    - batch
  resources:
    - jobs
  verbs:
    - create
    - delete
    - list
    - patch
    - watch
- apiGroups:
    - ""
  resources:
    - services
  verbs:
    - create
    - delete
    - list
    - patch
    - watch
- apiGroups:
    - ""
  resources:
    - serviceaccounts
  verbs:
    - create
    - list
    - patch
    - watch
- apiGroups:
    - rbac.authorization.k8s.io
  resources:
    - rolebindings
  verbs:
    - create
    - delete
    - list
    - patch
    - watch
- apiGroups:
    - rbac.authorization.k8s.io
  resources:
    - clusterroles
  resourceNames:
    - mdw-writer-lease
  verbs:
    - bind
- apiGroups:
    - policy
  resources:
    - poddisruptionbudgets
  verbs:
    - create
    - delete
    - list
    - patch
    - watch
- apiGroups:
    - autoscaling
  resources:
    - horizontalpodautoscalers
  verbs:
    - create
    - delete
    - list
    - patch
    - watch
- apiGroups:
    - networking.k8s.io
  resources:
    - ingresses
  verbs:
    - create
    - delete
    - list
    - patch
    - watch
- apiGroups:
    - monitoring.coreos.com
  resources:
    - servicemonitors
  verbs:
    - create
    - delete
    - list
    - patch
    - watch
- apiGroups:
    - ""
  resources:
    - events
  verbs:
    - create
- apiGroups:
    - ""
  resources:
    - namespaces
  verbs:
    - get
- apiGroups:
    - ""
  resources:
    - pods
  verbs:
    - list
{{- end }}
{{- define "mdw-operator.leaderRules" -}}
- apiGroups:
    - coordination.k8s.io
  resources:
    - leases
  verbs:
    - create
- apiGroups:
    - coordination.k8s.io
  resources:
    - leases
  resourceNames:
    - mdw-operator-leader
  verbs:
    - get
    - update
{{- end }}
{{- define "mdw-operator.homeEventRules" -}}
- apiGroups:
    - ""
  resources:
    - events
  verbs:
    - create
{{- end }}
{{- define "mdw-operator.leaderLease" -}}
mdw-operator-leader
{{- end }}
{{- define "mdw-operator.writerLeaseRules" -}}
- apiGroups:
    - coordination.k8s.io
  resources:
    - leases
  verbs:
    - create
    - get
    - update
{{- end }}
{{- define "mdw-operator.writerLeaseRole" -}}
mdw-writer-lease
{{- end }}
