import { expect } from 'chai';
import type { V1Deployment, V1Job } from '@kubernetes/client-node';
import type { MiddlewareCondition } from '../../../src/operator/api/middleware-types.ts';
import {
  applyChild,
  deploymentCounts,
  isDeploymentAvailable,
  jobState,
} from '../../../src/operator/controller/reconcile-children.ts';
import type { KubeError, KubeObject } from '../../../src/operator/kube/client.ts';
import { FakeKube } from '../../../src/operator/kube/fake.ts';
import { conditionEvents } from '../../../src/operator/controller/reconcile-condition-events.ts';
import { middlewareRef } from '../../../src/operator/controller/reconcile.ts';
import {
  generationStateOf,
  statusPatch,
  withGenerationState,
} from '../../../src/operator/controller/reconcile-status.ts';

describe('jobState', () => {
  const job = (conditions: { type: string; status: string }[]): V1Job => ({ status: { conditions } }) as V1Job;
  const cases: [string, V1Job | undefined, string][] = [
    ['no Job', undefined, 'Absent'],
    ['a Job without conditions', job([]), 'Running'],
    ['Complete=True', job([{ type: 'Complete', status: 'True' }]), 'Succeeded'],
    [
      'SuccessCriteriaMet=True (Kubernetes 1.31+, before Complete)',
      job([{ type: 'SuccessCriteriaMet', status: 'True' }]),
      'Succeeded',
    ],
    ['Failed=True', job([{ type: 'Failed', status: 'True' }]), 'Failed'],
    ['FailureTarget=True (before Failed)', job([{ type: 'FailureTarget', status: 'True' }]), 'Failed'],
    ['Failed=False', job([{ type: 'Failed', status: 'False' }]), 'Running'],
  ];
  for (const [name, input, state] of cases)
    it(`is ${state} for ${name}`, () => expect(jobState(input)).to.equal(state));
});

describe('deploymentCounts and isDeploymentAvailable', () => {
  const deployment = (replicas: number, available: number, generation = 1, observed = 1): V1Deployment =>
    ({
      metadata: { generation },
      spec: { replicas },
      status: { availableReplicas: available, observedGeneration: observed },
    }) as V1Deployment;
  it('reads desired from the spec and available from the status', () =>
    expect(deploymentCounts(deployment(3, 2))).to.deep.equal({ desired: 3, available: 2 }));
  it('is undefined without a Deployment', () => expect(deploymentCounts(undefined)).to.equal(undefined));
  it('is available when every desired replica is', () =>
    expect(isDeploymentAvailable(deployment(2, 2))).to.equal(true));
  it('is not available with a replica missing', () => expect(isDeploymentAvailable(deployment(2, 1))).to.equal(false));
  it('is not available while the controller has not seen the latest spec', () =>
    expect(isDeploymentAvailable(deployment(2, 2, 3, 2))).to.equal(false));
  it('is not available when scaled to zero', () => expect(isDeploymentAvailable(deployment(0, 0))).to.equal(false));
});

describe('statusPatch', () => {
  it('nulls members the next status drops, recursively, and keeps the rest', () => {
    const current = {
      activeGeneration: 1,
      pendingGeneration: 2,
      reload: { id: 'r', cleanupGeneration: 1, state: 'CleaningUp' },
      conditions: [{ type: 'A' }],
    };
    const next = { activeGeneration: 2, reload: { id: 'r', state: 'Completed' }, conditions: [] };
    expect(statusPatch(current, next)).to.deep.equal({
      activeGeneration: 2,
      pendingGeneration: null,
      reload: { id: 'r', cleanupGeneration: null, state: 'Completed' },
      conditions: [],
    });
  });
  it('is the next status itself when there was none', () =>
    expect(statusPatch(undefined, { a: 1 })).to.deep.equal({ a: 1 }));
});

describe('generationStateOf and withGenerationState', () => {
  it('starts a new Middleware on generation 1', () =>
    expect(generationStateOf(undefined)).to.deep.equal({ activeGeneration: 1 }));
  it('round-trips the blue/green fields and leaves the others', () => {
    const status = { phase: 'Available' as const, activeGeneration: 3, previousGeneration: 2, previousExpiresAt: 't' };
    expect(withGenerationState(status, generationStateOf(status))).to.deep.equal(status);
    expect(withGenerationState(status, { activeGeneration: 3 })).to.deep.equal({
      phase: 'Available',
      activeGeneration: 3,
    });
  });
});

describe('conditionEvents', () => {
  const c = (
    type: MiddlewareCondition['type'],
    status: MiddlewareCondition['status'],
    reason: string,
  ): MiddlewareCondition => ({ type, status, reason, message: 'm', lastTransitionTime: 't' });
  it('announces a condition that changed status, bad news as a Warning', () => {
    expect(
      conditionEvents([c('Available', 'True', 'AllPodsReady')], [c('Available', 'False', 'NoPodReady')]),
    ).to.deep.equal([{ type: 'Warning', reason: 'NoPodReady', message: 'Available is False: m' }]);
    expect(
      conditionEvents([c('Degraded', 'False', 'NoProblems')], [c('Degraded', 'True', 'MigrationFailed')]),
    ).to.deep.equal([{ type: 'Warning', reason: 'MigrationFailed', message: 'Degraded is True: m' }]);
    expect(conditionEvents([c('Synced', 'False', 'CatchingUp')], [c('Synced', 'True', 'CaughtUp')])).to.deep.equal([
      { type: 'Normal', reason: 'CaughtUp', message: 'Synced is True: m' },
    ]);
  });
  it('stays quiet for unchanged statuses, first bad values and conditions with Events of their own', () => {
    expect(conditionEvents([c('Available', 'True', 'A')], [c('Available', 'True', 'B')])).to.deep.equal([]);
    expect(
      conditionEvents([], [c('Available', 'False', 'DeploymentNotFound'), c('Degraded', 'False', 'NoProblems')]),
    ).to.deep.equal([]);
    expect(
      conditionEvents([], [c('Reconciled', 'True', 'ReconcileSucceeded'), c('Reindexing', 'True', 'Migrating')]),
    ).to.deep.equal([]);
  });
});

describe('middlewareRef', () => {
  it('reads namespace/name keys and bare names', () => {
    expect(middlewareRef('chain/mainnet')).to.deep.include({ namespace: 'chain', name: 'mainnet', kind: 'Middleware' });
    expect(middlewareRef('mainnet')).to.deep.equal({
      apiVersion: 'middleware.aeternity.io/v1alpha1',
      kind: 'Middleware',
      name: 'mainnet',
    });
  });
});

describe('applyChild (issue 14: apply without force first)', () => {
  const deployment = (replicas: number): KubeObject => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', namespace: 'ns' },
    spec: { replicas },
  });

  it('applies without force when nobody else owns the fields', async () => {
    const kube = new FakeKube();
    const conflicts: KubeError[] = [];
    await applyChild(kube, deployment(2), undefined, 'mdw-operator', (e) => {
      conflicts.push(e);
    });
    expect(conflicts).to.deep.equal([]);
    expect(kube.writes).to.have.length(1);
  });

  it('tells about a conflict with another field manager, then forces', async () => {
    const kube = new FakeKube();
    await kube.apply(deployment(5), 'kubectl');
    kube.clearRecords();
    const conflicts: KubeError[] = [];
    const { live } = await applyChild(kube, deployment(2), undefined, 'mdw-operator', (e) => {
      conflicts.push(e);
    });
    expect(conflicts).to.have.length(1);
    expect(conflicts[0]?.message).to.contain('.spec.replicas');
    expect((live.spec as { replicas: number }).replicas).to.equal(2);
    expect(kube.writes.map((w) => w.changed)).to.deep.equal([true]); // the refused apply persisted nothing
  });
});
