/** @module How a command ends on a refusal (errors.ts REFUSALS): its message as one line on stderr, and exit 2. */
import type { Command } from '@oclif/core';
import { AppError, REFUSALS } from '../errors.ts';

/**
 * exitIfRefused ends the command with exit 2 when `err` is a refusal, printing its message whole on one line (oclif's
 * `error` wraps a long message over several, which a log collector splits); any other error is the caller's.
 */
export function exitIfRefused(command: Command, err: unknown): void {
  if (!(err instanceof AppError) || !REFUSALS.has(err.code)) return;
  command.logToStderr(`Error: ${err.message} (${err.code})`);
  command.exit(2);
}
