/**
 * @module One /v3 operation as the route table (operations.ts) declares it: what the /v3/api document says of it
 * and the named handler that answers it, with what every handler is given.
 */
import type { RouterContext } from '@koa/router';
import type { Config } from '../../../config.ts';
import type { Pool } from '../../../db/pool.ts';
import type { OutboundMetrics } from '../../../node/outbound-metrics.ts';
import type { Aex141Metadata } from '../resources/aex141-metadata.ts';
import type { StatsSource } from '../resources/stats-source.ts';
import type { StatusSource } from '../resources/status-source.ts';

/** A parameter: paging ones by name (`statsLimit` is the statistics' larger `limit`), others as `path:` or `query:`. */
export type ParamName =
  'limit' | 'statsLimit' | 'cursor' | 'direction' | 'rev' | 'scope' | `path:${string}` | `query:${string}`;

/** What a handler works with: the server's pool and settings, and the sources kept across requests. */
export interface V3Env {
  readonly pool: Pool;
  readonly cfg: Config;
  /** the build, named in /v3/api */
  readonly version: string;
  readonly status: StatusSource;
  readonly stats: StatsSource;
  readonly metadata: Aex141Metadata;
  /** counts the requests to the node (its mempool) */
  readonly outbound: OutboundMetrics;
}

/** A handler answers its operation's request (path parameters in `ctx.params`) or throws a v3 error. */
export type V3Handler = (ctx: RouterContext, env: V3Env) => Promise<void>;

/** One GET operation: path (without /v3, as ae_mdw's spec writes it), ae_mdw's operationId, parameters, answer. */
export interface V3Operation {
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly params: readonly ParamName[];
  /** the schema of the answer: a component name, `Page<Name>` for a page of it, or `integer` */
  readonly response: string;
  readonly handle: V3Handler;
}

/** PAGED: the parameters of every list; SCOPED: of a list that also takes a range. */
export const PAGED: readonly ParamName[] = ['limit', 'cursor', 'direction', 'rev'];
export const SCOPED: readonly ParamName[] = [...PAGED, 'scope'];

/** routerPath is an operation's path as the router writes it (`{id}` as `:id`). */
export function routerPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}
