/** @module The per-Middleware series from a status (issue 43 item 5): conditions and reload state as gauges. */
import { expect } from 'chai';
import prom from 'prom-client';
import type { MiddlewareStatus } from '../../../src/operator/api/middleware-types.ts';
import { reportStatusSeries } from '../../../src/operator/controller/middleware-series.ts';
import { createOperatorMetrics } from '../../../src/operator/runtime/metrics.ts';

const ref = { apiVersion: 'middleware.aeternity.io/v1alpha1', kind: 'Middleware', namespace: 'chain', name: 'mainnet' };
const at = new Date('2026-11-24T00:00:00Z');
const condition = (type: string, status: 'True' | 'False' | 'Unknown') =>
  ({ type, status, reason: 'R', message: '', lastTransitionTime: at, observedGeneration: 1 }) as never;

describe('reportStatusSeries', () => {
  let registry: prom.Registry;
  let metrics: ReturnType<typeof createOperatorMetrics>;
  /** ones lists the series at 1 as `type=status` (conditions) or `state` (reload). */
  const ones = async (): Promise<string[]> => [
    ...(await metrics.condition.get()).values
      .filter((v) => v.value === 1)
      .map((v) => `${String(v.labels.type)}=${String(v.labels.status)}`),
    ...(await metrics.reloadState.get()).values.filter((v) => v.value === 1).map((v) => String(v.labels.state)),
  ];
  const count = async (): Promise<number> =>
    (await metrics.condition.get()).values.length + (await metrics.reloadState.get()).values.length;

  beforeEach(() => {
    registry = new prom.Registry();
    metrics = createOperatorMetrics(registry);
  });

  it("sets 1 on each condition's status and the reload state, 0 on the other values", async () => {
    const status = {
      conditions: [condition('Degraded', 'True'), condition('Available', 'False')],
      reload: { id: 'r1', strategy: 'BlueGreen', generation: 2, state: 'Failed' },
    } as MiddlewareStatus;
    reportStatusSeries(metrics, ref, status);
    expect((await ones()).sort()).to.deep.equal(['Available=False', 'Degraded=True', 'Failed']);
    const degraded = (await metrics.condition.get()).values.filter((v) => v.labels.type === 'Degraded');
    expect(
      degraded.map((v) => [v.labels.status, v.value, v.labels.middleware_namespace, v.labels.middleware]),
    ).to.have.deep.members([
      ['True', 1, 'chain', 'mainnet'],
      ['False', 0, 'chain', 'mainnet'],
      ['Unknown', 0, 'chain', 'mainnet'],
    ]);
  });

  it('drops the series of a condition the status no longer has, and clears a failed reload when the next succeeds', async () => {
    reportStatusSeries(metrics, ref, {
      conditions: [condition('Degraded', 'True'), condition('PendingPopulatorReady', 'False')],
      reload: { id: 'r1', strategy: 'BlueGreen', generation: 2, state: 'Failed' },
    } as MiddlewareStatus);
    reportStatusSeries(metrics, ref, {
      conditions: [condition('Degraded', 'False')],
      reload: { id: 'r2', strategy: 'BlueGreen', generation: 2, state: 'Completed' },
    } as MiddlewareStatus);
    expect((await ones()).sort()).to.deep.equal(['Completed', 'Degraded=False']);
    const types = new Set((await metrics.condition.get()).values.map((v) => v.labels.type));
    expect([...types]).to.deep.equal(['Degraded']);
  });

  it('removes every series of a Middleware that is gone', async () => {
    reportStatusSeries(metrics, ref, { conditions: [condition('Degraded', 'True')] } as MiddlewareStatus);
    expect(await count()).to.be.greaterThan(0);
    reportStatusSeries(metrics, ref, undefined);
    expect(await count()).to.equal(0);
  });
});
