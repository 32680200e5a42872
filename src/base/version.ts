/** @module The version printed by `mdw -V`, read from package.json (same path from src/ and dist/). */
import { readFileSync } from 'node:fs';

export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
