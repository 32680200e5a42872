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
    - update
    - watch
- apiGroups:
    - middleware.aeternity.io
  resources:
    - middlewares/status
  verbs:
    - get
    - patch
    - update
- apiGroups:
    - middleware.aeternity.io
  resources:
    - middlewares/scale
  verbs:
    - get
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
    - get
    - list
    - patch
    - update
    - watch
- apiGroups:
    - batch
  resources:
    - jobs
  verbs:
    - create
    - delete
    - get
    - list
    - patch
    - update
    - watch
- apiGroups:
    - ""
  resources:
    - services
    - serviceaccounts
  verbs:
    - create
    - delete
    - get
    - list
    - patch
    - update
    - watch
- apiGroups:
    - rbac.authorization.k8s.io
  resources:
    - roles
    - rolebindings
  verbs:
    - create
    - delete
    - get
    - list
    - patch
    - update
    - watch
- apiGroups:
    - policy
  resources:
    - poddisruptionbudgets
  verbs:
    - create
    - delete
    - get
    - list
    - patch
    - update
    - watch
- apiGroups:
    - autoscaling
  resources:
    - horizontalpodautoscalers
  verbs:
    - create
    - delete
    - get
    - list
    - patch
    - update
    - watch
- apiGroups:
    - networking.k8s.io
  resources:
    - ingresses
  verbs:
    - create
    - delete
    - get
    - list
    - patch
    - update
    - watch
- apiGroups:
    - monitoring.coreos.com
  resources:
    - servicemonitors
  verbs:
    - create
    - delete
    - get
    - list
    - patch
    - update
    - watch
- apiGroups:
    - coordination.k8s.io
  resources:
    - leases
  verbs:
    - create
    - get
    - update
- apiGroups:
    - ""
  resources:
    - events
  verbs:
    - create
    - patch
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
{{- define "mdw-operator.leaderLease" -}}
mdw-operator-leader
{{- end }}
