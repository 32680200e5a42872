/**
 * @module The streamed exports of an account's history, /v3/accounts/{id}/transactions/export and …/activities/export:
 * CSV or NDJSON by `Accept`, read page by page as the client takes the bytes (back-pressure: the walk reads one page
 * ahead of the one being written and no more, export-walk.ts), so the server holds two pages whatever the export's size.
 *
 * Admission. An export is many reads, and each page's statement is admitted as a request of its own: it waits for a
 * turn of the server's line (admission.ts), holds it and one pool connection only while its statement runs and its
 * rows are decoded, and is cancelled by the line's 5 s deadline like any request. Between pages the export holds
 * nothing, so a slow client costs the server its socket and two pages, never a connection; its rows render in slices
 * of a few hundred as the stream takes them, so the requests around an export wait behind one statement or one
 * slice at most. The first page (and the parameters' reads before it) are admitted as the request itself:
 * busy, it is refused 503 + Retry-After before anything is sent. A later page that finds the line full waits and asks
 * again (retry.ts's backoff): the export slows down under load rather than failing. At most EXPORT_MAX_RUNNING
 * exports run at once (one more is refused 503 + Retry-After at once), and each for at most EXPORT_MAX_SECONDS.
 *
 * The end. A stream that reached the list's end or its row cap ends normally, saying so: `Export-Complete` (true/false)
 * and, when false, `Export-Resume-After` (the cursor of its last row). As HTTP trailers to a client that takes them
 * (takesTrailers: HTTP/1.1, whose chunks can carry them, and `TE: trailers`); to any other, an HTTP/1.0 client or a
 * proxy such as nginx (which asks with HTTP/1.0 and, asking with 1.1, drops the trailers), as the body's last record
 * (export-formats.ts; issue 79: an answer that declared trailers it could not send was an empty reply). A stream cut
 * off (its lifetime over with a stalled reader, the database lost) is aborted and has no such record, so the client
 * sees a broken transfer or a body without its end, never a short file that looks whole. Either way `after=<the last
 * row's cursor>` resumes. A client that goes away cancels the statement in flight in PostgreSQL (statement-cancel.ts)
 * and frees the export's place.
 */
import { Readable } from 'node:stream';
import type Koa from 'koa';
import type { IncomingMessage } from 'node:http';
import type { ExportLimits } from '../../../config/middleware.ts';
import type { Logger } from '../../../base/log.ts';
import { cancelledWith, Work } from '../../../db/connection/statement-cancel.ts';
import { AppError, ErrorCode, errorMessage } from '../../../base/errors.ts';
import { Backoff, sleep } from '../../../base/retry.ts';
import { overloaded, type Admission } from '../../http/admission.ts';
import { activitiesExport, transactionsExport, type AccountExport } from '../resources/account-exports.ts';
import type { ExportRow, InTurn } from '../resources/export-walk.ts';
import type { V3Env } from '../resources/resource.ts';
import type { ApiState } from '../../http/state.ts';
import {
  activityCsv,
  ACTIVITY_COLUMNS,
  csvFormat,
  endTrailers,
  NDJSON,
  transactionCsv,
  TRANSACTION_COLUMNS,
  type ExportFormat,
} from './export-formats.ts';
import type { V3Export } from './operation.ts';
import { scopedRequest } from './rest-routes.ts';
import { EXPORT_COST } from '../../quota/route-cost.ts';

/** What each export reads and how it writes CSV. */
const KINDS = {
  transactions: { start: transactionsExport, csv: csvFormat(TRANSACTION_COLUMNS, transactionCsv) },
  activities: { start: activitiesExport, csv: csvFormat(ACTIVITY_COLUMNS, activityCsv) },
} as const;

/**
 * STREAM_BUFFER: bytes the stream keeps ready before it stops taking slices (a slice of 100 transactions is about 30 kB
 * of CSV, 100 kB of NDJSON; the socket and a compressor keep their own, smaller, buffers).
 */
const STREAM_BUFFER = 64 * 1024;

/** Waits of a later page that found the line full: from 100 ms, doubling up to 2 s. */
const BUSY_BACKOFF = { initialMs: 100, maxMs: 2000, jitter: 0.2 };

const TRAILERS = ['Export-Complete', 'Export-Resume-After'];

/**
 * takesTrailers tells whether a request's answer may carry the export's end as trailers: only chunks carry them
 * (HTTP/1.1 and later; an HTTP/1.0 answer ends with its connection), and only a client that says it reads them, with
 * `TE: trailers`, gets them. RFC 9110 §6.5.1 lets a server send them to any client, which may drop them: nginx asked
 * with proxy_http_version 1.1 takes the chunks and drops their trailers, and removes the client's TE, so a client
 * behind it gets the end in the body. Pure.
 */
export function takesTrailers(
  req: Pick<IncomingMessage, 'httpVersionMajor' | 'httpVersionMinor' | 'headers'>,
): boolean {
  const chunked = req.httpVersionMajor > 1 || (req.httpVersionMajor === 1 && req.httpVersionMinor >= 1);
  // a header sent twice is one list (RFC 9110 §5.3)
  const te = [req.headers.te ?? ''].flat().join(',');
  return chunked && te.split(',').some((coding) => coding.split(';')[0]!.trim().toLowerCase() === 'trailers');
}

/** AccountExports serves the exports and counts those running (at most EXPORT_MAX_RUNNING). */
export class AccountExports {
  readonly #env: V3Env;
  readonly #admission: Admission | undefined;
  readonly #limits: ExportLimits;
  readonly #log: Logger;
  #running = 0;

  constructor(env: V3Env, admission: Admission | undefined, limits: ExportLimits, log: Logger) {
    this.#env = env;
    this.#admission = admission;
    this.#limits = limits;
    this.#log = log;
  }

  /** running counts the exports streaming now. */
  get running(): number {
    return this.#running;
  }

  /**
   * serve answers a request of an export's route (`kind`, of the account `id`, checked by the resource): the stream,
   * or a 4xx or 503 before any byte; to a HEAD, the GET's status and headers.
   */
  async serve(ctx: Koa.Context, kind: V3Export['export'], id: string): Promise<void> {
    const format = this.#format(ctx, KINDS[kind].csv);
    const arrivedAt = (ctx.state.arrivedAt as number | undefined) ?? performance.now();
    if (ctx.method === 'HEAD') {
      // a HEAD is answered as its GET, headers only: its parameters read and checked in a turn, the walk never started,
      // neither an export's place nor its cost taken (its request paid its one unit)
      await this.#turn(() => this.#start(ctx, kind, id, format), arrivedAt, new Work());
      return this.#head(ctx, kind, id, format, takesTrailers(ctx.req));
    }
    if (this.#running >= this.#limits.maxRunning) throw overloaded();
    // with API keys on, an export counts EXPORT_COST units (its request paid one), and the key (or address) runs at
    // most its tier's exports at once: 429 beyond either
    const quota = (ctx.state as ApiState).quota;
    const released = quota?.hold('exports');
    try {
      quota?.charge(EXPORT_COST - 1);
    } catch (err) {
      released?.();
      throw err;
    }
    this.#running++;
    const work = new Work();
    const stop = new AbortController();
    // the response's end, or its client gone (before the first byte too): the statement in flight is cancelled
    ctx.res.once('close', () => {
      stop.abort();
      work.cancel();
    });
    let first = true;
    const inTurn: InTurn = (read) => {
      if (!first) return this.#retried(() => this.#turn(read, performance.now(), work), stop.signal);
      first = false;
      return this.#turn(read, arrivedAt, work);
    };
    let pages: AsyncGenerator<readonly ExportRow[], boolean>;
    let head: IteratorResult<readonly ExportRow[], boolean>;
    try {
      const start = await this.#turn(() => this.#start(ctx, kind, id, format), arrivedAt, work);
      pages = start(inTurn);
      head = await pages.next();
    } catch (err) {
      this.#running--;
      released?.();
      throw err;
    }
    const trailers = takesTrailers(ctx.req);
    const stream = Readable.from(this.#body(ctx, format, trailers, head, pages, performance.now()), {
      objectMode: false,
      highWaterMark: STREAM_BUFFER,
    });
    // a stalled reader is cut off at the export's lifetime (one that reads stops itself before its next page)
    const lifetime = setTimeout(() => ctx.res.destroy(), (this.#limits.maxSeconds + 30) * 1000);
    stream.once('close', () => {
      clearTimeout(lifetime);
      this.#running--;
      released?.();
    });
    // a failure after the first byte can only break the transfer off, so that the client knows it is cut short
    stream.once('error', (err) => {
      this.#log.warn({ path: ctx.path, reason: errorMessage(err) }, 'export broken off');
      ctx.res.destroy();
    });
    this.#head(ctx, kind, id, format, trailers);
    ctx.body = stream;
  }

  /** start reads and checks the request's parameters (4xx for bad ones) into the export's walk, not started yet. */
  async #start(ctx: Koa.Context, kind: V3Export['export'], id: string, format: ExportFormat): Promise<AccountExport> {
    const request = await scopedRequest(ctx, this.#env, { id });
    return KINDS[kind].start(this.#env, request, this.#limits, format === NDJSON ? 'whole' : 'summaries');
  }

  /** head writes the answer's status and headers: its format, its file's name, and where its end will be. */
  #head(ctx: Koa.Context, kind: V3Export['export'], id: string, format: ExportFormat, trailers: boolean): void {
    ctx.status = 200;
    ctx.type = format.contentType;
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Content-Disposition', `attachment; filename="${id}-${kind}.${format === NDJSON ? 'ndjson' : 'csv'}"`);
    // where the end is: the trailers, or the body's last record (behind a proxy, what the proxy asked for decides);
    // a HEAD's answer has no chunks to carry trailers, and Node refuses to announce them on it
    if (trailers && ctx.method !== 'HEAD') ctx.set('Trailer', TRAILERS.join(', '));
    ctx.set('Export-End', trailers ? 'trailers' : 'body');
  }

  /** format is the one `Accept` asks for: CSV (also for any type, or none), NDJSON; 406 for anything else. */
  #format(ctx: Koa.Context, csv: ExportFormat): ExportFormat {
    const chosen = ctx.accepts('text/csv', 'application/x-ndjson');
    if (chosen === 'text/csv') return csv;
    if (chosen === 'application/x-ndjson') return NDJSON;
    throw new AppError(ErrorCode.API_BAD_REQUEST, 406, 'not acceptable: text/csv or application/x-ndjson');
  }

  /**
   * body is the stream's text: the format's head, then page after page as the stream asks for them, until the walk
   * ends or the lifetime is over (complete: false); then the end, as trailers or as the last record.
   */
  async *#body(
    ctx: Koa.Context,
    format: ExportFormat,
    trailers: boolean,
    head: IteratorResult<readonly ExportRow[], boolean>,
    pages: AsyncGenerator<readonly ExportRow[], boolean>,
    startedAt: number,
  ): AsyncGenerator<string> {
    yield format.head;
    let step = head;
    let last: string | undefined;
    const endsAt = startedAt + this.#limits.maxSeconds * 1000;
    while (!step.done) {
      yield format.page(step.value);
      last = step.value.at(-1)?.cursor ?? last;
      if (performance.now() >= endsAt) {
        await pages.return(false);
        step = { done: true, value: false };
        break;
      }
      step = await pages.next();
    }
    const end = { complete: step.value, ...(step.value || last === undefined ? {} : { resumeAfter: last }) };
    if (trailers) ctx.res.addTrailers(endTrailers(end));
    else yield format.end(end);
  }

  /** turn runs `read` as a request admitted in the line (arrived at `arrivedAt`), its statements those of `work`. */
  #turn<T>(read: () => Promise<T>, arrivedAt: number, work: Work): Promise<T> {
    if (!this.#admission) return cancelledWith(work, read);
    return this.#admission.run(read, 1, arrivedAt, work);
  }

  /** retried is `turn` asked again, after a wait, while the line refuses it as busy and the export goes on. */
  async #retried<T>(turn: () => Promise<T>, signal: AbortSignal): Promise<T> {
    const backoff = new Backoff(BUSY_BACKOFF);
    for (;;) {
      try {
        return await turn();
      } catch (err) {
        if (!(err instanceof AppError && err.code === ErrorCode.OVERLOADED) || signal.aborted) throw err;
      }
      await sleep(backoff.next(), signal);
    }
  }
}
