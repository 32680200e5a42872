/**
 * @module The replay tier's matching (issue 87): which recorded exchange of the real node (test/fixtures/real-node)
 * answers a request, or the rule, justified by the recorded chain itself, that derives its answer from recorded ones.
 * A request neither matches nor any rule derives is a miss: the replay server answers it as the node answers an unknown
 * route and the test fails naming it. Pure; replay-node.ts serves it.
 */
import { isJsonObject, parseJson, stringifyJson, type Json } from '../../src/chain/json.ts';
import { DRY_RUN_GC_REASON, GC_REASON } from '../../src/devnode/api/gc.ts';
import type { Exchange } from './real-node-recording.ts';
import { mayHaveChanged, recordedChain, type ChainBlock, type RecordedChain } from './replay-chain.ts';

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

/** RULE_ACCOUNT_FORMS: an account asked by its `ak_` form answered by its recorded `ct_` form (or back). */
export const RULE_ACCOUNT_FORMS = 'account by its other form';

/** RULE_QUIET_ACCOUNT: an account after a block answered by its recorded state after blocks around it. */
export const RULE_QUIET_ACCOUNT = 'account quiet between recorded states';

/** RULE_PAID_BY_CONTRACTS: an account only contracts paid, answered by the sum of the recorded replays' payments. */
export const RULE_PAID_BY_CONTRACTS = 'account only contracts paid';

/** RULE_ONE_BY_ONE: a dry-run of several `call_req`s answered by the answers of each alone; see answerOf. */
export const RULE_ONE_BY_ONE = 'call_reqs one by one';

/** RULE_SAME_STATE: a `call_req` at a block answered by the recorded one at another block of the same state. */
export const RULE_SAME_STATE = 'call_req on the same state';

/** RULE_NO_HYPERCHAIN: a `/v3/hyperchain/…` route answered as the recorded node answers one (it has none). */
export const RULE_NO_HYPERCHAIN = 'no hyperchain routes';

/** RULE_QUERIES_LIMIT: an oracle's query list with a `limit` answered by the recorded list without one. */
export const RULE_QUERIES_LIMIT = 'oracle queries within the limit';

/**
 * RULE_PRUNED: a read of the state at a past block of the recorded chain that neither the recording nor a rule
 * answers, refused as a pruning node refuses it (prunedState). Not a miss, but kept apart: the test lists each one.
 */
export const RULE_PRUNED = 'state the recording lacks';

/** The recording indexed by what a request is matched on, and its chain. */
export interface Recording {
  readonly byKey: ReadonlyMap<string, Exchange>;
  readonly chain: RecordedChain;
  /** the recorded dry-runs of one `call_req` alone answered 200, with their top (undefined: the node's top) */
  /** each account's recorded states after blocks (`/v3/accounts/{id}/hash/B`), by its key's text, in chain order */
  readonly accountStates: ReadonlyMap<string, readonly { readonly block: ChainBlock; readonly exchange: Exchange }[]>;
  readonly singleCalls: readonly { readonly exchange: Exchange; readonly top?: string; readonly item: string }[];
  /** the accounts only contracts paid (paidByContracts), by their key's text: each payment's block and amount */
  readonly contractPaid: ReadonlyMap<string, readonly { readonly block: ChainBlock; readonly amount: bigint }[]>;
  /** a recorded answer of an account that never signed (nonce 0): the form of one only contracts paid */
  readonly unsigned?: Exchange;
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
  const singleCalls = exchanges.flatMap((exchange) => {
    const call = exchange.status === 200 ? callsOf(exchange.request_body ?? '') : undefined;
    return call?.items.length === 1 ? [{ exchange, item: call.items[0]!, ...(call.top ? { top: call.top } : {}) }] : [];
  });
  const chain = recordedChain(exchanges);
  const accountStates = new Map<string, { block: ChainBlock; exchange: Exchange }[]>();
  for (const exchange of exchanges) {
    const m = exchange.method === 'GET' && !exchange.port ? ACCOUNT_AFTER.exec(exchange.path) : null;
    const block = m ? chain.blocks.get(m[2]!) : undefined;
    if (!m || !block) continue;
    const list = accountStates.get(m[1]!) ?? [];
    list.push({ block, exchange });
    accountStates.set(m[1]!, list);
  }
  for (const list of accountStates.values()) list.sort((a, b) => a.block.order - b.block.order);
  const unsigned = exchanges.find(
    (e) => e.status === 200 && /^\/v3\/accounts\/ak_\w+$/.test(e.path) && /"kind":"basic","nonce":0,/.test(e.body),
  );
  return { byKey, chain, accountStates, singleCalls, contractPaid: paidByContracts(exchanges, chain), unsigned };
}

/**
 * callsOf reads a dry-run body made of `call_req`s only (`top` and `txs`, nothing else: no `tx_events`, `accounts`
 * or transaction items): its top and each item's canonical text; undefined for any other body.
 */
export function callsOf(body: string): { top?: string; items: string[] } | undefined {
  let value: Json;
  try {
    value = parseJson(body);
  } catch {
    return undefined;
  }
  if (!isJsonObject(value) || !Array.isArray(value.txs) || value.txs.length === 0) return undefined;
  if (Object.keys(value).some((k) => k !== 'top' && k !== 'txs')) return undefined;
  if (value.top !== undefined && typeof value.top !== 'string') return undefined;
  const items = value.txs.map((t) => (isJsonObject(t) && Object.keys(t).join() === 'call_req' ? t : undefined));
  if (items.some((t) => t === undefined)) return undefined;
  return { ...(value.top ? { top: value.top } : {}), items: items.map((t) => stringifyJson(sorted(t!))) };
}

const DRY_RUN_PATHS = new Set([
  '/v2/dry-run',
  '/v3/dry-run',
  '/v2/debug/transactions/dry-run',
  '/v3/debug/transactions/dry-run',
]);

/** recorded is the exchange recorded for exactly this request, if any. */
function recorded(rec: Recording, req: ReplayRequest, path = req.path): Exchange | undefined {
  return rec.byKey.get(keyOf(req.port, req.method, path, req.json, req.body));
}

const answered = (e: Exchange, rule: string): Answer => ({ status: e.status, headers: e.headers, body: e.body, rule });

/**
 * otherVersion is the path under the node's other API version (`/v2/…` ↔ `/v3/…`), or undefined; none for a path with
 * a query: the recording's `/v2` ignored `?int-as-string=true`, which its `/v3` honoured.
 */
export function otherVersion(path: string): string | undefined {
  if (path.includes('?')) return undefined;
  if (path.startsWith('/v2/')) return `/v3/${path.slice(4)}`;
  if (path.startsWith('/v3/')) return `/v2/${path.slice(4)}`;
  return undefined;
}

/**
 * otherForm is an account's path under its other id form (`/accounts/ak_K…` ↔ `/accounts/ct_K…`, the same key), or
 * undefined. The node reads an account by its key whatever the prefix and answers it with its `ak_` id (README item
 * 17): the recording's `/v3/accounts/ct_…273Yts` of a plain account is its `ak_` answer, byte for byte.
 */
export function otherForm(path: string): string | undefined {
  const m = /^(\/v[23]\/accounts\/)(ak|ct)(_[1-9A-Za-z]+(?:\/(?:hash|height)\/[^/?]+)?)$/.exec(path);
  return m ? `${m[1]}${m[2] === 'ak' ? 'ct' : 'ak'}${m[3]}` : undefined;
}

/** directly is the answer recorded for `req`, or for its path under the other API version (RULE_V2_AS_V3). */
function directly(rec: Recording, req: ReplayRequest): Answer | undefined {
  const exact = recorded(rec, req);
  if (exact) return answered(exact, 'recorded');
  const other = otherVersion(req.path);
  const aliased = other === undefined ? undefined : recorded(rec, req, other);
  return aliased && alike(aliased) ? answered(aliased, RULE_V2_AS_V3) : undefined;
}

/** alike says whether both API versions (or both id forms) answer as this: a 200, or a 404 with a JSON body. */
const alike = (e: Pick<Exchange, 'status' | 'body'>): boolean =>
  e.status === 200 || (e.status === 404 && e.body.startsWith('{'));

/**
 * answerOf answers `req` from the recording: the exchange recorded for it, else one derived by a rule:
 *
 * - RULE_V2_AS_V3: the middleware asks the node's `/v2` routes, the recording holds most of them under `/v3` only. The
 *   node serves both versions from one handler; every path without a query the recording holds in both forms was
 *   answered byte for byte alike but `/status`'s uptime (replay-match.test.ts checks that on the recording), so
 *   either answers for the other. Not for an answer to malformed input (an empty 500 of `/v3`, a `validation_error`
 *   of `/v2`: README item 3), which the two versions validate apart: only a 200, or a 404 of a well-formed request.
 *
 * - RULE_ACCOUNT_FORMS: an account (now, or after a block) asked under its other id form (otherForm).
 * - RULE_QUIET_ACCOUNT (quietAccount): an account after a block between two of its recorded states.
 * - RULE_PAID_BY_CONTRACTS (contractPaidAccount): an account only contracts paid, now or after a block.
 * - RULE_NO_HYPERCHAIN, RULE_QUERIES_LIMIT (queriesWithin), RULE_SAME_STATE (sameState) and RULE_ONE_BY_ONE
 *   (oneByOne), each said where it is applied.
 *
 * Undefined when neither: a miss.
 */
export function answerOf(rec: Recording, req: ReplayRequest): Answer | undefined {
  const direct = directly(rec, req);
  if (direct) return direct;
  const form = otherForm(req.path);
  const formed = form === undefined ? undefined : directly(rec, { ...req, path: form });
  if (formed && alike(formed)) return { ...formed, rule: RULE_ACCOUNT_FORMS };
  const paid = req.method === 'GET' ? contractPaidAccount(rec, req.path) : undefined;
  if (paid) return paid;
  const quiet = req.method === 'GET' ? quietAccount(rec, req.path) : undefined;
  if (quiet) return answered(quiet, RULE_QUIET_ACCOUNT);
  if (req.method === 'GET' && req.path.startsWith('/v3/hyperchain/')) {
    const none = [...rec.byKey.values()].find((e) => e.path.startsWith('/v3/hyperchain/'));
    if (none && none.status === 404 && none.body === '') return answered(none, RULE_NO_HYPERCHAIN);
  }
  const queries = req.method === 'GET' ? queriesWithin(rec, req) : undefined;
  if (queries) return answered(queries, RULE_QUERIES_LIMIT);
  const calls = req.method === 'POST' && req.json && DRY_RUN_PATHS.has(req.path) ? callsOf(req.body) : undefined;
  if (calls?.items.length === 1) return sameState(rec, req, calls.top, calls.items[0]!);
  if (calls) return oneByOne(rec, req, calls.top, calls.items);
  return undefined;
}

const ACCOUNT_AFTER = /^\/v[23]\/accounts\/(?:ak|ct)_([1-9A-Za-z]+)\/hash\/((?:kh|mh)_[1-9A-Za-z]+)$/;

/**
 * quietAccount: an account after block B (`/accounts/{id}/hash/B`) answered by its recorded state after the nearest
 * recorded blocks before and after B (the 10 sampled generations' last blocks) when the two answers are the same and
 * no transaction between them may have changed it (replay-chain.ts mayHaveChanged: none names it, holds its key, or
 * calls a contract that may know it). Then nothing took from it between them: every transaction that takes from an
 * account names it (its own, signed, or a call of it); so whatever else it was given (a block reward, a refund) it
 * kept, and equal ends leave it equal between.
 */
function quietAccount(rec: Recording, path: string): Exchange | undefined {
  const m = ACCOUNT_AFTER.exec(path);
  const at = m ? rec.chain.blocks.get(m[2]!) : undefined;
  if (!m || !at) return undefined;
  const states = rec.accountStates.get(m[1]!) ?? [];
  const before = states.filter((s) => s.block.order <= at.order).at(-1);
  const after = states.find((s) => s.block.order >= at.order);
  if (!before || !after || before.exchange.status !== after.exchange.status) return undefined;
  if (before.exchange.body !== after.exchange.body || !alike(before.exchange)) return undefined;
  return mayHaveChanged(rec.chain, `ct_${m[1]}`, before.block, after.block) ? undefined : before.exchange;
}

/** A replay's label: the replayed transaction and the micro block that holds it. */
const REPLAY_LABEL = /^replay \w+ th_\w+ \(\d+ txs? of ((?:mh|kh)_[1-9A-Za-z]+)\)$/;

/**
 * paidByContracts finds the accounts only contracts paid: recipients of the recorded replays' internal calls
 * (`internal_call_tx`, a Chain.spend or a remote call's value) whose key no other recorded exchange holds, in its path
 * or either body: no transaction names it, no name points to it, it mined no block, the recorder never read it. The
 * recording replays every contract call's micro block (its README), so these payments are all it got, and it signed
 * nothing (a transaction it signed names it), so it spent nothing.
 */
function paidByContracts(
  exchanges: readonly Exchange[],
  chain: RecordedChain,
): Map<string, { block: ChainBlock; amount: bigint }[]> {
  const paid = new Map<string, { block: ChainBlock; amount: bigint }[]>();
  for (const e of exchanges) {
    const m = e.port === undefined && e.status === 200 ? REPLAY_LABEL.exec(e.label ?? '') : null;
    const block = m ? chain.blocks.get(m[1]!) : undefined;
    if (!block) continue;
    const body = parseJson(e.body);
    const events = isJsonObject(body) && Array.isArray(body.tx_events) ? body.tx_events : [];
    for (const event of events) {
      const info = isJsonObject(event) && event.kind === 'internal_call_tx' ? event.info : undefined;
      if (!isJsonObject(info) || typeof info.recipient_id !== 'string' || !info.recipient_id.startsWith('ak_'))
        continue;
      const list = paid.get(info.recipient_id.slice(3)) ?? [];
      list.push({ block, amount: BigInt(info.amount as number | bigint) });
      paid.set(info.recipient_id.slice(3), list);
    }
  }
  for (const key of [...paid.keys()]) {
    const elsewhere = exchanges.some(
      (e) => !e.label?.startsWith('replay ') && [e.path, e.request_body ?? '', e.body].some((t) => t.includes(key)),
    );
    if (elsewhere) paid.delete(key);
  }
  return paid;
}

/**
 * contractPaidAccount: an account only contracts paid (paidByContracts), now or after a block B holding or after a
 * payment, answered as the node answers an account that never signed (the recording's own such answer, `kind`
 * basic, `nonce` 0, `payable` true) with its balance the sum of the payments up to B.
 */
function contractPaidAccount(rec: Recording, path: string): Answer | undefined {
  const m = /^\/v[23]\/accounts\/(?:ak|ct)_([1-9A-Za-z]+)(?:\/hash\/((?:kh|mh)_[1-9A-Za-z]+))?$/.exec(path);
  const payments = m ? rec.contractPaid.get(m[1]!) : undefined;
  const at = m?.[2] === undefined ? rec.chain.top : rec.chain.blocks.get(m[2]);
  const until = payments && at ? payments.filter((p) => p.block.order <= at.order) : [];
  if (!rec.unsigned || until.length === 0) return undefined;
  const account = parseJson(rec.unsigned.body) as { [k: string]: Json };
  account.balance = until.reduce((sum, p) => sum + p.amount, 0n);
  account.id = `ak_${m![1]}`;
  return { ...answered(rec.unsigned, RULE_PAID_BY_CONTRACTS), body: stringifyJson(account) };
}

const QUERIES = /^\/v[23]\/oracles\/(ok_[1-9A-Za-z]+)\/queries\?(.*)$/;

/**
 * queriesWithin: an oracle's queries asked with a `limit` (and a `type` or none) answered by the recorded list of that
 * type without a limit, when that list is whole and within the limit. Whole: empty (no limit cuts a list to nothing),
 * or the recorded list of every type holds as many queries as the recorded chain has OracleQueryTxs to the oracle (the
 * node's default limit cut nothing there, nor in a type's list, a part of it). A whole list within the asked limit is
 * the list the limit gives.
 */
function queriesWithin(rec: Recording, req: ReplayRequest): Exchange | undefined {
  const m = QUERIES.exec(req.path);
  if (!m) return undefined;
  const [, oracle, query] = m;
  const params = new URLSearchParams(query);
  const limit = Number(params.get('limit'));
  const type = params.get('type');
  if (!Number.isSafeInteger(limit) || limit < 1 || [...params.keys()].some((k) => k !== 'limit' && k !== 'type'))
    return undefined;
  const listed = (e: Exchange | undefined): number | undefined => {
    const body = e?.status === 200 ? parseJson(e.body) : undefined;
    return isJsonObject(body) && Array.isArray(body.oracle_queries) ? body.oracle_queries.length : undefined;
  };
  const all = rec.byKey.get(keyOf('external', 'GET', `/v3/oracles/${oracle}/queries`, true, ''));
  const wanted = rec.byKey.get(
    keyOf(req.port, 'GET', `/v3/oracles/${oracle}/queries${type === null ? '' : `?type=${type}`}`, true, ''),
  );
  const made = [...rec.chain.texts.values()]
    .flat()
    .filter((t) => t.includes('"OracleQueryTx"') && t.includes(`"oracle_id":"${oracle}"`)).length;
  const count = listed(wanted);
  const whole = count === 0 || listed(all) === made;
  return whole && count !== undefined && count <= limit ? wanted : undefined;
}

/** the dry-run path of the other listener's kind is not this rule's: an external request is matched with external ones */
const samePort = (req: ReplayRequest, e: Exchange): boolean => (e.port ?? 'external') === req.port;

/**
 * sameState: a dry-run of one `call_req` at block `top` (the node's top when undefined) answered by a recorded one
 * of the same `call_req` at another block when no transaction between the two blocks may have changed the called
 * contract (replay-chain.ts mayHaveChanged: nothing names it, holds its key or calls a contract that may know it). A
 * call runs on the contract's state alone, so it answers alike; only its `call_obj.height` is the top's height, as
 * the node sets it (README item 10: `height` = the top's; the recording's call at an older top says its own).
 */
function sameState(rec: Recording, req: ReplayRequest, top: string | undefined, item: string): Answer | undefined {
  const at = top === undefined ? rec.chain.top : rec.chain.blocks.get(top);
  if (!at) return undefined;
  const contract = (parseJson(item) as { call_req: { contract: string } }).call_req.contract;
  for (const single of rec.singleCalls) {
    if (single.item !== item || !samePort(req, single.exchange)) continue;
    const other = single.top === undefined ? rec.chain.top : rec.chain.blocks.get(single.top);
    if (!other || mayHaveChanged(rec.chain, contract, at, other)) continue;
    const answer = parseJson(single.exchange.body) as { results: { call_obj?: { height: number } }[] };
    for (const r of answer.results) if (r.call_obj) r.call_obj.height = at.height;
    return { ...answered(single.exchange, RULE_SAME_STATE), body: stringifyJson(answer) };
  }
  return undefined;
}

/**
 * oneByOne: a dry-run of several `call_req`s answered by each one's answer alone (recorded, or by sameState), their
 * results in order. The node runs each `call_req` on the top's state (a dry-run's call changes nothing another sees:
 * its default caller and nonce are the same for each); the recording's dry-runs of 2, 5 and 6 `call_req`s answered so
 * (replay-match.test.ts checks). Not for more than the gas cap admits: 6 `call_req`s without `gas` on the external
 * port (README item 8), whose refusal is no sum of answers.
 */
function oneByOne(rec: Recording, req: ReplayRequest, top: string | undefined, items: string[]): Answer | undefined {
  if (req.port === 'external' && items.length > 6) return undefined;
  const results: Json[] = [];
  let first: Answer | undefined;
  for (const item of items) {
    const body = stringifyJson({ ...(top === undefined ? {} : { top }), txs: [parseJson(item)] });
    const one = answerOf(rec, { ...req, body });
    if (one?.status !== 200) return undefined;
    const parsed = parseJson(one.body);
    if (!isJsonObject(parsed) || !Array.isArray(parsed.results) || parsed.results.length !== 1) return undefined;
    results.push(parsed.results[0]!);
    first ??= one;
  }
  return { status: 200, headers: first!.headers, body: stringifyJson({ results }), rule: RULE_ONE_BY_ONE };
}

/** An account after a block, by the block's hash or its height. */
const ACCOUNT_AT = /^\/v[23]\/accounts\/(?:ak|ct)_[1-9A-Za-z]+\/(?:hash\/((?:kh|mh)_[1-9A-Za-z]+)|height\/(\d+))$/;

/**
 * prunedState: a read of the state after a block of the recorded chain, an account's or a dry-run's, that the
 * recording cannot answer and no rule derives, answered as a pruning node (7.x with garbage collection) answers a read
 * of a collected state: an account's GET 410 with aehttp's reason and `error_code`, the dry-run 400 `Bad request:
 * Block state of given hash was garbage collected` (node-limits.md; the devnode's gc.ts answers alike). The replay node
 * is such a node: it kept only the states the recording holds, the top's included (a real node keeps the top's: a read
 * of it refused so is where the replay departs from one, and the test lists it as any other). A request for anything
 * else (a block, the state now, a block the chain does not hold) is no such read: a miss.
 */
export function prunedState(rec: Recording, req: ReplayRequest): Answer | undefined {
  const headers = { 'content-type': 'application/json', server: 'Cowboy' };
  if (req.method === 'GET') {
    const m = ACCOUNT_AT.exec(req.path);
    const held = m?.[1] !== undefined ? rec.chain.blocks.has(m[1]) : Number(m?.[2]) <= rec.chain.top.height;
    if (!m || !held) return undefined;
    const body = { error_code: 'garbage_collected', reason: GC_REASON };
    return { status: 410, headers, body: stringifyJson(body), rule: RULE_PRUNED };
  }
  if (req.method !== 'POST' || !req.json || !DRY_RUN_PATHS.has(req.path)) return undefined;
  if (!rec.chain.blocks.has(topOf(req.body) ?? '')) return undefined;
  return { status: 400, headers, body: stringifyJson({ reason: DRY_RUN_GC_REASON }), rule: RULE_PRUNED };
}

/** topOf is a dry-run body's `top`, if it is JSON with a string one. */
function topOf(body: string): string | undefined {
  try {
    const value = parseJson(body);
    return isJsonObject(value) && typeof value.top === 'string' ? value.top : undefined;
  } catch {
    return undefined;
  }
}
