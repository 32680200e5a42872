/**
 * @module A real æternity node 7.2.2's recorded answers (test/fixtures/real-node/, its README says what each file
 * holds): one HTTP exchange a line, read as it was sent, its bodies left as text (parse them with src/chain/json.ts:
 * amounts above 2^53 are bare numbers).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/** Exchange is one recorded request and the node's answer. */
export interface Exchange {
  readonly method: string;
  /** the path with its query string */
  readonly path: string;
  /** the exact text sent, null when nothing was */
  readonly request_body: string | null;
  readonly status: number;
  /** `content-type`, `retry-after`, `server` and any `x-*` the node sent, by their lower-case names */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** `internal` when sent to the internal API's port */
  readonly port?: 'internal';
  /** what the request is (the dry-run file) */
  readonly label?: string;
}

/** recording reads one of the recorded files (`dry-run.ndjson.gz`…), line by line in order. */
export function recording(file: string): Exchange[] {
  const text = gunzipSync(readFileSync(new URL(`../fixtures/real-node/${file}`, import.meta.url))).toString('utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Exchange);
}
