/**
 * @module The one outbound layer: every request counted and timed in one metric by target, operation and outcome
 * (an answer's status class, a timeout, no connection, an abort), one per registry whatever the roles sharing it,
 * and one reading of a node that does not answer (503 unreachable, 504 timeout) for every path that asks it.
 */
import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import prom from 'prom-client';
import { createApiMetrics } from '../../../src/api/http/metrics.ts';
import { ErrorCode } from '../../../src/base/errors.ts';
import { createWebsocketMetrics } from '../../../src/events/metrics.ts';
import { createIndexerMetrics } from '../../../src/indexer/metrics.ts';
import { NodeClient } from '../../../src/node/client.ts';
import { createCompilerClient } from '../../../src/node/compiler.ts';
import { dryRun, fateCall } from '../../../src/node/dry-run.ts';
import { badResponse, noAnswer, NodeError, timedOut, unreachable } from '../../../src/node/errors.ts';
import { httpGet, HttpGetError, httpPostJson, statusOutcome } from '../../../src/node/http-get.ts';
import { readMempool } from '../../../src/node/mempool.ts';
import { createOutboundMetrics, OUTBOUND_METRIC } from '../../../src/node/outbound-metrics.ts';
import { deadEnd } from '../../support/dead-end.ts';
import { outboundCounts, type SeriesValue } from '../../support/outbound.ts';

const silentLog = pino({ level: 'silent' });

describe('node/outbound-metrics: one metric for every request sent out', () => {
  let server: http.Server;
  let base: string;
  const held: http.ServerResponse[] = [];
  before(async () => {
    server = http.createServer((req, res) => {
      if (req.url?.includes('hold')) return void held.push(res);
      const status = Number(/status\/(\d+)/.exec(req.url ?? '')?.[1] ?? 200);
      res.writeHead(status, { 'content-type': 'application/json' });
      if (req.url === '/v2/dry-run')
        res.end('{"results":[{"result":"ok","call_obj":{"return_type":"ok","return_value":"cb_1"}}]}');
      else if (req.url === '/version') res.end('{"version":"8.0.0"}');
      else res.end('{"transactions":[]}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    for (const res of held) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('classes a status by its first digit', () => {
    expect([101, 200, 204, 304, 404, 410, 429, 500, 503].map(statusOutcome)).to.deep.equal([
      '1xx',
      '2xx',
      '2xx',
      '3xx',
      '4xx',
      '4xx',
      '4xx',
      '5xx',
      '5xx',
    ]);
  });

  it('counts each request by target, operation and outcome: answers by status class, timeouts, refusals, aborts', async () => {
    const registry = new prom.Registry();
    const meter = createOutboundMetrics(registry).meter('node', 'read');
    await httpGet(new URL(`${base}/v2/a`), 5000, { meter });
    await httpGet(new URL(`${base}/v2/status/404`), 5000, { meter });
    await httpPostJson(new URL(`${base}/v2/status/503`), '{}', 5000, { meter });
    const timeout = await httpGet(new URL(`${base}/v2/hold`), 100, { meter }).catch((e: unknown) => e);
    expect(timeout).to.be.instanceOf(HttpGetError).and.include({ outcome: 'timeout', timedOut: true });
    const down = await deadEnd();
    const refused = await httpGet(new URL(`${down.url}/v2`), 5000, { meter }).catch((e: unknown) => e);
    await down.close();
    expect(refused).to.be.instanceOf(HttpGetError).and.include({ outcome: 'unreachable', timedOut: false });
    const controller = new AbortController();
    const aborting = httpGet(new URL(`${base}/v2/hold/2`), 5000, { meter, signal: controller.signal });
    controller.abort();
    expect(await aborting.catch((e: unknown) => e)).to.include({ outcome: 'aborted' });
    expect(await outboundCounts(registry)).to.deep.equal({
      'node read 2xx': 1,
      'node read 4xx': 1,
      'node read 5xx': 1,
      'node read timeout': 1,
      'node read unreachable': 1,
      'node read aborted': 1,
    });
    // the timeout's time is its deadline, not the next answer's
    const values = (await registry.getSingleMetric(OUTBOUND_METRIC)!.get()).values as SeriesValue[];
    const sum = values.find((v) => v.metricName === `${OUTBOUND_METRIC}_sum` && v.labels.outcome === 'timeout');
    expect(sum?.value).to.be.within(0.09, 2);
  });

  it('counts the node client, dry-runs, the mempool and the compiler under their own operations', async () => {
    const registry = new prom.Registry();
    const metrics = createOutboundMetrics(registry);
    const node = new NodeClient({ url: base, timeoutMs: 5000, attempts: 1, metrics }, silentLog);
    await node.get('/x');
    await node.dryRun('mh_1', [fateCall('ct_1', 'cb_1')]);
    await dryRun([base], 'mh_1', [fateCall('ct_1', 'cb_1')], 5000, undefined, metrics);
    await readMempool(base, 5000, metrics);
    const compiler = createCompilerClient(base, 5000, metrics);
    expect(await compiler.version()).to.equal('8.0.0');
    await compiler.decode('/decode-call-result', {});
    expect(await outboundCounts(registry)).to.deep.equal({
      'node read 2xx': 1,
      'node dry_run 2xx': 2,
      'node mempool 2xx': 1,
      'compiler version 2xx': 1,
      'compiler decode 2xx': 1,
    });
  });

  it('is one metric per registry: a process with every role (mdw -p -s) registers it once', () => {
    const registry = new prom.Registry();
    const api = createApiMetrics(registry);
    const indexer = createIndexerMetrics(registry);
    const ws = createWebsocketMetrics(registry);
    expect(indexer.outbound).to.equal(api.outbound).and.to.equal(ws.outbound);
    expect(registry.getMetricsAsArray().filter((m) => m.name === OUTBOUND_METRIC)).to.have.length(1);
  });
});

describe('node/errors: one reading of a node that does not answer', () => {
  it('answers 503 for a node that cannot be reached or refuses for load, 504 for one that does not answer in time', () => {
    expect(unreachable('/status', new Error('ECONNREFUSED'))).to.include({
      code: ErrorCode.NODE_UNREACHABLE,
      status: 503,
    });
    expect(timedOut('/status', 100)).to.include({ code: ErrorCode.NODE_TIMEOUT, status: 504 });
    // issue 87: the node's 503 (its full queue) and a 429 are its refusal for load, with the wait it asked for if any
    expect(badResponse('/p', 'x', 503)).to.include({ code: ErrorCode.NODE_BUSY, status: 503, busy: true });
    expect(badResponse('/p', 'x', 429, '7')).to.include({ code: ErrorCode.NODE_BUSY, retryAfterMs: 7000 });
    expect(badResponse('/p', 'x', 500)).to.include({ code: ErrorCode.NODE_BAD_RESPONSE, status: 502, busy: false });
  });

  it("reads each of the layer's failures: a timeout as one, a refusal and an abort as unreachable", () => {
    const read = (outcome: 'timeout' | 'unreachable' | 'aborted'): NodeError =>
      noAnswer('/p', new HttpGetError('x', outcome), 100);
    expect(read('timeout')).to.include({ code: ErrorCode.NODE_TIMEOUT, status: 504, transient: true });
    expect(read('unreachable')).to.include({ code: ErrorCode.NODE_UNREACHABLE, status: 503, transient: true });
    expect(read('aborted')).to.include({ code: ErrorCode.NODE_UNREACHABLE, status: 503 });
  });

  it('rejects a mempool read the node does not answer with the NodeError every other path gives', async () => {
    const down = await deadEnd();
    const err = await readMempool(down.url, 5000).catch((e: unknown) => e);
    await down.close();
    expect(err).to.be.instanceOf(NodeError).and.include({ code: ErrorCode.NODE_UNREACHABLE, status: 503 });
  });
});
