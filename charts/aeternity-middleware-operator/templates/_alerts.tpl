{{- /* The chart's alerts, before monitoring.prometheusRule.alerts (prometheusrule.yaml) leaves some out or labels them;
each has a runbook in docs/operations.md under its name ("Alert runbooks"). */ -}}
{{- define "mdw-operator.alerts" -}}
{{- $r := .Values.monitoring.prometheusRule -}}
rules:
- alert: MiddlewarePopulatorStuck
  # the stored height flat for 15 minutes while the node is ahead, or while the node has not answered a poll for 5
  # (the lag is NaN then: unknown); a populator that never polled (one waiting for another's writer lock) is left out
  expr: (max by (namespace, pod) (delta(mdw_sync_height[15m])) == 0) and on (namespace, pod) ((max by (namespace, pod) (mdw_sync_lag_blocks) > 0) or (time() - (max by (namespace, pod) (mdw_node_last_poll_timestamp_seconds) > 0) > 300))
  for: 5m
  labels:
    severity: critical
  annotations:
    summary: "Populator {{`{{ $labels.namespace }}/{{ $labels.pod }}`}} stores nothing though the node moved on or cannot be asked"
    description: "Its stored height has not moved for 15 minutes while its node is ahead, or while its node has not answered for 5 minutes: a node or database away, a crash loop, a full disk. MiddlewareNodeUnavailable and MiddlewareDatabaseUnavailable say which dependency."
- alert: MiddlewarePopulatorNotCommitting
  expr: (time() - max by (namespace, pod) (mdw_indexer_last_commit_timestamp_seconds) > {{ $r.notCommittingSeconds }}) and on (namespace, pod) (max by (namespace, pod) (delta(mdw_node_height[{{ $r.notCommittingSeconds }}s])) > 0)
  for: 2m
  labels:
    severity: critical
  annotations:
    summary: "Populator {{`{{ $labels.namespace }}/{{ $labels.pod }}`}} has committed nothing for {{ $r.notCommittingSeconds }} s while its node moved on"
    description: "Its last batch was committed {{`{{ $value | humanizeDuration }}`}} ago although its node's height grew meanwhile: nothing new is stored or served."
- alert: MiddlewareNodeUnavailable
  # the server's view (mdw_dependency_up: its forwards and status readings) or the populator's (its polls of the top)
  expr: (max by (namespace, pod) (mdw_dependency_up{dependency="node"}) == 0) or (max by (namespace, pod) (mdw_populator_dependency_up{dependency="node"}) == 0)
  for: {{ $r.dependencyDownFor }}
  labels:
    severity: critical
  annotations:
    summary: "{{`{{ $labels.namespace }}/{{ $labels.pod }}`}} cannot reach its æternity node"
    description: "The node has not answered for {{ $r.dependencyDownFor }}: the populator stores nothing (its lag is unknown, NaN) and the server answers forwarded requests 502/504."
- alert: MiddlewareDatabaseUnavailable
  expr: (max by (namespace, pod) (mdw_dependency_up{dependency="database"}) == 0) or (max by (namespace, pod) (mdw_populator_dependency_up{dependency="database"}) == 0)
  for: {{ $r.dependencyDownFor }}
  labels:
    severity: critical
  annotations:
    summary: "{{`{{ $labels.namespace }}/{{ $labels.pod }}`}} cannot reach PostgreSQL"
    description: "The database has not answered for {{ $r.dependencyDownFor }}: the populator cannot take its writer lock (nothing is stored) and the server answers what needs the database 503."
- alert: MiddlewareLagHigh
  expr: max by (namespace, pod) (mdw_sync_lag_blocks) > {{ $r.lagBlocks }}
  for: 15m
  labels:
    severity: warning
  annotations:
    summary: "Populator {{`{{ $labels.namespace }}/{{ $labels.pod }}`}} is {{`{{ $value }}`}} blocks behind the node"
    description: "The lag has stayed above {{ $r.lagBlocks }} blocks for 15 minutes."
- alert: MiddlewareDerivedAreaFailing
  expr: max by (namespace, pod, area) (mdw_derive_failing) == 1
  for: 15m
  labels:
    severity: warning
  annotations:
    summary: "Populator {{`{{ $labels.namespace }}/{{ $labels.pod }}`}} cannot derive its {{`{{ $labels.area }}`}} area"
    description: "The chain is followed and served, but the area's rows stop at a height and are retried with backoff: /middleware/status (populator.derivations) and /mdw/v3/status (mdw_failed_areas) say from which height and why, and the populator logs it once."
- alert: MiddlewareHttp5xxRatio
  # answers to clients only: Prometheus' scrapes and the kubelet's probes are not traffic (a /readyz 503 says not ready,
  # no error), and a client that gave up (499) got no answer, so it counts on neither side
  expr: sum by (namespace) (rate(mdw_api_http_requests_total{status=~"5..", route!~"/metrics|/healthz|/readyz"}[5m])) / sum by (namespace) (rate(mdw_api_http_requests_total{status!="499", route!~"/metrics|/healthz|/readyz"}[5m])) > {{ $r.errorRatio }}
  for: 10m
  labels:
    severity: warning
  annotations:
    summary: "More than {{ $r.errorRatio }} of the middleware's HTTP answers to clients in {{`{{ $labels.namespace }}`}} are 5xx"
    description: "Server errors are {{`{{ $value | humanizePercentage }}`}} of all answers over 5 minutes. The dashboard's HTTP requests per API and status and HTTP 5xx per route tell which API (/mdw/v3, /mdw/graphql, the node's /v3 and /v2, /middleware) answers them; 503 with Retry-After is a refusal for load."
- alert: MiddlewareReloadFailed
  # fires when a reload has failed within the last 6 h, and clears when the next reload starts, or after 6 h
  # (the Failed series changed from 0 to 1 in the window); MiddlewareDegraded leaves a failed reload to it
  expr: (max by (middleware_namespace, middleware) (changes(mdw_operator_middleware_reload_state{state="Failed"}[6h])) > 0) and on (middleware_namespace, middleware) (max by (middleware_namespace, middleware) (mdw_operator_middleware_reload_state{state="Failed"}) == 1)
  for: 1m
  labels:
    severity: warning
  annotations:
    summary: "The last reload of Middleware {{`{{ $labels.middleware_namespace }}/{{ $labels.middleware }}`}} failed"
    description: "A failed migration, or a reload past its deadline (spec.reload.deadline); the Middleware's Events say which. The previous generation keeps serving. The alert clears when the next reload starts, or 6 hours after the failure."
- alert: MiddlewareDegraded
  # the operator's own view (its condition gauge), so it needs no scrape of the Middleware's pods: a dead or
  # crash-looping populator (PopulatorNotReady), no server ready, a failed migration, a stalled rollout
  expr: (max by (middleware_namespace, middleware) (mdw_operator_middleware_condition{type="Degraded",status="True"}) == 1) unless on (middleware_namespace, middleware) (max by (middleware_namespace, middleware) (mdw_operator_middleware_reload_state{state="Failed"}) == 1)
  for: 10m
  labels:
    severity: critical
  annotations:
    summary: "Middleware {{`{{ $labels.middleware_namespace }}/{{ $labels.middleware }}`}} is Degraded"
    description: "Its Degraded condition has been True for 10 minutes: `kubectl describe middleware` gives the reason (PopulatorNotReady, NoPodReady, MigrationFailed, a stalled rollout, OperandRefused). A failed reload is MiddlewareReloadFailed's."
- alert: MiddlewarePopulatorDown
  # the scrape's view: a populator target that does not answer (up == 0), or whose target went away within the
  # last 6 h (a crash-looping pod leaves its Service's endpoints) while the operator still reconciles its Middleware
  expr: (max by (namespace, service) (up{service=~".+-populator"}) == 0) or ((max by (namespace, service) (max_over_time(up{service=~".+-populator"}[6h])) unless max by (namespace, service) (up{service=~".+-populator"})) and on (namespace, service) label_replace(label_replace(max by (middleware_namespace, middleware) (mdw_operator_middleware_condition{type="Reconciled"}), "namespace", "$1", "middleware_namespace", "(.+)"), "service", "$1-populator", "middleware", "(.+)"))
  for: 5m
  labels:
    severity: critical
  annotations:
    summary: "The populator behind {{`{{ $labels.namespace }}/{{ $labels.service }}`}} exports no metrics"
    description: "Its /metrics does not answer, or its pod left the Service (not ready, crash-looping, gone) though the operator still manages the Middleware: nothing is being stored. kubectl get pods -l app.kubernetes.io/component=populator says why."
- alert: MiddlewareReloadSlow
  expr: max by (middleware_namespace, middleware) (mdw_operator_middleware_reload_state{state=~"CheckingDatabase|Migrating|CatchingUp"}) == 1
  for: {{ $r.reloadSlowAfter }}
  labels:
    severity: info
  annotations:
    summary: "Middleware {{`{{ $labels.middleware_namespace }}/{{ $labels.middleware }}`}} has been reloading for {{ $r.reloadSlowAfter }}"
    description: "The new generation has not passed the promotion gate yet; at spec.reload.deadline the reload fails."
- alert: MiddlewareOperatorReconcileErrors
  expr: sum by (namespace, pod) (rate(mdw_operator_reconcile_errors_total[10m])) > 0
  for: 15m
  labels:
    severity: warning
  annotations:
    summary: "The middleware operator {{`{{ $labels.pod }}`}} keeps failing to reconcile"
    description: "Reconciles have thrown for 15 minutes; the Middlewares' ReconcileError Events say why."
{{- end }}
