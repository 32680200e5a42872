/** @module The record each benchmark keeps of its last run: bench/results/<name>.json (not committed). */
import { mkdirSync, writeFileSync } from 'node:fs';

/** writeResult saves a benchmark's figures as bench/results/<name>.json, replacing the last run's. */
export function writeResult(name: string, result: object): void {
  writeResultFile(`${name}.json`, `${JSON.stringify(result, null, 2)}\n`);
}

/** writeResultFile saves a file beside the figures (a log), in bench/results/, which a fresh checkout lacks. */
export function writeResultFile(file: string, text: string): void {
  mkdirSync(new URL('results/', import.meta.url), { recursive: true });
  writeFileSync(new URL(`results/${file}`, import.meta.url), text);
}
