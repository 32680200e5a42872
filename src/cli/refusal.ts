/** @module How a command ends on a refusal (errors.ts REFUSALS): its message as one line on stderr, and exit 2. */
import type { Command } from '@oclif/core';
import { AppError, ErrorCode, REFUSALS } from '../base/errors.ts';

/**
 * exitIfRefused ends the command with exit 2 when `err` is a refusal, printing its message whole on one line (oclif's
 * `error` wraps a long message over several, which a log collector splits); any other error is the caller's.
 */
export function exitIfRefused(command: Command, err: unknown): void {
  if (!(err instanceof AppError) || !REFUSALS.has(err.code)) return;
  command.logToStderr(`Error: ${err.message} (${err.code})`);
  command.exit(2);
}

/** What a one-shot command fails on at once rather than waiting (docs/operations.md, "Starting while ... away"). */
const AWAY: ReadonlySet<ErrorCode> = new Set([
  ErrorCode.DB_UNAVAILABLE,
  ErrorCode.NODE_UNREACHABLE,
  ErrorCode.NODE_TIMEOUT,
]);

/**
 * exitIfAway ends a one-shot command with exit 1 when `err` says the database or the node is away, in one line on
 * stderr (a Job's retry policy decides what next); any other error is the caller's.
 */
export function exitIfAway(command: Command, err: unknown): void {
  if (!(err instanceof AppError) || !AWAY.has(err.code)) return;
  command.logToStderr(`Error: ${err.message} (${err.code})`);
  command.exit(1);
}

/**
 * exitOnAppError ends the command with exit `code` when `err` is any other AppError, its message whole on one line on
 * stderr as exitIfRefused prints a refusal (a snapshot's long messages name files and hashes); else the caller's.
 */
export function exitOnAppError(command: Command, err: unknown, code: number): void {
  if (!(err instanceof AppError)) return;
  command.logToStderr(`Error: ${err.message} (${err.code})`);
  command.exit(code);
}
