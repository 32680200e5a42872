/** @module What the `mdw keys` commands share: the settings, a log, the keys' admin functions, and their refusals. */
import type { Command } from '@oclif/core';
import type * as KeysAdmin from '../api/quota/keys-admin.ts';
import { AppError } from '../base/errors.ts';
import { createLogger, type Logger } from '../base/log.ts';
import type { Config } from '../config/middleware.ts';
import { configFromEnv } from './env.ts';

/**
 * withKeysAdmin runs `use` with the settings from the environment, a log and the keys' admin functions (loaded only
 * when a keys command runs); a refusal (an AppError: an unknown tier, the database away) ends `command` with its
 * message and exit code 1, and the log is flushed either way.
 */
export async function withKeysAdmin(
  command: Command,
  use: (cfg: Config, log: Logger, admin: typeof KeysAdmin) => Promise<void>,
): Promise<void> {
  const cfg = configFromEnv();
  const { log, flush } = createLogger(cfg, 'keys');
  const admin = await import('../api/quota/keys-admin.ts');
  try {
    await use(cfg, log, admin);
  } catch (err) {
    if (err instanceof AppError) command.error(err.message, { exit: 1 });
    throw err;
  } finally {
    flush();
  }
}
