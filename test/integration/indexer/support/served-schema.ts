/** @module The schema a test loaded on the harness's database, served by the API server on a free port. */
import prom from 'prom-client';
import { startServer } from '../../../../src/api/server.ts';
import { parseJson, type Json } from '../../../../src/chain/json.ts';
import { silentLog } from '../../api/harness.ts';
import type { Harness } from './harness.ts';

type Obj = { [key: string]: Json };

/** A served schema: `get` answers a path under `base` as parsed JSON; `stop` stops the server. */
export interface ServedSchema {
  get(path: string): Promise<{ status: number; body: Obj }>;
  stop(): Promise<void>;
}

/** serveSchema serves the schema `env` configures (the populator's settings) with the harness's config. */
export async function serveSchema(h: Harness, env: Record<string, string>, base = ''): Promise<ServedSchema> {
  const server = await startServer({
    cfg: h.config({ ...env, PORT: '0', WEBSOCKET_ADDRESS: '127.0.0.1:0' }),
    log: silentLog,
    registry: new prom.Registry(),
    version: 't',
  });
  return {
    get: async (path) => {
      const res = await fetch(`${server.httpUrl}${base}${path}`);
      return { status: res.status, body: parseJson(await res.text()) as Obj };
    },
    stop: () => server.stop(),
  };
}
