/**
 * @module The test cluster's cluster DNS and kube-proxy in one: an HTTP forward proxy on loopback that the node agent
 * gives every process as HTTP_PROXY. A request for `http://<service>.<namespace>.svc[.cluster.local]:<port>/…` goes to
 * a ready pod the Service selects, at the port its targetPort names, on the pod's loopback address. Nothing dials a
 * ClusterIP; a name that is not a Service's is a 502.
 */
import { createServer, request } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { V1Pod, V1Service } from '@kubernetes/client-node';
import type { KubeRest } from './rest.ts';

/** ServiceProxy resolves Service names to ready pods, from start() until stop(). */
export class ServiceProxy {
  readonly #rest: KubeRest;
  #server: Server | undefined;
  #next = 0;

  constructor(rest: KubeRest) {
    this.#rest = rest;
  }

  /** url is the proxy's address, for HTTP_PROXY. */
  url = '';

  async start(): Promise<void> {
    const server = createServer((req, res) => {
      this.#forward(req, res).catch((err: unknown) => fail(res, 502, String(err)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.#server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** resolve is the address of a ready pod behind service.namespace:port, or an error saying why there is none. */
  async resolve(host: string, port: number): Promise<{ ip: string; port: number; pod: string }> {
    const m = /^([a-z0-9-]+)\.([a-z0-9-]+)\.svc(\.cluster\.local)?$/.exec(host);
    if (m === null) throw new Error(`${host} is not a Service's name`);
    const [, name, namespace] = m as unknown as [string, string, string];
    const svc = await this.#rest.get<V1Service>(`/api/v1/namespaces/${namespace}/services/${name}`);
    const servicePort = (svc.spec?.ports ?? []).find((p) => p.port === port);
    if (servicePort === undefined) throw new Error(`Service ${namespace}/${name} has no port ${port}`);
    const selector = Object.entries(svc.spec?.selector ?? {})
      .map(([k, v]) => `${k}=${v}`)
      .join(',');
    const { items } = await this.#rest.get<{ items: V1Pod[] }>(
      `/api/v1/namespaces/${namespace}/pods?labelSelector=${encodeURIComponent(selector)}`,
    );
    const ready = items.filter(
      (p) =>
        p.metadata?.deletionTimestamp === undefined &&
        (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'),
    );
    if (ready.length === 0) throw new Error(`Service ${namespace}/${name} has no ready endpoint`);
    const pod = ready[this.#next++ % ready.length] as V1Pod;
    const target = servicePort.targetPort ?? port;
    const targetPort =
      typeof target === 'number'
        ? target
        : (pod.spec?.containers ?? []).flatMap((c) => c.ports ?? []).find((p) => p.name === target)?.containerPort;
    if (targetPort === undefined) throw new Error(`no container port named ${String(target)} in ${pod.metadata?.name}`);
    return { ip: pod.status?.podIP ?? '', port: targetPort, pod: pod.metadata?.name ?? '' };
  }

  async #forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/');
    const to = await this.resolve(url.hostname, Number(url.port === '' ? 80 : url.port));
    const upstream = request(
      { host: to.ip, port: to.port, method: req.method, path: `${url.pathname}${url.search}`, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', (err) => fail(res, 502, `pod ${to.pod} (ready when resolved): ${String(err)}`));
    req.pipe(upstream);
  }
}

function fail(res: ServerResponse, status: number, message: string): void {
  if (res.headersSent) return void res.destroy();
  res.writeHead(status, { 'content-type': 'text/plain' }).end(`service proxy: ${message}\n`);
}
