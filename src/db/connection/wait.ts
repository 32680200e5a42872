/**
 * @module A role's start waits for its database: PostgreSQL coming up after the role (pods scheduled in any order, a
 * database restarting) is a wait, not an exit. A one-shot command (-v, -H, migrate) does not wait: it fails at once
 * and its Job's retry policy decides.
 */
import type { Logger } from '../../base/log.ts';
import { AwayLog, DEPENDENCY_BACKOFF, retry, type BackoffOptions } from '../../base/retry.ts';
import { isDatabaseUnavailable } from './errors.ts';
import { AppError, ErrorCode, errorMessage } from '../../base/errors.ts';

/**
 * untilDatabaseAnswers runs `step` (a start step that needs the database, such as migrating) until the database
 * answers it, with backoff and no limit but `signal`. The database's absence is logged once when first met and
 * once when it ends; any other error is thrown at once.
 */
export async function untilDatabaseAnswers<T>(
  what: string,
  step: () => Promise<T>,
  log: Logger,
  options: { signal?: AbortSignal; backoff?: BackoffOptions } = {},
): Promise<T> {
  const away = new AwayLog(
    log,
    { dependency: 'database', step: what },
    { away: 'database unavailable: waiting for it before starting', back: 'database available again' },
  );
  const result = await retry(step, {
    ...(options.backoff ?? DEPENDENCY_BACKOFF),
    attempts: Infinity,
    signal: options.signal,
    retryable: isDatabaseUnavailable,
    onRetry: away.onRetry,
  });
  away.answered();
  return result;
}

/**
 * databaseNow runs a one-shot command's `step` once: the database's absence is an AppError MDW_DB_UNAVAILABLE that
 * names the step and the reason (the command exits 1 with it); any other error is thrown as it is.
 */
export async function databaseNow<T>(what: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (!isDatabaseUnavailable(err)) throw err;
    throw new AppError(
      ErrorCode.DB_UNAVAILABLE,
      503,
      `database unavailable (${what}): ${errorMessage(err)}; a one-shot command does not wait for it`,
      { cause: err },
    );
  }
}
