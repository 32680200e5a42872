/**
 * @module A real æternity node's recorded exchanges (test/fixtures/real-node/*.ndjson.gz): reading them, reducing
 * each to its kind (port, method, route, status and what the answer is about), and telling whether another answer
 * has the shape of a recorded one (the same fields in the same order with the same JSON types). Pure but for
 * readExchanges.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { isJsonObject, parseJson, type Json } from '../../src/chain/json.ts';

/** Exchange is one recorded request and the node's answer, as the recording's lines hold them. */
export interface Exchange {
  readonly method: string;
  readonly path: string;
  readonly request_body: string | null;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly port?: 'internal';
  readonly label?: string;
}

/** readExchanges reads one gzipped ndjson file of the recording (`dry-run.ndjson.gz`…), line by line in order. */
export function readExchanges(file: string): Exchange[] {
  const text = gunzipSync(readFileSync(new URL(`../fixtures/real-node/${file}`, import.meta.url))).toString('utf8');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Exchange);
}

/** ID: an id or hash of the node's api encoding (its prefix kept), or a malformed one with a known prefix. */
const ID = /\b(kh|mh|th|ak|ct|ok|oq|nm|bs|pp|tx)_[1-9A-HJ-NP-Za-km-z]+/g;

/**
 * routeOf is a path with its variable parts named: ids by their prefix (`{th}`), heights and indexes `{n}`, names
 * `{name}`; the query string is kept, as it selects what the node answers (`?type=open`, `?int-as-string=true`).
 */
export function routeOf(path: string): string {
  const [pathname = '', query] = path.split('?', 2);
  const route = pathname
    .replace(ID, (_id, prefix: string) => `{${prefix}}`)
    .replace(/\/(height|index)\/[^/]+/g, '/$1/{n}')
    .replace(/\/names\/[^/]+/, '/names/{name}');
  return query === undefined ? route : `${route}?${query}`;
}

/** answerDetail names what a JSON answer is about where a route's answers differ by it: a transaction's type, a call's result, an error. */
function answerDetail(status: number, body: Json | undefined): string {
  if (!isJsonObject(body)) return '';
  if (status >= 400) return ` ${JSON.stringify({ error_code: body.error_code, reason: body.reason })}`;
  if (isJsonObject(body.tx)) {
    const inner = isJsonObject(body.tx.tx) && isJsonObject(body.tx.tx.tx) ? `(${String(body.tx.tx.tx.type)})` : '';
    return ` ${String(body.tx.type)}${inner}`;
  }
  if (isJsonObject(body.call_info)) return ` call ${String(body.call_info.return_type)}`;
  return '';
}

/** parseBody is an answer's JSON (undefined for an empty or non-JSON body). */
export function parseBody(text: string): Json | undefined {
  if (text === '') return undefined;
  try {
    return parseJson(text);
  } catch {
    return undefined;
  }
}

/**
 * exchangeKind is what the conformance test requires one answer of: the port, the method, the route, the status and,
 * for a transaction, a call's info or an error, what the answer says it is (`external GET /v3/transactions/{th} 200
 * SpendTx`).
 */
export function exchangeKind(e: Exchange): string {
  const port = e.port === 'internal' ? 'internal' : 'external';
  return `${port} ${e.method} ${routeOf(e.path)} ${e.status}${answerDetail(e.status, parseBody(e.body))}`;
}

/** jsonType is a value's JSON type, and an encoded id's prefix (`string kh_`): a field's form is part of its shape. */
function jsonType(value: Json): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'bigint' || typeof value === 'number') return 'number';
  if (typeof value === 'string') {
    const prefixed = /^([a-z]{2})_[1-9A-HJ-NP-Za-km-z]+$/.exec(value);
    return prefixed ? `string ${prefixed[1]}_` : 'string';
  }
  return typeof value;
}

/** Ignored says which members of an object a comparison leaves out. */
export type Ignored = (key: string, object: { readonly [k: string]: Json }) => boolean;

/**
 * shapeDifferences lists where `actual` has not the shape of `expected` (a path and what differs; none: the same
 * shape): the same JSON types, objects with the same keys in the same order (the node sorts them), arrays whose
 * every element has the shape of one of the expected's elements (an empty array on either side says nothing of its
 * elements). Members `ignored` are left out on both sides.
 */
export function shapeDifferences(expected: Json, actual: Json, ignored: Ignored = () => false, at = '$'): string[] {
  const [want, got] = [jsonType(expected), jsonType(actual)];
  if (want !== got) return [`${at}: ${got}, the node's is ${want}`];
  if (Array.isArray(expected) && Array.isArray(actual)) {
    for (const [i, item] of actual.entries()) {
      const tries = expected.map((e) => shapeDifferences(e, item, ignored, `${at}[${i}]`));
      if (tries.length > 0 && tries.every((d) => d.length > 0))
        return tries.reduce((a, b) => (b.length < a.length ? b : a));
    }
    return [];
  }
  if (isJsonObject(expected) && isJsonObject(actual)) {
    const keys = (o: { [k: string]: Json }) => Object.keys(o).filter((k) => !ignored(k, o));
    const [wantKeys, gotKeys] = [keys(expected), keys(actual)];
    if (wantKeys.join() !== gotKeys.join())
      return [`${at}: keys ${gotKeys.join(',')}, the node's ${wantKeys.join(',')}`];
    return wantKeys.flatMap((k) => shapeDifferences(expected[k]!, actual[k]!, ignored, `${at}.${k}`));
  }
  return [];
}
