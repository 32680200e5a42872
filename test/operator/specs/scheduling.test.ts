/**
 * @module Issue 43 item 2: the pods of the servers, the populator and the Jobs are placed and labelled as the spec
 * says, the ServiceAccount carries a workload identity, every Job has resources, the migration deadline and the
 * preview server count are fields; the CRD and the operator accept and refuse the same values.
 */
import { expect } from 'chai';
import type { V1PodTemplateSpec } from '@kubernetes/client-node';
import { resolveSpec } from '../../../src/operator/api/defaults.ts';
import type { Middleware, MiddlewareSpec } from '../../../src/operator/api/middleware-types.ts';
import { validateMiddleware } from '../../../src/operator/api/validation.ts';
import {
  buildDatabaseUsageJob,
  buildDropSchemaJob,
  buildMigrationJob,
  buildReloadJob,
} from '../../../src/operator/specs/jobs.ts';
import { LABEL_COMPONENT } from '../../../src/operator/specs/meta.ts';
import { buildPopulatorDeployment } from '../../../src/operator/specs/populator-deployment.ts';
import { buildServerDeployment } from '../../../src/operator/specs/server-deployment.ts';
import { buildServiceAccount } from '../../../src/operator/specs/service-account.ts';
import { aFullMiddleware, aMiddleware, contextOf } from './fixtures.ts';
import { middlewareSchemaProblems } from './kube-schema.ts';

const full = contextOf(aFullMiddleware());
const jobTemplates = (ctx = full): (V1PodTemplateSpec | undefined)[] => [
  buildMigrationJob(ctx, 1).spec?.template,
  buildReloadJob(ctx, 1, 'r1', '1-5').spec?.template,
  buildDropSchemaJob(ctx, 1).spec?.template,
  buildDatabaseUsageJob(ctx, 1, 'adopt').spec?.template,
];

describe('scheduling and metadata per component (issue 43 item 2)', () => {
  it('places the servers as spec.server says: selector, tolerations, affinity, spread, priority, pod metadata', () => {
    const template = buildServerDeployment(full, 1).spec?.template;
    const server = aFullMiddleware().spec.server!;
    expect(template?.spec).to.deep.include({
      nodeSelector: server.nodeSelector,
      tolerations: server.tolerations,
      affinity: server.affinity,
      topologySpreadConstraints: server.topologySpreadConstraints,
      priorityClassName: 'mdw-serving',
    });
    expect(template?.metadata?.annotations).to.deep.equal({ 'sidecar.istio.io/inject': 'true' });
    expect(template?.metadata?.labels).to.include({ team: 'chain', [LABEL_COMPONENT]: 'server' });
  });

  it("places the populator by spec.populator and the Jobs by spec.jobs, not by the servers' fields", () => {
    const populator = buildPopulatorDeployment(full, 1).spec?.template;
    expect(populator?.spec?.nodeSelector).to.deep.equal({ 'node.kubernetes.io/instance-type': 'm6i.xlarge' });
    expect(populator?.metadata?.annotations).to.deep.equal({ 'vault.hashicorp.com/agent-inject': 'true' });
    expect(populator?.spec?.tolerations).to.equal(undefined);
    for (const job of jobTemplates()) {
      expect(job?.spec).to.deep.include({
        tolerations: [{ key: 'batch', operator: 'Exists' }],
        priorityClassName: 'mdw-batch',
      });
      expect(job?.spec?.nodeSelector).to.equal(undefined);
    }
  });

  it("keeps the operator's own labels over a pod label of the same key (the selectors read them)", () => {
    const ctx = contextOf(
      aMiddleware({ server: { podMetadata: { labels: { [LABEL_COMPONENT]: 'mine', team: 'chain' } } } }),
    );
    const deployment = buildServerDeployment(ctx, 1);
    expect(deployment.spec?.template.metadata?.labels).to.include({ [LABEL_COMPONENT]: 'server', team: 'chain' });
    expect(deployment.spec?.selector.matchLabels).to.include({ [LABEL_COMPONENT]: 'server' });
  });

  it('leaves a pod without the fields as it was (no empty nodeSelector, tolerations or annotations)', () => {
    const template = buildServerDeployment(contextOf(aMiddleware()), 1).spec?.template;
    for (const field of ['nodeSelector', 'tolerations', 'affinity', 'topologySpreadConstraints', 'priorityClassName'])
      expect(template?.spec, field).not.to.have.property(field);
    expect(template?.metadata).not.to.have.property('annotations');
  });

  it("annotates the pods' ServiceAccount for a workload identity", () => {
    const sa = buildServiceAccount(full);
    expect(sa.metadata?.annotations).to.include({
      'iam.gke.io/gcp-service-account': 'mdw@project.iam.gserviceaccount.com',
    });
    const plain = buildServiceAccount(contextOf(aMiddleware())).metadata?.annotations ?? {};
    expect(Object.keys(plain).filter((k) => !k.startsWith('middleware.aeternity.io/'))).to.deep.equal([]);
  });

  it("gives every Job resources: spec.jobs.resources, and the populator's to the -H Jobs unless reloadResources", () => {
    const [migrate, reload, drop, usage] = jobTemplates().map((t) => t?.spec?.containers[0]?.resources);
    const jobs = aFullMiddleware().spec.jobs!.resources;
    expect([migrate, drop, usage]).to.deep.equal([jobs, jobs, jobs]);
    expect(reload).to.deep.equal(aFullMiddleware().spec.populator!.resources);
    const own = { requests: { cpu: '2', memory: '4Gi' } };
    const spec = { ...aFullMiddleware().spec, jobs: { reloadResources: own } };
    const [, reloadOwn] = jobTemplates(contextOf(aMiddleware(spec))).map((t) => t?.spec?.containers[0]?.resources);
    expect(reloadOwn).to.deep.equal(own);
  });

  it('bounds a migration by spec.jobs.migrationDeadline (1 h when unset)', () => {
    expect(buildMigrationJob(full, 1).spec?.activeDeadlineSeconds).to.equal(3 * 3600);
    expect(buildMigrationJob(contextOf(aMiddleware()), 1).spec?.activeDeadlineSeconds).to.equal(3600);
  });

  it('runs a pending generation with previewReplicas servers (1 by default, never more than replicas)', () => {
    const resolved = (server: MiddlewareSpec['server']) => resolveSpec(aMiddleware({ server }).spec, 'mdw_g').server;
    expect(resolved({ replicas: 20 }).previewReplicas).to.equal(1);
    expect(resolved({ replicas: 20, previewReplicas: 3 }).previewReplicas).to.equal(3);
    expect(resolved({ replicas: 2, previewReplicas: 3 }).previewReplicas).to.equal(2);
  });

  const cases: { name: string; spec: Partial<MiddlewareSpec>; path: string; operatorOnly?: boolean }[] = [
    {
      name: 'a toleration with an unknown operator',
      spec: { server: { tolerations: [{ key: 'a', operator: 'Matches' }] } },
      path: 'spec.server.tolerations[0].operator',
    },
    {
      name: 'a spread constraint without its topology key',
      spec: { populator: { topologySpreadConstraints: [{ maxSkew: 1, whenUnsatisfiable: 'DoNotSchedule' } as never] } },
      path: 'spec.populator.topologySpreadConstraints[0].topologyKey',
    },
    {
      name: 'a pod label value longer than 63 characters',
      spec: { jobs: { podMetadata: { labels: { team: 'x'.repeat(64) } } } },
      path: 'spec.jobs.podMetadata.labels.team',
    },
    {
      name: 'affinity that is not an object',
      spec: { server: { affinity: 'zone-a' as never } },
      path: 'spec.server.affinity',
    },
    { name: 'no preview server', spec: { server: { previewReplicas: 0 } }, path: 'spec.server.previewReplicas' },
    {
      name: 'a migration deadline that is no duration',
      spec: { jobs: { migrationDeadline: '2 hours' } },
      path: 'spec.jobs.migrationDeadline',
    },
    {
      name: 'a migration deadline of 0s (activeDeadlineSeconds must be positive)',
      spec: { jobs: { migrationDeadline: '0s' } },
      path: 'spec.jobs.migrationDeadline',
      operatorOnly: true,
    },
  ];
  for (const c of cases) {
    it(`refuses ${c.name}, in the operator and (but where said) in the CRD`, () => {
      const mw: Middleware = aMiddleware(c.spec);
      expect(validateMiddleware(mw).map((p) => p.path)).to.include(c.path);
      if (c.operatorOnly === true) expect(middlewareSchemaProblems(mw)).to.deep.equal([]);
      else expect(middlewareSchemaProblems(mw)).not.to.deep.equal([]);
    });
  }
});
