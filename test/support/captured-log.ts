/** @module A logger whose lines a test reads back: what a role logs is behaviour its operators rely on. */
import { Writable } from 'node:stream';
import pino from 'pino';

/** A log line as a role wrote it: its level, its message and its fields. */
export interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly dependency?: string;
  readonly refused?: number;
  readonly [field: string]: unknown;
}

/** capturedLog is a logger at `level` (default `info`) whose lines are kept, parsed, in `lines`. */
export function capturedLog(level: pino.Level = 'info'): { log: pino.Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const log = pino(
    { level },
    new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(JSON.parse(chunk.toString()) as LogLine);
        done();
      },
    }),
  );
  return { log, lines };
}
