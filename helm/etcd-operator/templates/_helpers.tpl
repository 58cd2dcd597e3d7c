{{- define "etcd-operator.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "etcd-operator.fullname" -}}
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

{{/*
The metrics Service: a Service name is a DNS label (63 characters at most), the suffix included.
*/}}
{{- define "etcd-operator.metricsServiceName" -}}
{{- printf "%s-metrics" (include "etcd-operator.fullname" . | trunc 55 | trimSuffix "-") }}
{{- end }}

{{- define "etcd-operator.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{ include "etcd-operator.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "etcd-operator.selectorLabels" -}}
app.kubernetes.io/name: {{ include "etcd-operator.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "etcd-operator.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "etcd-operator.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{- define "etcd-operator.image" -}}
{{- if .Values.image.digest }}
{{- printf "%s@%s" .Values.image.repository .Values.image.digest }}
{{- else }}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}
{{- end }}

{{- define "etcd-operator.leaseName" -}}
{{- default (printf "%s-leader" (include "etcd-operator.fullname" .)) .Values.leaderElection.leaseName }}
{{- end }}

{{/* The namespaces watched when not cluster-wide: the list given, else the release namespace. */}}
{{- define "etcd-operator.watchNamespaces" -}}
{{- if .Values.clusterWide }}
{{- if .Values.watchNamespaces }}
{{- fail "watchNamespaces must be empty when clusterWide is true" }}
{{- end }}
{{- else }}
{{- default (list .Release.Namespace) .Values.watchNamespaces | uniq | join "," }}
{{- end }}
{{- end }}

{{/*
Everything the operator does in a watched namespace. docs/install.md explains each line; the test
HelmChartTest holds the same table and fails on any difference.
*/}}
{{- define "etcd-operator.rules" -}}
- apiGroups: ["etcd.database.coreos.com"]
  resources: ["etcdclusters", "etcdbackups", "etcdrestores"]
  verbs: ["get", "list", "watch"]
- apiGroups: ["etcd.database.coreos.com"]
  resources: ["etcdclusters"]
  verbs: ["create", "delete", "update", "patch"]
- apiGroups: ["etcd.database.coreos.com"]
  resources: ["etcdrestores"]
  verbs: ["create", "patch"]
- apiGroups: ["etcd.database.coreos.com"]
  resources: ["etcdclusters/finalizers"]
  verbs: ["update"]
- apiGroups: ["etcd.database.coreos.com"]
  resources: ["etcdclusters/status", "etcdbackups/status", "etcdrestores/status"]
  verbs: ["patch"]
- apiGroups: [""]
  resources: ["pods"]
  verbs: ["get", "list", "watch", "create", "delete", "patch"]
- apiGroups: [""]
  resources: ["services"]
  verbs: ["get", "list", "watch", "create"]
- apiGroups: [""]
  resources: ["persistentvolumeclaims"]
  verbs: ["get", "list", "create", "delete"]
- apiGroups: [""]
  resources: ["secrets"]
  verbs: ["get", "create", "update", "delete"]
- apiGroups: [""]
  resources: ["events"]
  verbs: ["create", "patch"]
- apiGroups: ["policy"]
  resources: ["poddisruptionbudgets"]
  verbs: ["get", "create", "update"]
{{- end }}
