/** @module hasDrifted: a live child that no longer holds what the operator sets is drift; server defaults are not. */
import { expect } from 'chai';
import { hasDrifted } from '../../../src/operator/controller/drift.ts';
import { buildServerDeployment } from '../../../src/operator/specs/server-deployment.ts';
import { buildStableService } from '../../../src/operator/specs/services.ts';
import { LABEL_GENERATION } from '../../../src/operator/specs/meta.ts';
import type { KubeObject } from '../../../src/operator/kube/client.ts';
import { aMiddleware, contextOf } from '../specs/fixtures.ts';

type Patch = (o: KubeObject & { spec: Record<string, unknown> }) => void;

describe('hasDrifted(live, desired)', () => {
  const ctx = contextOf(aMiddleware());
  const service = buildStableService(ctx, 1) as KubeObject;
  const deployment = buildServerDeployment(ctx, 1) as KubeObject;
  const edited = (obj: KubeObject, patch: Patch): KubeObject => {
    const copy = structuredClone(obj) as KubeObject & { spec: Record<string, unknown> };
    patch(copy);
    return copy;
  };
  const container = (o: { spec: Record<string, unknown> }) =>
    (o.spec.template as { spec: { containers: Array<Record<string, unknown>> } }).spec.containers[0]!;

  it('is false for the object as built, and with the fields the API server adds', () => {
    expect(hasDrifted(service, service)).to.equal(false);
    const defaulted = edited(deployment, (o) => {
      o.metadata.managedFields = [{ manager: 'mdw-operator' }];
      o.spec.revisionHistoryLimit = 10;
      container(o).terminationMessagePath = '/dev/termination-log';
      o.status = { replicas: 2 };
    });
    expect(hasDrifted(defaulted, deployment)).to.equal(false);
  });

  // the API server stores quantities canonical: read back, "0.5" is "500m" and "1024Mi" is "1Gi" (issue 89)
  it('is false for quantities the API server wrote in their canonical form', () => {
    const withQuantities = (resources: object, sizeLimit: string) =>
      edited(deployment, (o) => {
        container(o).resources = resources;
        const pod = (o.spec.template as { spec: { volumes: object[] } }).spec;
        pod.volumes = [{ name: 'tmp', emptyDir: { sizeLimit } }];
      });
    const desired = withQuantities({ requests: { cpu: '0.5', memory: 512 }, limits: { memory: '1024Mi' } }, '0.25Gi');
    const stored = withQuantities({ requests: { cpu: '500m', memory: '512' }, limits: { memory: '1Gi' } }, '256Mi');
    expect(hasDrifted(stored, desired)).to.equal(false);
    const raised = withQuantities({ requests: { cpu: '500m', memory: '512' }, limits: { memory: '2Gi' } }, '256Mi');
    expect(hasDrifted(raised, desired)).to.equal(true);
  });

  const drifts: Array<[string, KubeObject, Patch]> = [
    [
      'a Service selector moved to a missing generation',
      service,
      (o) => {
        (o.spec.selector as Record<string, string>)[LABEL_GENERATION] = '9';
      },
    ],
    [
      'a Service type changed to NodePort',
      service,
      (o) => {
        o.spec.type = 'NodePort';
      },
    ],
    [
      'servers scaled to 0',
      deployment,
      (o) => {
        o.spec.replicas = 0;
      },
    ],
    [
      'another image',
      deployment,
      (o) => {
        container(o).image = 'attacker/mdw:latest';
      },
    ],
    [
      'a variable removed',
      deployment,
      (o) => {
        (container(o).env as unknown[]).pop();
      },
    ],
    [
      'a label removed',
      service,
      (o) => {
        o.metadata.labels = {};
      },
    ],
  ];
  for (const [what, obj, patch] of drifts) {
    it(`is true for ${what}`, () => expect(hasDrifted(edited(obj, patch), obj)).to.equal(true));
  }
});
