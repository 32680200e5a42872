/**
 * @module The replay tier's matching (test/support/replay-match.ts) on the real node's recording: each rule's answer,
 * and each rule's premise checked on the recording itself.
 */
import { expect } from 'chai';
import { parseJson, stringifyJson, type Json } from '../../../src/chain/json.ts';
import {
  answerOf,
  indexRecording,
  prunedState,
  RULE_PAID_BY_CONTRACTS,
  RULE_PRUNED,
  otherForm,
  otherVersion,
  RULE_ACCOUNT_FORMS,
  RULE_NO_HYPERCHAIN,
  RULE_ONE_BY_ONE,
  RULE_QUERIES_LIMIT,
  RULE_QUIET_ACCOUNT,
  RULE_SAME_STATE,
  RULE_V2_AS_V3,
  type ReplayRequest,
} from '../../support/replay-match.ts';
import type { Exchange } from '../../support/real-node-recording.ts';
import { mayHaveChanged } from '../../support/replay-chain.ts';
import { readRecording } from '../../support/replay-node.ts';

type Obj = { [key: string]: Json };

const TOKEN = 'ct_A4ycGRCFAakB55jDYZXeyQnrwKLqWCxD4VNducHXRfPCSDTbE';
/** the token's creation micro block (height 14) and a block of generation 300 */
const CREATED_IN = 'mh_g1J2fEEgftGtfUJQCnubwNhC8Gf14rsV92fuWra25HYreFRD3';
const AT_300 = 'mh_kvx9JKRhWNVLGugxQ3ShQVZLekj9AQtNJQ3jLxoizoRJrzoAv';

describe('replay tier: matching requests to the recorded node', function () {
  this.timeout(30_000);
  const exchanges = readRecording();
  const rec = indexRecording(exchanges);
  const get = (path: string, port: ReplayRequest['port'] = 'external'): ReplayRequest => ({
    port,
    method: 'GET',
    path,
    body: '',
    json: false,
  });
  const dryRun = (body: unknown): ReplayRequest => ({
    port: 'external',
    method: 'POST',
    path: '/v2/dry-run',
    body: typeof body === 'string' ? body : stringifyJson(body),
    json: true,
  });
  const labelled = (label: string): Exchange => exchanges.find((e) => e.label === label && e.port === undefined)!;
  const callOf = (label: string): Obj => ((parseJson(labelled(label).request_body!) as Obj).txs as Obj[])[0]!;
  const resultsOf = (body: string): Obj[] => (parseJson(body) as Obj).results as Obj[];

  it('answers a recorded request with its recorded status, headers and body, on its own listener only', () => {
    const e = exchanges.find((x) => x.path.startsWith('/v3/debug/token-supply/') && x.port === 'internal')!;
    expect(answerOf(rec, get(e.path, 'internal'))).to.deep.equal({
      status: e.status,
      headers: e.headers,
      body: e.body,
      rule: 'recorded',
    });
    expect(answerOf(rec, get(e.path, 'external')), 'not recorded on the external port').to.equal(undefined);
  });

  it('matches a POST body by its JSON meaning, not its bytes', () => {
    const e = labelled('AEX-9 meta_info() call_req abi_version 3');
    const call = callOf('AEX-9 meta_info() call_req abi_version 3').call_req as Obj;
    const reordered = `{ "txs" : [ { "call_req": { "abi_version": 3, "calldata": "${String(call.calldata)}", "contract": "${TOKEN}" } } ] }`;
    expect(answerOf(rec, { ...dryRun(reordered), path: '/v3/dry-run' })).to.deep.include({
      body: e.body,
      rule: 'recorded',
    });
    // the same body not sent as JSON is the node's 415 (recorded), never the JSON answer
    const empty = answerOf(rec, { ...dryRun('{"txs":[]}'), path: '/v3/dry-run', json: false });
    expect(empty?.status).to.equal(415);
  });

  it('answers a /v2 path by the recorded /v3 one: the recording answered every path it holds in both alike', () => {
    const byPath = new Map(exchanges.filter((e) => e.method === 'GET' && !e.port).map((e) => [e.path, e]));
    let pairs = 0;
    for (const [path, e] of byPath) {
      // the node's uptime in /status is the only answer that changed between the two reads
      if (path === '/v2/status') continue;
      const v3 = otherVersion(path);
      const other = path.startsWith('/v2/') && v3 !== undefined ? byPath.get(v3) : undefined;
      // answers to malformed input are validated apart (an empty 500 of /v3, a validation_error of /v2)
      if (!other || !(e.status === 200 || (e.status === 404 && e.body.startsWith('{')))) continue;
      pairs += 1;
      expect([other.status, other.body], path).to.deep.equal([e.status, e.body]);
    }
    expect(pairs).to.be.above(3000);
    // with a query they differ: the /v2 route ignores int-as-string
    expect(otherVersion('/v2/key-blocks/height/1?int-as-string=true')).to.equal(undefined);
    const v3 = exchanges.find((e) => /^\/v3\/accounts\/ak_\w+\/hash\//.test(e.path))!;
    expect(answerOf(rec, get(otherVersion(v3.path)!))).to.deep.include({ body: v3.body, rule: RULE_V2_AS_V3 });
  });

  it('answers an account by its other id form: the recording answered a ct_ form as the ak_ one', () => {
    const zero = 'ak_11111111111111111111111111111111273Yts';
    const ct = exchanges.find((e) => e.path === `/v3/accounts/ct_${zero.slice(3)}`)!;
    const ak = exchanges.find((e) => e.path === `/v3/accounts/${zero}`)!;
    expect([ct.status, ct.body]).to.deep.equal([ak.status, ak.body]);
    const vault = 'ct_223vybq7Ljr2VKaVhRyveFoSJMBZ8CyBCpPAFZ1BxgvMXggAA';
    const atGenesis = exchanges.find((e) => e.path.startsWith(`/v3/accounts/${vault}/hash/kh_`))!;
    const asked = atGenesis.path.replace('/v3/accounts/ct_', '/v2/accounts/ak_');
    expect(otherForm(asked)).to.equal(atGenesis.path.replace('/v3/', '/v2/'));
    expect(answerOf(rec, get(asked))).to.deep.include({ body: atGenesis.body, rule: RULE_ACCOUNT_FORMS });
    expect(otherForm('/v2/accounts/ak_x/transactions/pending')).to.equal(undefined);
  });

  it('answers an account after a block by its recorded states around it when they agree and nothing named it', () => {
    const blockAt = (height: number) => [...rec.chain.blocks.values()].filter((b) => b.height === height).at(-1)!;
    const after = (id: string, height: number) => get(`/v2/accounts/${id}/hash/${blockAt(height).hash}`);
    // the zero account between generations 83 and 149, its states there alike
    const zero = 'ak_11111111111111111111111111111111273Yts';
    const at83 = exchanges.find((e) => e.path === `/v3/accounts/${zero}/hash/${blockAt(83).hash}`)!;
    const at149 = exchanges.find((e) => e.path === `/v3/accounts/${zero}/hash/${blockAt(149).hash}`)!;
    expect(at83.body).to.equal(at149.body);
    expect(answerOf(rec, after(zero, 100))).to.deep.include({ body: at83.body, rule: RULE_QUIET_ACCOUNT });
    // the beneficiary between 411 and 537: its states differ (rewards, its own transactions)
    expect(answerOf(rec, after('ak_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi', 499))).to.equal(undefined);
  });

  it("answers several call_reqs by each one's answer: the recording's dry-runs of 2, 5 and 6 answered so", () => {
    const single = resultsOf(labelled('AEX-9 balances() call_req abi_version 3').body)[0];
    for (const n of [2, 5, 6])
      expect(resultsOf(labelled(`${n} call_reqs (gas limit)`).body), `${n}`).to.deep.equal(Array(n).fill(single));
    const meta = callOf('AEX-9 meta_info() call_req abi_version 3');
    const balances = callOf('AEX-9 balances() call_req abi_version 3');
    const both = answerOf(rec, dryRun({ txs: [meta, balances] }));
    expect(both?.rule).to.equal(RULE_ONE_BY_ONE);
    expect(resultsOf(both!.body)).to.deep.equal([
      resultsOf(labelled('AEX-9 meta_info() call_req abi_version 3').body)[0],
      single,
    ]);
    // more than the external gas cap admits is the node's 403, no sum of answers
    expect(answerOf(rec, dryRun({ txs: Array(7).fill(meta) }))).to.equal(undefined);
  });

  it("answers a call_req at a block of the contract's recorded state, the height the top's", () => {
    // the token's balances() recorded at generation 176 and at the top (546), its transfer at 460 between them
    const older = labelled('AEX-9 balances() at an older micro block top');
    const top = labelled('AEX-9 balances() call_req abi_version 3');
    const olderTop = rec.chain.blocks.get(String((parseJson(older.request_body!) as Obj).top))!;
    const block = (height: number) => [...rec.chain.blocks.values()].find((b) => b.height === height)!;
    expect(mayHaveChanged(rec.chain, TOKEN, olderTop, rec.chain.top), 'the transfer at 460').to.equal(true);
    expect(mayHaveChanged(rec.chain, TOKEN, olderTop, rec.chain.blocks.get(AT_300)!)).to.equal(false);
    expect(mayHaveChanged(rec.chain, TOKEN, block(500), rec.chain.top)).to.equal(false);
    const withHeight = (body: string, height: number): Json =>
      resultsOf(body).map((r) => ({ ...r, call_obj: { ...(r.call_obj as Obj), height } }));
    const call = callOf('AEX-9 balances() call_req abi_version 3');
    const at300 = answerOf(rec, dryRun({ top: AT_300, txs: [call] }));
    expect(at300?.rule).to.equal(RULE_SAME_STATE);
    expect(resultsOf(at300!.body)).to.deep.equal(withHeight(older.body, 300));
    const at500 = answerOf(rec, dryRun({ top: block(500).hash, txs: [call] }));
    expect(resultsOf(at500!.body)).to.deep.equal(withHeight(top.body, 500));
    expect(resultsOf(at500!.body)).not.to.deep.equal(resultsOf(at300!.body));
  });

  it("misses a call_req at a block the contract's transactions separate from every recorded one", () => {
    const creation = rec.chain.blocks.get(CREATED_IN)!;
    expect(mayHaveChanged(rec.chain, TOKEN, creation, rec.chain.top), 'its transfers came after').to.equal(true);
    const calls = ['meta_info', 'balances'].map((fn) => callOf(`AEX-9 ${fn}() call_req abi_version 3`));
    expect(answerOf(rec, dryRun({ top: CREATED_IN, txs: calls }))).to.equal(undefined);
    // a contract at a block before its creation: its creation lies between
    const before = [...rec.chain.blocks.values()].find((b) => b.height === 3)!;
    expect(mayHaveChanged(rec.chain, TOKEN, before, creation)).to.equal(true);
  });

  it("answers an oracle's queries with a limit by the whole recorded list within it", () => {
    const oracle = 'ok_7g42wmrwymF288zmFxt5gwB9o5ESHrjqjeV2sj4MNqgZHzRg7';
    const open = exchanges.find((e) => e.path === `/v3/oracles/${oracle}/queries?type=open`)!;
    const answer = answerOf(rec, get(`/v2/oracles/${oracle}/queries?type=open&limit=1000`));
    expect(answer).to.deep.include({ body: open.body, rule: RULE_QUERIES_LIMIT });
    expect(answerOf(rec, get(`/v2/oracles/${oracle}/queries?type=open&limit=x`))).to.equal(undefined);
    expect(answerOf(rec, get(`/v2/oracles/${oracle}/queries?type=open&limit=5&from=1`))).to.equal(undefined);
  });

  it('answers a hyperchain route as the recorded node does (it has none) and misses anything else unrecorded', () => {
    expect(answerOf(rec, get('/v3/hyperchain/contracts'))).to.deep.include({
      status: 404,
      body: '',
      rule: RULE_NO_HYPERCHAIN,
    });
    // the account only contracts paid is derived (its own test); a route the node lacks too is a miss
    expect(answerOf(rec, get('/v3/hyperchain-like/unknown'))).to.equal(undefined);
  });

  it('refuses a state at a block of the chain it cannot answer as a pruning node, and nothing else', () => {
    const call = callOf('AEX-9 meta_info() call_req abi_version 3');
    const atCreation = dryRun({ top: CREATED_IN, txs: [call] });
    expect(answerOf(rec, atCreation), 'no recorded or derived answer').to.equal(undefined);
    expect(prunedState(rec, atCreation)).to.deep.include({ status: 400, rule: RULE_PRUNED });
    expect(parseJson(prunedState(rec, atCreation)!.body)).to.deep.equal({
      reason: 'Bad request: Block state of given hash was garbage collected',
    });
    const account = get(`/v2/accounts/ak_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi/hash/${CREATED_IN}`);
    expect(prunedState(rec, account)).to.deep.include({ status: 410, rule: RULE_PRUNED });
    expect(parseJson(prunedState(rec, account)!.body)).to.deep.equal({
      error_code: 'garbage_collected',
      reason: 'State data at the requested height has been garbage-collected',
    });
    // no state at a block: the state now, a block, a block the chain does not hold
    for (const path of [
      '/v2/accounts/ak_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi',
      `/v2/micro-blocks/hash/${CREATED_IN}/header`,
      '/v2/accounts/ak_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi/hash/mh_2DrYpahPHjzxeHyMSPkovt36kfV6aqFX3c6g2sLESxv2BchZNQ',
    ])
      expect(prunedState(rec, get(path)), path).to.equal(undefined);
    expect(prunedState(rec, dryRun({ txs: [call] })), 'a dry-run at the top').to.equal(undefined);
  });

  it("answers an account only contracts paid by the recorded replays' payments, before them nothing", () => {
    const paid = 'ak_uMugCB3HQZDULXVTz2qH2wyFCfxVPnygvjrwe4E4wjHEG5rbr';
    // the premise, on the recording: only the replays' events hold its key
    const holders = exchanges.filter((e) =>
      [e.path, e.request_body ?? '', e.body].some((t) => t.includes(paid.slice(3))),
    );
    expect(holders.length).to.be.above(0);
    expect(holders.every((e) => e.label?.startsWith('replay '))).to.equal(true);
    const now = answerOf(rec, get(`/v2/accounts/${paid}`));
    expect(now?.rule).to.equal(RULE_PAID_BY_CONTRACTS);
    expect(parseJson(now!.body)).to.deep.equal({ balance: 5000, id: paid, kind: 'basic', nonce: 0, payable: true });
    expect(answerOf(rec, get(`/v2/accounts/${paid}/hash/${CREATED_IN}`)), 'before its payment').to.equal(undefined);
    // a named account is not this rule's
    expect(answerOf(rec, get('/v2/accounts/ak_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi'))?.rule).to.not.equal(
      RULE_PAID_BY_CONTRACTS,
    );
  });
});
