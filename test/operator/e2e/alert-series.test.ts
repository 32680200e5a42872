/**
 * @module Issue 43 item 5: what the alerts read is what the reconciler exports. A populator that stops being available
 * (crash-looping, killed) turns the Middleware's Degraded condition True in mdw_operator_middleware_condition, which
 * MiddlewareDegraded selects (type="Degraded", status="True"); it goes back to False once the populator is back.
 */
import { expect } from 'chai';
import pino from 'pino';
import prom from 'prom-client';
import { createReconciler } from '../../../src/operator/controller/reconcile.ts';
import { refOf, type KubeObject } from '../../../src/operator/kube/client.ts';
import { createOperatorMetrics } from '../../../src/operator/runtime/metrics.ts';
import { Component, LABEL_COMPONENT } from '../../../src/operator/specs/meta.ts';
import { Harness, IMAGE } from './harness.ts';

describe('the condition gauge behind MiddlewareDegraded (issue 43 item 5)', () => {
  it('says Degraded True while the populator is not available, and False again once it is', async () => {
    const h = new Harness();
    const metrics = createOperatorMetrics(new prom.Registry());
    h.reconcile = createReconciler({
      kube: h.kube,
      log: pino({ level: 'silent' }),
      metrics,
      probe: h.probe.probe,
      clock: h.clock.now,
      config: { image: IMAGE },
    });
    await h.apply();
    h.probe.set('mainnet', 100, 0);
    await h.settle();
    /** degraded is the value of the series MiddlewareDegraded selects. */
    const degraded = async (): Promise<number | undefined> =>
      (await metrics.condition.get()).values.find(
        (v) =>
          v.labels.middleware_namespace === 'chain' &&
          v.labels.middleware === 'mainnet' &&
          v.labels.type === 'Degraded' &&
          v.labels.status === 'True',
      )?.value;
    expect(await degraded()).to.equal(0);

    // the populator's pod crash-loops: its Deployment has no available replica
    const populator = h.deployments().find((d) => d.metadata.labels?.[LABEL_COMPONENT] === Component.populator);
    h.kube.markDeploymentReady(refOf(populator as KubeObject), 0);
    await h.pass();
    expect(h.condition('Degraded')).to.include({ status: 'True', reason: 'PopulatorNotReady' });
    expect(await degraded()).to.equal(1);

    h.readyDeployments();
    await h.pass();
    expect(await degraded()).to.equal(0);
  });
});
