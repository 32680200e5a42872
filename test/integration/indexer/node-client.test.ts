/** @module NodeClient against a real HTTP server: retries, backoff, timeouts, typed errors, exact integers. */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { NodeClient } from '../../../src/node/client.ts';
import { NodeError } from '../../../src/node/errors.ts';
import { ErrorCode } from '../../../src/base/errors.ts';
import { deadEnd } from '../../support/dead-end.ts';

const log = pino({ level: 'silent' });

describe('NodeClient', () => {
  let server: Server;
  let url: string;
  type Step = (path: string) => { status: number; body: string; delayMs?: number };
  let script: Step[] = [];
  let requests = 0;

  before(async () => {
    server = createServer((req, res) => {
      requests++;
      const step: Step = script.shift() ?? (() => ({ status: 200, body: '{"height":1}' }));
      const { status, body, delayMs } = step(req.url ?? '');
      setTimeout(() => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(body);
      }, delayMs ?? 0);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });
  beforeEach(() => {
    script = [];
    requests = 0;
  });

  const client = (extra: Partial<ConstructorParameters<typeof NodeClient>[0]> = {}): NodeClient =>
    new NodeClient({ url, timeoutMs: 300, attempts: 4, backoffInitialMs: 5, backoffMaxMs: 20, ...extra }, log);

  async function failure(p: Promise<unknown>): Promise<NodeError> {
    try {
      await p;
    } catch (err) {
      expect(err).to.be.instanceOf(NodeError);
      return err as NodeError;
    }
    throw new Error('expected a failure');
  }

  it('parses big integers exactly', async () => {
    script = [
      () => ({ status: 200, body: '{"key_block":{"height":3,"nonce":15041902164601590529},"micro_blocks":[]}' }),
    ];
    const gen = await client().generation(3);
    expect((gen.key_block as { nonce: bigint }).nonce).to.equal(15041902164601590529n);
  });

  it('retries a refusal for load and malformed JSON, then succeeds', async () => {
    script = [
      () => ({ status: 503, body: '{"reason":"Temporary overload"}' }),
      () => ({ status: 200, body: '{"height":' }),
      () => ({ status: 200, body: '{"height":7}' }),
    ];
    const errors: string[] = [];
    expect(await client({ onError: (e) => errors.push(e.code) }).topHeight()).to.equal(7);
    expect(requests).to.equal(3);
    // the node's 503 is its refusal for load (issue 87), the cut answer a bad one
    expect(errors).to.deep.equal([ErrorCode.NODE_BUSY, ErrorCode.NODE_BAD_RESPONSE]);
  });

  it('gives up after the configured attempts with a typed, transient error', async () => {
    script = Array.from({ length: 4 }, () => () => ({ status: 500, body: '{"reason":"boom"}' }));
    const err = await failure(client().topHeight());
    expect(requests).to.equal(4);
    expect(err.code).to.equal(ErrorCode.NODE_BAD_RESPONSE);
    expect(err.transient).to.equal(true);
    expect(err.message).to.contain('boom');
  });

  it('does not retry a 404 and says it is one', async () => {
    script = [() => ({ status: 404, body: '{"reason":"Chain too short"}' })];
    const err = await failure(client().generation(99));
    expect(requests).to.equal(1);
    expect(err.notFound).to.equal(true);
    expect(err.message).to.contain('Chain too short');
  });

  it('times out a slow answer as NODE_TIMEOUT', async () => {
    script = [() => ({ status: 200, body: '{"height":1}', delayMs: 1000 })];
    const err = await failure(client({ attempts: 1 }).topHeight());
    expect(err.code).to.equal(ErrorCode.NODE_TIMEOUT);
  });

  it('reports a connection the node resets as NODE_UNREACHABLE', async () => {
    const node = await deadEnd();
    const err = await failure(
      new NodeClient({ url: node.url, timeoutMs: 300, attempts: 2, backoffInitialMs: 1 }, log).topHeight(),
    );
    await node.close();
    expect(err.code).to.equal(ErrorCode.NODE_UNREACHABLE);
  });
});
