/**
 * @module Statements given up with the request that sent them: a request's work runs as a Work (cancelledWith), and a
 * connection's statement in flight when that work is cancelled is cancelled in PostgreSQL (the protocol's
 * CancelRequest, what psql's Ctrl-C sends), so a request answered 503 at its deadline leaves no query running,
 * holding a connection and the locks it waits for.
 *
 * A connection notes the work that sent its last statement, nothing more: cancelling a work looks for the busy
 * connections it was the last to use. A listener per statement, added and removed around each query with its callback
 * wrapped, cost a small request a third of its CPU (docs/benchmarks.md, "Small requests").
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';

/** Work is what one request does: the statements it sends are cancelled together, once, when it is given up. */
export class Work {
  /**
   * cancel asks PostgreSQL to cancel the statements this work has in flight now. Those it sends after run: a
   * transaction's ROLLBACK must.
   */
  cancel(): void {
    for (const connection of connections) if (connection.runs(this)) sendCancel(connection);
  }
}

/** the work running now (set by cancelledWith, carried along its promises and callbacks) */
const current = new AsyncLocalStorage<Work>();

/** the open connections of this process's pools: few (a pool's size each), looked through when a work is cancelled */
const connections = new Set<CancellingClient>();

/**
 * cancelledWith runs `fn` as `work`: each statement it sends (through a pool of createPool's, in any promise or
 * callback it starts) is cancelled if the work is cancelled while the statement runs.
 */
export function cancelledWith<T>(work: Work, fn: () => T): T {
  return current.run(work, fn);
}

/**
 * inWork is `callback` run in the work that is running now (or in none): pg-pool hands a released connection to a
 * waiter from the releaser's context, and the statements the waiter then sends are its own work's. AsyncResource.bind
 * did the same at ten times the cost, for every request's connection.
 */
export function inWork<A extends unknown[]>(callback: (...args: A) => void): (...args: A) => void {
  const work = current.getStore();
  return (...args) => current.run(work!, callback, ...args);
}

/** SQLSTATE query_canceled: a statement cancelled (by its request's deadline here) */
const QUERY_CANCELED = '57014';

/** isStatementCancelled tells whether `err` is PostgreSQL's answer to a statement that was cancelled. */
export function isStatementCancelled(err: unknown): boolean {
  return (err as { code?: unknown } | undefined)?.code === QUERY_CANCELED;
}

/** The key PostgreSQL gave the connection's backend; pg keeps it, without declaring it. */
interface BackendKey {
  readonly processID: number | null;
  readonly secretKey: number | null;
}

/** What pg's Connection does and its declarations leave out: open a socket, send a CancelRequest on it. */
interface CancelConnection {
  on(event: 'connect' | 'error', listener: () => void): void;
  connect(portOrPath: number | string, host?: string): void;
  cancel(processID: number, secretKey: number): void;
}

/**
 * sendCancel asks PostgreSQL, on a connection of its own, to cancel what `client`'s backend runs now. A backend that is
 * idle by then ignores it (PostgreSQL drops a cancel that comes between statements).
 */
function sendCancel(client: pg.Client): void {
  const { processID, secretKey } = client as unknown as BackendKey;
  if (processID === null || secretKey === null) return;
  const connection = new pg.Connection() as unknown as CancelConnection;
  // the server closes this connection once it has read the request; a failure to reach it leaves the statement to end
  connection.on('error', () => {});
  connection.on('connect', () => connection.cancel(processID, secretKey));
  if (client.host.startsWith('/')) connection.connect(`${client.host}/.s.PGSQL.${client.port}`);
  else connection.connect(client.port, client.host);
}

/** Query is pg's query method in all its forms. */
type Query = (...args: unknown[]) => unknown;

/** What pg's Client keeps and its declarations leave out: the statement it runs now (and those queued after it). */
interface ActiveQuery {
  _getActiveQuery(): unknown;
}

/**
 * CancellingClient is pg's connection whose statements are cancelled with the work that sent them (cancelledWith). A
 * statement sent after its work was cancelled runs (a transaction's ROLLBACK must), and so does one sent outside any
 * work (the populator's, a background read's).
 */
export class CancellingClient extends pg.Client {
  /** the work that sent the last statement: a connection runs one holder's statements at a time */
  #sentWith: Work | undefined;

  constructor(config?: string | pg.ClientConfig) {
    super(config);
    const query = this.query.bind(this) as Query;
    this.query = ((...args: unknown[]) => {
      this.#sentWith = current.getStore();
      return query(...args);
    }) as pg.Client['query'];
    connections.add(this);
    this.once('end', () => connections.delete(this));
  }

  /** runs says whether the connection runs a statement `work` sent (a later holder's would have replaced it) */
  runs(work: Work): boolean {
    return this.#sentWith === work && (this as unknown as ActiveQuery)._getActiveQuery() !== null;
  }
}
