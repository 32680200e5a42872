/** @module `mdw manifests`: the CRD, RBAC, operator Deployment and PDB as multi-document YAML for `kubectl apply`. Pure. */
import { stringify } from 'yaml';
import type { KubeObject } from '../kube/client.ts';
import { buildCrd, renderCrdYaml } from '../api/crd.ts';
import {
  LEADER_LEASE_NAME,
  WRITER_LEASE_ROLE,
  buildOperatorRbac,
  homeEventRules,
  leaderElectionRules,
  operatorRules,
  writerLeaseRules,
} from './rbac.ts';
import {
  buildOperatorDeployment,
  buildOperatorMetricsService,
  buildOperatorPdb,
  operatorLabels,
} from './operator-deployment.ts';
import { LABEL_MANAGED_BY } from './meta.ts';
import type { OperatorDeploymentOptions } from './operator-deployment.ts';

/** ManifestOptions: the operator's namespace and image, plus optional replicas, watched namespace, log level. */
export interface ManifestOptions extends OperatorDeploymentOptions {
  /** Emit a Namespace object first (default true). */
  readonly createNamespace?: boolean;
}

/** buildManifests lists every object of an operator install, in apply order. */
export function buildManifests(opts: ManifestOptions): KubeObject[] {
  const objects: KubeObject[] = [];
  if (opts.createNamespace ?? true)
    objects.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: opts.namespace, labels: operatorLabels() } });
  const crd = buildCrd();
  crd.metadata.labels = { ...crd.metadata.labels, [LABEL_MANAGED_BY]: operatorLabels()[LABEL_MANAGED_BY] ?? '' };
  objects.push(crd);
  objects.push(
    ...buildOperatorRbac({ namespace: opts.namespace, watchNamespace: opts.watchNamespace, labels: operatorLabels() }),
  );
  objects.push(buildOperatorMetricsService(opts.namespace), buildOperatorDeployment(opts));
  const pdb = buildOperatorPdb(opts);
  if (pdb !== undefined) objects.push(pdb);
  return objects;
}

/** renderManifests renders buildManifests as YAML documents separated by `---`. */
export function renderManifests(opts: ManifestOptions): string {
  return buildManifests(opts).map(toYaml).join('---\n');
}

/** renderChartCrdTemplate is the chart's CRD template: the same CRD, kept on uninstall, behind `crds.create`. */
export function renderChartCrdTemplate(): string {
  const crd = buildCrd();
  crd.metadata.annotations = { ...crd.metadata.annotations, 'helm.sh/resource-policy': 'keep' };
  // Helm's own labels join the CRD's (its name and component stay the CRD's, not the operator's)
  const helmLabels = [
    '    helm.sh/chart: {{ include "mdw-operator.chart" . }}',
    '    app.kubernetes.io/instance: {{ .Release.Name }}',
    '    app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}',
    '    app.kubernetes.io/managed-by: {{ .Release.Service }}',
  ].join('\n');
  const yaml = toYaml(crd).replace(/^ {2}labels:\n/m, (labels) => `${labels}${helmLabels}\n`);
  return `{{- if .Values.crds.create }}\n${GENERATED_HEADER}${yaml}{{- end }}\n`;
}

/**
 * renderChartRulesTemplate defines the chart's `mdw-operator.rules`, `.leaderRules`, `.homeEventRules`, `.leaderLease`,
 * `.writerLeaseRules` and `.writerLeaseRole` helpers from rbac.ts.
 */
export function renderChartRulesTemplate(): string {
  const define = (name: string, rules: unknown) => `{{- define "${name}" -}}\n${toYaml(rules)}{{- end }}\n`;
  const name = (helper: string, value: string) => `{{- define "${helper}" -}}\n${value}\n{{- end }}\n`;
  return [
    GENERATED_HEADER,
    define('mdw-operator.rules', operatorRules()),
    define('mdw-operator.leaderRules', leaderElectionRules()),
    define('mdw-operator.homeEventRules', homeEventRules()),
    name('mdw-operator.leaderLease', LEADER_LEASE_NAME),
    define('mdw-operator.writerLeaseRules', writerLeaseRules()),
    name('mdw-operator.writerLeaseRole', WRITER_LEASE_ROLE),
  ].join('');
}

/** renderCrdFile is the checked-in crds/ file: the CRD with the generated-file header. */
export function renderCrdFile(): string {
  return `${GENERATED_HEADER}${renderCrdYaml()}`;
}

/** GENERATED_HEADER marks files written by the golden tests (UPDATE_GOLDEN=1). */
const GENERATED_HEADER =
  '# Generated from src/operator (crd.ts, rbac.ts): do not edit; regenerate with UPDATE_GOLDEN=1.\n';

function toYaml(value: unknown): string {
  return stringify(value, { lineWidth: 0, aliasDuplicateObjects: false });
}
