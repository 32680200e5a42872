import { expect } from 'chai';
import { Registry } from 'prom-client';
import { createOutageMetrics, DependencyOutage } from '../../src/api/http/outage.ts';
import { waitFor } from '../support/wait.ts';
import { capturedLog } from '../support/captured-log.ts';

describe('DependencyOutage', () => {
  it('logs the loss once and the return once with the count of refusals, whatever the number of requests', async () => {
    const { log, lines } = capturedLog('debug');
    const registry = new Registry();
    let answering = false;
    const probes: boolean[] = [];
    const outage = new DependencyOutage({
      dependency: 'database',
      log,
      metrics: createOutageMetrics(registry),
      probe: async () => {
        probes.push(answering);
        if (!answering) throw new Error('connect ECONNREFUSED');
      },
      backoff: { initialMs: 1, maxMs: 5 },
    });
    try {
      for (let i = 0; i < 1000; i++) outage.refused(new Error('connect ECONNREFUSED'));
      expect(outage.down).to.equal(true);
      await waitFor('a failed probe', () => probes.length >= 2);
      answering = true;
      await waitFor('the return', () => !outage.down);
      expect(lines.map((l) => l.msg)).to.deep.equal([
        'database unavailable: refusing what needs it until it is back',
        'database available again',
      ]);
      expect(lines[1]!.refused).to.equal(1000);
      const metrics = await registry.metrics();
      expect(metrics).to.contain('mdw_dependency_outages_total{dependency="database"} 1');
      expect(metrics).to.contain('mdw_dependency_refused_requests_total{dependency="database"} 1000');
      expect(metrics).to.contain('mdw_dependency_up{dependency="database"} 1');
      // a second outage is a second pair of lines
      outage.refused(new Error('again'));
      await waitFor('the second return', () => !outage.down);
      expect(lines).to.have.length(4);
      // failed uses that refused no request (status readings) share the outage and count no refusal
      for (let i = 0; i < 10; i++) outage.unavailable(new Error('status reading failed'));
      outage.refused(new Error('and a request'));
      await waitFor('the third return', () => !outage.down);
      expect(lines).to.have.length(6);
      expect(lines[5]!.refused).to.equal(1);
      expect(await registry.metrics()).to.contain('mdw_dependency_refused_requests_total{dependency="database"} 1002');
    } finally {
      outage.stop();
    }
  });
});
