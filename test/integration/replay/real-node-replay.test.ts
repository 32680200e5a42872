/**
 * @module The replay tier (issue 87 §3): the populator and the server in front of a real æternity node 7.2.2's
 * recorded answers (test/fixtures/real-node, served by replay-node.ts). Every request the middleware asks must be in
 * the recording (or derived by one of replay-match.ts's rules): the first test lists each one that is not. Then the
 * loaded chain is checked against the recording itself: the chain, the cached node answers, the token and its
 * holders, the internal calls, the AE balances, and `mdw -v --full`.
 */
import { expect } from 'chai';
import pino from 'pino';
import prom from 'prom-client';
import { BytecodeContractCallEncoder } from '@aeternity/aepp-calldata';
import { loadConfig, type Config } from '../../../src/config/middleware.ts';
import { parseJson, toBigInt, type Json } from '../../../src/chain/json.ts';
import { startPopulator, type Populator } from '../../../src/indexer/sync/populator.ts';
import { verifyChain } from '../../../src/indexer/maintenance/verify.ts';
import { serveLoaded, type Served } from '../../support/served.ts';
import { createTestDatabase } from '../../support/postgres.ts';
import { readRecording, ReplayNode, type Miss } from '../../support/replay-node.ts';
import { canonical, type Exchange } from '../../support/replay-match.ts';

type Obj = { [key: string]: Json };

const TOKEN = 'ct_A4ycGRCFAakB55jDYZXeyQnrwKLqWCxD4VNducHXRfPCSDTbE';
const TOP = 546;
const TRANSACTIONS = 357;
/** how long the load may take before the test stops waiting (the target is 60 s: printed, not asserted) */
const LOAD_BOUND_MS = 60_000;

const silent = pino({ level: 'silent' });

/** missList is each miss once, with how often it was asked: the test's failure message. */
const missList = (misses: readonly Miss[]): string[] => {
  const counts = new Map<string, number>();
  for (const m of misses) {
    const line = `${m.port} ${m.method} ${m.path}${m.body === '' ? '' : ` ${m.body}`}`;
    counts.set(line, (counts.get(line) ?? 0) + 1);
  }
  return [...counts].map(([line, n]) => `${n}× ${line}`);
};

describe('the populator and the server in front of a real node 7.2.2 (replayed)', function () {
  this.timeout(240_000);
  const recording = readRecording();
  const recorded = (path: string, port?: 'internal'): Exchange | undefined =>
    recording.find((e) => e.method === 'GET' && e.path === path && e.port === port);
  const recordedJson = (path: string): Obj => parseJson(recorded(path)!.body) as Obj;
  let node: ReplayNode;
  let db: { url: string; drop(): Promise<void> };
  let cfg: Config;
  let populator: Populator | undefined;
  let served: Served | undefined;
  let loaded = false;

  before(async () => {
    node = new ReplayNode(recording);
    await node.start();
    db = await createTestDatabase({ migrated: 'mdw' });
    cfg = loadConfig({
      NODE_URL: node.externalUrl,
      NODE_INTERNAL_URL: node.internalUrl,
      DATABASE_URL: db.url,
      DATABASE_SCHEMA: 'mdw',
      POLL_INTERVAL_MS: '50',
    });
    const started = performance.now();
    populator = await startPopulator({ cfg, log: silent, registry: new prom.Registry() });
    const synced = populator.synced().then(() => true);
    synced.catch(() => {});
    let timer: NodeJS.Timeout | undefined;
    loaded = await Promise.race([
      synced,
      new Promise<false>((r) => (timer = setTimeout(() => r(false), LOAD_BOUND_MS))),
    ]);
    clearTimeout(timer);
    // the benchmark figure of issue 87 (target: 60 s), printed, not asserted
    console.log(
      `      replay tier: ${loaded ? 'loaded' : 'NOT loaded'} in ${((performance.now() - started) / 1000).toFixed(1)} s; ` +
        `answered ${JSON.stringify(Object.fromEntries(node.answered))}; ${node.misses.length} misses`,
    );
    await populator.stop();
    populator = undefined;
    served = serveLoaded(cfg);
  });
  after(async () => {
    await populator?.stop();
    await served?.close();
    await node?.stop();
    await db?.drop();
  });

  const get = async (path: string): Promise<{ status: number; text: string; body: Json }> => {
    const res = await served!.request.get(path);
    return { status: res.status, text: res.text, body: res.text === '' ? null : parseJson(res.text) };
  };

  it('asks the node nothing the recording lacks', () => {
    expect(missList(node.misses)).to.deep.equal([]);
  });

  it('loads the recorded chain completely: heights 0..546, 357 transactions', async () => {
    expect(loaded, 'synced with the replayed node').to.equal(true);
    const status = (await get('/mdw/v3/status')).body as Obj;
    expect(status.mdw_height).to.equal(TOP);
    expect((await get('/mdw/v3/transactions/count')).body).to.equal(TRANSACTIONS);
  });

  it('answers every recorded /v2 and /v3 GET of the chain from its cache as the node did, encoded_tx included', async () => {
    const paths = recording.filter(
      (e) =>
        e.method === 'GET' &&
        e.port === undefined &&
        e.status === 200 &&
        /^\/v[23]\/(key-blocks|generations|micro-blocks|transactions)\//.test(e.path) &&
        !e.path.includes('?') &&
        !/current|pending/.test(e.path),
    );
    expect(paths.length).to.be.above(5000);
    const apart: string[] = [];
    let forwarded = 0;
    let bytes = 0;
    for (const e of paths) {
      const before = node.asked;
      const res = await get(e.path);
      // an answer the server forwarded is the replay's own: only the cached ones are compared
      if (node.asked !== before) forwarded += 1;
      else if (res.text === e.body) bytes += 1;
      else if (res.status !== e.status || canonical(res.text) !== canonical(e.body))
        apart.push(`${e.path}: ${res.status} ${res.text.slice(0, 300)}`);
    }
    console.log(
      `      ${paths.length} recorded GETs: ${forwarded} forwarded to the node, ${bytes} cached byte for byte`,
    );
    expect(paths.length - forwarded, 'answered from the cache').to.be.above(6000);
    expect(apart.slice(0, 20), `${apart.length} answers differ`).to.deep.equal([]);
    const withEncoded = paths.filter((e) => e.path.endsWith('/transactions') || /\/transactions\/th_\w+$/.test(e.path));
    for (const e of withEncoded.slice(0, 50)) expect((await get(e.path)).text).to.include('"encoded_tx"');
  });

  it(`serves ${TOKEN} as a valid AEX-9 whose holders hold what the recorded balances() answered`, async () => {
    const token = await get(`/mdw/v3/aex9/${TOKEN}`);
    expect(token.status, token.text).to.equal(200);
    expect(token.body).to.deep.include({ name: 'Real Token', symbol: 'REAL', decimals: 18 });
    expect((token.body as Obj).invalid ?? false).to.equal(false);
    const dryRun = recording.find(
      (e) => e.label === 'AEX-9 balances() call_req abi_version 3' && e.port === undefined,
    )!;
    const value = ((parseJson(dryRun.body) as Obj).results as Obj[])[0]!.call_obj as Obj;
    const code = String(recordedJson(`/v3/contracts/${TOKEN}/code`).bytecode);
    // the independent oracle: aepp-calldata decodes the node's answer with the token's own code
    const decoded = new BytecodeContractCallEncoder(code as `cb_${string}`).decodeResult(
      'balances',
      String(value.return_value) as `cb_${string}`,
    ) as Map<string, bigint>;
    const expected = new Map([...decoded].map(([k, v]) => [k, BigInt(v)]));
    const holders = new Map<string, bigint>();
    let page: string | null = `/mdw/v3/aex9/${TOKEN}/balances?limit=100`;
    while (page) {
      const res = await get(page);
      expect(res.status, res.text).to.equal(200);
      for (const h of (res.body as Obj).data as Obj[]) holders.set(String(h.account_id), toBigInt(h.amount));
      page = ((res.body as Obj).next as string | null) ?? null;
    }
    expect(new Map([...holders].filter(([, v]) => v !== 0n))).to.deep.equal(expected);
  });

  it("stores each contract call's internal calls as the recorded dry-run replays' tx_events", async () => {
    const replays = recording.filter((e) => e.port === undefined && e.label?.startsWith('replay ContractCallTx'));
    expect(replays.length).to.equal(14);
    const stored: Obj[] = [];
    let page: string | null = '/mdw/v3/contracts/calls?direction=forward&limit=100';
    while (page) {
      const res = await get(page);
      expect(res.status, res.text).to.equal(200);
      stored.push(...((res.body as Obj).data as Obj[]));
      page = ((res.body as Obj).next as string | null) ?? null;
    }
    for (const r of replays) {
      const hash = /th_\w+/.exec(r.label!)![0];
      const events = (((parseJson(r.body) as Obj).tx_events ?? []) as Obj[]).filter(
        (e) => e.kind === 'internal_call_tx',
      );
      const calls = stored.filter((c) => c.call_tx_hash === hash);
      expect(
        calls.map((c) => [c.function, (c.internal_tx as Obj).recipient_id, toBigInt((c.internal_tx as Obj).amount)]),
        hash,
      ).to.deep.equal(events.map((e) => [e.key, (e.info as Obj).recipient_id, toBigInt((e.info as Obj).amount)]));
    }
  });

  it('has the AE balances of the recorded account states after the sampled generations', async () => {
    // the chain file's reads of accounts at the sampled generations' last blocks (the errors file's are of no block)
    const blocks = new Set(
      recording
        .filter((e) => e.status === 200 && /^\/v3\/key-blocks\/hash\/|\/header$/.test(e.path))
        .map((e) => e.path.split('/')[4]),
    );
    const sampled = recording.filter(
      (e) =>
        e.port === undefined && /^\/v3\/accounts\/ak_\w+\/hash\/\w+$/.test(e.path) && blocks.has(e.path.split('/')[5]),
    );
    expect(sampled.length).to.be.above(100);
    const apart: string[] = [];
    for (const e of sampled) {
      const [, , , account, , block] = e.path.split('/');
      const height = heightOf(block!);
      // the last block of generation H: our balance?height=H is after generation H
      const res = await get(`/mdw/v3/accounts/${account}/balance?height=${height}`);
      const expected = e.status === 200 ? toBigInt((parseJson(e.body) as Obj).balance) : 0n;
      const got = res.status === 200 ? toBigInt((res.body as Obj).balance) : undefined;
      if (got !== expected) apart.push(`${account} after ${height}: ${got} ≠ ${expected} (${res.status})`);
    }
    expect(apart).to.deep.equal([]);
  });

  it('finds no difference with `-v --full`', async () => {
    const lines: string[] = [];
    const report = await verifyChain({ cfg, log: silent, out: (l) => lines.push(l) }, { full: true });
    expect(lines).to.deep.equal([]);
    expect(report.differences).to.equal(0);
    expect(report.checked).to.equal(TOP + 1);
  });

  /** heightOf is a recorded block's generation (its header's height). */
  function heightOf(block: string): number {
    const path = block.startsWith('kh_') ? `/v3/key-blocks/hash/${block}` : `/v3/micro-blocks/hash/${block}/header`;
    return Number(recordedJson(path).height);
  }
});
