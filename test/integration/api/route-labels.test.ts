/**
 * @module Issue 41 item 4: metrics and logs tell the APIs apart. ae_mdw's `/mdw/v3/…` routes are not counted as the
 * node's `/v3/…`, GraphQL is not `unmatched`, a forwarded request is counted under its API, and a refusal's log line
 * names the path the client asked.
 */
import { expect } from 'chai';
import { startApi, type ApiUnderTest } from './harness.ts';
import { capturedLog, type LogLine } from '../../support/captured-log.ts';

/** requestCount is the value of mdw_api_http_requests_total for a route label and status in the exposition text. */
function requestCount(text: string, route: string, status: number): number | undefined {
  const line = text
    .split('\n')
    .find(
      (l) => l.startsWith(`mdw_api_http_requests_total{method="`) && l.includes(`route="${route}",status="${status}"}`),
    );
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('route labels in metrics and logs', () => {
  let api: ApiUnderTest;
  let lines: LogLine[];
  before(async () => {
    const captured = capturedLog();
    lines = captured.lines;
    api = await startApi({ log: captured.log });
  });
  after(async () => {
    await api?.close();
  });

  const graphql = (body: object) => api.request.post('/mdw/graphql').set('content-type', 'application/json').send(body);
  const metrics = async (): Promise<string> => (await api.request.get('/metrics').expect(200)).text;

  it("counts ae_mdw's /mdw/v3 routes apart from the node's /v3 routes", async () => {
    await api.request.get('/mdw/v3/key-blocks/5').expect(200);
    await api.request.get('/v3/key-blocks/height/5').expect(200);
    const text = await metrics();
    expect(requestCount(text, '/mdw/v3/key-blocks/:hash_or_kbi', 200)).to.equal(1);
    expect(requestCount(text, '/v3/key-blocks/:hash_or_kbi', 200)).to.equal(undefined);
    expect(requestCount(text, '/v3/key-blocks/height/:height', 200)).to.equal(1);
  });

  it('counts GraphQL under /mdw/graphql, with the operation name where it is given', async () => {
    await graphql({ query: 'query Tops { keyBlocks(limit: 1) { data { hash } } }' }).expect(200);
    await graphql({ query: '{ keyBlocks(limit: 1) { data { hash } } }' }).expect(200);
    await graphql({ query: '{ keyBlocks(limit: [[1]]) }' }).expect(200);
    const text = await metrics();
    expect(requestCount(text, '/mdw/graphql#Tops', 200)).to.equal(1);
    expect(requestCount(text, '/mdw/graphql', 200)).to.equal(2);
    // nor are the scrapes of the metrics themselves
    expect(requestCount(text, 'unmatched', 200)).to.equal(undefined);
    expect(requestCount(text, '/metrics', 200)).to.be.above(0);
  });

  it('counts a forwarded request under the API it asked, never under its path', async () => {
    await api.request.get('/v2/accounts/ak_nobody').expect(200);
    await api.request.get('/v3/accounts/ak_nobody').expect(200);
    const text = await metrics();
    expect(requestCount(text, '/v2 forwarded', 200)).to.equal(1);
    expect(requestCount(text, '/v3 forwarded', 200)).to.equal(1);
    expect(text).not.to.contain('ak_nobody');
  });

  it('names the path the client asked in the log line of a refusal', async () => {
    await api.request.get('/mdw/v3/key-blocks/nonsense!').expect(400);
    const rejected = lines.filter((l) => l.msg === 'request rejected') as (LogLine & { path?: string })[];
    expect(rejected.map((l) => l.path)).to.include('/mdw/v3/key-blocks/nonsense!');
    expect(requestCount(await metrics(), '/mdw/v3/key-blocks/:hash_or_kbi', 400)).to.equal(1);
  });

  // issue 59: one line per rejected request was a log flood any client could cause
  it('logs a burst of rejected requests in a few lines, each with the count since the last', async () => {
    // a rejection of the tests before may have been logged less than a second ago: the burst's first would then be
    // counted into the next line, not logged; past the second, the first of the burst is logged at once
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const before = lines.length;
    const burst = 200;
    await Promise.all(Array.from({ length: burst }, () => api.request.get('/mdw/v3/key-blocks/nonsense!').expect(400)));
    const logged = lines.slice(before).filter((l) => l.msg === 'request rejected') as (LogLine & {
      rejected: number;
    })[];
    expect(logged.length).to.be.within(1, burst - 1);
    expect(logged.reduce((n, l) => n + l.rejected, 0)).to.be.at.most(burst + 1); // the last line may count the one before
    expect(requestCount(await metrics(), '/mdw/v3/key-blocks/:hash_or_kbi', 400)).to.equal(burst + 1);
  });
});
