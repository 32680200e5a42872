/**
 * @module The devnode's dry-run against a real æternity node 7.2.2's, the law (test/fixtures/real-node/dry-run.ndjson.gz):
 * every kind of exchange the recording holds (its label without hashes, its port and method, and the kind of answer:
 * status, each result's type, result and return type, whether `tx_events` came and held any) is built again on a
 * devnode over an analogous situation (its own token, wrapped AE, accounts and blocks stand for the recorded chain's),
 * and the devnode, paced as that node (`--node-profile 7.2.2`, its dry-runs' time limit counting the items' recorded
 * time), must answer it as the node did: the same status and content type, the same fields with the same
 * JSON types, the same error texts and enumerations (`reason`, `result`, `type`, `return_type`, `kind`, `key`), the
 * same kind of ids, and a `call_req` without caller the node's defaults (caller, nonce, gas price). The recorded
 * values themselves (hashes, amounts, gas) are the other chain's.
 */
import { expect } from 'chai';
import { BytecodeContractCallEncoder } from '@aeternity/aepp-calldata';
import {
  buildContractIdByContractTx,
  buildTx,
  buildTxHash,
  decode,
  encode,
  Encoding,
  MemoryAccount,
  Tag,
} from '@aeternity/aepp-sdk';
import { decode as rlpDecode } from 'rlp';
import { isJsonObject, parseJson, type Json } from '../../src/chain/json.ts';
import { erlangTerm } from '../../src/devnode/api/dry-run-items.ts';
import { BYTECODE } from '../../src/devnode/contracts/standards.ts';
import { readExchanges, type Exchange } from '../support/real-node-recording.ts';
import { startTestNode, type TestNode } from './harness.ts';

const aex9 = new BytecodeContractCallEncoder(BYTECODE.aex9 as `cb_${string}`);
const wae = new BytecodeContractCallEncoder(BYTECODE.wae as `cb_${string}`);
const GAS = { gas: 50_000, gas_price: 1_000_000_000, abi_version: 3 };
/** the node's caller of a call_req that names none */
const MR_MAGIC = 'ak_11111111111111111111111111111118qjnEr';

const exchanges = readExchanges('dry-run.ndjson.gz');

/** request is a recorded request's body, read. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the recorded requests are read field by field
const request = (x: Exchange): any => parseJson(x.request_body!);
const labelled = (label: string): Exchange => exchanges.find((x) => x.label === label)!;

/** results reads a 200 dry-run answer's results and events (`undefined`: none sent). */
function answer(x: Exchange): { results: { [k: string]: Json }[]; events: Json[] | undefined } {
  const body = parseJson(x.body) as { results: { [k: string]: Json }[]; tx_events?: Json[] };
  return { results: body.results, events: body.tx_events };
}

/** callObj is a result's call record. */
const callObj = (r: { [k: string]: Json }): { [k: string]: Json } | undefined =>
  isJsonObject(r.call_obj) ? r.call_obj : undefined;

/** answerKind is what kind of answer an exchange got: its status, and for a 200 its results' kinds and events. */
function answerKind(x: Exchange): string {
  if (x.status !== 200) return String(x.status);
  const { results, events } = answer(x);
  const kinds = results.map((r) =>
    [r.type, r.result, callObj(r)?.return_type].filter((v) => v !== undefined).join(':'),
  );
  const told = events === undefined ? '' : events.length > 0 ? ', events' : ', no events';
  return `200 ${[...new Set(kinds)].join(' ')}${told}`;
}

/** kindOf is an exchange's kind: where it went, what it asked (its label without the recorded chain's ids), its answer. */
const kindOf = (x: Exchange): string =>
  `${x.port ?? 'external'} ${x.method} ${(x.label ?? x.path)
    .replace(/\b(th|mh|kh|ak|ct)_\w+/g, '')
    .replace(/\(\d+ txs of \)/, '')
    .trim()} → ${answerKind(x)}`;

/** replayKind is what a recorded replay's call or create did, which picks the devnode's transaction standing for it. */
function replayKind(x: Exchange): string {
  const [result] = answer(x).results;
  const call = callObj(result!)!;
  if (result!.type === 'contract_create')
    return Array.isArray(call.log) && call.log.length > 0 ? 'create+log' : 'create';
  if (call.return_type === 'revert') return 'revert';
  if ((answer(x).events ?? []).length > 0) return 'events';
  return Array.isArray(call.log) && call.log.length > 0 ? 'log' : 'plain';
}

/** TIME_LIMITED: the kind the node's time limit answers (1000 calls on the internal endpoint, which has no gas cap). */
const TIME_LIMITED = 'internal POST 1000 call_reqs (gas limit) → 400';

/** readable is a request's body read, undefined when it is none or no JSON (the requests of a bad body). */
function readable(text: string | null): Json | undefined {
  try {
    return text === null || text === '' ? undefined : parseJson(text);
  } catch {
    return undefined;
  }
}

/** The kinds, each with its first exchange, in the recording's order. */
const KINDS = new Map<string, Exchange>();
for (const x of exchanges) if (!KINDS.has(kindOf(x))) KINDS.set(kindOf(x), x);

/** A mined transaction of the devnode's, as a replay takes it. */
interface Mined {
  /** the block before its micro block, the replay's top */
  readonly top: string;
  readonly block: string;
  readonly hash: string;
  readonly signed: string;
  /** the inner transaction of the signed one, as a dry-run takes it */
  readonly unsigned: string;
}

/** unsigned is a signed transaction's inner transaction (read with the rlp package). */
const unsigned = (signedTx: string): string => {
  const [, , , inner] = rlpDecode(decode(signedTx as `tx_${string}`)) as Uint8Array[];
  return encode(Buffer.from(inner!), Encoding.Transaction);
};

const EXACT = new Set(['reason', 'result', 'type', 'return_type', 'kind', 'key']);
/** the fields a call_req without caller has from the node's defaults */
const DEFAULTS = new Set(['caller_id', 'caller_nonce', 'gas_price']);

function jsonType(v: Json | undefined): string {
  if (v === null) return 'null';
  if (typeof v === 'number' || typeof v === 'bigint') return 'integer';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/**
 * reasonText is an error's text as compared: the node prints a call_req it cannot read with Erlang's `~p`, whose line
 * breaks depend on the values' lengths, which are the other chain's.
 */
const reasonText = (v: Json): string =>
  typeof v === 'string' && v.includes('bad_dry_run_call_request') ? v.replace(/\s+/g, '') : String(v);

/**
 * differences lists where the devnode's answer (`ours`) is not of the recorded answer's (`theirs`) shape: another JSON
 * type or field set, another value of an EXACT field (or of a default of a call_req without caller), another id kind,
 * `results` and `tx_events` of other sizes (other arrays: each element against the recorded one at its place, or the
 * last).
 */
function differences(theirs: Json, ours: Json, path = '$', defaults = false): string[] {
  if (jsonType(theirs) !== jsonType(ours)) return [`${path}: ${jsonType(ours)} where the node has ${jsonType(theirs)}`];
  const key = path.slice(path.lastIndexOf('.') + 1);
  if (EXACT.has(key) || (defaults && DEFAULTS.has(key)))
    return reasonText(theirs) === reasonText(ours)
      ? []
      : [`${path}: ${String(ours)} where the node has ${String(theirs)}`];
  if (typeof theirs === 'string') {
    const kind = (s: string): string => /^[a-z]{2}_/.exec(s)?.[0] ?? (/^\d+$/.test(s) ? 'digits' : 'text');
    return kind(theirs) === kind(ours as string)
      ? []
      : [`${path}: ${String(ours)} is no ${kind(theirs)} like ${theirs}`];
  }
  if (Array.isArray(theirs) && Array.isArray(ours)) {
    if ((key === 'results' || key === 'tx_events') && theirs.length !== ours.length)
      return [`${path}: ${ours.length} items where the node has ${theirs.length}`];
    if (theirs.length === 0 || ours.length === 0) return [];
    return ours.flatMap((o, i) => differences(theirs[Math.min(i, theirs.length - 1)]!, o, `${path}[${i}]`));
  }
  if (isJsonObject(theirs) && isJsonObject(ours)) {
    const keys = (o: object): string => Object.keys(o).sort().join(',');
    if (keys(theirs) !== keys(ours)) return [`${path}: fields ${keys(ours)} where the node has ${keys(theirs)}`];
    const byDefaults = theirs.caller_id === MR_MAGIC;
    return Object.keys(theirs).flatMap((k) => differences(theirs[k]!, ours[k]!, `${path}.${k}`, byDefaults));
  }
  return [];
}

/** CONTENT_TYPES: what a recorded request sent as its content type, by its label (else JSON when it sent a body). */
const CONTENT_TYPES: Readonly<Record<string, string | undefined>> = {
  'no body, no content-type': undefined,
  'text/plain content-type': 'text/plain',
  'form content-type': 'application/x-www-form-urlencoded',
};

describe('the devnode dry-run as a real 7.2.2 node answers it (test/fixtures/real-node/dry-run.ndjson.gz)', function () {
  this.timeout(60_000);
  let t: TestNode;
  /** recorded chain's strings → the devnode's standing for them, in every request */
  const standIns = new Map<string, string>();
  /** the devnode's mined transactions standing for the recorded replays, by replayKind */
  const replays = new Map<string, Mined>();
  let spend: Mined;
  let payingFor: string;
  let token: string;
  let waeId: string;
  let accounts: { A: string; B: string };

  /** mined posts a signed transaction and mines it alone in a micro block. */
  async function mined(signed: string): Promise<Mined> {
    const posted = await t.post('/v2/transactions', { tx: signed });
    expect(posted.status, posted.text).to.equal(200);
    await t.postInternal('/v2/debug/dev/mine', { key_blocks: 0 });
    const hash = buildTxHash(signed as `tx_${string}`);
    const tx = await t.get(`/v3/transactions/${hash}`);
    const header = await t.get(`/v3/micro-blocks/hash/${tx.body.block_hash}/header`);
    return { top: header.body.prev_hash, block: tx.body.block_hash, hash, signed, unsigned: unsigned(signed) };
  }

  before(async () => {
    // paced as the recorded node: its dry-runs' items take its time, which its time limit counts
    t = await startTestNode({ nodeProfile: '7.2.2' });
    const [a, b] = t.accounts as [MemoryAccount, MemoryAccount];
    accounts = { A: a.address, B: b.address };
    const create = (code: string, calldata: string): Promise<string> =>
      t.signed(
        'contracts/create',
        { owner_id: a.address, code, call_data: calldata, vm_version: 7, deposit: 0, amount: 0, fee: 300_000, ...GAS },
        a,
      );
    const call = (by: MemoryAccount, contract: string, calldata: string, amount = 0): Promise<string> =>
      t.signed(
        'contracts/call',
        { caller_id: by.address, contract_id: contract, amount, fee: 200_000, call_data: calldata, ...GAS },
        by,
      );
    // the token's init mints (a Mint log), the wrapped AE's logs nothing
    const tokenCreate = await mined(
      await create(BYTECODE.aex9, aex9.encodeCall('init', ['Real Token', 18n, 'REAL', { 1: [10n ** 24n] }])),
    );
    token = buildContractIdByContractTx(tokenCreate.signed as `tx_${string}`);
    const waeCreate = await mined(await create(BYTECODE.wae, wae.encodeCall('init', [])));
    waeId = buildContractIdByContractTx(waeCreate.signed as `tx_${string}`);
    await mined(await call(a, waeId, wae.encodeCall('deposit', []), 5000));
    replays
      .set('create+log', tokenCreate)
      .set('create', waeCreate)
      // AE paid out by Chain.spend inside the call: an internal_call_tx event
      .set('events', await mined(await call(a, waeId, wae.encodeCall('withdraw', [1200n]))))
      .set('log', await mined(await call(a, token, aex9.encodeCall('transfer', [b.address, 5n * 10n ** 18n]))))
      // more than B holds: the token reverts
      .set('revert', await mined(await call(b, token, aex9.encodeCall('transfer', [a.address, 10n ** 30n]))))
      .set('plain', await mined(await call(a, waeId, wae.encodeCall('balance', [a.address]))));
    const payee = MemoryAccount.generate();
    spend = await mined(
      await t.signed(
        'transactions/spend',
        { sender_id: a.address, recipient_id: payee.address, amount: 1, fee: 20_000_000_000_000, payload: '' },
        a,
      ),
    );
    await t.postInternal('/v2/debug/dev/mine', { key_blocks: 2 });
    const keyBlock = (await t.get('/v3/key-blocks/current')).body.hash as string;
    const inner = await t.signed(
      'transactions/spend',
      { sender_id: b.address, recipient_id: payee.address, amount: 1, fee: 20_000_000_000_000, payload: '' },
      b,
    );
    payingFor = buildTx({
      tag: Tag.PayingForTx,
      payerId: a.address,
      nonce: 1,
      fee: 10n ** 15n,
      tx: inner as `tx_${string}`,
    });

    // the recorded chain's ids, read from the requests whose labels say what they are
    const fresh = MemoryAccount.generate();
    const recordedSpends: string[] = request(labelled('20 spends, tx_events')).txs.map((i: { tx: string }) => i.tx);
    recordedSpends.forEach((tx, i) =>
      standIns.set(
        tx,
        buildTx({
          tag: Tag.SpendTx,
          senderId: fresh.address,
          recipientId: payee.address,
          amount: 1,
          fee: 20_000_000_000_000,
          nonce: i + 1,
        }),
      ),
    );
    const callReq = (label: string): { [k: string]: string } => request(labelled(label)).txs[0].call_req;
    standIns
      .set(callReq('AEX-9 meta_info() call_req abi_version 3').contract!, token)
      .set(callReq('call_req with caller and a fresh nonce').caller!, a.address)
      .set(request(labelled('one spend from a funded new account')).accounts[0].pub_key, fresh.address)
      .set(request(labelled('key block top')).top, keyBlock)
      .set(request(labelled('AEX-9 balances() at an older micro block top')).top, spend.block)
      .set(request(labelled('tx_hash of a mined tx (not in mempool)')).txs[0].tx_hash, spend.hash)
      .set(request(labelled('PayingForTx with zero inner signature, funded')).txs[0].tx, payingFor);
  });
  after(async () => {
    await t?.node.stop();
  });

  /**
   * lineStandIns are an exchange's own stand-ins besides the common ones: a replay's top and transaction, a
   * `balance(X)` call's calldata for the devnode's X.
   */
  function lineStandIns(x: Exchange): Map<string, string> {
    const own = new Map<string, string>();
    const label = x.label ?? '';
    const body = readable(x.request_body);
    const first = isJsonObject(body) && Array.isArray(body.txs) && isJsonObject(body.txs[0]) ? body.txs[0] : {};
    const replace = (tx: Mined, given: string): void => {
      own.set(String(isJsonObject(body) ? body.top : ''), tx.top).set(String(first.tx), given);
    };
    if (label.startsWith('replay Contract')) replace(replays.get(replayKind(x))!, replays.get(replayKind(x))!.unsigned);
    if (label.startsWith('spend replay')) replace(spend, spend.unsigned);
    if (label.startsWith('signed tx given')) replace(spend, spend.signed);
    if (label.startsWith('replay prefix holding PayingForTx') || label.startsWith('PayingForTx alone'))
      replace(spend, payingFor);
    const holder = /^AEX-9 balance\((\S+)\)/.exec(label)?.[1];
    if (holder !== undefined && isJsonObject(first.call_req)) {
      const who = holder === 'A' ? accounts.A : holder === 'B' ? accounts.B : holder;
      own.set(String(first.call_req.calldata), aex9.encodeCall('balance', [who]));
    }
    // the devnode's calls cost less gas than the node's: an out-of-gas call needs less than 50 000 here
    if (label === '20 call_reqs with gas 50000 each') own.set('"gas":50000', '"gas":100');
    return own;
  }

  /** standingIn is `text` with the recorded chain's strings replaced by the devnode's stand-ins for them. */
  function standingIn(x: Exchange, text: string): string {
    for (const [theirs, ours] of [...lineStandIns(x), ...standIns]) text = text.split(theirs).join(ours);
    return text;
  }

  /** ask sends the devnode the exchange's request, the recorded chain's strings replaced by their stand-ins. */
  async function ask(x: Exchange): Promise<{ status: number; contentType: string | null; text: string }> {
    const text = x.request_body === null ? null : standingIn(x, x.request_body);
    const contentType =
      x.label !== undefined && x.label in CONTENT_TYPES
        ? CONTENT_TYPES[x.label]
        : text === null
          ? undefined
          : 'application/json';
    const base = x.port === 'internal' ? t.node.internalUrl : t.node.externalUrl;
    const res = await fetch(base + x.path, {
      method: x.method,
      headers: contentType === undefined ? {} : { 'content-type': contentType },
      ...(text === null || x.method === 'GET' ? {} : { body: text }),
    });
    return { status: res.status, contentType: res.headers.get('content-type'), text: await res.text() };
  }

  it('finds an answer of another shape: its comparison can fail', () => {
    const recorded = parseJson(labelled('AEX-9 meta_info() call_req abi_version 3').body) as {
      results: { call_obj: { [k: string]: Json } }[];
    };
    const edited = (edit: (call: { [k: string]: Json }) => void): Json => {
      const copy = parseJson(labelled('AEX-9 meta_info() call_req abi_version 3').body) as typeof recorded;
      edit(copy.results[0]!.call_obj);
      return copy;
    };
    // other values of the same kinds are the same shape
    const same = edited((c) => Object.assign(c, { gas_used: 1, height: 2, contract_id: 'ct_other', log: [] }));
    expect(differences(recorded, same)).to.deep.equal([]);
    const edits: [string, (call: { [k: string]: Json }) => void][] = [
      ['another return type', (c) => (c.return_type = 'revert')],
      ['a field missing', (c) => delete c.log],
      ['a string for an integer', (c) => (c.gas_used = '6088')],
      ['another kind of id', (c) => (c.contract_id = 'ak_other')],
      // a call_req without caller has the node's defaults
      ['another default nonce', (c) => (c.caller_nonce = 2)],
    ];
    for (const [what, edit] of edits) expect(differences(recorded, edited(edit)), what).to.have.length(1);
    expect(differences(recorded, { results: [] })).to.have.length(1);
  });

  it('prints a call_req the node cannot read as the node does (Erlang terms, line breaks aside)', () => {
    for (const label of ['malformed contract id', 'AEX-9 bad calldata']) {
      const x = labelled(label);
      const { reason } = parseJson(x.body) as { reason: string };
      const printed = `Bad request: Internal error {bad_dry_run_call_request,${erlangTerm(request(x).txs[0].call_req)}}`;
      expect(printed.replace(/\s+/g, ''), label).to.equal(reason.replace(/\s+/g, ''));
    }
  });

  it('holds the kinds this test walks, the time limit among them', () => {
    expect(KINDS.size).to.be.greaterThan(100);
    expect([...KINDS.keys()]).to.include(TIME_LIMITED);
  });

  for (const [kind, x] of KINDS) {
    it(kind, async () => {
      const ours = await ask(x);
      const why = `${kind}: the devnode answered ${ours.status} ${ours.text.slice(0, 600)}`;
      expect(ours.status, why).to.equal(x.status);
      expect(ours.contentType, why).to.equal(x.headers['content-type'] ?? null);
      if (x.body === '') return expect(ours.text, why).to.equal('');
      // the node's errors name what they were sent (a call_req it could not read): the devnode's stand-ins there
      expect(differences(parseJson(standingIn(x, x.body)), parseJson(ours.text)), why).to.deep.equal([]);
    });
  }

  it("runs a call_req at the top's height (the given block's, else the top's) from the node's default caller", async () => {
    const balances = { contract: token, calldata: aex9.encodeCall('balances', []), abi_version: 3 };
    const height = (await t.get('/v3/key-blocks/current/height')).body.height;
    const older = (await t.get(`/v3/micro-blocks/hash/${spend.block}/header`)).body.height;
    for (const [top, at] of [
      [undefined, height],
      [spend.block, older],
      [(await t.get('/v3/key-blocks/current')).body.hash, height],
    ]) {
      const reply = await t.post('/v3/dry-run', { txs: [{ call_req: balances }], ...(top ? { top } : {}) });
      expect(reply.body.results[0].call_obj, String(top)).to.include({
        caller_id: MR_MAGIC,
        caller_nonce: 1,
        gas_price: 1_000_000,
        height: at,
      });
    }
  });

  it("files a replay's events under the dry-run's own transaction, not the mined call's hash", async () => {
    const withdraw = replays.get('events')!;
    const reply = await t.post('/v3/dry-run', { top: withdraw.top, txs: [{ tx: withdraw.unsigned }], tx_events: true });
    const [event] = reply.body.tx_events;
    expect(event.key).to.equal('Chain.spend');
    expect(event.tx_hash).to.match(/^th_/).and.not.equal(withdraw.hash);
  });
});
