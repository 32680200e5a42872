/** @module Golden and schema tests of every object the builders produce, for a minimal and a full Middleware. */
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import type { KubeObject } from '../../../src/operator/kube/client.ts';
import type { BuildContext } from '../../../src/operator/specs/meta.ts';
import { buildServerDeployment, serverDeploymentName } from '../../../src/operator/specs/server-deployment.ts';
import { buildPopulatorDeployment, populatorDeploymentName } from '../../../src/operator/specs/populator-deployment.ts';
import {
  buildDatabaseUsageJob,
  buildDropSchemaJob,
  buildMigrationJob,
  buildReloadJob,
} from '../../../src/operator/specs/jobs.ts';
import {
  buildPopulatorService,
  buildPreviewService,
  buildStableService,
} from '../../../src/operator/specs/services.ts';
import { buildServerPdb } from '../../../src/operator/specs/server-pdb.ts';
import { buildServerHpa } from '../../../src/operator/specs/server-hpa.ts';
import { buildIngress } from '../../../src/operator/specs/ingress.ts';
import { buildServiceMonitor } from '../../../src/operator/specs/service-monitor.ts';
import { buildServiceAccount, buildWorkloadRoleBinding } from '../../../src/operator/specs/service-account.ts';
import { aFullMiddleware, aMiddleware, contextOf } from './fixtures.ts';
import { expectGoldenYaml } from './golden.ts';
import { kubeSchemaProblems } from './kube-schema.ts';

const testdata = (name: string) => fileURLToPath(new URL(`testdata/${name}`, import.meta.url));

/** everyChild: all objects of an instance serving generation 1 while generation 2 is built. */
function everyChild(ctx: BuildContext): KubeObject[] {
  const objects: (KubeObject | undefined)[] = [
    buildServiceAccount(ctx),
    buildWorkloadRoleBinding(ctx),
    buildMigrationJob(ctx, 1),
    buildPopulatorDeployment(ctx, 1),
    buildServerDeployment(ctx, 1),
    buildServerPdb(ctx, 1),
    buildMigrationJob(ctx, 2),
    buildPopulatorDeployment(ctx, 2, { heights: '0-1000' }),
    buildServerDeployment(ctx, 2),
    buildReloadJob(ctx, 1, 'fix-42', '10-20,30'),
    buildDropSchemaJob(ctx, 1),
    buildDatabaseUsageJob(ctx, 1, 'reload-7'),
    buildStableService(ctx, 1),
    buildPreviewService(ctx, 2),
    buildPopulatorService(ctx),
    buildServerHpa(ctx),
    buildIngress(ctx),
    buildServiceMonitor(ctx),
  ];
  return objects.filter((o): o is KubeObject => o !== undefined);
}

describe('operator builders', () => {
  const cases = [
    { name: 'minimal', mw: aMiddleware(), golden: 'minimal.golden.yaml', optional: 0 },
    { name: 'full', mw: aFullMiddleware(), golden: 'full.golden.yaml', optional: 3 },
  ];
  for (const c of cases) {
    describe(`a ${c.name} Middleware`, () => {
      const objects = everyChild(contextOf(c.mw));

      it('matches the golden manifests', () => expectGoldenYaml(testdata(c.golden), objects));

      it('produces only objects valid against the Kubernetes schemas, with no unknown fields', async () => {
        for (const obj of objects)
          expect(await kubeSchemaProblems(obj), `${obj.kind} ${obj.metadata.name}`).to.deep.equal([]);
      });

      it('builds the optional HPA, Ingress and ServiceMonitor only when asked', () => {
        const optional = objects.filter((o) =>
          ['HorizontalPodAutoscaler', 'Ingress', 'ServiceMonitor'].includes(o.kind),
        );
        expect(optional).to.have.length(c.optional);
      });

      it('owns every object and keeps names within 63 characters', () => {
        for (const obj of objects) {
          expect(obj.metadata.ownerReferences?.[0]).to.include({
            kind: 'Middleware',
            name: c.mw.metadata.name,
            controller: true,
          });
          expect(obj.metadata.name?.length).to.be.at.most(63);
          expect(obj.metadata.namespace).to.equal('chain');
        }
      });
    });
  }

  it('the schema check rejects a malformed object (the validator is not vacuous)', async () => {
    const deployment = buildServerDeployment(contextOf(aMiddleware()), 1);
    const broken = { ...deployment, spec: { ...deployment.spec, replicas: 'two', paused: 'no', surprise: true } };
    const problems = await kubeSchemaProblems(broken);
    expect(problems.join('\n'))
      .to.match(/replicas must be integer/)
      .and.match(/unknown field \.spec\.surprise/);
  });
});

// the reconciler finds a generation's live workloads by these names without building them (issue 42)
describe('workload names', () => {
  for (const mw of [aMiddleware(), aFullMiddleware()]) {
    it(`name the Deployments the builders build, for every generation (${mw.metadata.name ?? ''})`, () => {
      const ctx = contextOf(mw);
      for (const generation of [1, 2, 17]) {
        expect(serverDeploymentName(ctx, generation)).to.equal(buildServerDeployment(ctx, generation).metadata.name);
        expect(populatorDeploymentName(ctx, generation)).to.equal(
          buildPopulatorDeployment(ctx, generation).metadata.name,
        );
      }
    });
  }
});

describe('buildPopulatorDeployment probes', () => {
  it('gives a populator 5 minutes to start (writer Lease, migrations) before liveness applies', () => {
    const container = buildPopulatorDeployment(contextOf(aMiddleware()), 1).spec?.template.spec?.containers[0];
    const startup = container?.startupProbe;
    expect(startup?.httpGet?.path).to.equal('/healthz');
    expect((startup?.periodSeconds ?? 0) * (startup?.failureThreshold ?? 0)).to.equal(300);
    expect(container?.livenessProbe?.httpGet?.path).to.equal('/healthz');
  });
});

describe('spec.webhooks', () => {
  it('runs the sender inside the populator only when enabled, and sets the two switches on every pod when on', () => {
    const off = buildPopulatorDeployment(contextOf(aMiddleware()), 1).spec?.template.spec?.containers[0];
    expect(off?.args).to.deep.equal(['-p']);
    expect(off?.env?.map((e) => e.name)).not.to.include.members(['WEBHOOKS_ANONYMOUS']);
    const ctx = contextOf(aMiddleware({ webhooks: { enabled: true, anonymous: true, allowPrivate: true } }));
    const on = buildPopulatorDeployment(ctx, 1).spec?.template.spec?.containers[0];
    expect(on?.args).to.deep.equal(['-p', '--webhooks']);
    const server = buildServerDeployment(ctx, 1).spec?.template.spec?.containers[0];
    for (const env of [on?.env, server?.env])
      expect(env?.filter((e) => e.name.startsWith('WEBHOOKS_'))).to.deep.equal([
        { name: 'WEBHOOKS_ANONYMOUS', value: 'true' },
        { name: 'WEBHOOKS_ALLOW_PRIVATE', value: 'true' },
      ]);
  });
});
