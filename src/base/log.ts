/** @module Logging: JSON lines (or readable lines in a terminal), to stdout or LOG_DIR, reopened on SIGHUP. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';

export type Logger = pino.Logger;

/** LogSettings: where and how much to log (the configuration's LOG_DIR, LOG_LEVEL and LOG_PRETTY). */
export interface LogSettings {
  readonly logDir: string | undefined;
  readonly logLevel: pino.LevelWithSilent;
  readonly logPretty: boolean;
}

export interface LoggerHandle {
  readonly log: Logger;
  /** reopen closes and reopens the log file, for logrotate's copy-less rotation (SIGHUP). */
  reopen(): void;
  flush(): void;
}

/**
 * createLogger writes to `<LOG_DIR>/<role>.log` when LOG_DIR is set, else to stdout. Pretty
 * output is for a person at a terminal; everything else gets JSON lines.
 */
export function createLogger(cfg: LogSettings, role = 'mdw'): LoggerHandle {
  const options: pino.LoggerOptions = {
    level: cfg.logLevel,
    base: { role },
    redact: { paths: ['databaseUrl', '*.databaseUrl', 'password', '*.password'], censor: '***' },
  };
  if (cfg.logDir) {
    mkdirSync(cfg.logDir, { recursive: true });
    const destination = pino.destination({ dest: join(cfg.logDir, `${role}.log`), sync: false, mkdir: true });
    const log = pino(options, destination);
    return { log, reopen: () => destination.reopen(), flush: () => destination.flushSync() };
  }
  if (cfg.logPretty) {
    const log = pino({
      ...options,
      transport: { target: 'pino-pretty', options: { colorize: true, ignore: 'pid,hostname,role' } },
    });
    return { log, reopen: () => {}, flush: () => {} };
  }
  const destination = pino.destination({ dest: 1, sync: true });
  return { log: pino(options, destination), reopen: () => {}, flush: () => {} };
}
