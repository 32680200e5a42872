/** @module A small HTTP listener for roles without the API server: /metrics, /healthz, /readyz. */
import { http } from './node-http.ts';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { Logger } from './log.ts';
import type { Role } from './roles.ts';

/** startOpsServer serves the registry's metrics and liveness/readiness probes on `port` (0 = any). */
export async function startOpsServer(opts: {
  port: number;
  host?: string;
  registry: Registry;
  log: Logger;
}): Promise<Role & { url: string }> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/metrics') {
      opts.registry.metrics().then(
        (body) => res.writeHead(200, { 'content-type': opts.registry.contentType }).end(body),
        () => res.writeHead(500, { 'content-type': 'application/json' }).end('{"reason":"metrics unavailable"}'),
      );
      return;
    }
    if (req.method === 'GET' && (path === '/healthz' || path === '/readyz')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"reason":"not found"}');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '0.0.0.0', resolve);
  });
  const { port } = server.address() as AddressInfo;
  opts.log.info({ port }, 'metrics listening');
  return {
    name: 'ops-server',
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
