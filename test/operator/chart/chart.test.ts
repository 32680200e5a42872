/** @module The Helm chart: lint, render with default and full values, validate every object, schema-guard the values. */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { parse } from 'yaml';
import type { V1ClusterRole, V1Container, V1Deployment } from '@kubernetes/client-node';
import type { KubeObject } from '../../../src/operator/kube/client.ts';
import { buildCrd } from '../../../src/operator/api/crd.ts';
import { buildOperatorDeployment } from '../../../src/operator/specs/operator-deployment.ts';
import { WRITER_LEASE_ROLE, operatorRules } from '../../../src/operator/specs/rbac.ts';
import { kubeSchemaProblems } from '../specs/kube-schema.ts';
import { CHART, helm, renderChart } from './helm.ts';

const FULL_VALUES = fileURLToPath(new URL('full-values.yaml', import.meta.url));
const byKind = (objects: KubeObject[], kind: string) => objects.filter((o) => o.kind === kind);
const containerOf = (objects: KubeObject[]) =>
  (byKind(objects, 'Deployment')[0] as V1Deployment).spec?.template.spec?.containers[0] as V1Container;

describe('Helm chart aeternity-middleware-operator', function () {
  this.timeout(60_000);
  let defaults: KubeObject[] = [];
  let full: KubeObject[] = [];

  before(async () => {
    [defaults, full] = await Promise.all([
      renderChart('mdw', 'mdw-system'),
      renderChart('mdw', 'mdw-system', '--values', FULL_VALUES),
    ]);
  });

  it('passes helm lint with default and with full values', async () => {
    expect(await helm('lint', CHART, '--strict')).to.match(/0 chart\(s\) failed/);
    expect(await helm('lint', CHART, '--strict', '--values', FULL_VALUES)).to.match(/0 chart\(s\) failed/);
  });

  it('renders with defaults: CRD, ServiceAccount, RBAC, metrics Service and a 2-replica operator with its PDB', () => {
    expect(defaults.map((o) => o.kind).sort()).to.deep.equal([
      'ClusterRole',
      'ClusterRole',
      'ClusterRoleBinding',
      'CustomResourceDefinition',
      'Deployment',
      'PodDisruptionBudget',
      'Role',
      'RoleBinding',
      'Service',
      'ServiceAccount',
    ]);
    expect((byKind(defaults, 'Deployment')[0] as V1Deployment).spec?.replicas).to.equal(2);
  });

  it('renders every object valid against the Kubernetes schemas, for both value files', async () => {
    for (const obj of [...defaults, ...full])
      expect(await kubeSchemaProblems(obj), `${obj.kind} ${obj.metadata.name}`).to.deep.equal([]);
  });

  it('ships the generated CRD, kept on uninstall, only while crds.create is true', () => {
    const crd = byKind(defaults, 'CustomResourceDefinition')[0];
    const generated = buildCrd();
    expect(crd?.metadata.annotations).to.deep.equal({ 'helm.sh/resource-policy': 'keep' });
    expect(crd?.spec).to.deep.equal(generated.spec);
    expect(byKind(full, 'CustomResourceDefinition')).to.have.length(0);
  });

  it('grants exactly the generated rules; a Role in watchNamespace when one is set', () => {
    const operatorRole = byKind(defaults, 'ClusterRole').find((r) => r.metadata.name !== WRITER_LEASE_ROLE);
    expect((operatorRole as V1ClusterRole).rules).to.deep.equal(operatorRules());
    const roles = byKind(full, 'Role').map((r) => r.metadata.namespace);
    expect(roles).to.have.members(['chain', 'mdw-system']);
    // only the writer-Lease ClusterRole, which the operator binds in the watched namespace
    expect(byKind(full, 'ClusterRole').map((r) => r.metadata.name)).to.deep.equal([WRITER_LEASE_ROLE]);
  });

  it('keeps helm.sh/chart and the version out of selectors, and sets no default resources', () => {
    for (const objects of [defaults, full]) {
      const deployment = byKind(objects, 'Deployment')[0] as V1Deployment;
      const service = byKind(objects, 'Service')[0] as unknown as { spec: { selector: Record<string, string> } };
      for (const selector of [deployment.spec?.selector.matchLabels ?? {}, service.spec.selector]) {
        expect(Object.keys(selector)).to.have.members(['app.kubernetes.io/name', 'app.kubernetes.io/instance']);
      }
      expect(deployment.metadata?.labels).to.have.property('helm.sh/chart');
    }
    expect(containerOf(defaults).resources).to.equal(undefined);
    expect(containerOf(full).resources).to.deep.equal({
      requests: { cpu: '100m', memory: '128Mi' },
      limits: { memory: '256Mi' },
    });
  });

  it('runs the same container as `mdw manifests` (args, env, ports, probes, security)', () => {
    const chart = containerOf(defaults);
    const manifest = buildOperatorDeployment({ namespace: 'mdw-system', image: chart.image ?? '' }).spec?.template.spec
      ?.containers[0];
    const pick = (c: V1Container | undefined) => ({
      args: c?.args,
      env: c?.env,
      ports: c?.ports,
      liveness: c?.livenessProbe,
      readiness: c?.readinessProbe,
      security: c?.securityContext,
      mounts: c?.volumeMounts,
    });
    expect(pick(chart)).to.deep.equal(pick(manifest));
    expect(chart.image).to.equal('ghcr.io/aeternity/mdw:0.3.0');
  });

  it('applies the full values: digest image, watch namespace, ServiceMonitor, overrides', () => {
    const container = containerOf(full);
    expect(container.image).to.match(/^registry\.example\.com\/aeternity\/mdw@sha256:/);
    expect(container.env?.find((e) => e.name === 'WATCH_NAMESPACE')?.value).to.equal('chain');
    expect(container.env?.find((e) => e.name === 'KUBE_REQUEST_TIMEOUT_MS')?.value).to.equal('10000');
    expect(byKind(full, 'ServiceMonitor')).to.have.length(1);
    expect((byKind(full, 'Deployment')[0] as V1Deployment).spec?.replicas).to.equal(3);
    expect(byKind(full, 'ServiceAccount')[0]?.metadata.name).to.equal('mdw-operator-sa');
  });

  it('values.schema.json accepts both value files and rejects bad values (in helm and in ajv)', async () => {
    const schema = JSON.parse(readFileSync(`${CHART}/values.schema.json`, 'utf8')) as object;
    const validate = new Ajv({ allErrors: true, allowUnionTypes: true }).compile(schema);
    const values = parse(readFileSync(`${CHART}/values.yaml`, 'utf8')) as unknown;
    expect(validate(values), JSON.stringify(validate.errors)).to.equal(true);
    expect(validate(parse(readFileSync(FULL_VALUES, 'utf8'))), JSON.stringify(validate.errors)).to.equal(true);
    expect(validate({ ...(values as object), replicaCount: 'two' })).to.equal(false);
    expect(validate({ ...(values as object), logLevel: 'loud' })).to.equal(false);
    // the bounds `mdw operator` itself accepts (src/config/cluster.ts), so a bad value fails the install, not the pods
    for (const kubeRequestTimeoutMs of [50, 600_001, 1.5, '30000'])
      expect(validate({ ...(values as object), kubeRequestTimeoutMs }), String(kubeRequestTimeoutMs)).to.equal(false);
    expect(validate({ ...(values as object), surprise: true })).to.equal(false);
    let error = '';
    await renderChart('mdw', 'mdw-system', '--set', 'replicaCount=two').catch((err: Error) => {
      error = err.message;
    });
    expect(error)
      .to.match(/replicaCount/)
      .and.match(/schema/i);
  });

  it('keeps one operator replica through a drain (PDB maxUnavailable 1), and has no PDB for a single replica', async () => {
    const pdb = byKind(defaults, 'PodDisruptionBudget')[0] as unknown as {
      spec: { maxUnavailable: number; selector: unknown };
    };
    expect(pdb.spec.maxUnavailable).to.equal(1);
    expect(pdb.spec.selector).to.deep.equal({
      matchLabels: (byKind(defaults, 'Deployment')[0] as V1Deployment).spec?.selector?.matchLabels,
    });
    const single = await renderChart('mdw', 'mdw-system', '--set', 'replicaCount=1');
    expect(byKind(single, 'PodDisruptionBudget')).to.deep.equal([]);
  });

  it('opts into NetworkPolicies: the operator takes its http port only, the operands their http and websocket ports', () => {
    expect(byKind(defaults, 'NetworkPolicy')).to.deep.equal([]);
    const [operator, operands] = byKind(full, 'NetworkPolicy') as unknown as {
      metadata: { namespace: string };
      spec: { ingress: { ports: { port: string }[]; from?: unknown[] }[] };
    }[];
    expect(operator?.spec.ingress[0]?.ports.map((p) => p.port)).to.deep.equal(['http']);
    expect(operator?.spec.ingress[0]?.from).to.have.length(1);
    expect(operands?.metadata.namespace).to.equal('chain');
    expect(operands?.spec.ingress[0]?.ports.map((p) => p.port)).to.deep.equal(['http', 'websocket']);
  });

  it('labels the CRD with the app.kubernetes.io labels and those of Helm', () => {
    const crd = byKind(defaults, 'CustomResourceDefinition')[0];
    expect(crd?.metadata.labels).to.include({
      'app.kubernetes.io/name': 'aeternity-middleware',
      'app.kubernetes.io/component': 'crd',
      'app.kubernetes.io/part-of': 'aeternity-middleware',
      'app.kubernetes.io/managed-by': 'Helm',
      'app.kubernetes.io/instance': 'mdw',
    });
  });

  it('has NOTES without placeholder URLs', () => {
    const notes = readFileSync(`${CHART}/templates/NOTES.txt`, 'utf8');
    expect(notes).not.to.match(/…|https?:\/\/[^ ]*\.\.\./);
  });
});
