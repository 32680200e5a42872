/** @module What route modules share: their dependencies and the way they write JSON answers. */
import type { ApiContext } from './state.ts';
import { stringifyJson } from '../../chain/json.ts';
import type { Config } from '../../config/middleware.ts';
import type { Pool } from '../../db/connection/pool.ts';
import type { ReadReplicas } from '../../db/connection/read-replicas.ts';
import type { Logger } from '../../base/log.ts';
import type { ApiMetrics } from './metrics.ts';
import type { NodeHeight } from './node-height.ts';
import type { ForwardToNode } from './proxy.ts';
import type { ResponseCache } from './response-cache.ts';
import type { NotificationListener } from '../../events/listener.ts';
import type { Outages } from './middleware/error-boundary.ts';
import type { Admission } from './admission.ts';

/** RouteDeps is handed to every route module. */
export interface RouteDeps {
  readonly cfg: Config;
  readonly log: Logger;
  /** what reads go through (the read replicas when there are any) */
  readonly pool: Pool;
  /** the primary, when reads go to replicas: the status reads the populator's state there */
  readonly primary?: Pool;
  /** the primary's pool that writes, when the server's others are read-only: the webhooks API writes through it */
  readonly writes?: Pool;
  /** the read replicas, when there are any */
  readonly replicas?: ReadReplicas;
  readonly metrics: ApiMetrics;
  readonly forward: ForwardToNode;
  /** the node's height as this server reads it now (one reading per moment, shared by status and metrics) */
  readonly nodeHeight: NodeHeight;
  readonly version: string;
  /** the response cache of final answers, when the server keeps one (it also keeps final counts) */
  readonly responseCache?: ResponseCache;
  /** the server's notification listener (absent where an app runs without one, as in tests) */
  readonly listener?: NotificationListener;
  /** the outages background reads report a database that is away to (absent in tests without them) */
  readonly outages?: Outages;
  /** the turns of the requests that read the database (ae_mdw's API), shared by the process (the app makes it) */
  readonly admission?: Admission;
}

/**
 * sendJson writes a JSON answer with exact integers. `aboutHeight` is the newest height the answer
 * depends on; the cache-headers middleware makes answers about final blocks cacheable.
 */
export function sendJson(ctx: ApiContext, value: unknown, aboutHeight?: number, status = 200): void {
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = stringifyJson(value);
  if (aboutHeight !== undefined) ctx.state.aboutHeight = aboutHeight;
}

/** sendJsonText writes JSON that is already text (PostgreSQL serialised it exactly). */
export function sendJsonText(ctx: ApiContext, json: string, aboutHeight?: number): void {
  ctx.status = 200;
  ctx.type = 'application/json';
  ctx.body = json;
  if (aboutHeight !== undefined) ctx.state.aboutHeight = aboutHeight;
}

/** jsonArrayText joins JSON texts into an array, optionally wrapped as `{"<key>": [...]}`. */
export function jsonArrayText(items: readonly { json: string }[], key?: string): string {
  const array = `[${items.map((i) => i.json).join(',')}]`;
  return key === undefined ? array : `{${JSON.stringify(key)}:${array}}`;
}
