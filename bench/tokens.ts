/**
 * @module Issue 13's token speed targets, each against a baseline measured in the same run:
 *
 * (1) Populator throughput on a token-heavy chain within 20 % of a chain without tokens. Two devnode chains of the
 *     same seed and shape (2 micro blocks × 5 transactions a generation), one with `--token-share 0` and one with
 *     `--token-share BENCH_TOKENS_SHARE` (AEX-9, AEX-141 and DEX deployments and calls, with their logs, dry-runs at
 *     creation and contracts created by calls), each loaded from an empty schema by the populator alone in its own
 *     process (bench/indexer.lib.populate.ts), the devnodes in theirs; BENCH_TOKENS_ROUNDS rounds alternate which
 *     chain goes first. Ratio: token chain tx/s ÷ plain chain tx/s of the same round (target ≥ 0.8).
 * (2) The AEX-9 pages, sequential (latency), against a bare Koa endpoint in the same rounds: over the token chain the
 *     populator loaded, a token with BENCH_AEX9_HOLDERS holders and an account holding BENCH_AEX9_TOKENS tokens,
 *     written with the populator's own AEX-N write function (writeAexnRows: aexn_contracts rows, balances at
 *     creation and Transfer events at the positions of the chain's own contract calls, whose triggers keep the
 *     balances), then asked of `mdw -s` without the response cache (every page from PostgreSQL): a page of 100
 *     holders at a random depth by key and by amount, in both directions, and pages of the account's tokens
 *     (targets p99 < 20 ms and < 30 ms). `/v3/stats/transactions?interval_by=day` over a year is in bench/api.ts.
 *
 *   node --expose-gc bench/tokens.ts   (or make bench ONLY=tokens)
 *
 * BENCH_TOKENS_GENERATIONS (default 10000) each chain's length; BENCH_TOKENS_SHARE (0.4: about 36 % of
 * the transactions, since the token traffic has nothing to act on now and then); BENCH_TOKENS_ROUNDS (2);
 * BENCH_AEX9_HOLDERS (100000); BENCH_AEX9_TOKENS (1000); BENCH_REQUESTS (2000) requests per API scenario and
 * round; BENCH_TOKENS_PARTS (`populator,api`) which parts run. Writes bench/results/tokens.json.
 */
import { spawn } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { encode } from '../src/chain/encoding.ts';
import { createPool, quoteIdent, withTransaction, type Pool } from '../src/db/connection/pool.ts';
import { writeAexnRows } from '../src/db/writes/aexn.ts';
import { accountTokensPage, holdersPage } from '../src/db/queries/aex9-balances.ts';
import type { AexnContractRow, AexnRows, Aex9LogRow, Aex9SeedRow } from '../src/db/writes/token-rows.ts';
import type { TxPosition } from '../src/indexer/rows/rows.ts';
import { createLogger } from '../src/base/log.ts';
import { createTestDatabase, stopTestServer } from '../test/support/postgres.ts';
import {
  cpuMicros,
  killChildrenOnExit,
  load,
  median,
  nodeFilesArgs,
  startBareKoa,
  startDevnodeProcess,
  startMdwServer,
  track,
  type Child,
  type DevnodeChild,
  type Result,
} from './http.lib.ts';
import { postgresCpuReader, processCpuSeconds } from './process-cpu.lib.ts';
import { writeResult } from './results.lib.ts';

const GENERATIONS = Number(process.env.BENCH_TOKENS_GENERATIONS ?? 10_000);
const SHARE = Number(process.env.BENCH_TOKENS_SHARE ?? 0.4);
const ROUNDS = Number(process.env.BENCH_TOKENS_ROUNDS ?? 2);
const HOLDERS = Number(process.env.BENCH_AEX9_HOLDERS ?? 100_000);
const TOKENS = Number(process.env.BENCH_AEX9_TOKENS ?? 1000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
/** BENCH_TOKENS_EXPLAIN=1 prints PostgreSQL's plans (EXPLAIN ANALYZE) of the pages' statements before measuring */
const EXPLAIN = process.env.BENCH_TOKENS_EXPLAIN === '1';
/** BENCH_POPULATOR_FLAGS="--cpu-prof --cpu-prof-dir=DIR" adds Node flags to the populator's processes (as in bench/indexer.ts) */
const POPULATOR_FLAGS = process.env.BENCH_POPULATOR_FLAGS?.split(' ').filter(Boolean) ?? [];
/** BENCH_SERVER_NODE_OPTIONS: Node flags of `mdw -s` and bare Koa (e.g. "--cpu-prof --cpu-prof-dir=DIR"), as in bench/api.ts */
const SERVER_NODE_OPTIONS = process.env.BENCH_SERVER_NODE_OPTIONS ?? '';
const PARTS = new Set((process.env.BENCH_TOKENS_PARTS ?? 'populator,api').split(','));
const PAGE = 100;
/** events written per statement, as a populator batch of a busy token would */
const WRITE_CHUNK = 10_000;
const log = createLogger({ logLevel: 'silent', logPretty: false, logDir: undefined }).log;

interface Chain {
  readonly name: 'plain' | 'tokens';
  readonly devnode: DevnodeChild;
  readonly txs: number;
  readonly tokenTxs: number;
}
interface PopulatorRun {
  readonly chain: Chain['name'];
  readonly round: number;
  readonly seconds: number;
  readonly txPerSecond: number;
  /** CPU per transaction of the populator, PostgreSQL and the devnode */
  readonly cpuMicrosPerTx: { populator: number; postgres: number; devnode: number };
  readonly load1: number;
}

async function main(): Promise<void> {
  killChildrenOnExit();
  const db = await createTestDatabase();
  const postgresCpu = await postgresCpuReader(db.url);
  const started = Date.now();
  const [plain, tokens] = await Promise.all([
    PARTS.has('populator') ? startChain('plain', 0) : undefined,
    startChain('tokens', SHARE),
  ]);
  console.log(`chains generated in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  for (const c of [plain, tokens])
    if (c)
      console.log(
        `${c.name}: ${GENERATIONS + 1} generations, ${c.txs} txs, ${c.tokenTxs} token/NFT/DEX txs (${((100 * c.tokenTxs) / c.txs).toFixed(1)} %)`,
      );

  const populate = async (chain: Chain, round: number): Promise<PopulatorRun> => {
    const schema = `${chain.name}_${round}`;
    const before = { postgres: postgresCpu(), devnode: processCpuSeconds(chain.devnode.pid) };
    const out = await runPopulator(chain.devnode, db.url, schema);
    const perTx = (seconds: number): number => Math.round((1e6 * seconds) / chain.txs);
    const run = {
      chain: chain.name,
      round,
      seconds: Number(out.seconds.toFixed(2)),
      txPerSecond: Math.round(chain.txs / out.seconds),
      cpuMicrosPerTx: {
        populator: perTx(out.cpuSeconds),
        postgres: perTx(postgresCpu() - before.postgres),
        devnode: perTx(processCpuSeconds(chain.devnode.pid) - before.devnode),
      },
      load1: Number(loadavg()[0]!.toFixed(2)),
    };
    console.log(
      `populator, ${chain.name.padEnd(6)} round ${round}: ${run.txPerSecond} tx/s in ${run.seconds} s; CPU per tx populator / PostgreSQL / devnode ${run.cpuMicrosPerTx.populator} / ${run.cpuMicrosPerTx.postgres} / ${run.cpuMicrosPerTx.devnode} µs; load ${run.load1}`,
    );
    return run;
  };

  const populatorRuns: PopulatorRun[] = [];
  const throughputRatios: number[] = [];
  if (plain) {
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 === 1 ? [plain, tokens] : [tokens, plain];
      const runs = [await populate(order[0]!, round), await populate(order[1]!, round)];
      populatorRuns.push(...runs);
      const rate = (name: Chain['name']): number => runs.find((r) => r.chain === name)!.txPerSecond;
      throughputRatios.push(Number((rate('tokens') / rate('plain')).toFixed(3)));
      console.log(`round ${round}: token chain ÷ plain chain = ${throughputRatios.at(-1)} (target ≥ 0.8)`);
    }
  } else {
    await populate(tokens, ROUNDS);
  }
  const tokenSchema = `tokens_${ROUNDS}`;
  const pool = createPool({ databaseUrl: db.url, schema: tokenSchema, max: 2 }, log);
  const indexed = await indexedTokens(pool);
  console.log(`token chain as indexed: ${JSON.stringify(indexed)}`);

  let api: Record<string, unknown> | undefined;
  if (PARTS.has('api')) api = await apiPart(pool, db.url, tokenSchema, tokens.devnode.url);

  const summary = {
    benchmark: 'tokens',
    date: new Date().toISOString(),
    command: 'node --expose-gc bench/tokens.ts',
    setup: {
      generations: GENERATIONS + 1,
      share: SHARE,
      rounds: ROUNDS,
      holders: HOLDERS,
      tokens: TOKENS,
      requestsPerScenario: REQUESTS,
      chains: [plain, tokens].flatMap((c) => (c ? [{ name: c.name, txs: c.txs, tokenTxs: c.tokenTxs }] : [])),
      indexed,
    },
    populator: {
      runs: populatorRuns,
      ratioPerRound: throughputRatios,
      ratio: throughputRatios.length > 0 ? median(throughputRatios) : null,
      target: 0.8,
    },
    api,
    machine: {
      cpus: availableParallelism(),
      note: 'test PostgreSQL (embedded, fsync off); machine shared while measuring: compare ratios, not absolutes',
    },
  };
  writeResult('tokens', summary);
  await pool.end();
  await Promise.all([plain?.devnode.stop(), tokens.devnode.stop()]);
  await db.drop();
  await stopTestServer();
}

/** startChain runs a devnode with a generated chain of this token share and reads its size from its log. */
async function startChain(name: Chain['name'], share: number): Promise<Chain> {
  let output = '';
  const devnode = await startDevnodeProcess(
    ['--generate', String(GENERATIONS), '--seed', 'bench-tokens', '--token-share', String(share), ...nodeFilesArgs()],
    (text) => (output += text),
  );
  const generated = /"txs":(\d+),"tokenTxs":(\d+)/.exec(output);
  if (!generated) throw new Error(`no "devnode chain generated" line in the ${name} devnode's output`);
  return { name, devnode, txs: Number(generated[1]), tokenTxs: Number(generated[2]) };
}

/**
 * runPopulator loads the chain into a new schema with the populator alone in its own process (as bench/indexer.ts (c)),
 * configured as a deployment on the devnode's chain (its reward rules and genesis accounts, DevnodeChild).
 */
async function runPopulator(
  devnode: DevnodeChild,
  databaseUrl: string,
  schema: string,
): Promise<{ seconds: number; cpuSeconds: number }> {
  const child = track(
    spawn(
      process.execPath,
      ['--expose-gc', ...POPULATOR_FLAGS, new URL('indexer.lib.populate.ts', import.meta.url).pathname],
      {
        env: {
          ...devnode.deployment,
          NODE_URL: devnode.url,
          DATABASE_URL: databaseUrl,
          DATABASE_SCHEMA: schema,
          BENCH_TOP: String(GENERATIONS),
          LOG_LEVEL: 'warn',
          MALLOC_MMAP_THRESHOLD_: '131072',
          ...Object.fromEntries(
            ['BATCH_SIZE', 'BATCH_TRANSACTIONS', 'FETCH_CONCURRENCY'].flatMap((k) =>
              process.env[k] ? [[k, process.env[k]!]] : [],
            ),
          ),
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    ),
  );
  let out = '';
  child.stdout!.on('data', (c: Buffer) => {
    // the populator logs (warnings: a failing step retries forever) on stdout before its result line
    for (const line of c.toString().split('\n'))
      if (line.includes('"msg"')) process.stderr.write(`populator: ${line}\n`);
    out += c.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`populator exited with ${code}`);
  return JSON.parse(out.trim().split('\n').at(-1)!) as { seconds: number; cpuSeconds: number };
}

/** indexedTokens counts what the populator derived from the token chain (shows the token work was done). */
async function indexedTokens(pool: Pool): Promise<Record<string, number>> {
  const count = async (table: string): Promise<number> =>
    (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${quoteIdent(table)}`)).rows[0]!.n;
  const tables = ['aexn_contracts', 'aex9_events', 'aex9_balances', 'aex9_transfers', 'aex141_events', 'dex_swaps'];
  const counts: Record<string, number> = {};
  for (const t of tables) counts[t] = await count(t).catch(() => -1);
  return counts;
}

/**
 * writeBigTokens writes, with the populator's own AEX-N write function, a token with HOLDERS holders (its owner's
 * balance at creation, then one Transfer to each holder) and TOKENS tokens each sent once to one account (each
 * token's owner seeded at creation). Creations and events sit at the positions of the chain's own contract calls,
 * in chain order, so every balance's latest event is a stored transaction of a stored micro block.
 */
async function writeBigTokens(pool: Pool): Promise<{
  big: string;
  rich: string;
  holderCursors: string[];
  amountCursors: string[];
  tokenCursors: string[];
}> {
  const { rows } = await pool.query<{ height: number; micro_index: number; tx_index: number; hash: string }>(
    `SELECT height, micro_index, tx_index, hash FROM transactions WHERE tx_type = 'ContractCallTx'
      ORDER BY height, micro_index, tx_index`,
  );
  if (rows.length < 2) throw new Error('the token chain has too few contract calls');
  const calls: TxPosition[] = rows.map((r) => ({
    height: r.height,
    microIndex: r.micro_index,
    txIndex: r.tx_index,
    txHash: r.hash,
  }));
  const id = (prefix: 'ak' | 'ct', i: number, tag: number): string => {
    const bytes = new Uint8Array(32).fill(tag);
    new DataView(bytes.buffer).setUint32(0, i);
    return encode(prefix, bytes);
  };
  const contract = (contractId: string, at: TxPosition, n: number): AexnContractRow => ({
    ...at,
    contractId,
    aexnType: 'aex9',
    createdByCall: true,
    name: `Bench token ${n}`,
    symbol: `B${n}`,
    decimals: 18,
    baseUrl: null,
    metadataType: null,
    extensions: [],
    metaInvalid: false,
    balancesUnknown: false,
    wrappedAe: false,
  });
  // creations at the first call; the events spread over the calls after its micro block, several per call
  const creation = calls[0]!;
  const later = calls.filter((c) => c.height > creation.height || c.microIndex > creation.microIndex);
  const eventAt = (i: number, count: number): { at: TxPosition; logIdx: number } => {
    const slot = Math.floor((i * later.length) / count);
    return { at: later[slot]!, logIdx: i - Math.ceil((slot * count) / later.length) };
  };
  const big = id('ct', 0, 0xa9);
  const owner = id('ak', 0, 0xa0);
  const holders = Array.from({ length: HOLDERS }, (_, i) => id('ak', i, 0xa1));
  const amounts = holders.map((_, i) => 10n ** 18n * BigInt(1 + ((i * 7919) % 100_003)));
  const supply = amounts.reduce((a, b) => a + b, 0n) * 2n;
  const rich = id('ak', 0, 0xee);
  const tokenIds = Array.from({ length: TOKENS }, (_, i) => id('ct', i + 1, 0xa9));
  const seeds: Aex9SeedRow[] = [
    { ...creation, contractId: big, account: owner, amount: supply.toString() },
    ...tokenIds.map((t, i) => ({ ...creation, contractId: t, account: id('ak', i, 0xa2), amount: '1000000' })),
  ];
  // the i-th of n transfers, log indexes from `first` on in each call (the two series share calls)
  const transfer = (
    contractId: string,
    from: string,
    to: string,
    amount: bigint,
    [i, n, first]: [number, number, number],
  ): Aex9LogRow => {
    const { at, logIdx } = eventAt(i, n);
    return { ...at, logIdx: first + logIdx, contractId, kind: 'transfer', from, to, amount: amount.toString() };
  };
  const logs: Aex9LogRow[] = [
    ...holders.map((h, i) => transfer(big, owner, h, amounts[i]!, [i, HOLDERS, 0])),
    ...tokenIds.map((t, i) => transfer(t, id('ak', i, 0xa2), rich, BigInt(1 + i), [i, TOKENS, HOLDERS])),
  ].sort((a, b) => a.height - b.height || a.microIndex - b.microIndex || a.txIndex - b.txIndex || a.logIdx - b.logIdx);
  const none = { contracts: [], callCreated: [], seeds: [], aex9Logs: [], dexFactories: [] } satisfies AexnRows;
  const started = Date.now();
  await withTransaction(pool, (client) =>
    writeAexnRows(client, [
      {
        ...none,
        contracts: [contract(big, creation, 0), ...tokenIds.map((t, i) => contract(t, creation, i + 1))],
        seeds,
      },
    ]),
  );
  for (let i = 0; i < logs.length; i += WRITE_CHUNK)
    await withTransaction(pool, (client) =>
      writeAexnRows(client, [{ ...none, aex9Logs: logs.slice(i, i + WRITE_CHUNK) }]),
    );
  console.log(
    `wrote ${HOLDERS} holders of one token and ${TOKENS} tokens of one account with writeAexnRows (${logs.length} transfers over ${later.length} calls) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  // the test server commits asynchronously; VACUUM marks pages all-visible only once the commits are flushed
  // (as autovacuum does in production, later)
  await pool.query('SELECT pg_sleep(1)');
  for (const t of ['aex9_balances', 'aex9_events', 'aex9_transfers', 'aexn_contracts'])
    await pool.query(`VACUUM ANALYZE ${t}`);
  const sample = <T>(list: readonly T[], every: number): T[] => list.filter((_, i) => i % every === 0);
  return {
    big,
    rich,
    holderCursors: sample(holders, 97),
    amountCursors: sample(
      holders.map((h, i) => `${amounts[i]}|${h}`),
      97,
    ),
    tokenCursors: sample(tokenIds, 7),
  };
}

/** explainPages prints the plans of the API's own page statements at a middle cursor (the read path under test). */
async function explainPages(
  pool: Pool,
  data: { big: string; rich: string; holderCursors: string[]; amountCursors: string[]; tokenCursors: string[] },
): Promise<void> {
  const explaining = {
    query: async (text: string, values: unknown[]) => {
      const { rows } = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values);
      console.log(rows.map((r) => r['QUERY PLAN']).join('\n'));
      return { rows: [] };
    },
  } as unknown as Pool;
  const middle = <T>(list: readonly T[]): T => list[Math.floor(list.length / 2)]!;
  const [amount, account] = middle(data.amountCursors).split('|') as [string, string];
  await holdersPage(
    explaining,
    { contractId: data.big, by: 'pubkey' },
    { walk: 'backward', from: { account: middle(data.holderCursors) }, n: PAGE + 1 },
  );
  await holdersPage(
    explaining,
    { contractId: data.big, by: 'amount' },
    { walk: 'forward', from: { account, amount }, n: PAGE + 1 },
  );
  await accountTokensPage(explaining, data.rich, { walk: 'backward', from: middle(data.tokenCursors), n: PAGE + 1 });
}

/** apiPart measures the AEX-9 pages against bare Koa, sequentially, in interleaved rounds. */
async function apiPart(
  pool: Pool,
  databaseUrl: string,
  schema: string,
  nodeUrl: string,
): Promise<Record<string, unknown>> {
  const data = await writeBigTokens(pool);
  if (EXPLAIN) await explainPages(pool, data);
  const server = await startMdwServer(
    {
      DATABASE_URL: databaseUrl,
      DATABASE_SCHEMA: schema,
      NODE_URL: nodeUrl,
      DATABASE_POOL_SIZE: '8',
      API_CACHE_MAX_BYTES: '0',
    },
    SERVER_NODE_OPTIONS,
  );
  const bare = await startBareKoa(0, SERVER_NODE_OPTIONS);
  const pick = (list: readonly string[]): string => list[Math.floor(Math.random() * list.length)]!;
  const holders = `/mdw/v3/aex9/${data.big}/balances?limit=${PAGE}`;
  const owned = `/mdw/v3/accounts/${data.rich}/aex9/balances?limit=${PAGE}`;
  const scenarios: [string, () => string, number][] = [
    ['holders_by_key_backward', () => `${holders}&cursor=${pick(data.holderCursors)}`, 20],
    ['holders_by_key_forward', () => `${holders}&direction=forward&cursor=${pick(data.holderCursors)}`, 20],
    ['holders_by_amount_backward', () => `${holders}&by=amount&cursor=${pick(data.amountCursors)}`, 20],
    [
      'holders_by_amount_forward',
      () => `${holders}&by=amount&direction=forward&cursor=${pick(data.amountCursors)}`,
      20,
    ],
    ['holders_first_page_by_amount', () => `${holders}&by=amount`, 20],
    ['account_tokens_backward', () => `${owned}&cursor=${pick(data.tokenCursors)}`, 30],
    ['account_tokens_forward', () => `${owned}&direction=forward&cursor=${pick(data.tokenCursors)}`, 30],
    ['account_tokens_first_page', () => owned, 30],
  ];
  // unmeasured warm-up: the JIT, and the statements every pooled connection prepares on first use
  await load(bare.url, () => '/', REQUESTS, 4);
  for (const [, path] of scenarios) await load(server.url, path, Math.ceil(REQUESTS / 4), 4);
  const results: Record<string, Result> = {};
  const ratios: Record<string, number[]> = {};
  const measure = async (name: string, child: Child, path: () => string): Promise<Result> => {
    const cpu = cpuMicros(child.pid);
    const r = await load(child.url, path, REQUESTS, 1);
    const result = {
      ...r,
      serverCpuUsPerRequest: Number(((cpuMicros(child.pid) - cpu) / (r.requests + 1)).toFixed(1)),
    };
    results[name] = result;
    console.log(
      `${name.padEnd(40)} ${r.perSecond.toFixed(0).padStart(6)} req/s   p50 ${r.p50Ms.toFixed(2)} ms   p99 ${r.p99Ms.toFixed(2)} ms   server CPU ${result.serverCpuUsPerRequest.toFixed(0)} µs/req   load ${r.load1}`,
    );
    return result;
  };
  for (let round = 1; round <= ROUNDS; round++) {
    const baseline = await measure(`bare_koa_round${round}`, bare, () => '/');
    for (const [name, path] of scenarios) {
      const r = await measure(`${name}_round${round}`, server, path);
      (ratios[name] ??= []).push(Number((r.perSecond / baseline.perSecond).toFixed(3)));
    }
  }
  await Promise.all([server.stop(), bare.stop()]);
  const summary = Object.fromEntries(
    scenarios.map(([name, , target]) => {
      const p99s = Array.from({ length: ROUNDS }, (_, i) => results[`${name}_round${i + 1}`]!.p99Ms);
      return [
        name,
        {
          vsBareKoa: { median: median(ratios[name]!), rounds: ratios[name] },
          p99Ms: { max: Math.max(...p99s), rounds: p99s },
          targetP99Ms: target,
        },
      ];
    }),
  );
  console.log(JSON.stringify(summary));
  return { results, summary };
}

await main();
