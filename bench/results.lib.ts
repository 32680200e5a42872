/** @module The record each benchmark keeps of its last run: bench/results/<name>.json (not committed). */
import { mkdirSync, writeFileSync } from 'node:fs';

/** writeResult saves a benchmark's figures as bench/results/<name>.json, replacing the last run's. */
export function writeResult(name: string, result: object): void {
  mkdirSync(new URL('results/', import.meta.url), { recursive: true });
  writeFileSync(new URL(`results/${name}.json`, import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
}
