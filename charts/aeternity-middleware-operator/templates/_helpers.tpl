{{/* Chart name, bounded to 63 characters. */}}
{{- define "mdw-operator.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Full name: release-qualified unless the release name already contains the chart name. */}}
{{- define "mdw-operator.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "mdw-operator.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Selector labels: immutable in a Deployment, so no version and no helm.sh/chart. */}}
{{- define "mdw-operator.selectorLabels" -}}
app.kubernetes.io/name: {{ include "mdw-operator.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* Recommended labels on every object. */}}
{{- define "mdw-operator.labels" -}}
helm.sh/chart: {{ include "mdw-operator.chart" . }}
{{ include "mdw-operator.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/component: operator
app.kubernetes.io/part-of: aeternity-middleware
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "mdw-operator.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "mdw-operator.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The operator image, by digest when one is given. */}}
{{- define "mdw-operator.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}
{{- end }}
