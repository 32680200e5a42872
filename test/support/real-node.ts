/** @module The recorded answers of a real æternity node (test/fixtures/real-node/, its README says what each holds). */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/** One recorded HTTP exchange, as a line of the recording holds it. */
export interface RecordedExchange {
  readonly method: string;
  readonly path: string;
  readonly request_body: string | null;
  readonly status: number;
  readonly headers: { readonly [name: string]: string };
  /** the raw answer text: parse it with src/chain/json.ts parseJson (big integers are bare numbers) */
  readonly body: string;
  readonly port?: 'internal';
  readonly label?: string;
}

/** recordedExchanges reads one gzipped ndjson file of the recording (`chain`, `dry-run`, `errors`). */
export function recordedExchanges(file: 'chain' | 'dry-run' | 'errors'): RecordedExchange[] {
  const url = new URL(`../fixtures/real-node/${file}.ndjson.gz`, import.meta.url);
  return gunzipSync(readFileSync(url))
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as RecordedExchange);
}
