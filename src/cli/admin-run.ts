/**
 * @module What the `mdw keys` and `mdw webhooks` commands share: the settings, a log, their admin functions (loaded
 * only when such a command runs), and their refusals.
 */
import type { Command } from '@oclif/core';
import type * as KeysAdmin from '../api/quota/keys-admin.ts';
import type * as WebhooksAdmin from '../webhooks/webhooks-admin.ts';
import { AppError } from '../base/errors.ts';
import { createLogger, type Logger } from '../base/log.ts';
import type { Config } from '../config/middleware.ts';
import { configFromEnv } from './env.ts';

type Use<M> = (cfg: Config, log: Logger, admin: M) => Promise<void>;

/**
 * withAdmin runs `use` with the settings from the environment, a log and the admin functions `load` gives; a refusal
 * (an AppError: an unknown tier or hook, the database away) ends `command` with its message and exit code 1, and the
 * log is flushed either way.
 */
async function withAdmin<M>(command: Command, role: string, load: () => Promise<M>, use: Use<M>): Promise<void> {
  const cfg = configFromEnv();
  const { log, flush } = createLogger(cfg, role);
  const admin = await load();
  try {
    await use(cfg, log, admin);
  } catch (err) {
    if (err instanceof AppError) command.error(err.message, { exit: 1 });
    throw err;
  } finally {
    flush();
  }
}

/** withKeysAdmin runs a `mdw keys` command's `use` (withAdmin). */
export function withKeysAdmin(command: Command, use: Use<typeof KeysAdmin>): Promise<void> {
  return withAdmin(command, 'keys', () => import('../api/quota/keys-admin.ts'), use);
}

/** withWebhooksAdmin runs a `mdw webhooks` command's `use` (withAdmin). */
export function withWebhooksAdmin(command: Command, use: Use<typeof WebhooksAdmin>): Promise<void> {
  return withAdmin(command, 'webhooks', () => import('../webhooks/webhooks-admin.ts'), use);
}
