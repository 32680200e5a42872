/** @module OperatorRuntime over the real client and HTTP (FakeKube behind a REST front): elects, reconciles, survives 410. */
import { expect } from 'chai';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { KubeConfig } from '@kubernetes/client-node';
import { API_VERSION, KIND } from '../../../src/operator/api/middleware-types.ts';
import type { KubeObject, ObjectRef } from '../../../src/operator/kube/client.ts';
import { FakeKube } from '../../../src/operator/kube/fake.ts';
import { createKubeClient } from '../../../src/operator/kube/real-client.ts';
import { OperatorRuntime } from '../../../src/operator/runtime/main.ts';
import { LEADER_LEASE_NAME } from '../../../src/operator/specs/rbac.ts';
import { eventually } from '../kube/contract.ts';
import { startFakeApiServer } from '../kube/fake-apiserver.ts';

const NS = 'apps';
const LEASE = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace: NS, name: LEADER_LEASE_NAME };
const ref = (name: string): ObjectRef => ({ apiVersion: API_VERSION, kind: KIND, namespace: NS, name });
const mw = (name: string) => ({
  apiVersion: API_VERSION,
  kind: KIND,
  metadata: { name, namespace: NS },
  spec: { replicas: 1 },
});

describe('OperatorRuntime over HTTP with the real client', () => {
  let fake: FakeKube;
  let api: { url: string; stop(): Promise<void> };
  let op: OperatorRuntime | undefined;
  let calls: string[];

  beforeEach(async () => {
    fake = new FakeKube();
    api = await startFakeApiServer(fake, [
      { apiVersion: API_VERSION, kind: KIND, plural: 'middlewares' },
      { apiVersion: 'apps/v1', kind: 'Deployment', plural: 'deployments' },
      { apiVersion: 'batch/v1', kind: 'Job', plural: 'jobs' },
      { apiVersion: 'v1', kind: 'Service', plural: 'services' },
      { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', plural: 'poddisruptionbudgets' },
      { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', plural: 'horizontalpodautoscalers' },
      { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', plural: 'ingresses' },
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', plural: 'roles' },
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', plural: 'rolebindings' },
      { apiVersion: 'v1', kind: 'ServiceAccount', plural: 'serviceaccounts' },
      { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', plural: 'leases' },
      // no ServiceMonitor: prometheus-operator's CRD is not installed, and the operator works without it
    ]);
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'f', server: api.url, skipTLSVerify: true }],
      users: [{ name: 'u', token: 't' }],
      contexts: [{ name: 'f', cluster: 'f', user: 'u', namespace: NS }],
      currentContext: 'f',
    });
    calls = [];
    await fake.create(mw('a'));
    op = new OperatorRuntime({
      kube: createKubeClient(kc),
      log: pino({ level: process.env.DEBUG_LOG ?? 'silent' }),
      registry: new Registry(),
      identity: 'pod-1',
      namespace: NS,
      leaderElection: { leaseDurationMs: 1000, renewDeadlineMs: 800, retryPeriodMs: 50 },
      reconcile: async (key) => {
        calls.push(key);
        return {};
      },
    });
    await op.start();
  });
  afterEach(async () => {
    await op?.stop();
    await api.stop();
  });

  it('takes the Lease, reconciles, follows spec changes, and after a compacted watch relists what it missed', async () => {
    await eventually(async () => expect(calls).to.deep.equal([`${NS}/a`]), 5000);
    expect(op?.isLeader()).to.equal(true);
    // issue 75: the API server reads a Lease's times as MicroTime, six fractional digits, and refuses three
    const lease = fake.peek<KubeObject & { spec: { renewTime: unknown; acquireTime: unknown } }>(LEASE);
    expect(lease?.spec.renewTime).to.match(/\.\d{6}Z$/);
    expect(lease?.spec.acquireTime).to.match(/\.\d{6}Z$/);
    await fake.patchMerge(ref('a'), { spec: { replicas: 2 } });
    await eventually(async () => expect(calls).to.have.length(2));

    fake.stallWatches(); // the operator misses the next changes ...
    await fake.create(mw('b'));
    fake.compact(); // ... and cannot resume from where it was
    fake.endWatches();
    await eventually(async () => expect(calls).to.include(`${NS}/b`), 5000);
    const metrics = await op?.metrics.watchRelists.get();
    const middlewareRelists = metrics?.values.find((v) => v.labels.kind === KIND)?.value;
    expect(middlewareRelists).to.equal(2);
  });
});
