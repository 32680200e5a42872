import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { expect } from 'chai';
import {
  EMPTY_DRY_RUN,
  GAS_PROBE,
  OLD_STATE_PATH,
  probeNode,
  readDebugDryRun,
  readDryRun,
  readGasCap,
  readStateHistory,
} from '../../../src/node/node-probe.ts';
import { CALLS_PER_REQUEST, dryRunBody, fateCall } from '../../../src/node/dry-run.ts';
import type { NodeError } from '../../../src/node/errors.ts';

/** One exchange of the real node's recording (test/fixtures/real-node/README.md). */
interface Exchange {
  readonly method: string;
  readonly path: string;
  readonly request_body: string | null;
  readonly status: number;
  readonly body: string;
  readonly port?: string;
  readonly label?: string;
}

const recorded = (file: string): Exchange[] =>
  gunzipSync(readFileSync(new URL(`../../fixtures/real-node/${file}`, import.meta.url)))
    .toString('utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Exchange);

const answer = (status: number) => ({ status, text: '' });

describe("node probe: what a node allows, read from a real node's answers", () => {
  const dryRuns = recorded('dry-run.ndjson.gz');
  const find = (port: 'internal' | undefined, method: string, path: string, body: string | null): Exchange => {
    const found = dryRuns.find(
      (e) => e.port === port && e.method === method && e.path === path && e.request_body === body,
    );
    expect(found, `${method} ${path} ${body} is recorded`).to.not.equal(undefined);
    return found!;
  };

  it("asks requests the recording holds verbatim: the real node's answers say the dry-runs are on", () => {
    expect(readDryRun(find(undefined, 'POST', '/v3/dry-run', EMPTY_DRY_RUN))).to.equal('on');
    const internal = find('internal', 'POST', '/v3/debug/transactions/dry-run', EMPTY_DRY_RUN);
    expect(readDebugDryRun(internal)).to.equal('on');
    const chain = recorded('chain.ndjson.gz');
    const old = chain.find((e) => e.method === 'GET' && e.path === OLD_STATE_PATH);
    expect(old, `${OLD_STATE_PATH} is recorded`).to.not.equal(undefined);
    expect(old!.status).to.equal(404);
    expect(readStateHistory(old)).to.equal('on');
  });

  it('reads a route the node lacks as off: its 404 of a dry-run on the wrong port', () => {
    // the node's answer where the route is not (the endpoint group off registers none)
    const none = dryRuns.find((e) => e.label === '/v3/dry-run on the internal port')!;
    expect(none.status).to.equal(404);
    expect(readDryRun(none)).to.equal('off');
    expect(readDebugDryRun(dryRuns.find((e) => e.label === 'debug dry-run on the external port'))).to.equal('off');
  });

  it("reads the gas cap from the node's 403 Over the gas limit, as it answered 7 calls", () => {
    const seven = dryRuns.find((e) => e.label === '7 call_reqs (gas limit)' && e.port === undefined)!;
    expect([seven.status, seven.body]).to.deep.equal([403, '{"reason":"Over the gas limit"}']);
    expect(readGasCap(seven)).to.equal('off');
    expect(readGasCap(dryRuns.find((e) => e.label === '6 call_reqs (gas limit)' && e.port === undefined))).to.equal(
      'on',
    );
  });

  it("asks the gas cap with a recorded request of as much gas as the middleware's own", () => {
    const recordedSix = find(undefined, 'POST', '/v3/dry-run', GAS_PROBE);
    expect(recordedSix.label).to.equal('6 call_reqs (gas limit)');
    const body = JSON.parse(GAS_PROBE) as { txs: { call_req: { gas?: number } }[] };
    // the middleware's request: CALLS_PER_REQUEST calls without gas, each counted 1 000 000 by the node
    expect(body.txs).to.have.length(CALLS_PER_REQUEST);
    for (const { call_req } of body.txs) expect(call_req.gas).to.equal(undefined);
    const own = JSON.parse(dryRunBody(undefined, [fateCall('ct_x', 'cb_y')]));
    expect(own.txs[0].call_req.gas, "the middleware's calls carry no gas either").to.equal(undefined);
  });

  it('leaves unknown what no answer, a 410 elsewhere or a 5xx tells', () => {
    for (const read of [readDryRun, readDebugDryRun, readGasCap, readStateHistory])
      expect([read(undefined), read(answer(500)), read(answer(503))]).to.deep.equal(['unknown', 'unknown', 'unknown']);
    expect(readStateHistory(answer(410))).to.equal('off');
    expect(readDryRun(answer(410))).to.equal('unknown');
  });

  describe('a node that answers as the recording', () => {
    let server: Server;
    let url: string;
    before(async () => {
      // each request answered with the real node's recorded answer to it (external port)
      const exchanges = [...dryRuns, ...recorded('chain.ndjson.gz')].filter((e) => e.port === undefined);
      server = createServer((req, res) => {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        req.on('end', () => {
          const e = exchanges.find(
            (x) => x.method === req.method && x.path === req.url && (x.request_body ?? '') === body,
          );
          res.writeHead(e?.status ?? 599, { 'content-type': 'application/json' }).end(e?.body ?? '');
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it("counts each answer under its node and an error status as a failure, as the populator's clients do", async () => {
      const answers: string[] = [];
      const failures: string[] = [];
      const meters = {
        onAnswer: (node: string) => answers.push(node),
        onError: (e: NodeError) => failures.push(e.code),
      };
      const findings = await probeNode({ url, timeoutMs: 5000, meters });
      expect([findings.dryRun, findings.gasCap, findings.stateHistory]).to.deep.equal(['on', 'on', 'on']);
      // the two dry-runs (200) and the old state's 404 (an account the node lacks): three answers, one failed attempt
      expect(answers).to.deep.equal([url, url, url]);
      expect(failures).to.deep.equal(['MDW_NODE_BAD_RESPONSE']);
    });
  });

  describe('a node that does not answer', () => {
    let server: Server;
    let url: string;
    before(async () => {
      // accepts every connection and never answers
      server = createServer(() => {});
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    after(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it('is unknown in everything after one timeout, not waited for longer', async () => {
      const started = performance.now();
      const failures: string[] = [];
      const meters = { onAnswer: () => failures.push('answer'), onError: (e: NodeError) => failures.push(e.code) };
      const findings = await probeNode({ url, internalUrl: url, timeoutMs: 200, meters });
      expect(performance.now() - started).to.be.below(1500);
      // each request one failed attempt (the gas cap is not asked where the dry-run's answer told nothing)
      expect(failures).to.deep.equal(['MDW_NODE_TIMEOUT', 'MDW_NODE_TIMEOUT', 'MDW_NODE_TIMEOUT']);
      expect(findings).to.deep.equal({
        dryRun: 'unknown',
        internalDryRun: 'unknown',
        debugEndpoints: 'unknown',
        gasCap: 'unknown',
        dryRunTimeLimit: 'unknown',
        stateHistory: 'unknown',
      });
    });
  });
});
