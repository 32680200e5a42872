import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { GRAPHQL_ROUTE, MAX_OPERATION_LABELS, OperationLabels } from '../../../src/api/mdw/graphql/operation-labels.ts';
import { routeLabel, statusLabel, type RouteOf } from '../../../src/api/http/middleware/request-metrics.ts';

describe('routeLabel', () => {
  it("names ae_mdw's routes with the /mdw prefix the client asked, apart from the node's /v3 routes", () => {
    expect(routeLabel({ path: '/mdw/v3/key-blocks/3', matched: '/v3/key-blocks/:id', mountedAt: '/mdw' })).to.equal(
      '/mdw/v3/key-blocks/:id',
    );
    expect(routeLabel({ path: '/v3/key-blocks/3', matched: '/v3/key-blocks/:id' })).to.equal('/v3/key-blocks/:id');
    expect(routeLabel({ path: '/v2/key-blocks/height/3', matched: '/v2/key-blocks/height/:height' })).to.equal(
      '/v2/key-blocks/height/:height',
    );
    expect(routeLabel({ path: '/middleware/status', matched: '/middleware/status' })).to.equal('/middleware/status');
  });

  it("prefers a handler's own label (GraphQL's) to a route template", () => {
    expect(routeLabel({ path: '/mdw/graphql', mountedAt: '/mdw', route: `${GRAPHQL_ROUTE}#Blocks` })).to.equal(
      '/mdw/graphql#Blocks',
    );
  });

  it("counts forwarded requests under the node's API they asked, and never under their raw path", () => {
    expect(routeLabel({ path: '/v2/accounts/ak_x', forwarded: true })).to.equal('/v2 forwarded');
    expect(routeLabel({ path: '/v3/transactions', forwarded: true })).to.equal('/v3 forwarded');
    expect(routeLabel({ path: '/api', forwarded: true })).to.equal('forwarded');
    expect(routeLabel({ path: '/v2x/whatever', forwarded: true })).to.equal('forwarded');
    expect(routeLabel({ path: '/no/such/path' })).to.equal('unmatched');
  });
});

describe('OperationLabels', () => {
  it("labels an operation by its name, and one without a name as the endpoint's", () => {
    const labels = new OperationLabels();
    expect(labels.label('Blocks')).to.equal('/mdw/graphql#Blocks');
    expect(labels.label(undefined)).to.equal('/mdw/graphql');
  });

  it('gives no label of its own to a name that is no short GraphQL name', () => {
    const labels = new OperationLabels();
    expect(labels.label('a'.repeat(65))).to.equal(GRAPHQL_ROUTE);
    expect(labels.label('a'.repeat(64))).to.equal(`${GRAPHQL_ROUTE}#${'a'.repeat(64)}`);
    for (const hostile of ['x"}', 'a b', '1abc', '', 'é', 'a\nb'])
      expect(labels.label(hostile)).to.equal(GRAPHQL_ROUTE);
  });

  it('labels at most its bound of names: a client sending a new name with every request adds no series', () => {
    const labels = new OperationLabels(3);
    expect(['A', 'B', 'C'].map((n) => labels.label(n))).to.deep.equal(
      ['A', 'B', 'C'].map((n) => `${GRAPHQL_ROUTE}#${n}`),
    );
    for (let i = 0; i < 1000; i++) expect(labels.label(`Hostile${i}`)).to.equal(GRAPHQL_ROUTE);
    // the names already labelled keep their labels
    expect(labels.label('B')).to.equal(`${GRAPHQL_ROUTE}#B`);
    expect(MAX_OPERATION_LABELS).to.be.within(1, 256);
  });
});

describe("the dashboard's panel of requests per API", () => {
  const dashboard = JSON.parse(
    readFileSync(
      new URL('../../../charts/aeternity-middleware-operator/dashboards/aeternity-middleware.json', import.meta.url),
      'utf8',
    ),
  ) as { panels: { title: string; targets: { expr: string; legendFormat: string }[] }[] };
  const panel = dashboard.panels.find((p) => p.title === 'HTTP requests per API and status')!;
  // Prometheus anchors a label matcher's regular expression at both ends
  const apis = panel.targets.map((t) => ({
    api: t.legendFormat.split(' {{')[0],
    matches: new RegExp(`^(?:${/route=~"([^"]+)"/.exec(t.expr)![1]})$`),
  }));
  const apiOf = (label: string): (string | undefined)[] => apis.filter((a) => a.matches.test(label)).map((a) => a.api);

  it('puts every route label the server gives into its one API', () => {
    const labels: [RouteOf, string][] = [
      [{ path: '/mdw/v3/key-blocks/3', matched: '/v3/key-blocks/:hash_or_kbi', mountedAt: '/mdw' }, '/mdw/v3'],
      [{ path: '/mdw/graphql', route: new OperationLabels().label('Blocks') }, '/mdw/graphql'],
      [{ path: '/mdw/graphql', route: GRAPHQL_ROUTE }, '/mdw/graphql'],
      [{ path: '/v3/key-blocks/height/3', matched: '/v3/key-blocks/height/:height' }, '/v3 (node)'],
      [{ path: '/v3/accounts/ak_x', forwarded: true }, '/v3 (node)'],
      [{ path: '/v2/key-blocks/height/3', matched: '/v2/key-blocks/height/:height' }, '/v2 (node)'],
      [{ path: '/v2/accounts/ak_x', forwarded: true }, '/v2 (node)'],
      [{ path: '/middleware/status', matched: '/middleware/status' }, '/middleware'],
    ];
    for (const [route, api] of labels) expect(apiOf(routeLabel(route)), routeLabel(route)).to.deep.equal([api]);
    expect(apiOf('/metrics')).to.deep.equal([]);
  });
});

describe('statusLabel', () => {
  it('counts a request whose client closed its connection before the answer began as 499, whatever Koa holds', () => {
    // Koa's default status for an answer never set, and a handler's status nobody read
    expect(statusLabel(404, { destroyed: true, headersSent: false })).to.equal('499');
    expect(statusLabel(500, { destroyed: true, headersSent: false })).to.equal('499');
  });

  it('keeps the status answered, also for an answer cut after its head', () => {
    expect(statusLabel(200, { destroyed: false, headersSent: false })).to.equal('200');
    expect(statusLabel(503, { destroyed: false, headersSent: true })).to.equal('503');
    expect(statusLabel(200, { destroyed: true, headersSent: true })).to.equal('200');
  });
});
