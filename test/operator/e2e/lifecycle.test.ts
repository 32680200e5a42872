import { expect } from 'chai';
import type { V1Deployment, V1Service } from '@kubernetes/client-node';
import { FINALIZER } from '../../../src/operator/controller/reconcile-deletion.ts';
import { KubeError } from '../../../src/operator/kube/client.ts';
import { Component, LABEL_GENERATION, type Built } from '../../../src/operator/specs/meta.ts';
import { HOME, Harness, IMAGE, MW_REF, exampleMiddleware, expectBoundsRefused } from './harness.ts';
import type { Middleware } from '../../../src/operator/api/middleware-types.ts';

const SERVER = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'chain', name: 'mainnet-server-g1' };
const STABLE = { apiVersion: 'v1', kind: 'Service', namespace: 'chain', name: 'mainnet' };

describe('operator lifecycle on the fake API server', () => {
  let h: Harness;
  beforeEach(() => {
    h = new Harness();
  });

  async function runningMiddleware(spec: Partial<Middleware['spec']> = {}): Promise<void> {
    const mw = exampleMiddleware();
    await h.apply({ ...mw, spec: { ...mw.spec, ...spec } });
    h.probe.set('mainnet', 100, 0);
    await h.settle();
  }

  it('takes the example from `kubectl apply` to Available: migration first, then populator and servers', async () => {
    // By applying the example Middleware, as `kubectl apply -f examples/middleware.yaml` does.
    await h.apply();

    // By reconciling once: the finalizer guards the schemas, and a Job asks the database which generations it holds
    // (a Middleware without status may be a restored one whose schemas exist), before anything else is created.
    await h.pass();
    expect(h.middleware().metadata.finalizers).to.include(FINALIZER);
    expect(h.names('Job')).to.have.length(1);
    expect(h.names('Job')[0]).to.match(/^mainnet-db-usage-/);
    expect(h.names('Deployment')).to.deep.equal([]);
    expect(h.middleware().status?.phase).to.equal('Pending');
    expect(h.condition('Reconciled')).to.deep.include({ status: 'False', reason: 'CheckingDatabase' });

    // By playing the Job controller (the database holds no generation yet): generation 1's migration Job is the
    // only workload, and the answered database check goes.
    h.completeJobs();
    await h.pass();
    expect(h.names('Job')).to.have.length(1);
    expect(h.names('Job')[0]).to.match(/^mainnet-migrate-g1-/);
    expect(h.names('Deployment')).to.deep.equal([]);
    expect(h.middleware().status?.phase).to.equal('Migrating');
    expect(h.condition('MigrationsApplied')).to.deep.include({ status: 'False', reason: 'MigrationsRunning' });

    // By playing the Job controller: the migration completes, and the next pass starts the workloads.
    h.completeJobs();
    await h.pass();
    expect(h.names('Deployment')).to.deep.equal(['mainnet-populator-g1', 'mainnet-server-g1']);
    const server = h.kube.peek<Built<V1Deployment>>(SERVER)!;
    expect(server.spec?.replicas).to.equal(2);
    expect(server.spec?.template.spec?.containers[0]?.image).to.equal(IMAGE);
    expect(server.metadata.ownerReferences?.[0]).to.deep.include({
      kind: 'Middleware',
      name: 'mainnet',
      controller: true,
      uid: h.middleware().metadata.uid,
    });
    expect(h.condition('MigrationsApplied')).to.deep.include({ status: 'True' });
    expect(h.condition('Available')).to.deep.include({ status: 'False', reason: 'NoPodReady' });

    // By playing the Deployment controller: every pod is ready, and the status endpoint reports the head.
    h.readyDeployments();
    h.probe.set('mainnet', 100, 0);
    await h.pass();
    const mw = h.middleware();
    expect(mw.status).to.deep.include({
      phase: 'Available',
      activeGeneration: 1,
      observedGeneration: 1,
      height: 100,
      nodeHeight: 100,
      lag: 0,
      replicas: 2,
      readyReplicas: 2,
    });
    expect(h.condition('Available')).to.deep.include({ status: 'True', reason: 'AllPodsReady' });
    expect(h.condition('Synced')).to.deep.include({ status: 'True', reason: 'CaughtUp' });
    expect(mw.status?.conditions?.every((c) => c.observedGeneration === 1)).to.equal(true);
    expect(h.kube.peek<Built<V1Service>>(STABLE)?.spec?.selector?.[LABEL_GENERATION]).to.equal('1');
    expect(h.eventReasons()).to.include.members(['ChildrenApplied', 'MigrationsSucceeded', 'AllPodsReady', 'CaughtUp']);
  });

  it('writes nothing on a second pass over an unchanged Middleware', async () => {
    await runningMiddleware();
    h.kube.clearRecords();
    const result = await h.pass();
    expect(h.kube.writes).to.deep.equal([]);
    expect(h.kube.events).to.deep.equal([]);
    expect(result).to.deep.equal({});
  });

  // issue 89 item 2: the API server stores "0.5" as "500m" and "1024Mi" as "1Gi"; read back, that is no drift
  it('writes nothing on passes over an unchanged Middleware whose quantities are not canonical', async () => {
    const quantities = { requests: { cpu: '0.5', memory: '512Mi' }, limits: { cpu: '1.5', memory: '1024Mi' } };
    const mw = exampleMiddleware();
    await runningMiddleware({
      server: { ...mw.spec.server, resources: quantities },
      populator: { ...mw.spec.populator, resources: quantities },
    });
    const server = h.deployments().find((d) => d.metadata.name === 'mainnet-server-g1');
    expect(server?.spec?.template.spec?.containers[0]?.resources).to.deep.equal({
      requests: { cpu: '500m', memory: '512Mi' },
      limits: { cpu: '1500m', memory: '1Gi' },
    });
    for (let i = 0; i < 3; i++) {
      h.kube.clearRecords();
      await h.pass();
      expect(h.kube.writes, `pass ${i + 1}`).to.deep.equal([]);
      expect(h.kube.events, `pass ${i + 1}`).to.deep.equal([]);
    }
  });

  describe('a status probe that gets no answer', () => {
    const TIMED_OUT = { reachable: false, synced: false, error: 'status endpoint timed out' };

    it('writes no status and records no Event for one or two in a row, and looks again in 30 s', async () => {
      await runningMiddleware();
      const before = h.middleware().status;
      h.probe.answers.set('mainnet', TIMED_OUT);
      for (let i = 1; i <= 2; i++) {
        h.kube.clearRecords();
        h.clock.advance(30_000);
        const result = await h.pass();
        expect(h.kube.writes, `timeout ${i}`).to.deep.equal([]);
        expect(h.kube.events, `timeout ${i}`).to.deep.equal([]);
        expect(result, `timeout ${i}`).to.deep.equal({ requeueAfterMs: 30_000 });
      }
      expect(h.middleware().status).to.deep.equal(before);
      // an answer ends the run: two more timeouts are tolerated again
      h.probe.set('mainnet', 100, 0);
      await h.pass();
      h.probe.answers.set('mainnet', TIMED_OUT);
      h.kube.clearRecords();
      for (let i = 1; i <= 2; i++) await h.pass();
      expect(h.kube.writes).to.deep.equal([]);
      expect(h.kube.events).to.deep.equal([]);
    });

    it('turns Synced False on the third in a row, naming the first, with one Warning Event; an answer turns it back', async () => {
      await runningMiddleware();
      h.probe.answers.set('mainnet', TIMED_OUT);
      h.kube.clearRecords();
      h.logs.length = 0;
      const first = h.clock.now().toISOString();
      for (let i = 0; i < 3; i++) {
        await h.pass();
        h.clock.advance(30_000);
      }
      expect(h.condition('Synced')).to.deep.include({
        status: 'False',
        reason: 'StatusUnreachable',
        message: `status endpoint timed out; no answer since ${first}`,
      });
      expect(h.middleware().status?.phase).to.equal('Syncing');
      expect(h.middleware().status?.height).to.equal(undefined);
      expect(h.kube.events.map((e) => [e.type, e.reason])).to.deep.equal([['Warning', 'StatusUnreachable']]);
      expect(h.kube.writes.filter((w) => w.verb === 'patchStatus')).to.have.length(1);

      // By failing on: the condition says the same, so nothing is written.
      h.kube.clearRecords();
      await h.pass();
      expect(h.kube.writes).to.deep.equal([]);
      // The run is said once, at its first failure, not at each of the four passes (the house rule for a lost dependency).
      const probeLines = (): unknown[] =>
        h.logs
          .filter((l) => l.msg.startsWith('status probe'))
          .map(({ level, msg, generation, service, error, failures }) => ({
            level,
            msg,
            generation,
            service,
            error,
            failures,
          }));
      expect(probeLines()).to.deep.equal([
        {
          level: 40,
          msg:
            'status probe of generation 1 (Service mainnet) got no answer: status endpoint timed out; ' +
            'Synced says so from 3 in a row, this line not again until it answers',
          generation: 1,
          service: 'mainnet',
          error: 'status endpoint timed out',
          failures: undefined,
        },
      ]);

      h.probe.set('mainnet', 100, 0);
      await h.pass();
      expect(h.condition('Synced')).to.deep.include({ status: 'True', reason: 'CaughtUp' });
      expect(h.middleware().status).to.deep.include({ phase: 'Available', height: 100, lag: 0 });
      expect(h.kube.events.map((e) => [e.type, e.reason])).to.deep.equal([['Normal', 'CaughtUp']]);
      expect(probeLines().slice(1)).to.deep.equal([
        {
          level: 30,
          msg: 'status probe of generation 1 (Service mainnet) answering again after 4 failures',
          generation: 1,
          service: 'mainnet',
          error: undefined,
          failures: 4,
        },
      ]);
      // By answering on: nothing more is said.
      await h.pass();
      expect(probeLines()).to.have.length(2);
    });

    it('says the end of a run that no answer ended: no server left to ask', async () => {
      await runningMiddleware();
      h.probe.answers.set('mainnet', TIMED_OUT);
      h.logs.length = 0;
      const first = h.clock.now().toISOString();
      for (let i = 0; i < 2; i++) {
        await h.pass();
        h.clock.advance(30_000);
      }
      // By playing the Deployment controller: every server pod has gone unready, so there is none to probe.
      h.kube.setStatus(SERVER, { ...h.kube.peek<Built<V1Deployment>>(SERVER)!.status, availableReplicas: 0 });
      await h.pass();
      await h.pass();
      const probeLines = h.logs
        .filter((l) => l.msg.startsWith('status probe'))
        .map(({ level, msg, failures, since }) => ({ level, msg, failures, since }));
      expect(probeLines).to.deep.equal([
        {
          level: 40,
          msg:
            'status probe of generation 1 (Service mainnet) got no answer: status endpoint timed out; ' +
            'Synced says so from 3 in a row, this line not again until it answers',
          failures: undefined,
          since: undefined,
        },
        {
          level: 30,
          msg:
            'status probe of generation 1 (Service mainnet) stopped after 2 failures without an answer: ' +
            'no server is available to ask',
          failures: 2,
          since: first,
        },
      ]);
      expect(h.condition('Synced')).to.deep.include({ status: 'Unknown', reason: 'NotProbed' });
    });

    it('does not hide an answer: a lag turns Synced False at once, in the middle of a run of timeouts too', async () => {
      await runningMiddleware();
      h.probe.answers.set('mainnet', TIMED_OUT);
      await h.pass();
      h.kube.clearRecords();
      h.probe.set('mainnet', 100, 40);
      await h.pass();
      expect(h.condition('Synced')).to.deep.include({ status: 'False', reason: 'CatchingUp' });
      expect(h.middleware().status).to.deep.include({ phase: 'Syncing', height: 100, nodeHeight: 140, lag: 40 });
      expect(h.kube.events.map((e) => [e.type, e.reason])).to.deep.equal([['Warning', 'CatchingUp']]);
    });
  });

  it('keeps lastTransitionTime across passes while a condition holds', async () => {
    await runningMiddleware();
    const before = h.condition('Available') as { lastTransitionTime?: string };
    h.clock.advance(600_000);
    await h.pass();
    expect((h.condition('Available') as { lastTransitionTime?: string }).lastTransitionTime).to.equal(
      before.lastTransitionTime,
    );
  });

  it('follows the scale subresource: spec.server.replicas moves the server Deployment and status.replicas', async () => {
    await runningMiddleware();
    // By scaling as `kubectl scale middleware/mainnet --replicas=5` does (the scale subresource writes spec.server.replicas).
    h.kube.userPatch(MW_REF, { spec: { server: { replicas: 5 } } });
    h.kube.clearRecords();
    await h.pass();
    expect(h.kube.writes.filter((w) => w.verb === 'apply').map((w) => w.ref.name)).to.deep.equal(['mainnet-server-g1']);
    expect(h.kube.peek<Built<V1Deployment>>(SERVER)?.spec?.replicas).to.equal(5);
    expect(h.condition('Available')).to.deep.include({ status: 'True', reason: 'SomePodsNotReady' });
    expect(h.condition('Degraded')).to.deep.include({ status: 'True', reason: 'SomePodsNotReady' });

    // By letting the new pods become ready.
    h.readyDeployments();
    await h.pass();
    expect(h.middleware().status).to.deep.include({
      replicas: 5,
      readyReplicas: 5,
      observedGeneration: 2,
      phase: 'Available',
    });
    expect(h.middleware().status?.selector).to.contain(`${LABEL_GENERATION}=1`);
  });

  it('rolls only the servers onto read replicas: the populator and the migration Job stay on the primary', async () => {
    await runningMiddleware();
    const job = h.names('Job');
    const populator = { ...SERVER, name: 'mainnet-populator-g1' };
    const populatorTemplate = h.kube.peek<Built<V1Deployment>>(populator)?.spec?.template;
    // By naming a CNPG cluster's replicas, as `kubectl edit middleware/mainnet` would.
    h.kube.userPatch(MW_REF, { spec: { database: { readReplicas: { cnpg: { cluster: 'pg' }, maxLagSeconds: 15 } } } });
    h.kube.clearRecords();
    await h.pass();
    expect(h.kube.writes.filter((w) => w.verb === 'apply').map((w) => w.ref.name)).to.deep.equal(['mainnet-server-g1']);
    const env = h.kube.peek<Built<V1Deployment>>(SERVER)?.spec?.template.spec?.containers[0]?.env ?? [];
    expect(env.find((e) => e.name === 'DATABASE_READ_URLS')?.value).to.match(/@pg-ro:5432\//);
    expect(env.find((e) => e.name === 'READ_REPLICA_MAX_LAG_SECONDS')?.value).to.equal('15');
    expect(h.kube.peek<Built<V1Deployment>>(populator)?.spec?.template).to.deep.equal(populatorTemplate);
    expect(h.names('Job')).to.deep.equal(job);

    // By dropping them again: the servers roll back onto the primary alone.
    h.kube.userPatch(MW_REF, { spec: { database: { readReplicas: null } } });
    await h.pass();
    const names = (h.kube.peek<Built<V1Deployment>>(SERVER)?.spec?.template.spec?.containers[0]?.env ?? []).map(
      (e) => e.name,
    );
    expect(names).not.to.include('DATABASE_READ_URLS');
    expect(names).not.to.include('CNPG_RO_PASSWORD');
  });

  it('reports servers that cannot roll out (a missing replica Secret) as Degraded while the running ones serve', async () => {
    await runningMiddleware();
    h.kube.userPatch(MW_REF, {
      spec: { database: { readReplicas: { urlsSecretRef: { name: 'gone', key: 'urls' } } } },
    });
    await h.pass();
    // By playing the Deployment controller: the new pods wait in CreateContainerConfigError (Secret "gone" not
    // found), the old ones serve, and after progressDeadlineSeconds the Deployment says its rollout stopped.
    const live = h.kube.peek<Built<V1Deployment>>(SERVER)!;
    h.kube.setStatus(SERVER, {
      ...live.status,
      conditions: [
        { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' },
        {
          type: 'Progressing',
          status: 'False',
          reason: 'ProgressDeadlineExceeded',
          message: 'ReplicaSet "mainnet-server-g1-7d9f" has timed out progressing.',
        },
      ],
    });
    await h.pass();
    expect(h.condition('Available')).to.deep.include({ status: 'True' });
    expect(h.condition('Degraded')).to.deep.include({ status: 'True', reason: 'ServerRolloutStalled' });
    expect((h.condition('Degraded') as { message?: string }).message).to.contain('has timed out progressing');
    expect(h.middleware().status?.phase).to.equal('Degraded');
    expect(h.kube.events.find((e) => e.reason === 'ServerRolloutStalled')?.type).to.equal('Warning');

    // By creating the Secret: the new pods start, the rollout completes, the problem is gone.
    h.readyDeployments();
    await h.pass();
    expect(h.condition('Degraded')).to.deep.include({ status: 'False', reason: 'NoProblems' });
    expect(h.middleware().status?.phase).to.equal('Available');
  });

  it('rolls the servers onto the variables of spec.server.env and spec.server.trustedProxies, the populator onto its own', async () => {
    await runningMiddleware();
    const job = h.names('Job');
    const populator = { ...SERVER, name: 'mainnet-populator-g1' };
    const envOf = (ref: typeof SERVER) =>
      Object.fromEntries(
        (h.kube.peek<Built<V1Deployment>>(ref)?.spec?.template.spec?.containers[0]?.env ?? []).map((e) => [
          e.name,
          e.value,
        ]),
      );
    // By raising ae_mdw's per-address limit and trusting the ingress, as `kubectl edit middleware/mainnet` would.
    h.kube.userPatch(MW_REF, {
      spec: {
        server: {
          env: [{ name: 'WEBSOCKET_MDW_MAX_CONNECTIONS_PER_IP', value: '200' }],
          trustedProxies: ['10.244.0.0/16'],
        },
      },
    });
    h.kube.clearRecords();
    await h.pass();
    expect(h.kube.writes.filter((w) => w.verb === 'apply').map((w) => w.ref.name)).to.deep.equal(['mainnet-server-g1']);
    expect(envOf(SERVER)).to.deep.include({
      WEBSOCKET_MDW_MAX_CONNECTIONS_PER_IP: '200',
      TRUSTED_PROXIES: '10.244.0.0/16',
    });
    expect(h.names('Job')).to.deep.equal(job);

    // The populator's own roll the populator alone.
    h.kube.userPatch(MW_REF, { spec: { populator: { env: [{ name: 'FETCH_CONCURRENCY', value: '16' }] } } });
    h.kube.clearRecords();
    await h.pass();
    expect(h.kube.writes.filter((w) => w.verb === 'apply').map((w) => w.ref.name)).to.deep.equal([populator.name]);
    expect(envOf(populator).FETCH_CONCURRENCY).to.equal('16');

    // A name the operator sets is refused: the Middleware is Invalid and its pods are left as they are.
    // (the CRD refuses it too: it got in under an older CRD)
    h.kube.legacyPatch(MW_REF, {
      spec: { server: { env: [{ name: 'DATABASE_URL', value: 'postgres://elsewhere/mdw' }] } },
    });
    h.kube.clearRecords();
    await h.pass();
    expect(h.kube.writes.filter((w) => w.verb === 'apply')).to.deep.equal([]);
    expect(h.middleware().status?.phase).to.equal('Invalid');
    expect(JSON.stringify(h.middleware().status?.conditions)).to.contain(
      'DATABASE_URL is set by the operator from spec.database.urlSecretRef',
    );
  });

  it('rolls the servers onto spec.server.shutdownDelaySeconds, refused outside 0–600 s by the API server and the operator', async () => {
    await runningMiddleware();
    const server = () => h.kube.peek<Built<V1Deployment>>(SERVER)?.spec?.template.spec;
    const delayOf = () => server()?.containers[0]?.env?.find((e) => e.name === 'SHUTDOWN_DELAY_MS')?.value;
    // the default, which the API server fills in: the servers of a Middleware from before the field do not roll
    expect(h.middleware().spec.server).to.deep.include({ shutdownDelaySeconds: 5 });
    expect([delayOf(), server()?.terminationGracePeriodSeconds]).to.deep.equal(['5000', 45]);

    // By giving a load balancer that deregisters its targets slowly 30 s, as `kubectl edit middleware/mainnet` would.
    h.kube.userPatch(MW_REF, { spec: { server: { shutdownDelaySeconds: 30 } } });
    h.kube.clearRecords();
    await h.pass();
    expect(h.kube.writes.filter((w) => w.verb === 'apply').map((w) => w.ref.name)).to.deep.equal(['mainnet-server-g1']);
    expect([delayOf(), server()?.terminationGracePeriodSeconds]).to.deep.equal(['30000', 70]);

    // Outside its bounds: the API server refuses the edit, naming the field and the bound.
    await expectBoundsRefused(
      h.kube,
      ['server', 'shutdownDelaySeconds'],
      [
        [601, 'must be <= 600'],
        [-1, 'must be >= 0'],
      ],
    );
    // Let in under an older CRD: the operator refuses it and leaves the servers as they are.
    h.kube.legacyPatch(MW_REF, { spec: { server: { shutdownDelaySeconds: 601 } } });
    h.kube.clearRecords();
    await h.pass();
    expect(h.kube.writes.filter((w) => w.verb === 'apply')).to.deep.equal([]);
    expect(h.condition('Reconciled')).to.deep.include({ status: 'False', reason: 'InvalidSpec' });
    expect(JSON.stringify(h.middleware().status?.conditions)).to.contain(
      'spec.server.shutdownDelaySeconds: must be between 0 and 600',
    );
    expect([delayOf(), server()?.terminationGracePeriodSeconds]).to.deep.equal(['30000', 70]);
  });

  it('starts without a Degraded moment, and reports losing every server as Degraded until they are back', async () => {
    await h.apply();
    h.probe.set('mainnet', 100, 0);
    const reasons: string[] = [];
    for (let i = 0; i < 4; i++) {
      await h.pass();
      reasons.push(...h.eventReasons());
      expect(h.condition('Degraded')?.status).to.not.equal('True');
      h.completeJobs();
      h.readyDeployments();
    }
    expect(reasons.filter((r) => r === 'NoPodReady')).to.deep.equal([]);
    // By losing every server pod.
    h.kube.markDeploymentReady(SERVER, 0);
    await h.pass();
    expect(h.condition('Degraded')).to.deep.include({ status: 'True', reason: 'NoPodReady' });
    expect(h.middleware().status?.phase).to.equal('Degraded');
    await h.pass();
    expect(h.middleware().status?.phase).to.equal('Degraded');
    // By getting them back.
    h.kube.markDeploymentReady(SERVER);
    await h.pass();
    expect(h.middleware().status?.phase).to.equal('Available');
  });

  it('reports an invalid spec with a condition and a Warning Event, touching no child and never throwing', async () => {
    await runningMiddleware();
    const deploymentsBefore = h.deployments();
    // By breaking the spec (the CRD refuses it: an API server with an older CRD, or none, would let it through).
    h.kube.legacyPatch(MW_REF, { spec: { nodeUrls: [], server: { replicas: -1 } } });
    h.kube.clearRecords();
    expect(await h.pass()).to.deep.equal({});
    expect(h.condition('Reconciled')).to.deep.include({ status: 'False', reason: 'InvalidSpec' });
    expect(h.middleware().status?.phase).to.equal('Invalid');
    expect(h.kube.writes.map((w) => w.verb)).to.deep.equal(['patchStatus']);
    expect(h.kube.events.map((e) => [e.type, e.reason])).to.deep.equal([['Warning', 'InvalidSpec']]);
    expect(h.kube.events[0]?.message).to.contain('spec.nodeUrls').and.to.contain('spec.server.replicas');
    expect(h.deployments()).to.deep.equal(deploymentsBefore);

    // By reconciling again: the same problem is neither rewritten nor announced twice.
    h.kube.clearRecords();
    await h.pass();
    expect(h.kube.writes).to.deep.equal([]);
    expect(h.kube.events).to.deep.equal([]);

    // By fixing the spec: the operator picks up where it was.
    h.kube.userPatch(MW_REF, { spec: { nodeUrls: ['http://ae-node.chain.svc:3013'], server: { replicas: 2 } } });
    await h.pass();
    expect(h.condition('Reconciled')).to.deep.include({ status: 'True' });
    expect(h.middleware().status?.phase).to.equal('Available');
  });

  it('does not reload a new Middleware whose manifest already carries spec.reload (a GitOps re-apply)', async () => {
    const mw = (await import('./harness.ts')).exampleMiddleware();
    mw.spec.reload = { id: 'reindex-7', strategy: 'BlueGreen' };
    await h.apply(mw);
    h.probe.set('mainnet', 100, 0);
    await h.settle();
    expect(h.middleware().status).to.deep.include({ activeGeneration: 1, phase: 'Available' });
    expect(h.middleware().status?.reload).to.deep.include({ id: 'reindex-7', state: 'Completed' });
    expect(h.generationsOf('Deployment')).to.deep.equal([1]);
  });

  it('adds no finalizer and creates nothing for a Middleware that was never valid', async () => {
    await h.apply();
    // an empty key: the CRD refuses it, an older CRD let it through
    h.kube.legacyPatch(MW_REF, { spec: { database: { urlSecretRef: { key: '' } } } });
    await h.pass();
    expect(h.middleware().metadata.finalizers ?? []).to.deep.equal([]);
    expect(h.kube.writes.map((w) => w.verb)).to.deep.equal(['create', 'patchStatus']);
  });

  it('leaves children alone while spec.paused, reporting ReconciliationPaused', async () => {
    await runningMiddleware();
    h.kube.userPatch(MW_REF, { spec: { paused: true, server: { replicas: 4 } } });
    h.kube.clearRecords();
    await h.pass();
    expect(h.condition('ReconciliationPaused')).to.deep.include({ status: 'True', reason: 'PausedBySpec' });
    expect(h.middleware().status).to.deep.include({ phase: 'Paused', observedGeneration: 1 });
    expect(h.kube.peek<Built<V1Deployment>>(SERVER)?.spec?.replicas).to.equal(2);
    expect(h.kube.writes.map((w) => w.verb)).to.deep.equal(['patchStatus']);

    // By resuming: the pending change is applied.
    h.kube.userPatch(MW_REF, { spec: { paused: false } });
    await h.pass();
    expect(h.kube.peek<Built<V1Deployment>>(SERVER)?.spec?.replicas).to.equal(4);
    expect(h.condition('ReconciliationPaused')).to.deep.include({ status: 'False' });
  });

  it('reruns migrations on a new image before rolling the workloads onto it', async () => {
    await runningMiddleware();
    const oldJob = h.names('Job')[0];
    h.kube.userPatch(MW_REF, { spec: { image: 'ghcr.io/aeternity/mdw:1.1.0' } });
    await h.pass();
    // The new image is asked for its version first (a Job running it): nothing rolls meanwhile.
    expect(h.names('Job').filter((n) => n.startsWith('mainnet-db-usage-'))).to.have.length(1);
    expect(h.kube.peek<Built<V1Deployment>>(SERVER)?.spec?.template.spec?.containers[0]?.image).to.equal(IMAGE);
    h.completeJobs(Component.databaseUsage);
    await h.pass();
    // The old Job is gone, the new one runs, and the servers still run the old image.
    expect(h.names('Job')).to.have.length(1).and.not.include(oldJob);
    expect(h.kube.peek<Built<V1Deployment>>(SERVER)?.spec?.template.spec?.containers[0]?.image).to.equal(IMAGE);
    expect(h.condition('MigrationsApplied')).to.deep.include({ status: 'False', reason: 'MigrationsRunning' });
    h.completeJobs();
    await h.pass();
    expect(h.kube.peek<Built<V1Deployment>>(SERVER)?.spec?.template.spec?.containers[0]?.image).to.equal(
      'ghcr.io/aeternity/mdw:1.1.0',
    );
  });

  it('reports a failed migration as MigrationsApplied=False and Degraded, without starting workloads', async () => {
    await h.apply();
    await h.adopt();
    await h.pass();
    h.kube.failJob(
      { apiVersion: 'batch/v1', kind: 'Job', namespace: 'chain', name: h.names('Job')[0]! },
      'relation "x" does not exist',
    );
    await h.pass();
    expect(h.condition('MigrationsApplied')).to.deep.include({ status: 'False', reason: 'MigrationFailed' });
    expect(h.condition('Degraded')).to.deep.include({ status: 'True', reason: 'MigrationFailed' });
    expect(h.middleware().status?.phase).to.equal('Degraded');
    expect(h.deployments()).to.deep.equal([]);
    expect(h.kube.events.some((e) => e.type === 'Warning' && e.reason === 'MigrationFailed')).to.equal(true);
  });

  it('turns an API failure into a thrown error, a Warning Event and Reconciled=False, then recovers', async () => {
    await h.apply();
    await h.adopt();
    await h.pass();
    h.completeJobs();
    h.kube.failOn({ verb: 'apply', kind: 'Deployment', error: new KubeError(500, 'InternalError', 'etcd timeout') });
    let thrown: unknown;
    try {
      await h.pass();
    } catch (err) {
      thrown = err;
    }
    expect(thrown).to.be.instanceOf(KubeError);
    expect(
      h.kube.events.some(
        (e) => e.type === 'Warning' && e.reason === 'ReconcileError' && e.message?.includes('etcd timeout'),
      ),
    ).to.equal(true);
    expect(h.condition('Reconciled')).to.deep.include({ status: 'False', reason: 'ReconcileError' });
    h.probe.set('mainnet', 100, 0);
    await h.settle();
    expect(h.middleware().status?.phase).to.equal('Available');
  });

  it('deletes with finalizer clean-up (reclaimPolicy Delete): workloads stop, every schema is dropped, then the object goes', async () => {
    await runningMiddleware({ reclaimPolicy: 'Delete' });
    // By deleting the Middleware: the finalizer keeps it, marked for deletion.
    await h.kube.delete(MW_REF);
    expect(h.middleware().metadata.deletionTimestamp).to.not.equal(undefined);

    // By reconciling: the workloads go first, so no populator writes while its schema is dropped.
    await h.pass();
    expect(h.deployments()).to.deep.equal([]);
    expect(h.jobs().filter((j) => j.metadata.name.startsWith('mainnet-drop'))).to.deep.equal([]);

    // By reconciling again: a Job reads whose schemas the database holds (each records its owner) ...
    await h.pass();
    expect(h.names('Job')).to.have.length(1);
    h.completeJobs(Component.databaseUsage);
    // ... then a drop Job per generation of this Middleware's own.
    await h.pass();
    const drops = h.names('Job').filter((n) => n.startsWith('mainnet-drop'));
    expect(drops).to.have.length(1);
    expect(drops[0]).to.match(/^mainnet-drop-schema-g1-/);
    const drop = h.jobs().find((j) => j.metadata.name === drops[0]);
    expect(drop?.spec?.template.spec?.containers[0]?.args).to.deep.equal(['migrate', '--drop']);
    expect(h.kube.peek(MW_REF)).to.not.equal(undefined);

    // By completing the drop: the finalizer is removed and the object and its children disappear.
    h.completeJobs();
    await h.pass();
    expect(h.kube.peek(MW_REF)).to.equal(undefined);
    expect(h.kube.objectsOf('v1', 'Service', 'chain')).to.deep.equal([]);
    expect(h.eventReasons()).to.include.members(['StoppingWorkloads', 'DroppingGenerations', 'Finalized']);

    // By reconciling the gone key: nothing happens.
    expect(await h.pass()).to.deep.equal({});
  });

  it('drops every generation when deleted in the middle of a blue/green reload (reclaimPolicy Delete)', async () => {
    await runningMiddleware({ reclaimPolicy: 'Delete' });
    h.kube.userPatch(MW_REF, { spec: { reload: { id: 'r1', strategy: 'BlueGreen' } } });
    for (let i = 0; i < 3; i++) {
      await h.pass(); // the database check, generation 2's migration, its workloads
      h.completeJobs();
    }
    expect(h.generationsOf('Deployment')).to.deep.equal([1, 2]);
    // By deleting while generation 2 is being built.
    await h.kube.delete(MW_REF);
    await h.pass();
    await h.pass();
    h.completeJobs(Component.databaseUsage);
    await h.pass();
    expect(h.names('Job').map((n) => n.replace(/-[0-9a-f]{8}$/, ''))).to.deep.equal([
      'mainnet-db-usage',
      'mainnet-drop-schema-g1',
      'mainnet-drop-schema-g2',
    ]);
    h.completeJobs();
    await h.pass();
    expect(h.kube.peek(MW_REF)).to.equal(undefined);
  });

  it('retries a failed schema drop before letting the object go (reclaimPolicy Delete)', async () => {
    await runningMiddleware({ reclaimPolicy: 'Delete' });
    await h.kube.delete(MW_REF);
    await h.pass();
    await h.pass();
    h.completeJobs(Component.databaseUsage);
    await h.pass();
    const drop = () => h.names('Job').filter((n) => n.startsWith('mainnet-drop'));
    h.kube.failJob({ apiVersion: 'batch/v1', kind: 'Job', namespace: 'chain', name: drop()[0]! });
    await h.pass(); // the failed Job is deleted
    expect(h.kube.peek(MW_REF)).to.not.equal(undefined);
    await h.pass(); // and created again
    expect(drop()).to.have.length(1);
    h.completeJobs();
    await h.pass();
    expect(h.kube.peek(MW_REF)).to.equal(undefined);
  });

  it('keeps the schemas by default (reclaimPolicy Retain): the finalizer goes at once, with an Event naming them', async () => {
    await runningMiddleware();
    await h.kube.delete(MW_REF);
    await h.pass();
    expect(h.kube.peek(MW_REF)).to.equal(undefined);
    expect(h.names('Job').filter((n) => n.includes('drop'))).to.deep.equal([]);
    const retained = h.kube.events.find((e) => e.reason === 'SchemasRetained');
    expect(retained?.type).to.equal('Normal');
    expect(retained?.metadata.namespace).to.equal('chain');
    expect(retained?.message).to.contain('reclaimPolicy is Retain').and.to.contain('mainnet_g1');
    expect(h.logs.find((l) => l.msg.startsWith('schemas retained'))).to.deep.include({ schemas: ['mainnet_g1'] });
  });

  // issue 14 item 6: deleting the namespace must not strand it in Terminating; issue 89 item 3: the kept schemas are
  // said where an admin finds them, since the terminating namespace refuses the Event
  for (const reclaimPolicy of ['Delete', 'Retain'] as const) {
    it(`lets a terminating namespace go with ${reclaimPolicy}: no drop Job, the finalizer removed, the kept schemas in the operator's log and namespace`, async () => {
      await runningMiddleware({ reclaimPolicy });
      // By deleting the namespace: Kubernetes marks it and deletes its content; new objects are refused (403).
      const namespace = { apiVersion: 'v1', kind: 'Namespace', name: 'chain' };
      await h.kube.patchMerge(namespace, { metadata: { finalizers: ['kubernetes'] } }); // the namespace controller's
      await h.kube.delete(namespace); // marked, held until its content is gone
      await h.kube.delete(MW_REF);
      h.kube.clearRecords();
      h.logs.length = 0;
      await h.pass();
      expect(h.kube.peek(MW_REF)).to.equal(undefined);
      expect(h.names('Job').filter((n) => n.includes('drop'))).to.deep.equal([]);
      expect(h.kube.events.map((e) => [e.metadata.namespace, e.reason, e.involvedObject])).to.deep.equal([
        ['mdw-system', 'SchemasRetained', { apiVersion: 'v1', kind: 'Pod', name: HOME.pod, namespace: 'mdw-system' }],
      ]);
      expect(h.kube.events[0]?.type).to.equal(reclaimPolicy === 'Delete' ? 'Warning' : 'Normal');
      expect(h.kube.events[0]?.message)
        .to.contain('Middleware chain/mainnet: ')
        .and.to.contain(reclaimPolicy === 'Delete' ? 'namespace chain is being deleted' : 'reclaimPolicy is Retain')
        .and.to.contain('the schemas mainnet_g1 are kept');
      const said = h.logs.find((l) => l.msg.startsWith('schemas retained'));
      expect(said).to.deep.include({ level: 30, namespace: 'chain', name: 'mainnet', schemas: ['mainnet_g1'] });
      expect(h.logs.filter((l) => l.msg === 'event not recorded')).to.deep.equal([]);
    });
  }

  it('lets the object go with Delete when the drop Job cannot start because the database Secret is gone', async () => {
    await runningMiddleware({ reclaimPolicy: 'Delete' });
    await h.kube.delete({ apiVersion: 'v1', kind: 'Secret', namespace: 'chain', name: 'mdw-db' });
    await h.kube.delete(MW_REF);
    await h.pass(); // workloads stop
    await h.pass(); // the database check before the drops is created
    const job = h.names('Job')[0]!;
    expect(job).to.match(/^mainnet-db-usage-/);
    // the kubelet cannot build the pod's environment: the Secret is missing
    const pod = { apiVersion: 'v1', kind: 'Pod', namespace: 'chain', name: `${job}-x1` };
    await h.kube.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: pod.name, namespace: 'chain', labels: { 'batch.kubernetes.io/job-name': job } },
    });
    await h.kube.patchStatus(pod, {
      containerStatuses: [
        {
          name: 'mdw',
          state: { waiting: { reason: 'CreateContainerConfigError', message: 'secret "mdw-db" not found' } },
        },
      ],
    });
    await h.pass();
    expect(h.kube.peek(MW_REF)).to.equal(undefined);
    expect(h.kube.events.find((e) => e.reason === 'SchemasRetained')?.message).to.contain('secret "mdw-db" not found');
  });

  it('keeps the data when a drop Job is refused with 403 after it had started', async () => {
    await runningMiddleware({ reclaimPolicy: 'Delete' });
    await h.kube.delete(MW_REF);
    await h.pass(); // workloads stop
    h.kube.failOn({ verb: 'apply', kind: 'Job', error: new KubeError(403, 'Forbidden', 'refused'), times: Infinity });
    await h.pass();
    expect(h.kube.peek(MW_REF)).to.equal(undefined);
    expect(h.kube.events.find((e) => e.reason === 'SchemasRetained')?.message).to.contain(
      'a Job of the clean-up was refused',
    );
  });
});
