/**
 * @module Typed errors of the node, mapped onto the NODE_* codes of the registry: one classification of a request
 * the node did not answer for every path that asks it (the node client, dry-runs, the mempool, the forwarding).
 */
import { AppError, ErrorCode } from '../base/errors.ts';
import { HttpGetError } from './http-get.ts';
import { retryAfterMs as retryAfterMsOf } from '../base/retry.ts';

/**
 * NODE_STATUS: the answer a client gets for a request that needed the node and failed so. A node that refused the
 * request for load (its 503, a 429) or could not be reached is our own 503 with a Retry-After (error-boundary.ts),
 * as the database away is: the client is to come back, and a node's bare 503 never reaches it (issue 87); an
 * answer that does not come in time is a 504, one we cannot use a 502, as a reverse proxy answers. docs/errors.md
 * promises these.
 */
const NODE_STATUS: Partial<Record<ErrorCode, number>> = {
  [ErrorCode.NODE_UNREACHABLE]: 503,
  [ErrorCode.NODE_BUSY]: 503,
  [ErrorCode.NODE_TIMEOUT]: 504,
  [ErrorCode.NODE_BAD_RESPONSE]: 502,
};

/** NodeError is any failed node request; `transient` says whether retrying may help. */
export class NodeError extends AppError {
  /** The node's HTTP status, when it answered at all. */
  readonly nodeStatus: number | undefined;
  readonly transient: boolean;
  readonly path: string;
  /** how long the node asked to be left alone (its 503's Retry-After, bounded: retry.ts retryAfterMs) */
  readonly retryAfterMs: number | undefined;
  /** the node said the state was garbage-collected otherwise than by a 410 (a dry-run's 400) */
  readonly #collected: boolean;
  /** the node said it does not know the block otherwise than by a 404 (a dry-run's 400 for its `top`) */
  readonly #unknownBlock: boolean;
  /** the node gave a dry-run up at its time limit (a dry-run's 400: isOverTimeLimit) */
  readonly #overTimeLimit: boolean;

  constructor(
    code: ErrorCode,
    message: string,
    opts: {
      path: string;
      nodeStatus?: number;
      transient: boolean;
      cause?: unknown;
      retryAfterMs?: number;
      collected?: boolean;
      unknownBlock?: boolean;
      overTimeLimit?: boolean;
    },
  ) {
    super(code, NODE_STATUS[code] ?? 502, message, { cause: opts.cause });
    this.nodeStatus = opts.nodeStatus;
    this.transient = opts.transient;
    this.path = opts.path;
    this.retryAfterMs = opts.retryAfterMs;
    this.#collected = opts.collected === true;
    this.#unknownBlock = opts.unknownBlock === true;
    this.#overTimeLimit = opts.overTimeLimit === true;
  }

  /** notFound is true for the node's 404 (a height above its top, an unknown hash): not an outage. */
  get notFound(): boolean {
    return this.nodeStatus === 404;
  }

  /** busy is true for the node's refusal for load (503, 429: its request queue was full): its pace, not an outage. */
  get busy(): boolean {
    return this.code === ErrorCode.NODE_BUSY;
  }

  /**
   * gone is true for the node's 410: a node with garbage collection (v6.9+) no longer holds the state at that
   * height (call info, an account at a block); and for its dry-run's 400 saying so (collectedState). Another node,
   * an archive one, may still answer.
   */
  get gone(): boolean {
    return this.nodeStatus === 410 || this.#collected;
  }

  /**
   * unknownBlock is true for the node's dry-run's refusal of a `top` it does not know (isUnknownTop), where its GETs
   * answer 404: a node behind the others (or a block that left the chain), which says nothing of the block's state.
   */
  get unknownBlock(): boolean {
    return this.#unknownBlock;
  }

  /**
   * overTimeLimit is true for the node's dry-run given up at its time limit (isOverTimeLimit), and for a round of a
   * dry-run every node gave up so (dry-run.ts roundOutcome): a request too heavy for the node, or a node too loaded.
   */
  get overTimeLimit(): boolean {
    return this.#overTimeLimit;
  }
}

/**
 * unlessGone is what `read` answers, or undefined where every node answered that it no longer holds the state (gone:
 * 410, garbage-collected); any other failure is thrown.
 */
export async function unlessGone<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof NodeError && err.gone) return undefined;
    throw err;
  }
}

/**
 * UNREACHABLE_REASON is what a client reads of a node it cannot reach: the cause (an address, a socket error) is for
 * the logs, NODE_INTERNAL_URL's address above all.
 */
export const UNREACHABLE_REASON = 'the node is unreachable';

/** BUSY_REASON is what a client reads of a node that refused the request for load (its `Temporary overload`). */
export const BUSY_REASON = 'the node is busy: retry later';

/** isRefusalStatus says whether a node's status is its refusal for load: 503 (its full request queue) or 429. Pure. */
export function isRefusalStatus(status: number): boolean {
  return status === 503 || status === 429;
}

/** unreachable: the connection failed (refused, reset, DNS). */
export function unreachable(path: string, cause: unknown): NodeError {
  const reason =
    cause instanceof Error ? (cause.cause instanceof Error ? cause.cause.message : cause.message) : String(cause);
  return new NodeError(ErrorCode.NODE_UNREACHABLE, `node unreachable: ${reason}`, { path, transient: true, cause });
}

/** timedOut: no complete answer within the configured time. */
export function timedOut(path: string, timeoutMs: number): NodeError {
  return new NodeError(ErrorCode.NODE_TIMEOUT, `node did not answer ${path} within ${timeoutMs} ms`, {
    path,
    transient: true,
  });
}

/**
 * noAnswer is the NodeError of a request to `path` that got no answer (httpGet's or httpPostJson's rejection, `err`):
 * timedOut at the deadline, unreachable otherwise (an aborted request too: its asker stopped and reads no reason).
 */
export function noAnswer(path: string, err: unknown, timeoutMs: number): NodeError {
  return err instanceof HttpGetError && err.outcome === 'timeout' ? timedOut(path, timeoutMs) : unreachable(path, err);
}

/**
 * isCollectedState says whether a node's error answer (`status`, body `text`) is its dry-run's refusal of a
 * garbage-collected state: its dry-run answers 400 `Bad request: Block state of given hash was garbage collected`
 * (aec_dry_run; `state garbage collected` where the block before a micro block is gone), where its GETs answer 410.
 * Pure.
 */
export function isCollectedState(status: number, text: string): boolean {
  return status === 400 && /garbage[ -]collected/.test(text);
}

/** collectedState: the node's dry-run refused a garbage-collected state (isCollectedState): gone, never retried. */
export function collectedState(path: string, message: string): NodeError {
  return new NodeError(ErrorCode.NODE_BAD_RESPONSE, message, {
    path,
    nodeStatus: 400,
    transient: false,
    collected: true,
  });
}

/**
 * isUnknownTop says whether a node's error answer (`status`, body `text`) is its dry-run's refusal of a `top` it does
 * not know: 400 `Bad request: Invalid hash provided` (the recorded 7.2.2's answer for a well-formed unknown `kh_` or
 * `mh_`), where its GETs of an unknown block answer 404. Pure.
 */
export function isUnknownTop(status: number, text: string): boolean {
  return status === 400 && text.includes('Invalid hash provided');
}

/** unknownTop: the node's dry-run refused a `top` it does not know (isUnknownTop): behind, not retried by itself. */
export function unknownTop(path: string, message: string): NodeError {
  return new NodeError(ErrorCode.NODE_BAD_RESPONSE, message, {
    path,
    nodeStatus: 400,
    transient: false,
    unknownBlock: true,
  });
}

/**
 * isOverTimeLimit says whether a node's error answer (`status`, body `text`) is its dry-run given up at its time limit
 * (`http.dry_run.timeout_ms`, 3000 ms by default, node 7.2.2 on): 400 `{"reason":"Bad request: dry-run exceeded time
 * limit"}` (the recorded 7.2.2's answer to 1000 `call_req`s). Pure.
 */
export function isOverTimeLimit(status: number, text: string): boolean {
  return status === 400 && text.includes('dry-run exceeded time limit');
}

/**
 * overTimeLimit: the node gave a dry-run up at its time limit (isOverTimeLimit). Transient, unlike another 400: the
 * limit is the node's wall-clock time, which a loaded node passes where an idle one would not, so the request is
 * asked again; a replay every node gives up so round after round is too heavy for them for good (dry-run.ts
 * lastingFailures). The node is no less healthy for it: it is not passed over.
 */
export function overTimeLimit(path: string, message: string): NodeError {
  return new NodeError(ErrorCode.NODE_BAD_RESPONSE, message, {
    path,
    nodeStatus: 400,
    transient: true,
    overTimeLimit: true,
  });
}

/**
 * badResponse: an HTTP error status or a body that is not the JSON expected. 5xx and 429 are transient, a 503 or 429
 * is the node's refusal for load (MDW_NODE_BUSY); `retryAfter` is the answer's Retry-After header, kept (bounded) on a
 * transient one as the wait the node asked for.
 */
export function badResponse(path: string, message: string, nodeStatus?: number, retryAfter?: string): NodeError {
  const transient = nodeStatus === undefined || nodeStatus >= 500 || nodeStatus === 429;
  const retryAfterMs = transient ? retryAfterMsOf(retryAfter, Date.now()) : undefined;
  const code =
    nodeStatus !== undefined && isRefusalStatus(nodeStatus) ? ErrorCode.NODE_BUSY : ErrorCode.NODE_BAD_RESPONSE;
  return new NodeError(code, message, { path, nodeStatus, transient, retryAfterMs });
}
