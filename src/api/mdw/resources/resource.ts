/**
 * @module What a /mdw/v3 resource is: a function of the server's environment and a request's parameters that returns
 * a value, a page of items or one answer, for any transport to send (REST writes it as ae_mdw's JSON, GraphQL resolves
 * its fields on it). Nothing here knows of HTTP.
 */
import type { Json } from '../../../chain/json.ts';
import type { Config } from '../../../config/middleware.ts';
import type { Pool } from '../../../db/connection/pool.ts';
import type { Shape } from '../../../shapes/shape-table.ts';
import type { OutboundMetrics } from '../../../node/outbound-metrics.ts';
import type { Aex141Metadata } from './aex141-metadata.ts';
import type { GenesisBalances } from './genesis-balances.ts';
import type { Query } from './page.ts';
import type { HyperchainSource } from './hyperchain-source.ts';
import type { StatsSource } from './stats-source.ts';
import type { StatusSource } from './status-source.ts';
import { v3NotFound } from './mdw-errors.ts';

/** What a resource works with: the server's pool and settings, and the sources kept across requests. */
export interface V3Env {
  readonly pool: Pool;
  /** the pool that writes: the primary, whatever the server reads from (the webhooks API's hooks) */
  readonly primary: Pool;
  readonly cfg: Config;
  /** the build, named in /v3/api */
  readonly version: string;
  readonly status: StatusSource;
  readonly stats: StatsSource;
  /** whether the chain is a hyperchain, and its consensus contracts */
  readonly hyperchain: HyperchainSource;
  readonly metadata: Aex141Metadata;
  /** the genesis balances of the accounts no stored change tells, asked of the node where no genesis file tells them */
  readonly genesis: GenesisBalances;
  /** counts the requests to the node (its mempool) */
  readonly outbound: OutboundMetrics;
  /** the document of the routes served (/v3/api), made once from the route table */
  readonly apiDocument: Readonly<Record<string, Json>>;
}

/** A request's parameters, as ae_mdw's REST names them: path parameters, and the query (a list repeats its name). */
export interface ResourceRequest {
  readonly params: Readonly<Record<string, string | undefined>>;
  readonly query: Query;
  /** the request's `txi:` scope was given as ae_mdw's `transaction:th_A-th_B` (activities take no other txi scope) */
  readonly scopeOfTransactions?: boolean;
  /** where the API is served, `/mdw/v3` or the root `/v3` (ROOT_V3=mdw): what /v3/api names as its server */
  readonly servedAt?: string;
}

/** Where a page link starts: a list's cursor text, and whether it walks back (`rev=1`). */
export interface PagePosition {
  readonly cursor: string;
  readonly rev: boolean;
}

/** An item of a list: always an object (a JSON text here would be written as a string). */
export type Item = { readonly [key: string]: Json };

/**
 * ItemsPage is one page of a list: its items and where the pages around it start. `linkQuery` is the query its REST
 * links carry when it is not the request's (the statistics' default limit written out).
 */
export class ItemsPage {
  readonly items: readonly Item[];
  readonly next: PagePosition | undefined;
  readonly prev: PagePosition | undefined;
  readonly linkQuery: Query | undefined;

  constructor(
    items: readonly Item[],
    next: PagePosition | undefined,
    prev: PagePosition | undefined,
    linkQuery?: Query,
  ) {
    this.items = items;
    this.next = next;
    this.prev = prev;
    this.linkQuery = linkQuery;
  }
}

/** Answer: a page of a list, or one value (an object, a count, a list without paging). */
export type Answer = ItemsPage | Json;

/** A schema written in api-document.ts: the answers that are not one shape's object (counts, unions, plain arrays). */
export type LiteralSchema =
  | 'integer'
  | 'OpenApi'
  | 'Wealth'
  | 'TopMiners24h'
  | 'TransactionsCount'
  | 'AccountTransactionsCount'
  | 'NameHistoryItem';

/** A page of items: `{data: [item], next, prev}`. */
export interface PageOf {
  readonly page: Shape | LiteralSchema;
}

/** What a resource answers: a shape's object, a page of them, or a literal schema. */
export type Answers = Shape | PageOf | LiteralSchema;

/** page is the answer of a list: a page of the shape's objects. */
export function page(of: Shape | LiteralSchema): PageOf {
  return { page: of };
}

/** isPage is whether an answer is a page. */
export function isPage(answers: Answers): answers is PageOf {
  return typeof answers === 'object' && 'page' in answers;
}

/**
 * Resource: one /v3 operation, and what it answers. It throws a v3 error (mdw-errors.ts) for a request it cannot
 * answer. Its `answers` is read by both transports: REST's /v3/api document names its schema, GraphQL makes its
 * object type, so neither names the shape again.
 */
export interface Resource {
  (env: V3Env, request: ResourceRequest): Promise<Answer>;
  readonly answers: Answers;
}

/** resource is an operation's function with what it answers. */
export function resource(
  answers: Answers,
  answer: (env: V3Env, request: ResourceRequest) => Promise<Answer>,
): Resource {
  return Object.assign(answer, { answers });
}

/**
 * oneObject is the operation answering one object by a key in its path: `key` reads the key from the path parameters
 * (a 400 when it is malformed: parseId, parseHash), `find` reads its row, `render` makes the row the answer; no row is
 * ae_mdw's 404 naming the key.
 */
export function oneObject<R>(
  answers: Shape,
  key: (params: ResourceRequest['params']) => string,
  find: (pool: Pool, key: string) => Promise<R | undefined>,
  render: (row: R) => Item,
): Resource {
  return resource(answers, async ({ pool }, req) => {
    const k = key(req.params);
    const row = await find(pool, k);
    if (!row) throw v3NotFound(k);
    return render(row);
  });
}
