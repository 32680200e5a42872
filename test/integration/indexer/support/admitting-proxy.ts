/**
 * @module A node's admission in front of a devnode, as a real node's regulators admit requests (node-limits.md): at
 * most `admit.read` GETs and `admit.dryRun` POSTs in flight at once, each held `holdMs` (the node's service time);
 * one more is answered at once `503 {"reason":"Temporary overload"}` without Retry-After, as 7.2.2 answers it. It
 * counts the peak in flight of each kind and the refusals, so a test sees whether a client stays within what a node
 * admits.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { relay } from './fault-proxy.ts';

type Kind = 'read' | 'dryRun';

export interface AdmittingProxy {
  readonly url: string;
  /** the most requests of each kind that were in flight at once, answered and refused by kind */
  readonly stats: {
    readonly peak: Record<Kind, number>;
    readonly answered: Record<Kind, number>;
    readonly refused: Record<Kind, number>;
  };
  /** refusing: every request is refused from now on (true), or admitted as the limits allow (false) */
  refuseAll(refusing: boolean): void;
  close(): Promise<void>;
}

export async function startAdmittingProxy(
  target: string,
  admit: Record<Kind, number>,
  holdMs = 0,
): Promise<AdmittingProxy> {
  const upstream = new URL(target);
  const inFlight: Record<Kind, number> = { read: 0, dryRun: 0 };
  const stats = {
    peak: { read: 0, dryRun: 0 },
    answered: { read: 0, dryRun: 0 },
    refused: { read: 0, dryRun: 0 },
  };
  let refusing = false;
  const server: Server = createServer((req, res) => {
    const kind: Kind = req.method === 'POST' ? 'dryRun' : 'read';
    if (refusing || inFlight[kind] >= admit[kind]) {
      stats.refused[kind]++;
      req.resume();
      res.writeHead(503, { 'content-type': 'application/json', server: 'Cowboy' });
      return res.end('{"reason":"Temporary overload"}');
    }
    inFlight[kind]++;
    stats.peak[kind] = Math.max(stats.peak[kind], inFlight[kind]);
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      inFlight[kind]--;
    };
    res.on('finish', finish);
    res.on('close', finish);
    const forward = (): void =>
      relay(upstream, req, res, (body) => {
        stats.answered[kind]++;
        return body;
      });
    if (holdMs > 0) setTimeout(forward, holdMs);
    else forward();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stats,
    refuseAll(value) {
      refusing = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
