/** @module Typed errors of the node client, mapped onto the NODE_* codes of the registry. */
import { AppError, ErrorCode } from '../errors.ts';
import { HttpGetError } from './http-get.ts';

/** NodeError is any failed node request; `transient` says whether retrying may help. */
export class NodeError extends AppError {
  /** The node's HTTP status, when it answered at all. */
  readonly nodeStatus: number | undefined;
  readonly transient: boolean;
  readonly path: string;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { path: string; nodeStatus?: number; transient: boolean; cause?: unknown },
  ) {
    super(code, code === ErrorCode.NODE_TIMEOUT ? 504 : code === ErrorCode.NODE_UNREACHABLE ? 503 : 502, message, {
      cause: opts.cause,
    });
    this.nodeStatus = opts.nodeStatus;
    this.transient = opts.transient;
    this.path = opts.path;
  }

  /** notFound is true for the node's 404 (a height above its top, an unknown hash): not an outage. */
  get notFound(): boolean {
    return this.nodeStatus === 404;
  }

  /**
   * gone is true for the node's 410: a node with garbage collection (v6.9+) no longer holds the state at that
   * height (call info, an account at a block). Another node, an archive one, may still answer.
   */
  get gone(): boolean {
    return this.nodeStatus === 410;
  }
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
 * timedOut at the deadline, unreachable otherwise.
 */
export function noAnswer(path: string, err: unknown, timeoutMs: number): NodeError {
  return err instanceof HttpGetError && err.timedOut ? timedOut(path, timeoutMs) : unreachable(path, err);
}

/** badResponse: an HTTP error status or a body that is not the JSON expected. 5xx and 429 are transient. */
export function badResponse(path: string, message: string, nodeStatus?: number): NodeError {
  const transient = nodeStatus === undefined || nodeStatus >= 500 || nodeStatus === 429;
  return new NodeError(ErrorCode.NODE_BAD_RESPONSE, message, { path, nodeStatus, transient });
}
