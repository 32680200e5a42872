/**
 * @module A tiny HTTP front for FakeKube speaking the API server's REST paths (discovery, CRUD, patch content types,
 * /status, /scale, NDJSON watches with in-stream ERROR), so the real client can run the KubeClient contract end to end.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CoreV1Event } from '@kubernetes/client-node';
import { KubeError } from '../../../src/operator/kube/client.ts';
import type { KubeObject, ObjectRef } from '../../../src/operator/kube/client.ts';
import type { FakeKube } from '../../../src/operator/kube/fake.ts';

/** ServedKind is one kind the front exposes in discovery. */
export interface ServedKind {
  apiVersion: string;
  kind: string;
  plural: string;
}

/** startFakeApiServer serves kube over HTTP on 127.0.0.1 (port 0); stop() closes it and every open watch. */
export async function startFakeApiServer(
  kube: FakeKube,
  kinds: ServedKind[],
): Promise<{ url: string; stop(): Promise<void> }> {
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    void handle(kube, kinds, req, res, open).catch((err: unknown) => sendError(res, err));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      for (const r of open) r.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function handle(
  kube: FakeKube,
  kinds: ServedKind[],
  req: IncomingMessage,
  res: ServerResponse,
  open: Set<ServerResponse>,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://fake');
  const seg = url.pathname
    .split('/')
    .filter((s) => s !== '')
    .map(decodeURIComponent);
  const apiVersion = seg[0] === 'api' ? (seg[1] ?? '') : `${seg[1] ?? ''}/${seg[2] ?? ''}`;
  const rest = seg.slice(seg[0] === 'api' ? 2 : 3);
  if (rest.length === 0) {
    // an API server answers 404 for a group version nothing serves (a CRD's group before it is installed)
    if (!kinds.some((k) => k.apiVersion === apiVersion))
      throw new KubeError(404, 'NotFound', 'the server could not find the requested resource');
    send(res, 200, {
      kind: 'APIResourceList',
      groupVersion: apiVersion,
      resources: kinds
        .filter((k) => k.apiVersion === apiVersion)
        .map((k) => ({ name: k.plural, singularName: '', namespaced: true, kind: k.kind, verbs: [] })),
    });
    return;
  }
  const namespace = rest[0] === 'namespaces' ? rest[1] : undefined;
  const [plural, name, sub] = rest[0] === 'namespaces' ? rest.slice(2) : rest;
  const served = kinds.find((k) => k.apiVersion === apiVersion && k.plural === plural);
  if (served === undefined) throw new KubeError(404, 'NotFound', `no resource ${plural ?? ''} in ${apiVersion}`);
  const q = url.searchParams;
  const body = req.method === 'GET' || req.method === 'DELETE' ? undefined : await readJson(req);
  const ref: ObjectRef = { apiVersion, kind: served.kind, namespace, name: name ?? '' };

  if (req.method === 'GET' && name === undefined && q.get('watch') === 'true') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.flushHeaders(); // the client waits for the headers before it reads the stream
    open.add(res);
    const h = await kube.watch(
      {
        apiVersion,
        kind: served.kind,
        namespace,
        resourceVersion: q.get('resourceVersion') ?? '',
        ...optional({ labelSelector: q.get('labelSelector') }),
      },
      (e) => res.write(`${JSON.stringify(e)}\n`),
      (err) => {
        if (err !== undefined) {
          res.write(`${JSON.stringify({ type: 'ERROR', object: statusOf(err) })}\n`);
        }
        open.delete(res);
        res.end();
      },
    );
    req.on('close', () => h.stop());
    return;
  }
  if (req.method === 'GET' && name === undefined) {
    const limit = q.get('limit');
    const list = await kube.list(
      apiVersion,
      served.kind,
      namespace,
      optional({
        labelSelector: q.get('labelSelector'),
        continue: q.get('continue'),
        limit: limit === null ? null : Number(limit),
      }),
    );
    send(res, 200, {
      apiVersion,
      kind: `${served.kind}List`,
      metadata: { resourceVersion: list.resourceVersion, ...optional({ continue: list.continue }) },
      items: list.items,
    });
  } else if (req.method === 'GET') {
    const obj = await kube.get(ref);
    if (obj === undefined) throw new KubeError(404, 'NotFound', `${plural ?? ''} "${name ?? ''}" not found`);
    send(res, 200, obj);
  } else if (req.method === 'POST' && served.kind === 'Event') {
    await kube.createEvent(body as CoreV1Event);
    send(res, 201, body);
  } else if (req.method === 'POST') {
    send(res, 201, await kube.create(body as KubeObject));
  } else if ((req.method === 'PUT' || req.method === 'PATCH') && sub === 'scale') {
    // the scale subresource, as `kubectl scale` and the HPA write it (FakeKube.scale)
    const replicas = (body as { spec?: { replicas?: unknown } } | undefined)?.spec?.replicas;
    send(res, 200, kube.scale(ref, Number(replicas), q.get('fieldManager') ?? 'kubectl-scale'));
  } else if (req.method === 'PUT') {
    send(res, 200, await kube.replace(body as KubeObject));
  } else if (req.method === 'PATCH') {
    send(res, 200, await patch(kube, ref, req.headers['content-type'] ?? '', sub, body, q));
  } else if (req.method === 'DELETE') {
    const policy = q.get('propagationPolicy') as 'Foreground' | 'Background' | 'Orphan' | null;
    const found = await kube.delete(ref, policy === null ? {} : { propagationPolicy: policy });
    if (!found) throw new KubeError(404, 'NotFound', `${plural ?? ''} "${name ?? ''}" not found`);
    send(res, 200, { kind: 'Status', apiVersion: 'v1', status: 'Success' });
  } else {
    throw new KubeError(405, 'MethodNotAllowed', `${req.method ?? ''} not allowed`);
  }
}

async function patch(
  kube: FakeKube,
  ref: ObjectRef,
  contentType: string,
  sub: string | undefined,
  body: unknown,
  q: URLSearchParams,
): Promise<KubeObject> {
  if (contentType.startsWith('application/apply-patch+yaml')) {
    return kube.apply(body as KubeObject, q.get('fieldManager') ?? '', { force: q.get('force') === 'true' });
  }
  if (!contentType.startsWith('application/merge-patch+json')) {
    throw new KubeError(415, 'UnsupportedMediaType', `unsupported patch type ${contentType}`);
  }
  const patchBody = (body ?? {}) as { status?: unknown; metadata?: { resourceVersion?: string } };
  if (sub === 'status') return kube.patchStatus(ref, patchBody.status, patchBody.metadata?.resourceVersion);
  return kube.patchMerge(ref, patchBody);
}

/** optional drops the absent query parameters (null or undefined), so the options carry only what was sent. */
function optional<T extends Record<string, unknown>>(o: T): { [K in keyof T]?: Exclude<T[K], null | undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) as never;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

function statusOf(err: KubeError): unknown {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    status: 'Failure',
    code: err.status,
    reason: err.status === 410 ? 'Expired' : err.reason,
    message: err.message,
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function sendError(res: ServerResponse, err: unknown): void {
  const e = err instanceof KubeError ? err : new KubeError(500, 'InternalError', String(err));
  if (!res.headersSent) send(res, e.status, statusOf(e));
  else res.end();
}
