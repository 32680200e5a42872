/** @module `mdw manifests` output and the operator's RBAC: valid objects, least privilege, covering every child kind. */
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import type { V1Deployment, V1PodDisruptionBudget, V1PolicyRule } from '@kubernetes/client-node';
import type { KubeObject } from '../../../src/operator/kube/client.ts';
import { buildManifests, renderManifests } from '../../../src/operator/specs/manifests.ts';
import {
  LEADER_LEASE_NAME,
  OPERATOR_PERMISSIONS,
  buildOperatorRbac,
  operatorRules,
} from '../../../src/operator/specs/rbac.ts';
import { buildServerDeployment } from '../../../src/operator/specs/server-deployment.ts';
import { buildMigrationJob } from '../../../src/operator/specs/jobs.ts';
import { buildStableService } from '../../../src/operator/specs/services.ts';
import { buildServerPdb } from '../../../src/operator/specs/server-pdb.ts';
import { buildServerHpa } from '../../../src/operator/specs/server-hpa.ts';
import { buildIngress } from '../../../src/operator/specs/ingress.ts';
import { buildServiceMonitor } from '../../../src/operator/specs/service-monitor.ts';
import { buildServiceAccount, buildWorkloadRoleBinding } from '../../../src/operator/specs/service-account.ts';
import { aFullMiddleware, contextOf } from './fixtures.ts';
import { expectGoldenText } from './golden.ts';
import { kubeSchemaProblems } from './kube-schema.ts';

const opts = { namespace: 'mdw-system', image: 'ghcr.io/aeternity/mdw:0.1.0' };

/** Plural resource of each kind the operator writes (the API's REST names). */
const RESOURCE: Record<string, [string, string]> = {
  Deployment: ['apps', 'deployments'],
  Job: ['batch', 'jobs'],
  Service: ['', 'services'],
  ServiceAccount: ['', 'serviceaccounts'],
  Role: ['rbac.authorization.k8s.io', 'roles'],
  RoleBinding: ['rbac.authorization.k8s.io', 'rolebindings'],
  PodDisruptionBudget: ['policy', 'poddisruptionbudgets'],
  HorizontalPodAutoscaler: ['autoscaling', 'horizontalpodautoscalers'],
  Ingress: ['networking.k8s.io', 'ingresses'],
  ServiceMonitor: ['monitoring.coreos.com', 'servicemonitors'],
};

const allows = (rules: V1PolicyRule[], group: string, resource: string, verb: string) =>
  rules.some(
    (r) =>
      r.apiGroups?.includes(group) && r.resources?.includes(resource) && r.verbs.includes(verb) && !r.resourceNames,
  );

describe('renderManifests', () => {
  const docs = parseAllDocuments(renderManifests(opts)).map((d) => d.toJS() as KubeObject);

  it('matches the golden install manifest', () => {
    expectGoldenText(fileURLToPath(new URL('testdata/manifests.golden.yaml', import.meta.url)), renderManifests(opts));
  });

  it('renders Namespace, CRD, RBAC, metrics Service, the operator Deployment and its PDB, each valid', async () => {
    expect(docs.map((d) => d.kind)).to.deep.equal([
      'Namespace',
      'CustomResourceDefinition',
      'ServiceAccount',
      'ClusterRole',
      'ClusterRoleBinding',
      'Role',
      'RoleBinding',
      'ClusterRole',
      'Service',
      'Deployment',
      'PodDisruptionBudget',
    ]);
    for (const doc of docs) expect(await kubeSchemaProblems(doc), `${doc.kind}`).to.deep.equal([]);
  });

  // issue 43 item 6: as the chart does, so that a drain never takes both replicas at once
  it("keeps one of the operator's replicas through a drain (none for a single replica, whose drain it would block)", () => {
    const pdb = docs.find((d) => d.kind === 'PodDisruptionBudget') as V1PodDisruptionBudget | undefined;
    const deployment = docs.find((d) => d.kind === 'Deployment') as V1Deployment | undefined;
    expect(pdb?.spec).to.deep.equal({ maxUnavailable: 1, selector: deployment?.spec?.selector });
    const single = buildManifests({ ...opts, replicas: 1 }).map((d) => d.kind);
    expect(single).not.to.include('PodDisruptionBudget');
  });

  it('labels the Namespace and the CRD with app.kubernetes.io labels', () => {
    for (const kind of ['Namespace', 'CustomResourceDefinition']) {
      const labels = docs.find((d) => d.kind === kind)?.metadata.labels ?? {};
      expect(Object.keys(labels), kind).to.include.members([
        'app.kubernetes.io/name',
        'app.kubernetes.io/component',
        'app.kubernetes.io/part-of',
        'app.kubernetes.io/managed-by',
      ]);
    }
  });

  it('runs `mdw operator` twice, for leader election, as non-root with a read-only root', () => {
    const deployment = docs.find((d) => d.kind === 'Deployment') as V1Deployment;
    const container = deployment.spec?.template.spec?.containers[0];
    expect(deployment.spec?.replicas).to.equal(2);
    expect(container?.args).to.deep.equal(['operator']);
    expect(container?.image).to.equal(opts.image);
    expect(container?.env?.find((e) => e.name === 'MIDDLEWARE_IMAGE')?.value).to.equal(opts.image);
    expect(container?.securityContext?.readOnlyRootFilesystem).to.equal(true);
    expect(deployment.spec?.selector.matchLabels).not.to.have.property('app.kubernetes.io/version');
  });

  it('manages one namespace with a Role instead of a ClusterRole when asked', () => {
    const kinds = buildManifests({ ...opts, watchNamespace: 'chain', createNamespace: false }).map(
      (o) => `${o.kind}/${o.metadata.namespace ?? ''}`,
    );
    expect(kinds).to.include.members(['Role/chain', 'RoleBinding/chain', 'Role/mdw-system']);
    // only the writer-Lease ClusterRole, which grants nothing until the operator binds it in the watched namespace
    expect(kinds.filter((k) => k.startsWith('ClusterRole'))).to.deep.equal(['ClusterRole/']);
    expect(kinds).not.to.include('Namespace/');
  });
});

describe('operator RBAC', () => {
  const rules = operatorRules();

  it('lets the operator list, create and apply (patch) every kind the builders produce', () => {
    const ctx = contextOf(aFullMiddleware());
    const children = [
      buildServerDeployment(ctx, 1),
      buildMigrationJob(ctx, 1),
      buildStableService(ctx, 1),
      buildServerPdb(ctx, 1),
      buildServerHpa(ctx),
      buildIngress(ctx),
      buildServiceMonitor(ctx),
      buildServiceAccount(ctx),
      buildWorkloadRoleBinding(ctx),
    ];
    for (const child of children) {
      const [group, resource] = RESOURCE[child?.kind ?? ''] ?? ['?', '?'];
      for (const verb of ['list', 'create', 'patch']) {
        expect(allows(rules, group, resource, verb), `${verb} ${resource}`).to.equal(true);
      }
    }
  });

  it('creates events and writes status through the subresource', () => {
    expect(allows(rules, '', 'events', 'create')).to.equal(true);
    expect(allows(rules, 'middleware.aeternity.io', 'middlewares/status', 'patch')).to.equal(true);
  });

  it('grants no wildcard, no secrets, no delete on Middlewares or Leases', () => {
    expect(JSON.stringify(rules)).not.to.include('*');
    expect(OPERATOR_PERMISSIONS.map((p) => p.resource)).not.to.include('secrets');
    expect(allows(rules, 'middleware.aeternity.io', 'middlewares', 'delete')).to.equal(false);
    expect(allows(rules, 'coordination.k8s.io', 'leases', 'delete')).to.equal(false);
  });

  it('limits leader election to the leader Lease by name', () => {
    const leader = buildOperatorRbac(opts).find((o) => o.kind === 'Role') as { rules: V1PolicyRule[] };
    const named = leader.rules.find((r) => r.resourceNames);
    expect(named).to.deep.include({ resourceNames: [LEADER_LEASE_NAME], verbs: ['get', 'update'] });
  });
});
