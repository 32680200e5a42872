/**
 * @module The replay tier's matching (issue 87): which recorded exchange of the real node (test/fixtures/real-node)
 * answers a request, or the rule, justified by the recorded chain itself, that derives its answer from recorded ones.
 * A request neither matches nor any rule derives is a miss: the replay server answers it as the node answers an unknown
 * route and the test fails naming it. Pure; replay-node.ts serves it.
 */
import { isJsonObject, parseJson, stringifyJson, type Json } from '../../src/chain/json.ts';

/** One recorded exchange, as a line of the recording holds it. */
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

/** A request as the replay server got it: which listener, and whether its content-type was JSON. */
export interface ReplayRequest {
  readonly port: 'external' | 'internal';
  readonly method: string;
  readonly path: string;
  readonly body: string;
  readonly json: boolean;
}

/** An answer and how it was found: `recorded` as it is, or the name of the rule that derived it. */
export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly rule: string;
}

/** RULE_V2_AS_V3: a `/v2` path answered by the recorded `/v3` one (or back); see answerOf. */
export const RULE_V2_AS_V3 = 'v2 as v3';

/** The recording indexed by what a request is matched on. */
export interface Recording {
  readonly byKey: ReadonlyMap<string, Exchange>;
}

/**
 * canonical is a JSON text's meaning as one text (keys sorted at every level, integers digit for digit), or the text
 * itself when it is no JSON: two bodies that mean the same match whatever their spacing and key order.
 */
export function canonical(text: string): string {
  let value: Json;
  try {
    value = parseJson(text);
  } catch {
    return text;
  }
  return stringifyJson(sorted(value));
}

function sorted(value: Json): Json {
  if (Array.isArray(value)) return value.map(sorted);
  if (!isJsonObject(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sorted(value[k]!)]),
  );
}

/**
 * jsonSent says whether an exchange's request was sent as JSON. The node answers 415 (empty) exactly when a POST's
 * content-type is not `application/json` (README item 5): the recording's 415 lines are those requests, its other
 * lines were sent as JSON when they had a body.
 */
const jsonSent = (e: Exchange): boolean => e.status !== 415;

const keyOf = (port: string, method: string, path: string, json: boolean, body: string): string =>
  `${port} ${method} ${path} ${method === 'GET' ? '' : `${json} ${canonical(body)}`}`;

/** indexRecording indexes the exchanges; of two with one key the first recorded is kept (the recording's repeats agree). */
export function indexRecording(exchanges: readonly Exchange[]): Recording {
  const byKey = new Map<string, Exchange>();
  for (const e of exchanges) {
    const key = keyOf(e.port ?? 'external', e.method, e.path, jsonSent(e), e.request_body ?? '');
    if (!byKey.has(key)) byKey.set(key, e);
  }
  return { byKey };
}

/** recorded is the exchange recorded for exactly this request, if any. */
function recorded(rec: Recording, req: ReplayRequest, path = req.path): Exchange | undefined {
  return rec.byKey.get(keyOf(req.port, req.method, path, req.json, req.body));
}

const answered = (e: Exchange, rule: string): Answer => ({ status: e.status, headers: e.headers, body: e.body, rule });

/** otherVersion is the path under the node's other API version (`/v2/…` ↔ `/v3/…`), or undefined. */
export function otherVersion(path: string): string | undefined {
  if (path.startsWith('/v2/')) return `/v3/${path.slice(4)}`;
  if (path.startsWith('/v3/')) return `/v2/${path.slice(4)}`;
  return undefined;
}

/**
 * answerOf answers `req` from the recording: the exchange recorded for it, else one derived by a rule:
 *
 * - RULE_V2_AS_V3: the middleware asks the node's `/v2` routes, the recording holds most of them under `/v3` only. The
 *   node serves both versions from one handler; every path the recording holds in both forms (3 596 pairs) was
 *   answered byte for byte alike (replay-match.test.ts checks that on the recording), so either answers for the other.
 *
 * Undefined when neither: a miss.
 */
export function answerOf(rec: Recording, req: ReplayRequest): Answer | undefined {
  const exact = recorded(rec, req);
  if (exact) return answered(exact, 'recorded');
  const other = otherVersion(req.path);
  const aliased = other === undefined ? undefined : recorded(rec, req, other);
  if (aliased) return answered(aliased, RULE_V2_AS_V3);
  return undefined;
}
