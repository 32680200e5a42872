/**
 * @module Statements given up with the request that sent them: a request's work runs under its deadline's AbortSignal
 * (cancelledWith), and a connection's statement in flight when that signal aborts is cancelled in PostgreSQL (the
 * protocol's CancelRequest, what psql's Ctrl-C sends), so a request answered 503 at its deadline leaves no query
 * running, holding a connection and the locks it waits for.
 *
 * A connection notes the signal of the work that sent its last statement, nothing more: the signal's one listener looks
 * for the busy connections its work was the last to use. A listener per statement, added and removed around each
 * query with its callback wrapped, cost a small request a third of its CPU (docs/benchmarks.md, "Small requests").
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';

/** the signal of the work running now (set by cancelledWith, carried along its promises and callbacks) */
const workSignal = new AsyncLocalStorage<AbortSignal>();

/** the open connections of this process's pools: few (a pool's size each), looked through when a work is given up */
const connections = new Set<CancellingClient>();

/**
 * cancelledWith runs `fn` with `signal` as its statements' signal: each statement it sends (through a pool of
 * createPool's, in any promise or callback it starts) is cancelled if the signal aborts while it runs.
 */
export function cancelledWith<T>(signal: AbortSignal, fn: () => T): T {
  signal.addEventListener(
    'abort',
    () => {
      for (const connection of connections) if (connection.runs(signal)) sendCancel(connection);
    },
    { once: true },
  );
  return workSignal.run(signal, fn);
}

/**
 * inWork is `callback` run in the work that is running now (or in none): pg-pool hands a released connection to a
 * waiter from the releaser's context, and the statements the waiter then sends are its own work's. AsyncResource.bind
 * did the same at ten times the cost, for every request's connection.
 */
export function inWork<A extends unknown[]>(callback: (...args: A) => void): (...args: A) => void {
  const signal = workSignal.getStore();
  return (...args) => workSignal.run(signal!, callback, ...args);
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
 * statement sent once the signal has aborted runs (a transaction's ROLLBACK must), and so does one sent outside any
 * work's signal (the populator's, a background read's).
 */
export class CancellingClient extends pg.Client {
  /** the signal of the work that sent the last statement: a connection runs one holder's statements at a time */
  #sentWith: AbortSignal | undefined;

  constructor(config?: string | pg.ClientConfig) {
    super(config);
    const query = this.query.bind(this) as Query;
    this.query = ((...args: unknown[]) => {
      this.#sentWith = workSignal.getStore();
      return query(...args);
    }) as pg.Client['query'];
    connections.add(this);
    this.once('end', () => connections.delete(this));
  }

  /** runs says whether the connection runs a statement `signal`'s work sent (a later holder's would have replaced it) */
  runs(signal: AbortSignal): boolean {
    return this.#sentWith === signal && (this as unknown as ActiveQuery)._getActiveQuery() !== null;
  }
}
