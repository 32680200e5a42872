/** @module A proxy of a devnode refusing the internal calls' replays: the int_calls area left to the backfill. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * refusingDryRuns is a proxy of the devnode's external API that answers the internal calls' replays (dry-runs with
 * `tx_events`) 404, as a node without the endpoint: the int_calls area fails, its heights left to the backfill, the
 * batches going on.
 */
export async function refusingDryRuns(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      // the replays of the internal calls only (the tokens' dry-runs answered)
      if (req.url?.includes('dry-run') && body.includes('tx_events'))
        return void res.writeHead(404).end('{"reason":"Not found"}');
      const headers = { 'content-type': req.headers['content-type'] ?? 'application/json' };
      fetch(`${target}${req.url}`, { method: req.method, headers, ...(body.length > 0 ? { body } : {}) })
        .then(async (answer) => {
          res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
          res.end(Buffer.from(await answer.arrayBuffer()));
        })
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
