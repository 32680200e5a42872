import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import {
  createStatusProbe,
  parseStatusBody,
  statusUrl,
  type FetchLike,
} from '../../../src/operator/controller/status-probe.ts';

const target = { namespace: 'chain', service: 'mdw-g2-preview', port: 8080 };

describe('statusUrl', () => {
  it('addresses the generation Service through cluster DNS', () =>
    expect(statusUrl(target)).to.equal('http://mdw-g2-preview.chain.svc:8080/middleware/status'));
});

describe('parseStatusBody', () => {
  const cases: { name: string; status: number; body: string; want: Record<string, unknown> }[] = [
    {
      name: 'a healthy 200 answer of the agreed contract',
      status: 200,
      body: '{"height":120,"node_height":121,"lag":1,"synced":true,"contiguous":true,"populator":{"status":"synced","alive":true,"seconds_since_heartbeat":2}}',
      want: {
        reachable: true,
        synced: true,
        httpStatus: 200,
        height: 120,
        nodeHeight: 121,
        lag: 1,
        contiguous: true,
        populatorAlive: true,
        secondsSinceHeartbeat: 2,
      },
    },
    {
      name: 'a 200 answer that says not synced',
      status: 200,
      body: '{"height":10,"node_height":121,"lag":111,"synced":false}',
      want: { reachable: true, synced: false, httpStatus: 200, height: 10, nodeHeight: 121, lag: 111 },
    },
    {
      name: 'a 503 answer (never synced, heights kept, reason told)',
      status: 503,
      body: '{"reason":"the populator is stuck: no heartbeat","height":10,"node_height":12,"synced":true,"populator":{"alive":false,"seconds_since_heartbeat":75}}',
      want: {
        reachable: true,
        synced: false,
        httpStatus: 503,
        height: 10,
        nodeHeight: 12,
        lag: 2,
        populatorAlive: false,
        secondsSinceHeartbeat: 75,
        error: 'status endpoint answered 503: the populator is stuck: no heartbeat',
      },
    },
    {
      name: 'a body without lag (derived from the heights)',
      status: 200,
      body: '{"height":7,"node_height":9,"synced":true}',
      want: { reachable: true, synced: true, httpStatus: 200, height: 7, nodeHeight: 9, lag: 2 },
    },
    {
      name: 'a frozen lag (the body says 0; the heights say 30)',
      status: 200,
      body: '{"height":70,"node_height":100,"lag":0,"synced":true,"contiguous":false}',
      want: { reachable: true, synced: true, httpStatus: 200, height: 70, nodeHeight: 100, lag: 30, contiguous: false },
    },
    {
      name: 'an unknown node height (no lag, whatever the body says)',
      status: 200,
      body: '{"height":70,"node_height":null,"lag":0,"synced":true}',
      want: { reachable: true, synced: true, httpStatus: 200, height: 70 },
    },
    {
      name: 'a body that is not JSON',
      status: 200,
      body: '<html>',
      want: { reachable: true, synced: false, httpStatus: 200, error: 'status body is not JSON' },
    },
    {
      name: 'a JSON array',
      status: 200,
      body: '[1]',
      want: { reachable: true, synced: false, httpStatus: 200, error: 'status body is not a JSON object' },
    },
    {
      name: 'a 404 (the endpoint is missing)',
      status: 404,
      body: '{}',
      want: { reachable: true, synced: false, httpStatus: 404, error: 'status endpoint answered 404' },
    },
    {
      name: 'negative and non-integer heights (ignored)',
      status: 200,
      body: '{"height":-1,"node_height":"x","synced":true}',
      want: { reachable: true, synced: true, httpStatus: 200 },
    },
  ];
  for (const c of cases) {
    it(`reads ${c.name}`, () => expect(parseStatusBody(c.status, c.body)).to.deep.equal(c.want));
  }
});

describe('createStatusProbe', () => {
  let server: Server;
  let base: string;
  let handler: (path: string) => { status: number; body: string } | 'hang';

  before(async () => {
    server = createServer((req, res) => {
      const answer = handler(req.url ?? '');
      if (answer === 'hang') return; // never answers: the probe must time out
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  // Cluster DNS does not resolve here, so the injected fetch sends the request to the local server.
  const localFetch: FetchLike = (url, init) => fetch(url.replace(/^http:\/\/[^/]+/, base), init);

  it('reads the status of a reachable generation over HTTP', async () => {
    handler = (path) => ({
      status: path === '/middleware/status' ? 200 : 404,
      body: '{"height":5,"node_height":5,"lag":0,"synced":true}',
    });
    const result = await createStatusProbe({ fetch: localFetch })(target);
    expect(result).to.deep.equal({ reachable: true, synced: true, httpStatus: 200, height: 5, nodeHeight: 5, lag: 0 });
  });

  it('reports a silent endpoint as unreachable after the timeout', async () => {
    handler = () => 'hang';
    const result = await createStatusProbe({ fetch: localFetch, timeoutMs: 50 })(target);
    expect(result).to.deep.equal({ reachable: false, synced: false, error: 'status endpoint timed out' });
  });

  it('reports a refused connection as unreachable, never throwing', async () => {
    const refused: FetchLike = (_url, init) => fetch('http://127.0.0.1:1/middleware/status', init);
    const result = await createStatusProbe({ fetch: refused })(target);
    expect(result.reachable).to.equal(false);
    expect(result.synced).to.equal(false);
    expect(result.error).to.be.a('string').and.not.equal('');
  });
});
