/**
 * @module The devnode against a real æternity node 7.2.2 (test/fixtures/real-node/): for every kind of exchange the
 * recording holds (port, method, route, status, and what the answer is about: a transaction's type, a call's
 * result, an error), the analogous request to a devnode whose chain holds analogous objects must get the same
 * status, the same content type (`application/json` exactly, none for an empty body), `server: Cowboy`, and the same
 * body: an error's byte for byte, a JSON answer's shape (fields, their order, their JSON types, an id's prefix) as
 * one of the kind's recorded answers. Every line of errors.ndjson.gz is sent as it was, with the recorded chain's
 * objects replaced by the devnode's. `encoded_tx` is checked in its own test.
 */
import { expect } from 'chai';
import { BytecodeContractCallEncoder } from '@aeternity/aepp-calldata';
import { MemoryAccount, Tag, buildTx, buildTxHash, produceNameId } from '@aeternity/aepp-sdk';
import { isJsonObject, parseJson, type Json } from '../../src/chain/json.ts';
import { encode, reprefix } from '../../src/chain/encoding.ts';
import { BYTECODE } from '../../src/devnode/contracts/standards.ts';
import type { MicroBlock, TxRecord } from '../../src/devnode/index.ts';
import {
  exchangeKind,
  parseBody,
  readExchanges,
  routeOf,
  shapeDifferences,
  type Exchange,
  type Ignored,
} from '../support/real-node-recording.ts';
import { startTestNode, type TestNode } from './harness.ts';

const FEE = 10n ** 15n;
const CONTRACT = { vm_version: 7, abi_version: 3, gas: 50_000, gas_price: 1_000_000_000, fee: FEE, amount: 0 };
const token = new BytecodeContractCallEncoder(BYTECODE.aex9 as `cb_${string}`);
/**
 * IGNORED are the fields the main tests leave out: `encoded_tx`, checked alone (so that the rest of the shapes are
 * told apart from it), and a key block's `nonce` and `pow`, which a node in dev mode does not
 * show and the devnode does (it mines them, and the middleware's node API and GraphQL serve them; docs/devnode.md).
 */
const IGNORED: Ignored = (key, object) =>
  key === 'encoded_tx' || ((key === 'nonce' || key === 'pow') && 'prev_key_hash' in object && 'miner' in object);

/**
 * NOT_BUILT are the recorded kinds the devnode does not answer as the node does, and why; each is still asked, and its
 * answer required to be the devnode's documented one (docs/devnode.md), so that a change to it is seen.
 */
const NOT_BUILT: Readonly<Record<string, { status: number; why: string }>> = {
  'external GET /v3/contracts/{ct}/poi 200': { status: 501, why: 'the devnode keeps no Merkle trees: no proof' },
};

/** World is the devnode's objects that stand for the recorded chain's. */
interface World {
  t: TestNode;
  patron: MemoryAccount;
  /** an account created by a spend after the chain's first blocks */
  late: string;
  unknown: string;
  txByType: Map<string, TxRecord>;
  callOk: string;
  callRevert: string;
  contract: string;
  liveOracle: string;
  expiredOracle: string;
  answeredQuery: string;
  openQuery: string;
  auctionedName: string;
  revokedName: string;
  expiredName: string;
  firstMicro: string;
  emptyMicro: string;
}

async function buildWorld(t: TestNode): Promise<World> {
  const [a, b, c] = t.accounts as [MemoryAccount, MemoryAccount, MemoryAccount];
  const late = MemoryAccount.generate().address;
  const submit = async (builder: string, body: Record<string, unknown>, signer: MemoryAccount): Promise<string> => {
    const reply = await t.submit(builder, { fee: FEE, ...body }, signer);
    if (reply.status !== 200) throw new Error(`${builder}: ${reply.text}`);
    return reply.body.tx_hash as string;
  };
  const mine = () => t.node.mineKeyBlock();
  await mine();
  await submit('transactions/spend', { sender_id: a.address, recipient_id: b.address, amount: 1, payload: '' }, a);
  await t.node.mineMicroBlock();
  const firstMicro = t.node.chain.top.micro.at(-1)!.hash;
  // alone in its generation, as every micro block of the recording is (its header's prev_hash a key block's)
  await mine();
  t.node.chain.sealEmptyMicroBlock();
  const emptyMicro = t.node.chain.top.micro.at(-1)!.hash;
  await mine();
  await submit('transactions/spend', { sender_id: a.address, recipient_id: late, amount: 10n ** 18n, payload: '' }, a);
  // oracles: B's lives and is asked twice, answering once; C's expires
  const oracleTtl = (value: number) => ({ type: 'delta', value });
  const register = (who: MemoryAccount, ttl: number) =>
    submit(
      'oracles/register',
      {
        account_id: who.address,
        query_format: 'string',
        response_format: 'string',
        query_fee: 1000,
        oracle_ttl: oracleTtl(ttl),
      },
      who,
    );
  await register(b, 2000);
  await register(c, 3);
  const liveOracle = reprefix(b.address, 'ok');
  await mine();
  const ask = async (query: string) => {
    await submit(
      'oracles/query',
      {
        sender_id: a.address,
        oracle_id: liveOracle,
        query,
        query_fee: 1000,
        query_ttl: oracleTtl(1500),
        response_ttl: oracleTtl(10),
      },
      a,
    );
    await t.node.mineMicroBlock();
    return t.node.chain.state.oracles.get(liveOracle)!.queryIds.at(-1)!;
  };
  const answeredQuery = await ask('ping');
  const openQuery = await ask('unanswered');
  await submit('oracles/respond', { query_id: answeredQuery, response: 'pong', response_ttl: oracleTtl(10) }, b);
  // names: one claimed, updated, transferred and revoked; one left to expire; one won in an auction
  const claim = async (who: MemoryAccount, name: string, salt: bigint) => {
    const commitment = await t.getInternal(`/v2/debug/names/commitment-id?name=${name}&salt=${salt}`);
    await submit('names/preclaim', { account_id: who.address, commitment_id: commitment.body.commitment_id }, who);
    await mine();
    await submit('names/claim', { account_id: who.address, name, name_salt: salt }, who);
  };
  const [revokedName, expiredName, auctionedName] = [
    'conformancerevoked.chain',
    'conformanceexpiry.chain',
    'auction12.chain',
  ] as const;
  await claim(a, revokedName, 11n);
  await claim(c, expiredName, 12n);
  await claim(c, auctionedName, 13n);
  await mine();
  const pointers = [{ key: 'account_pubkey', id: a.address }];
  const update = (who: MemoryAccount, name: `${string}.chain`, ttl: number) =>
    submit(
      'names/update',
      { account_id: who.address, name_id: produceNameId(name), name_ttl: ttl, client_ttl: 60, pointers },
      who,
    );
  await update(a, revokedName, 1000);
  await update(c, expiredName, 2);
  await submit(
    'names/transfer',
    { account_id: a.address, name_id: produceNameId(revokedName), recipient_id: b.address },
    a,
  );
  const outbid = t.node.chain.state.auctions.get(produceNameId(auctionedName))!.bid * 2n;
  await submit('names/claim', { account_id: b.address, name: auctionedName, name_salt: 0, name_fee: outbid }, b);
  await mine();
  await submit('names/revoke', { account_id: b.address, name_id: produceNameId(revokedName) }, b);
  // contracts: a token created, a transfer that succeeds and one that reverts (more than the caller holds)
  const created = await t.postInternal('/v2/debug/contracts/create', {
    owner_id: a.address,
    code: BYTECODE.aex9,
    deposit: 0,
    call_data: token.encodeCall('init', ['Conformance', 18n, 'CONF', { 1: [10n ** 24n] }]),
    ...CONTRACT,
  });
  const contract = created.body.contract_id as string;
  await t.post('/v2/transactions', { tx: await a.signTransaction(created.body.tx, { networkId: 'ae_devnet' }) });
  await mine();
  const transfer = (from: MemoryAccount, amount: bigint) =>
    submit(
      'contracts/call',
      {
        caller_id: from.address,
        contract_id: contract,
        call_data: token.encodeCall('transfer', [b.address, amount]),
        ...CONTRACT,
      },
      from,
    );
  const callOk = await transfer(a, 5n);
  const callRevert = await transfer(c, 5n);
  // a PayingForTx: A pays for C's spend
  const inner = await t.postInternal('/v2/debug/transactions/spend', {
    sender_id: c.address,
    recipient_id: b.address,
    amount: 7,
    fee: FEE,
    payload: '',
  });
  const innerSigned = await c.signTransaction(inner.body.tx, { networkId: 'ae_devnet', innerTx: true });
  const nonce = t.node.chain.pending.accounts.get(a.address)!.nonce + 1;
  const outer = buildTx({ tag: Tag.PayingForTx, payerId: a.address, nonce, fee: FEE, tx: innerSigned });
  const paid = await t.post('/v2/transactions', { tx: await a.signTransaction(outer, { networkId: 'ae_devnet' }) });
  if (paid.status !== 200) throw new Error(`PayingForTx: ${paid.text}`);
  // the auction of a 9-letter name ends 480 generations after its last bid; the expired oracle and name lapse
  for (let i = 0; i < 490; i++) await mine();
  const txByType = new Map<string, TxRecord>();
  for (const record of t.node.chain.txs.values()) {
    const inner =
      record.tx.type === 'PayingForTx' ? `(${String((record.tx.tx as { tx: { type: string } }).tx.type)})` : '';
    if (!txByType.has(record.tx.type + inner)) txByType.set(record.tx.type + inner, record);
  }
  return {
    t,
    patron: a,
    late,
    unknown: MemoryAccount.generate().address,
    txByType,
    callOk,
    callRevert,
    contract,
    liveOracle,
    expiredOracle: reprefix(c.address, 'ok'),
    answeredQuery,
    openQuery,
    auctionedName,
    revokedName,
    expiredName,
    firstMicro,
    emptyMicro,
  };
}

/** Request is one request to the devnode. */
interface Request {
  readonly port: 'external' | 'internal';
  readonly method: string;
  readonly path: string;
  readonly body?: string;
  readonly contentType?: string;
}

/** recordedHeight is the height a recorded key block or generation answer names. */
function recordedHeight(e: Exchange): number {
  const body = parseBody(e.body) as { height?: number; key_block?: { height: number } };
  return body.height ?? body.key_block!.height;
}

/**
 * counterparts are the devnode requests that stand for a kind's recorded exchange `e`: its route with each variable
 * part filled with the devnode's object in the same role (a block holding a transaction of the same type, an
 * account that did not exist yet at the block asked, a revoked or an expired name, …).
 */
function counterparts(e: Exchange, w: World): string[] {
  const chain = w.t.node.chain;
  const route = routeOf(e.path);
  const kind = exchangeKind(e);
  const top = chain.height;
  const missing = e.status === 404;
  const detail = kind.slice(kind.indexOf(` ${e.status}`) + ` ${e.status}`.length).trim();
  const fill = (values: Record<string, string | number>): string =>
    route.replace(/\{(\w+)\}/g, (_m, key: string) => String(values[key]));
  const base = route.split('/').slice(2, 3)[0];
  if (base === 'accounts') {
    const existsLater = route.includes('/height/') || route.includes('/hash/');
    const ak = missing ? (existsLater ? w.late : w.unknown) : w.patron.address;
    const ct = missing ? w.contract : w.contract;
    const keyBlock = chain.keyBlocks[missing ? 0 : top]!;
    const micro = missing ? w.firstMicro : chain.keyBlocks.findLast((kb) => kb.micro.length > 0)!.micro.at(-1)!.hash;
    return [fill({ ak, ct, kh: keyBlock.hash, mh: micro, n: missing ? 0 : top })];
  }
  if (base === 'key-blocks' || base === 'generations') {
    if (!route.includes('{')) return [route];
    // the recorded one's height, and key blocks after a generation with and without micro blocks
    const recorded = route.includes('{n}') ? Number(/\/height\/(\d+)/.exec(e.path)![1]) : recordedHeight(e);
    const afterMicro = chain.keyBlocks.findIndex((kb, h) => h > 0 && chain.keyBlocks[h - 1]!.micro.length > 0);
    // (the few flagged answers recorded follow generations without micro blocks only)
    const heights = route.includes('?') ? [Math.min(recorded, top)] : [Math.min(recorded, top), afterMicro, top];
    return heights.map((h) => {
      const kb = chain.keyBlocks[h]!;
      return fill({ kh: kb.hash, n: kb.header.height });
    });
  }
  if (base === 'micro-blocks') {
    if (route.includes('/index/')) {
      if (e.status !== 200) return [fill({ mh: w.emptyMicro, n: 1 })];
      const record = w.txByType.get(detail)!;
      const block = chain.blocks.get(record.blockHash!) as MicroBlock;
      return [fill({ mh: record.blockHash!, n: block.txs.findIndex((r) => r.hash === record.hash) + 1 })];
    }
    return [fill({ mh: w.firstMicro }), fill({ mh: w.emptyMicro })];
  }
  if (base === 'transactions' || route.includes('/check-tx/')) {
    if (route.includes('/info')) {
      // a create's call info too
      if (detail === 'call ok') return [w.callOk, w.txByType.get('ContractCreateTx')!.hash].map((th) => fill({ th }));
      return [fill({ th: detail === 'call revert' ? w.callRevert : w.txByType.get('SpendTx')!.hash })];
    }
    return [fill({ th: w.txByType.get(detail || 'SpendTx')?.hash ?? `no devnode ${detail}` })];
  }
  if (base === 'names') {
    return missing ? [fill({ name: w.revokedName }), fill({ name: w.expiredName })] : [fill({ name: w.auctionedName })];
  }
  if (base === 'oracles') {
    if (route.includes('{oq}')) return [w.answeredQuery, w.openQuery].map((oq) => fill({ ok: w.liveOracle, oq }));
    if (route.includes('/queries')) return [w.liveOracle, w.expiredOracle].map((ok) => fill({ ok }));
    return [fill({ ok: missing ? w.expiredOracle : w.liveOracle })];
  }
  if (base === 'contracts') return [fill({ ct: w.contract })];
  if (route.includes('/token-supply/')) return [fill({ n: top })];
  return [route];
}

/** Answer is what the devnode sent. */
interface Answer {
  readonly status: number;
  readonly contentType: string | null;
  readonly server: string | null;
  readonly body: string;
}

async function ask(w: World, req: Request): Promise<Answer> {
  const base = req.port === 'internal' ? w.t.node.internalUrl : w.t.node.externalUrl;
  const res = await fetch(base + req.path, {
    method: req.method,
    ...(req.body === undefined ? {} : { body: req.body }),
    headers: req.contentType === undefined ? {} : { 'content-type': req.contentType },
  });
  const body = await res.text();
  return { status: res.status, contentType: res.headers.get('content-type'), server: res.headers.get('server'), body };
}

/**
 * differences lists how the devnode's answer differs from the node's answers of the kind `recorded`: status, headers,
 * and the body (an error's exactly, a JSON answer's shape as one of the recorded ones).
 */
function differences(recorded: readonly Exchange[], got: Answer, ignored: Ignored): string[] {
  const want = recorded[0]!;
  const found: string[] = [];
  if (got.status !== want.status)
    return [`status ${got.status} (${got.body.slice(0, 200)}), the node's ${want.status}`];
  if (got.contentType !== (want.headers['content-type'] ?? null))
    found.push(`content-type ${got.contentType}, the node's ${want.headers['content-type'] ?? 'none'}`);
  if (got.server !== 'Cowboy') found.push(`server ${got.server}, the node's Cowboy`);
  if (want.status >= 400 || want.body === '') {
    if (got.body !== want.body) found.push(`body ${got.body}, the node's ${want.body}`);
    return found;
  }
  const value = parseBody(got.body);
  if (value === undefined) return [...found, `body ${got.body.slice(0, 200)} is no JSON`];
  const tries = recorded.map((e) => shapeDifferences(parseJson(e.body), value, ignored));
  if (tries.every((d) => d.length > 0)) found.push(...tries.reduce((a, b) => (b.length < a.length ? b : a)));
  return found;
}

/** kinds groups the recorded exchanges by kind, each distinct shape of a kind's answers once. */
function kinds(exchanges: readonly Exchange[]): Map<string, Exchange[]> {
  const byKind = new Map<string, Exchange[]>();
  for (const e of exchanges) {
    const kind = exchangeKind(e);
    const list = byKind.get(kind) ?? [];
    const value = parseBody(e.body);
    const seen = (x: Exchange): boolean =>
      value === undefined ? x.body === e.body : shapeDifferences(parseJson(x.body), value).length === 0;
    if (!list.some(seen)) list.push(e);
    byKind.set(kind, list);
  }
  return byKind;
}

describe('devnode answers as a real æternity node 7.2.2 (the recording)', function () {
  this.timeout(120_000);
  let w: World;
  const chainKinds = kinds(readExchanges('chain.ndjson.gz'));
  const errors = readExchanges('errors.ndjson.gz');

  before(async () => {
    w = await buildWorld(await startTestNode());
  });
  after(() => w?.t.node.stop());

  /** checkKind asks every counterpart of a chain kind and lists what differs. */
  const checkKind = async (kind: string, recorded: Exchange[], ignored: Ignored): Promise<string[]> => {
    const e = recorded[0]!;
    const port = e.port === 'internal' ? 'internal' : 'external';
    const found: string[] = [];
    for (const path of counterparts(e, w)) {
      const got = await ask(w, { port, method: e.method, path });
      const notBuilt = NOT_BUILT[kind];
      if (notBuilt) {
        if (got.status !== notBuilt.status)
          found.push(`${kind}: ${path} ${got.status}, documented ${notBuilt.status} (${notBuilt.why})`);
        continue;
      }
      found.push(...differences(recorded, got, ignored).map((d) => `${kind}\n    ${path}: ${d}`));
    }
    return found;
  };

  it('answers every kind of the recorded chain reads as the node does (encoded_tx aside)', async () => {
    const found: string[] = [];
    for (const [kind, recorded] of chainKinds) found.push(...(await checkKind(kind, recorded, IGNORED)));
    expect(found, found.join('\n')).to.deep.equal([]);
    expect(chainKinds.size, 'the recording’s kinds').to.be.greaterThan(140);
  });

  it('answers every recorded error, wrong method, unknown route and bad body as the node does', async () => {
    const found: string[] = [];
    for (const e of errors) {
      const req = errorCounterpart(e, w);
      const got = await ask(w, req);
      found.push(...differences([e], got, IGNORED).map((d) => `${e.method} ${e.path} -> ${req.path}: ${d}`));
    }
    expect(found, found.join('\n')).to.deep.equal([]);
  });

  it('answers /v2 and /v3 byte for byte alike, as the node does (but /status, which says it is a devnode)', async () => {
    const found: string[] = [];
    for (const [kind, recorded] of chainKinds) {
      // /v2 ignores `?int-as-string` (recorded so), which /v3 applies
      if (!kind.startsWith('external GET /v2/') || kind.startsWith('external GET /v2/status') || kind.includes('?'))
        continue;
      for (const path of counterparts(recorded[0]!, w)) {
        const [v2, v3] = await Promise.all(
          [path, `/v3${path.slice(3)}`].map((p) => ask(w, { port: 'external', method: 'GET', path: p })),
        );
        if (v2!.status !== v3!.status || v2!.body !== v3!.body) found.push(`${path}: ${v2!.status} vs ${v3!.status}`);
      }
    }
    expect(found, found.join('\n')).to.deep.equal([]);
  });

  it('sends encoded_tx in every transaction, as the node does', async () => {
    const found: string[] = [];
    for (const [kind, recorded] of chainKinds) {
      if (!recorded.some((e) => e.body.includes('"encoded_tx"'))) continue;
      for (const path of counterparts(recorded[0]!, w)) {
        const body = parseBody((await ask(w, { port: 'external', method: 'GET', path })).body);
        found.push(...encodedTxProblems(body).map((problem) => `${kind}: ${path}: ${problem}`));
      }
    }
    expect(
      found,
      `answers whose transactions lack encoded_tx (the node sends each one's whole signed transaction, tx_…):\n${found.join('\n')}`,
    ).to.deep.equal([]);
  });
});

/**
 * encodedTxProblems lists the transactions of an answer (objects with `tx`, `hash` and `block_hash`) whose
 * `encoded_tx` is missing or is not the signed transaction of that hash (the SDK's hash of it).
 */
function encodedTxProblems(value: Json | undefined): string[] {
  if (Array.isArray(value)) return value.flatMap(encodedTxProblems);
  if (!isJsonObject(value)) return [];
  if (!('tx' in value && 'hash' in value && 'block_hash' in value))
    return Object.values(value).flatMap(encodedTxProblems);
  const encoded = value.encoded_tx;
  if (typeof encoded !== 'string') return [`${String(value.hash)} has no encoded_tx`];
  const hashed = ((): string | undefined => {
    try {
      return buildTxHash(encoded as `tx_${string}`);
    } catch {
      return undefined;
    }
  })();
  return hashed === value.hash ? [] : [`${String(value.hash)}'s encoded_tx hashes to ${hashed ?? 'nothing'}`];
}

/**
 * errorCounterpart is a recorded error's request to the devnode: as it was, with the recorded chain's objects replaced
 * by the devnode's (its live oracle, a micro block with transactions, a key block, a spend, an account for the zero
 * account), heights just above and far above the recorded top by the devnode's, and a mined transaction for the one
 * posted again. A POST the node refused with 415 was sent as text (or without a body and a content type).
 */
function errorCounterpart(e: Exchange, w: World): Request {
  const chain = w.t.node.chain;
  const spend = w.txByType.get('SpendTx')!;
  const known: Record<string, string> = {
    ok_2chXoMxUN8HhEP7ncWTxq1WhiwNPS398vnmZb9nKyfyXoLGUCt: w.liveOracle,
    mh_2Ev7vNEj64tkUr2KguwjPc68HJDiP6td8paYyH7bNNnhwgTnDw: w.firstMicro,
    kh_EeaK8g4DVkLVyfoRB64hhwjW4JFbphHSZVdkwpBCLBFh5acD6: chain.keyBlocks[4]!.hash,
    th_8WWzm5LVFQUcuoYwoR8Zc1E2LpaRP6Fwu5sWb4vp6QaggD27s: spend.hash,
    ak_11111111111111111111111111111111273Yts: w.patron.address,
    ct_11111111111111111111111111111111273Yts: reprefix(w.patron.address, 'ct'),
    ok_11111111111111111111111111111111273Yts: reprefix(w.patron.address, 'ok'),
  };
  const path = e.path
    .replace(/[a-z]{2}_[1-9A-HJ-NP-Za-km-z]+/g, (id) => known[id] ?? id)
    .replace(/\/height\/547$/, `/height/${chain.height + 1}`)
    .replace(/\/height\/1546$/, `/height/${chain.height + 1000}`);
  let body = e.request_body ?? undefined;
  if (body !== undefined && parseBody(e.body) !== undefined && e.body.includes('already_accepted'))
    body = JSON.stringify({ tx: encode('tx', spend.signedBytes) });
  const contentType = e.status === 415 ? (body === undefined ? undefined : 'text/plain') : 'application/json';
  return {
    port: e.port === 'internal' ? 'internal' : 'external',
    method: e.method,
    path,
    ...(body === undefined ? {} : { body }),
    ...(contentType === undefined || body === undefined ? {} : { contentType }),
  };
}
