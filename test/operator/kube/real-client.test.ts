/** @module The real KubeClient at the HTTP level: client-node 2 fetches through undici, so undici's MockAgent intercepts. */
import { expect } from 'chai';
import { KubeConfig } from '@kubernetes/client-node';
import { MockAgent, getGlobalDispatcher, setGlobalDispatcher } from 'undici';
import type { Dispatcher } from 'undici';
import { KubeError } from '../../../src/operator/kube/client.ts';
import type { KubeClient, KubeObject, ObjectRef, WatchEvent } from '../../../src/operator/kube/client.ts';
import { createKubeClient } from '../../../src/operator/kube/real-client.ts';

const SERVER = 'https://k8s.test:6443';
const MW = 'mdw.test/v1alpha1';
const mwRef: ObjectRef = { apiVersion: MW, kind: 'Middleware', namespace: 'ns1', name: 'mw' };
const depRef: ObjectRef = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'ns1', name: 'd' };
const JSON_HEADERS = { 'content-type': 'application/json' };

interface Seen {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

const discovery: Record<string, Array<[string, string]>> = {
  '/api/v1': [
    ['configmaps', 'ConfigMap'],
    ['events', 'Event'],
  ],
  '/apis/apps/v1': [['deployments', 'Deployment']],
  [`/apis/${MW}`]: [['middlewares', 'Middleware']],
};

describe('createKubeClient (HTTP level)', () => {
  let agent: MockAgent;
  let previous: Dispatcher;
  let kube: KubeClient;
  let seen: Seen[];

  beforeEach(() => {
    previous = getGlobalDispatcher();
    agent = new MockAgent();
    agent.disableNetConnect();
    setGlobalDispatcher(agent);
    for (const [path, kinds] of Object.entries(discovery)) {
      agent
        .get(SERVER)
        .intercept({ path, method: 'GET' })
        .reply(
          200,
          {
            kind: 'APIResourceList',
            groupVersion: path.replace(/^\/apis?\//, ''),
            resources: kinds.map(([name, kind]) => ({ name, kind, namespaced: true, singularName: '', verbs: [] })),
          },
          { headers: JSON_HEADERS },
        )
        .persist();
    }
    const kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: SERVER, skipTLSVerify: false }],
      users: [{ name: 'u', token: 'secret-token' }],
      contexts: [{ name: 'ctx', cluster: 'c', user: 'u', namespace: 'ns1' }],
      currentContext: 'ctx',
    });
    kube = createKubeClient(kc);
    seen = [];
  });

  afterEach(async () => {
    setGlobalDispatcher(previous);
    await agent.close();
  });

  /** expect one request matching method and path prefix; reply with status and body (JSON). */
  function on(method: string, pathPrefix: string, status: number, body: unknown, headers = JSON_HEADERS): void {
    agent
      .get(SERVER)
      .intercept({ method, path: (p: string) => p.startsWith(pathPrefix) })
      .reply((opts) => {
        const h = opts.headers as Record<string, string> | undefined;
        seen.push({ method: opts.method, path: opts.path, headers: lowerKeys(h ?? {}), body: String(opts.body ?? '') });
        return {
          statusCode: status,
          data: typeof body === 'string' ? body : JSON.stringify(body),
          responseOptions: { headers },
        };
      });
  }

  const status = (code: number, reason: string, message = reason) => ({
    kind: 'Status',
    apiVersion: 'v1',
    status: 'Failure',
    code,
    reason,
    message,
  });

  it('get reads the object path with the bearer token and revives metadata timestamps', async () => {
    on('GET', '/apis/apps/v1/namespaces/ns1/deployments/d', 200, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', namespace: 'ns1', creationTimestamp: '2026-01-02T03:04:05Z' },
      spec: { replicas: 2 },
    });
    const d = await kube.get<KubeObject>(depRef);
    expect(seen[0]?.headers.authorization).to.equal('Bearer secret-token');
    expect(d?.metadata.creationTimestamp).to.be.instanceOf(Date);
    expect((d?.spec as { replicas: number }).replicas).to.equal(2);
  });

  it('get gives undefined on 404 and a KubeError on 403', async () => {
    on('GET', `/apis/${MW}/namespaces/ns1/middlewares/mw`, 404, status(404, 'NotFound'));
    expect(await kube.get(mwRef)).to.equal(undefined);
    on('GET', `/apis/${MW}/namespaces/ns1/middlewares/mw`, 403, status(403, 'Forbidden', 'no access'));
    const err = await kube.get(mwRef).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(KubeError).and.include({ status: 403, reason: 'Forbidden' });
    expect((err as Error).message).to.contain('no access');
  });

  it('list sends the label selector, fills apiVersion/kind on items and returns the list resourceVersion', async () => {
    on('GET', `/apis/${MW}/namespaces/ns1/middlewares`, 200, {
      apiVersion: MW,
      kind: 'MiddlewareList',
      metadata: { resourceVersion: '42' },
      items: [{ metadata: { name: 'a', namespace: 'ns1' }, spec: {} }],
    });
    const res = await kube.list(MW, 'Middleware', 'ns1', { labelSelector: 'app=mdw' });
    expect(new URL(SERVER + (seen[0]?.path ?? '')).searchParams.get('labelSelector')).to.equal('app=mdw');
    expect(res.resourceVersion).to.equal('42');
    expect(res.items[0]).to.include({ apiVersion: MW, kind: 'Middleware' });
  });

  it('list sends limit and continue and returns the next token, for typed lists and custom resources', async () => {
    on('GET', '/apis/apps/v1/namespaces/ns1/deployments', 200, {
      apiVersion: 'apps/v1',
      kind: 'DeploymentList',
      metadata: { resourceVersion: '50', continue: 'tok-2' },
      items: [{ metadata: { name: 'd1', namespace: 'ns1' } }],
    });
    on('GET', `/apis/${MW}/namespaces/ns1/middlewares`, 200, {
      apiVersion: MW,
      kind: 'MiddlewareList',
      metadata: { resourceVersion: '50', continue: 'tok-3' },
      items: [],
    });
    on('GET', `/apis/${MW}/namespaces/ns1/middlewares`, 200, {
      apiVersion: MW,
      kind: 'MiddlewareList',
      metadata: { resourceVersion: '50' },
      items: [],
    });
    const selector = 'app.kubernetes.io/managed-by=mdw-operator';
    const page = await kube.list('apps/v1', 'Deployment', 'ns1', {
      labelSelector: selector,
      limit: 2,
      continue: 'tok-1',
    });
    expect(seen[0]?.path.split('?')[1]).to.equal(
      'labelSelector=app.kubernetes.io%2Fmanaged-by%3Dmdw-operator&limit=2&continue=tok-1',
    );
    expect(page).to.deep.include({ resourceVersion: '50', continue: 'tok-2' });
    expect((await kube.list(MW, 'Middleware', 'ns1', { limit: 500 })).continue).to.equal('tok-3');
    expect(seen[1]?.path.split('?')[1]).to.equal('limit=500');
    const last = await kube.list(MW, 'Middleware', 'ns1', { limit: 500, continue: 'tok-3' });
    expect(seen[2]?.path.split('?')[1]).to.equal('limit=500&continue=tok-3');
    expect(last).to.not.have.property('continue');
  });

  it('watch sends the label selector with the resourceVersion', async () => {
    on('GET', '/apis/apps/v1/namespaces/ns1/deployments?', 200, '');
    await new Promise<KubeError | undefined>((resolve) => {
      void kube.watch(
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          namespace: 'ns1',
          resourceVersion: '7',
          labelSelector: 'app.kubernetes.io/name=aeternity-middleware,app.kubernetes.io/managed-by=mdw-operator',
        },
        () => undefined,
        resolve,
      );
    });
    expect(seen[0]?.path.split('?')[1]).to.equal(
      'watch=true&resourceVersion=7&allowWatchBookmarks=true&labelSelector=' +
        'app.kubernetes.io%2Fname%3Daeternity-middleware%2Capp.kubernetes.io%2Fmanaged-by%3Dmdw-operator',
    );
  });

  it('list without a namespace reads the all-namespaces path', async () => {
    on('GET', `/apis/${MW}/middlewares`, 200, { apiVersion: MW, kind: 'MiddlewareList', metadata: {}, items: [] });
    await kube.list(MW, 'Middleware');
    expect(seen[0]?.path.split('?')[0]).to.equal(`/apis/${MW}/middlewares`);
  });

  it('apply is a PATCH with application/apply-patch+yaml and fieldManager, force only when asked', async () => {
    on('PATCH', '/apis/apps/v1/namespaces/ns1/deployments/d', 200, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', namespace: 'ns1', resourceVersion: '9' },
    });
    const obj: KubeObject = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', namespace: 'ns1' },
      spec: { replicas: 3 },
    };
    const out = await kube.apply(obj, 'mdw-operator');
    const req = seen[0];
    expect(req?.headers['content-type']).to.equal('application/apply-patch+yaml');
    const q = new URL(SERVER + (req?.path ?? '')).searchParams;
    expect([q.get('fieldManager'), q.get('force')]).to.deep.equal(['mdw-operator', 'false']);
    on('PATCH', '/apis/apps/v1/namespaces/ns1/deployments/d', 200, {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', namespace: 'ns1', resourceVersion: '10' },
    });
    await kube.apply(obj, 'mdw-operator', { force: true });
    const forced = new URL(SERVER + (seen[1]?.path ?? '')).searchParams;
    expect(forced.get('force')).to.equal('true');
    expect(JSON.parse(req?.body ?? '{}')).to.deep.include({ kind: 'Deployment', spec: { replicas: 3 } });
    expect(out.metadata.resourceVersion).to.equal('9');
    expect(obj.metadata).to.deep.equal({ name: 'd', namespace: 'ns1' }); // the caller's object is not mutated
  });

  it('patchMerge sends application/merge-patch+json and keeps nulls (they delete)', async () => {
    on('PATCH', `/apis/${MW}/namespaces/ns1/middlewares/mw`, 200, {
      apiVersion: MW,
      kind: 'Middleware',
      metadata: { name: 'mw' },
    });
    await kube.patchMerge(mwRef, { metadata: { finalizers: null, annotations: { a: 'b' } } });
    expect(seen[0]?.headers['content-type']).to.equal('application/merge-patch+json');
    expect(JSON.parse(seen[0]?.body ?? '')).to.deep.equal({ metadata: { finalizers: null, annotations: { a: 'b' } } });
  });

  it('patchStatus patches the /status subresource with the resourceVersion precondition in the body', async () => {
    on('PATCH', `/apis/${MW}/namespaces/ns1/middlewares/mw/status`, 200, {
      apiVersion: MW,
      kind: 'Middleware',
      metadata: { name: 'mw' },
      status: { phase: 'Ready' },
    });
    const out = await kube.patchStatus(mwRef, { phase: 'Ready' }, '7');
    expect(seen[0]?.path.split('?')[0]).to.equal(`/apis/${MW}/namespaces/ns1/middlewares/mw/status`);
    expect(seen[0]?.headers['content-type']).to.equal('application/merge-patch+json');
    expect(JSON.parse(seen[0]?.body ?? '')).to.deep.equal({
      metadata: { resourceVersion: '7' },
      status: { phase: 'Ready' },
    });
    expect(out.status).to.deep.equal({ phase: 'Ready' });
  });

  it('a 409 keeps the server reason: Conflict for replace, AlreadyExists for create', async () => {
    const obj = {
      apiVersion: MW,
      kind: 'Middleware',
      metadata: { name: 'mw', namespace: 'ns1', resourceVersion: '1' },
    };
    on(
      'PUT',
      `/apis/${MW}/namespaces/ns1/middlewares/mw`,
      409,
      status(409, 'Conflict', 'the object has been modified'),
    );
    const conflict = await kube.replace(obj).catch((e: unknown) => e);
    expect(conflict).to.be.instanceOf(KubeError).and.include({ status: 409, reason: 'Conflict' });
    on('POST', `/apis/${MW}/namespaces/ns1/middlewares`, 409, status(409, 'AlreadyExists'));
    const exists = await kube.create(obj).catch((e: unknown) => e);
    expect(exists).to.be.instanceOf(KubeError).and.include({ status: 409, reason: 'AlreadyExists' });
  });

  it('delete sends the propagation policy; true when deleted, false on 404', async () => {
    on('DELETE', '/apis/apps/v1/namespaces/ns1/deployments/d', 200, {
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Success',
    });
    expect(await kube.delete(depRef, { propagationPolicy: 'Foreground' })).to.equal(true);
    expect(new URL(SERVER + (seen[0]?.path ?? '')).searchParams.get('propagationPolicy')).to.equal('Foreground');
    on('DELETE', '/apis/apps/v1/namespaces/ns1/deployments/d', 404, status(404, 'NotFound'));
    expect(await kube.delete(depRef)).to.equal(false);
  });

  it('createEvent posts a core/v1 Event to its namespace', async () => {
    on('POST', '/api/v1/namespaces/ns1/events', 201, {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'e' },
      involvedObject: {},
    });
    await kube.createEvent({
      metadata: { name: 'e', namespace: 'ns1' },
      involvedObject: { kind: 'Middleware', name: 'mw' },
      reason: 'Reconciled',
      message: 'ok',
      type: 'Normal',
    });
    expect(JSON.parse(seen[0]?.body ?? '')).to.deep.include({ reason: 'Reconciled' });
  });

  it('watch streams parsed lines from the resourceVersion and surfaces an in-stream 410 as Gone', async () => {
    const line = (type: string, name: string, rv: string) =>
      JSON.stringify({ type, object: { apiVersion: MW, kind: 'Middleware', metadata: { name, resourceVersion: rv } } });
    const stream =
      [
        line('ADDED', 'a', '6'),
        'not json',
        line('MODIFIED', 'a', '7'),
        line('BOOKMARK', '', '8'),
        JSON.stringify({ type: 'ERROR', object: status(410, 'Expired', 'too old resource version') }),
        line('ADDED', 'after-error', '9'),
      ].join('\n') + '\n';
    on('GET', `/apis/${MW}/namespaces/ns1/middlewares?`, 200, stream);
    const events: Array<WatchEvent<KubeObject>> = [];
    const ended = new Promise<KubeError | undefined>((resolve) => {
      void kube.watch<KubeObject>(
        { apiVersion: MW, kind: 'Middleware', namespace: 'ns1', resourceVersion: '5' },
        (e) => events.push(e),
        resolve,
      );
    });
    const err = await ended;
    const q = new URL(SERVER + (seen[0]?.path ?? '')).searchParams;
    expect([q.get('watch'), q.get('resourceVersion'), q.get('allowWatchBookmarks')]).to.deep.equal([
      'true',
      '5',
      'true',
    ]);
    expect(events.map((e) => `${e.type}:${e.object.metadata.resourceVersion}`)).to.deep.equal([
      'ADDED:6',
      'MODIFIED:7',
      'BOOKMARK:8',
    ]);
    expect(err).to.be.instanceOf(KubeError).and.include({ status: 410, reason: 'Gone' });
  });

  it('watch: a non-200 answer ends with a KubeError of that status; a clean close ends without error', async () => {
    on('GET', `/apis/${MW}/namespaces/ns1/middlewares?`, 410, status(410, 'Expired'));
    const gone = await new Promise<KubeError | undefined>((resolve) => {
      void kube.watch(
        { apiVersion: MW, kind: 'Middleware', namespace: 'ns1', resourceVersion: '1' },
        () => undefined,
        resolve,
      );
    });
    expect(gone).to.be.instanceOf(KubeError).and.include({ status: 410 });
    on('GET', `/apis/${MW}/namespaces/ns1/middlewares?`, 200, '');
    const clean = await new Promise<KubeError | undefined>((resolve) => {
      void kube.watch(
        { apiVersion: MW, kind: 'Middleware', namespace: 'ns1', resourceVersion: '1' },
        () => undefined,
        resolve,
      );
    });
    expect(clean).to.equal(undefined);
  });
});

function lowerKeys(h: Record<string, string> | string[]): Record<string, string> {
  const out: Record<string, string> = {};
  if (Array.isArray(h)) {
    for (let i = 0; i + 1 < h.length; i += 2) out[String(h[i]).toLowerCase()] = String(h[i + 1]);
  } else {
    for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = String(v);
  }
  return out;
}
