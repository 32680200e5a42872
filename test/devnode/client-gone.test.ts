/**
 * @module A request whose client closed its connection before the devnode got to it is not run (issue 88): the
 * devnode's one thread, busy, left a populator's requests waiting past its timeout, and then ran each abandoned one
 * (a replay to a past block) while the populator asked it again, behind them.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createLogger } from '../../src/base/log.ts';
import { close, createJsonServer, listen, ok, type Route } from '../../src/devnode/api/http.ts';

const run = promisify(execFile);
const { log } = createLogger({ logLevel: 'silent', logPretty: false, logDir: undefined });

/**
 * CLIENTS, run in a process of their own (the devnode's thread is the test's, held by each request): a first request,
 * then 50 ms later two more, the first of which gives up after 100 ms, before its turn. Prints each one's status.
 */
const CLIENTS = `
import { request } from 'node:http';
const url = process.argv[1];
const post = (path, abortAfterMs) => new Promise((resolve) => {
  const req = request(url + path, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
    res.resume();
    res.on('end', () => resolve(res.statusCode));
  });
  req.on('error', () => resolve('gone'));
  req.end('{"txs":[]}');
  if (abortAfterMs !== undefined) setTimeout(() => req.destroy(), abortAfterMs);
});
const first = post('/v3/dry-run/first');
await new Promise((r) => setTimeout(r, 50));
console.log(JSON.stringify(await Promise.all([first, post('/v3/dry-run/gone', 100), post('/v3/dry-run/third')])));
`;

describe('devnode: a request whose client has gone', () => {
  it('is not run once the devnode gets to it; the requests of clients still there are', async () => {
    const ran: string[] = [];
    // each request holds the devnode's thread 300 ms, as a replay to a past block does
    const busy: Route = {
      method: 'POST',
      path: '/v3/dry-run/:name',
      handler: (req) => {
        ran.push(req.params[0]!);
        const end = performance.now() + 300;
        while (performance.now() < end);
        return ok({ results: [] });
      },
    };
    const server = createJsonServer([busy], log);
    const url = await listen(server, '127.0.0.1', 0);
    try {
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', CLIENTS, url]);
      expect(JSON.parse(stdout)).to.deep.equal([200, 'gone', 200]);
      expect(ran).to.deep.equal(['first', 'third']);
    } finally {
      await close(server);
    }
  });
});
