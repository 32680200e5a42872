/**
 * @module Statements given up with the request that sent them: a request's work runs under its deadline's AbortSignal
 * (cancelledWith), and a connection's statement in flight when that signal aborts is cancelled in PostgreSQL (the
 * protocol's CancelRequest, what psql's Ctrl-C sends), so a request answered 503 at its deadline leaves no query
 * running, holding a connection and the locks it waits for.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';

/** the signal of the work running now (set by cancelledWith, carried along its promises and callbacks) */
const workSignal = new AsyncLocalStorage<AbortSignal>();

/**
 * cancelledWith runs `fn` with `signal` as its statements' signal: each statement it sends (through a pool of
 * createPool's, in any promise or callback it starts) is cancelled if the signal aborts while it runs.
 */
export function cancelledWith<T>(signal: AbortSignal, fn: () => T): T {
  return workSignal.run(signal, fn);
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

/**
 * cancellable is a connection's `query` whose statements are cancelled when the signal of the work that sent them
 * aborts while they run. A statement sent once the signal has aborted runs (a transaction's ROLLBACK must), and so does
 * one sent outside any work's signal (the populator's, a background read's).
 */
function cancellable(client: pg.Client, query: Query): Query {
  return (...args) => {
    const signal = workSignal.getStore();
    if (!signal || signal.aborted) return query(...args);
    const cancel = (): void => sendCancel(client);
    signal.addEventListener('abort', cancel, { once: true });
    const settled = (): void => signal.removeEventListener('abort', cancel);
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (...results: unknown[]) => {
        settled();
        (callback as Query)(...results);
      };
      return query(...args);
    }
    const result = query(...args);
    if (result instanceof Promise) result.then(settled, settled);
    return result;
  };
}

/** CancellingClient is pg's connection whose statements are cancelled with the work that sent them (cancelledWith). */
export class CancellingClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    this.query = cancellable(this, this.query.bind(this) as Query) as pg.Client['query'];
  }
}
