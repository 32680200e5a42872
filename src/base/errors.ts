/** @module The error registry: every error a client or an operator can see has a stable code. */

/**
 * ErrorCode lists every code, each raised somewhere; docs/errors.md documents each one once (a test
 * compares the two lists both ways, and checks that every code is raised).
 */
export const ErrorCode = {
  CONFIG_INVALID: 'MDW_CONFIG_INVALID',
  CLI_BAD_HEIGHTS: 'MDW_CLI_BAD_HEIGHTS',
  CLI_WRITER_BUSY: 'MDW_CLI_WRITER_BUSY',
  API_BAD_REQUEST: 'MDW_API_BAD_REQUEST',
  API_NOT_FOUND: 'MDW_API_NOT_FOUND',
  API_PAYLOAD_TOO_LARGE: 'MDW_API_PAYLOAD_TOO_LARGE',
  API_UNSUPPORTED_MEDIA_TYPE: 'MDW_API_UNSUPPORTED_MEDIA_TYPE',
  NODE_UNREACHABLE: 'MDW_NODE_UNREACHABLE',
  NODE_TIMEOUT: 'MDW_NODE_TIMEOUT',
  NODE_BAD_RESPONSE: 'MDW_NODE_BAD_RESPONSE',
  COMPILER_UNAVAILABLE: 'MDW_COMPILER_UNAVAILABLE',
  DB_UNAVAILABLE: 'MDW_DB_UNAVAILABLE',
  DB_MIGRATION_REFUSED: 'MDW_DB_MIGRATION_REFUSED',
  DB_SCHEMA_NEWER: 'MDW_DB_SCHEMA_NEWER',
  CHAIN_IDENTITY_MISMATCH: 'MDW_CHAIN_IDENTITY_MISMATCH',
  SNAPSHOT_REFUSED: 'MDW_SNAPSHOT_REFUSED',
  SNAPSHOT_CORRUPT: 'MDW_SNAPSHOT_CORRUPT',
  INDEXER_FORK_TOO_DEEP: 'MDW_INDEXER_FORK_TOO_DEEP',
  OVERLOADED: 'MDW_OVERLOADED',
  API_KEY_INVALID: 'MDW_API_KEY_INVALID',
  API_KEY_REQUIRED: 'MDW_API_KEY_REQUIRED',
  API_QUOTA_EXCEEDED: 'MDW_API_QUOTA_EXCEEDED',
  API_LIMIT_REACHED: 'MDW_API_LIMIT_REACHED',
  OPERATOR_NOT_FOUND: 'MDW_OPERATOR_NOT_FOUND',
  OPERATOR_BAD_REQUEST: 'MDW_OPERATOR_BAD_REQUEST',
  OPERATOR_CONFLICT: 'MDW_OPERATOR_CONFLICT',
  INTERNAL: 'MDW_INTERNAL',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** AppError carries a stable code and an HTTP status; 4xx messages are shown to clients, 5xx are not. */
export class AppError extends Error {
  override readonly name = 'AppError';
  readonly code: ErrorCode;
  readonly status: number;

  constructor(code: ErrorCode, status: number, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.status = status;
  }

  get expose(): boolean {
    return this.status < 500;
  }
}

/**
 * REFUSALS: the codes of a start refused for what the schema holds (another chain, another owner, a newer version):
 * a mistake of configuration or rollout, not a failure, so the process exits 2 with the one line that says it.
 */
export const REFUSALS: ReadonlySet<ErrorCode> = new Set([
  ErrorCode.CONFIG_INVALID,
  ErrorCode.DB_SCHEMA_NEWER,
  ErrorCode.CHAIN_IDENTITY_MISMATCH,
  ErrorCode.SNAPSHOT_REFUSED,
]);

/** badRequest is the 400 every handler throws for a client mistake. */
export function badRequest(message: string): AppError {
  return new AppError(ErrorCode.API_BAD_REQUEST, 400, message);
}

/** notFound is the 404 for an unknown object. */
export function notFound(message: string): AppError {
  return new AppError(ErrorCode.API_NOT_FOUND, 404, message);
}

/** errorMessage is what a log line or a status field says of a caught value: an Error's message, else its text. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
