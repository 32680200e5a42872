/**
 * @module Scale benchmark (issue 57): every route asked at two sizes of a mainnet-like chain with hot spots
 * (`mdw devnode --scale P`, src/devnode/traffic/hot-spots.ts), loaded by the real populator (bench/scale-chain.lib.ts keeps
 * each loaded database for later runs), with worst-case parameters: the hot account, contract, token, channel, oracle
 * and names, both ends of every list (its first page, the first page read forwards, the next page), counts, a
 * one-letter prefix, statistics over the whole chain. Prints, per request, p50 and p99 of the answer's time in the
 * server (bench/server-timing.hook.ts), the server's and PostgreSQL's CPU per request, and the growth from the smaller
 * size to the larger (p50 ÷ p50: the p99 of a few samples on a shared machine is noise); for each request that misses
 * (p99 > 50 ms at the larger size, or growth > 1.5) the EXPLAIN (ANALYZE, BUFFERS) of its statements (auto_explain).
 * Writes bench/results/scale.json.
 *
 *   make bench ONLY=scale                 (0.05 % and 0.5 % of mainnet: ten times apart, 10–25 minutes here)
 *   BENCH_SCALE=1,10 make bench ONLY=scale   (the issue's sizes: hours here; a load stopped and started again on
 *     the same tree resumes with its tenths' times kept; to resume or ask on a later tree, rename its data directory:
 *     a kept database is migrated before the servers start)
 *   BENCH_SCALE=0.5 BENCH_SCALE_PG_MEMORY=128M make bench ONLY=scale   (one size: its load only, the server in a
 *     memory cgroup of 128 MB (bench/pg-memory.lib.ts); prints the rate per tenth, the cgroup's memory, the tables)
 *   BENCH_SCALE=1 BENCH_SCALE_NO_DEVNODE=1 BENCH_SCALE_ONLY=export make bench ONLY=scale   (one size's export alone,
 *     on its kept database)
 *
 * The routes come from the route tables: ae_mdw's /mdw/v3 (src/api/mdw/rest/operations.ts) and /middleware with the
 * node's cached /v2 and /v3 (src/api/legacy/legacy-openapi.ts), so a new route is measured without an edit; plus
 * GraphQL's heaviest documents and a websocket replay of the last 1 000 heights. BENCH_SCALE_SAMPLES (default 20) sets
 * the requests per row, one after another; BENCH_SCALE_ONLY (a regular expression) keeps the rows whose name or path it
 * matches, to compare a few routes before and after a change (the websocket replay runs only without it). Last, the
 * hot account's whole history is exported as CSV and as NDJSON at each size (issue 61: rows/s, CPU per row, the server's memory
 * above idle; with BENCH_SCALE_ONLY only when it matches `export`). BENCH_SERVER_NODE_OPTIONS adds the servers' Node flags
 * (`--cpu-prof --cpu-prof-dir=DIR` to profile them).
 */
import { request } from 'node:http';
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { reprefix } from '../src/chain/encoding.ts';
import { idKey, idOfKey, txTypeCode } from '../src/chain/id-key.ts';
import { OPERATIONS } from '../src/api/legacy/legacy-openapi.ts';
import { V3_OPERATIONS } from '../src/api/mdw/rest/operations.ts';
import { hotSpotKeys } from '../src/devnode/traffic/hot-spots.ts';
import { serverNodeOptions } from '../src/operator/specs/server-deployment.ts';
import { channelId, contractId } from '../src/devnode/ids.ts';
import { GENESIS_TIME } from '../src/devnode/generator.ts';
import { cpuMicros, killChildrenOnExit, percentile, serverTimes, startMdwServer, type Child } from './http.lib.ts';
import { postgresCpuReader } from './process-cpu.lib.ts';
import { rssMb, withPeakRss } from './process-memory.lib.ts';
import { writeResult } from './results.lib.ts';
import { databaseSize, sizeLines } from './db-size.lib.ts';
import { scaleChain, type ScaleChain } from './scale-chain.lib.ts';
import { filledPath, type RouteValues } from '../test/support/route-values.ts';

const SIZES = (process.env.BENCH_SCALE ?? '0.05,0.5').split(',').map(Number);
const SAMPLES = Number(process.env.BENCH_SCALE_SAMPLES ?? 20);
const ONLY = process.env.BENCH_SCALE_ONLY ? new RegExp(process.env.BENCH_SCALE_ONLY) : undefined;
const SEED = 'bench-scale';
const LIMIT = 100;
const TARGET_P99_MS = 50;
const TARGET_GROWTH = 1.5;
const REPLAY_HEIGHTS = 1000;

interface Row {
  readonly status: number;
  readonly p50: number;
  readonly p99: number;
  readonly serverCpuUs: number;
  readonly postgresCpuUs: number;
}

/** HotIds are the worst-case values of the route parameters: the hot spots of the chain and its busiest places. */
interface HotIds extends RouteValues {
  /** the owner of the most names */
  readonly nameOwner: string;
  readonly top: number;
  /** the account of the most spends, the one of the most spends received but it, the one that paid itself most */
  readonly spender: string;
  readonly spendRecipient: string;
  readonly selfPayer: string;
  /** the contract whose calls made the most internal calls (the DEX router or wrapped AE: their AE legs) */
  readonly internalCaller: string;
}

/** busiestInInternalCalls is the contract whose calls made the most internal calls (none: ''). */
async function busiestInInternalCalls(chain: ScaleChain): Promise<string> {
  const { rows } = await chain.pool.query<{ contract_id: string }>(
    `SELECT c.contract_id FROM contract_internal_calls i
       JOIN contract_calls c ON c.height = i.height AND c.micro_index = i.micro_index AND c.tx_index = i.tx_index
      GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`,
  );
  return rows[0]?.contract_id ?? '';
}

/**
 * busiestInSpends reads the kept counts per account, type and fields (migration 1015) for the spends' busiest ends:
 * the two busy accounts of the from-to route and the account of the count of A paying A (their ids' numbers read back
 * as ids), which the hot spots do not name.
 */
async function busiestInSpends(chain: ScaleChain): Promise<Pick<HotIds, 'spender' | 'spendRecipient' | 'selfPayer'>> {
  const busiest = async (fields: string, not = ''): Promise<string> => {
    const { rows } = await chain.pool.query<{ key: Buffer }>(
      `SELECT i.key FROM account_tx_counts k JOIN account_ids i ON i.num = k.account
        WHERE k.tx_type = $1 AND k.fields LIKE $2 AND i.key <> $3 ORDER BY k.n DESC LIMIT 1`,
      [txTypeCode('SpendTx'), fields, not === '' ? Buffer.alloc(0) : idKey(not)],
    );
    return rows[0] ? idOfKey(rows[0].key) : '';
  };
  const spender = await busiest('sender_id');
  return { spender, spendRecipient: await busiest('recipient_id', spender), selfPayer: await busiest('% %') };
}

async function json(url: string): Promise<{ [k: string]: unknown }> {
  const res = await fetch(url);
  return res.ok ? ((await res.json()) as { [k: string]: unknown }) : {};
}

const first = (body: { [k: string]: unknown }, field: string): string =>
  String(((body.data as { [k: string]: unknown }[] | undefined)?.[0] ?? {})[field] ?? '');

async function hotIds(chain: ScaleChain, api: string): Promise<HotIds> {
  const [account, oracle, initiator, responder, nameOwner] = hotSpotKeys(SEED).map((k) => k.address) as [
    string,
    string,
    string,
    string,
    string,
  ];
  const top = chain.facts.top;
  // the middle of the first busy era (mainnet-like.ts: eras 3 and 7 of 10)
  const busyHeight = Math.floor(top * 0.35);
  const v3 = `${api}/mdw/v3`;
  const hotTxs = await json(`${v3}/transactions?account=${account}&limit=1`);
  return {
    account,
    nameOwner,
    contract: contractId(account, 1),
    token: contractId(account, 2),
    channel: channelId(initiator, 1, responder),
    oracle: reprefix(oracle, 'ok'),
    name: first(await json(`${v3}/names?owned_by=${nameOwner}&limit=1`), 'name'),
    auction: first(await json(`${v3}/names/auctions?limit=1`), 'name'),
    collection: first(await json(`${v3}/aex141?limit=1`), 'contract_id'),
    busyHeight,
    top,
    keyBlockHash: String((await json(`${v3}/key-blocks/${busyHeight}`)).hash ?? ''),
    microBlock: first(hotTxs, 'block_hash'),
    tx: first(hotTxs, 'hash'),
    ...(await busiestInSpends(chain)),
    internalCaller: await busiestInInternalCalls(chain),
  };
}

/** HOT_QUERIES: a query parameter's worst-case value, one request each (the widest scope, the hot spots). */
const HOT_QUERIES = (ids: HotIds): Record<string, string> => ({
  account: ids.account,
  contract: ids.contract,
  contract_id: ids.contract,
  channel: ids.channel,
  oracle: ids.oracle,
  id: ids.account,
  sender_id: `${ids.account}&recipient_id=${ids.account}`,
  caller_id: ids.account,
  owned_by: ids.nameOwner,
  prefix: 'h',
  scope: `gen:1-${ids.top}`,
  // a past height in the busy era: a balance there is read from the events, not the kept balances
  height: String(ids.busyHeight),
  interval_by: 'day',
  min_start_date: new Date(GENESIS_TIME).toISOString().slice(0, 10),
});

/** requests are every route's worst-case requests: name → path (a `next` row is added while measuring). */
function requests(ids: HotIds): [string, string][] {
  const list: [string, string][] = [];
  const hot = HOT_QUERIES(ids);
  for (const op of V3_OPERATIONS) {
    const path = `/mdw/v3${filledPath(op.path, ids)}`;
    const paged = op.params.includes('limit') || op.params.includes('statsLimit');
    const base = paged ? `${path}?limit=${LIMIT}` : path;
    const join = (q: string): string => `${base}${base.includes('?') ? '&' : '?'}${q}`;
    list.push([`v3 ${op.path}`, base]);
    if (op.params.includes('direction')) list.push([`v3 ${op.path} forward`, join('direction=forward')]);
    for (const param of op.params) {
      const name = param.replace(/^query:/, '');
      if (!param.startsWith('query:') && param !== 'scope') continue;
      if (hot[name] !== undefined) list.push([`v3 ${op.path} ${name}=hot`, join(`${name}=${hot[name]}`)]);
    }
  }
  for (const op of OPERATIONS) {
    if (op.method !== 'get') continue;
    const path = filledPath(op.path, ids);
    list.push([op.path, op.params.includes('limit') ? `${path}?limit=${LIMIT}` : path]);
  }
  const graphql = (name: string, query: string): [string, string] => [
    `graphql ${name}`,
    `/mdw/graphql?query=${encodeURIComponent(query)}`,
  ];
  // the worst cases no route's own parameters reach: a name query of one letter and of two letters few names hold
  // (no trigram: migration 1076's grams), one whose trigrams most names share (the part before the dot of the hot
  // spot's names), two busy accounts with few spends between them, and the count of A paying A within a scope (not the
  // whole chain's); a chain without such accounts (the smallest sizes may have no self-payment) goes without the row
  const label = ids.name.split('.')[0]!;
  list.push(
    ['/middleware/names/{query} one letter', '/middleware/names/q'],
    ['/middleware/names/{query} two rare letters', '/middleware/names/zq'],
    ['/middleware/names/{query} shared trigrams', `/middleware/names/${encodeURIComponent(label)}`],
  );
  if (ids.spender && ids.spendRecipient)
    list.push(
      [
        '/middleware/transactions/account/{sender}/to/{receiver} two busy',
        `/middleware/transactions/account/${ids.spender}/to/${ids.spendRecipient}?limit=${LIMIT}`,
      ],
      [
        'v3 /transactions sender_id, recipient_id two busy',
        `/mdw/v3/transactions?limit=${LIMIT}&sender_id=${ids.spender}&recipient_id=${ids.spendRecipient}`,
      ],
    );
  if (ids.selfPayer)
    list.push([
      'v3 /transactions/count A pays A in a scope',
      `/mdw/v3/transactions/count?scope=gen:1-${ids.top - 1}&sender_id=${ids.selfPayer}&recipient_id=${ids.selfPayer}`,
    ]);
  // the internal calls of the contract that made most of them (the hot contract made none), and of one function
  const calls = `/mdw/v3/contracts/calls?limit=${LIMIT}`;
  if (ids.internalCaller)
    list.push(['v3 /contracts/calls contract_id=busiest', `${calls}&contract_id=${ids.internalCaller}`]);
  list.push(['v3 /contracts/calls function=Chain.spend', `${calls}&function=Chain.spend`]);
  const tx = 'hash blockHeight microIndex txIndex tx';
  list.push(
    graphql('transactions with blocks', `{ transactions(limit: ${LIMIT}) { data { ${tx} block { hash height } } } }`),
    graphql(
      'hot account transactions',
      `{ transactions(limit: ${LIMIT}, account: "${ids.account}") { data { ${tx} } nextCursor } }`,
    ),
  );
  return list;
}

/** A size made ready to be asked: its chain (loaded now or kept), a server on it and its requests by name. */
interface Size {
  readonly percent: number;
  readonly chain: ScaleChain;
  readonly server: Child;
  readonly postgresCpu: () => number;
  readonly paths: Map<string, string>;
}

async function ready(percent: number): Promise<Size> {
  const chain = await loaded(percent);
  // a pod's Node flags (one without a memory limit, as this machine has none); the hot account's export is read whole (exportRun): no row cap or lifetime cuts it short
  const server = await startMdwServer(
    { ...chain.env, API_CACHE_MAX_BYTES: '0', EXPORT_MAX_ROWS: String(10 ** 9), EXPORT_MAX_SECONDS: '7200' },
    `${serverNodeOptions(undefined)} ${process.env.BENCH_SERVER_NODE_OPTIONS ?? ''}`.trim(),
    { timed: true },
  );
  const postgresCpu = await postgresCpuReader(chain.env.DATABASE_URL!);
  const paths = new Map(
    requests(await hotIds(chain, server.url)).filter(([name, path]) => !ONLY || ONLY.test(name) || ONLY.test(path)),
  );
  return { percent, chain, server, postgresCpu, paths };
}

/**
 * measureTogether asks each size its own path of one request, SAMPLES times, taking turns between the sizes (and
 * turning the order each round): whatever else the machine does meanwhile, every size meets it alike, so their times'
 * ratio is the chain's growth, not the load's. Each size's row also names its next page, when its answer has one.
 */
async function measureTogether(asks: readonly { size: Size; path: string }[]): Promise<(Row & { next?: string })[]> {
  const texts: { status: number; text: string }[] = [];
  for (const { size, path } of asks) {
    const warm = await fetch(`${size.server.url}${path}`);
    texts.push({ status: warm.status, text: await warm.text() });
  }
  for (const { size } of asks) await serverTimes(size.server);
  const cpu0 = asks.map(({ size }) => [cpuMicros(size.server.pid), size.postgresCpu()] as const);
  const statuses = texts.map((t) => t.status);
  for (let i = 0; i < SAMPLES; i++) {
    const order = i % 2 === 0 ? asks.keys() : [...asks.keys()].reverse();
    for (const j of order) {
      const { size, path } = asks[j]!;
      const res = await fetch(`${size.server.url}${path}`);
      await res.arrayBuffer();
      statuses[j] = res.status;
    }
  }
  const rows: (Row & { next?: string })[] = [];
  for (const [j, { size }] of asks.entries()) {
    const times = await serverTimes(size.server);
    const [cpu, pg] = cpu0[j]!;
    const next = nextPage(texts[j]!.text);
    rows.push({
      status: statuses[j]!,
      p50: percentile(times, 0.5),
      p99: percentile(times, 0.99),
      serverCpuUs: Math.round((cpuMicros(size.server.pid) - cpu) / SAMPLES),
      postgresCpuUs: Math.round(((size.postgresCpu() - pg) * 1e6) / SAMPLES),
      ...(next ? { next } : {}),
    });
  }
  return rows;
}

/** nextPage is the path of an answer's next page, if it names one. */
function nextPage(text: string): string | undefined {
  try {
    const body = JSON.parse(text) as { next?: unknown };
    // ae_mdw's next links are its own paths (`/v3/…`), under /mdw here
    if (typeof body.next === 'string' && body.next !== '')
      return body.next.startsWith('/mdw') ? body.next : `/mdw${body.next}`;
  } catch {
    // not JSON: no next page
  }
  return undefined;
}

/** replay subscribes to the Transactions of the last heights and times until every stored one has come. */
async function replay(api: string, chain: ScaleChain): Promise<number> {
  const from = Math.max(1, chain.facts.top - REPLAY_HEIGHTS + 1);
  const { rows } = await chain.pool.query<{ n: string }>('SELECT count(*) AS n FROM transactions WHERE height >= $1', [
    from,
  ]);
  const expected = Number(rows[0]!.n);
  const ws = new WebSocket(`${api.replace('http', 'ws')}/mdw/v3/websocket`);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const t0 = performance.now();
  let seen = 0;
  await new Promise<void>((resolve) => {
    ws.on('message', (data: Buffer) => {
      if (String(data).startsWith('{') && ++seen >= expected) resolve();
    });
    ws.send(JSON.stringify({ op: 'Subscribe', payload: 'Transactions', source: 'mdw', from_height: from }));
  });
  ws.close();
  return performance.now() - t0;
}

/** loaded loads the chain of `percent` % (or starts its kept database) and prints how the load went. */
async function loaded(percent: number): Promise<ScaleChain> {
  const chain = await scaleChain(percent, SEED);
  const { facts } = chain;
  console.log(
    `scale ${percent} %: ${facts.top} generations, ${facts.transactions} transactions; generated in ${chain.generatedSeconds.toFixed(0)} s (devnode RSS ${chain.devnodeRssMb.generated} MB, peak ${chain.devnodeRssMb.peak} MB)` +
      `; ${chain.loadedNow ? 'loaded' : 'kept from an earlier run, loaded'} in ${facts.loadSeconds.toFixed(0)} s`,
  );
  for (const [i, t] of facts.tenths.entries())
    console.log(
      `  tenth ${i + 1}: ${(t.heights / t.seconds).toFixed(1)} gens/s, ${(t.transactions / t.seconds).toFixed(0)} tx/s` +
        (t.populatorCpuSeconds === undefined
          ? ''
          : `, CPU per tx: populator ${((t.populatorCpuSeconds * 1e6) / t.transactions).toFixed(0)} µs, ` +
            `PostgreSQL ${(((t.postgresCpuSeconds ?? 0) * 1e6) / t.transactions).toFixed(0)} µs`) +
        (facts.memory ? `, PostgreSQL's page cache ${facts.memory.cacheMbByTenth[i]} MB at its end` : ''),
    );
  const mb = (bytes: number): string => `${Math.round(bytes / 2 ** 20)} MB`;
  const m = facts.memory;
  if (m)
    console.log(
      `  cgroup: limit ${mb(m.limit)}, peak usage ${mb(m.maxUsage)} (memory.max_usage_in_bytes); at the end cache ${mb(m.cache)}, rss ${mb(m.rss)}`,
    );
  const size = await databaseSize(chain.env.DATABASE_URL!, chain.env.DATABASE_SCHEMA!, facts.transactions);
  console.log(sizeLines(size, facts.transactions).join('\n'));
  return chain;
}

type Rows = Record<string, Row & { path: string }>;

/** askAll asks every request of both sizes, together (measureTogether), and then each one's next page. */
async function askAll(sizes: readonly [Size, Size]): Promise<[Rows, Rows]> {
  const rows: [Rows, Rows] = [{}, {}];
  for (const name of sizes[1].paths.keys()) {
    let label = name;
    let asks = sizes.flatMap((size, i) => (size.paths.has(name) ? [{ i, size, path: size.paths.get(name)! }] : []));
    while (asks.length > 0) {
      const measured = await measureTogether(asks);
      const nexts: typeof asks = [];
      for (const [k, { i, size, path }] of asks.entries()) {
        const { next, ...row } = measured[k]!;
        rows[i]![label] = { ...row, path };
        if (next && label === name) nexts.push({ i, size, path: next });
      }
      [asks, label] = [nexts, `${name} next`];
    }
  }
  return rows;
}

/** replayRow is the websocket replay of a size's last heights, as a row. */
async function replayRow(size: Size): Promise<Row & { path: string }> {
  const replayMs = Number((await replay(size.server.url, size.chain)).toFixed(1));
  const from = size.chain.facts.top - REPLAY_HEIGHTS + 1;
  return { status: 200, p50: replayMs, p99: replayMs, serverCpuUs: 0, postgresCpuUs: 0, path: `from_height ${from}` };
}

/** An export read whole: its rows and time, the CPU per row of the server and PostgreSQL, the server's peak above idle. */
interface ExportRun {
  readonly rows: number;
  readonly mb: number;
  readonly seconds: number;
  readonly serverCpuUsPerRow: number;
  readonly postgresCpuUsPerRow: number;
  readonly peakRssMbAboveIdle: number;
}

/** The export's two formats by their media type: CSV (the default) leaves out the columns no CSV line shows. */
const EXPORT_FORMATS = { CSV: 'text/csv', NDJSON: 'application/x-ndjson' } as const;
type ExportFormat = keyof typeof EXPORT_FORMATS;

/**
 * exportRun reads the hot account's whole history in `format` (issue 61's target: 2 M rows in under 60 s, under 50 MB
 * above idle), as fast as this process takes it.
 */
async function exportRun(size: Size, account: string, format: ExportFormat): Promise<ExportRun> {
  const { server } = size;
  const path = `/mdw/v3/accounts/${account}/transactions/export`;
  // a short export first: the idle figure is a server that has exported, as the routes asked before leave it
  await readExport(`${server.url}${path}?limit=${10 * LIMIT}`, format);
  const idle = rssMb(server.pid);
  const [cpu0, pg0, t0] = [cpuMicros(server.pid), size.postgresCpu(), performance.now()];
  const {
    result: { rows, bytes, complete },
    peakMb,
  } = await withPeakRss(server.pid, () => readExport(`${server.url}${path}`, format));
  const seconds = (performance.now() - t0) / 1000;
  if (!complete) throw new Error(`the export of ${account} was cut short after ${rows} rows`);
  return {
    rows,
    mb: Math.round(bytes / 1e6),
    seconds: Number(seconds.toFixed(1)),
    serverCpuUsPerRow: Math.round((cpuMicros(server.pid) - cpu0) / rows),
    postgresCpuUsPerRow: Math.round(((size.postgresCpu() - pg0) * 1e6) / rows),
    peakRssMbAboveIdle: Math.round(peakMb - idle),
  };
}

/** printedExportRuns are exportRun of the hot account in each format, printed. */
async function printedExportRuns(size: Size): Promise<Record<ExportFormat, ExportRun>> {
  const runs = {} as Record<ExportFormat, ExportRun>;
  for (const format of Object.keys(EXPORT_FORMATS) as ExportFormat[]) {
    const run = (runs[format] = await exportRun(size, hotSpotKeys(SEED)[0]!.address, format));
    console.log(
      `export of the hot account at ${size.percent} % (${format}): ${run.rows} rows, ${run.mb} MB in ${run.seconds} s ` +
        `(${Math.round(run.rows / run.seconds)} rows/s; 2 M rows: ${Math.round((2e6 * run.seconds) / run.rows)} s), ` +
        `CPU per row: server ${run.serverCpuUsPerRow} µs, PostgreSQL ${run.postgresCpuUsPerRow} µs; ` +
        `server peak ${run.peakRssMbAboveIdle} MB above idle`,
    );
  }
  return runs;
}

/** readExport reads an export: its rows (lines, less CSV's header) and bytes, and whether its trailer says it is complete. */
function readExport(url: string, format: ExportFormat): Promise<{ rows: number; bytes: number; complete: boolean }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { accept: EXPORT_FORMATS[format], te: 'trailers' } }, (res) => {
      let [rows, bytes] = [format === 'CSV' ? -1 : 0, 0];
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) rows++;
      });
      res.once('end', () => resolve({ rows, bytes, complete: res.trailers['export-complete'] === 'true' }));
      res.once('error', reject);
    })
      .once('error', reject)
      .end();
  });
}

/** summary is what the results file keeps of a size's chain and its load. */
function summary({ chain }: Size): object {
  const { facts } = chain;
  return {
    top: facts.top,
    transactions: facts.transactions,
    generatedSeconds: Math.round(chain.generatedSeconds),
    devnodeRssMb: chain.devnodeRssMb,
    loadSeconds: Math.round(facts.loadSeconds),
    loadedNow: chain.loadedNow,
    tenths: facts.tenths,
  };
}

/** missed is whether a row misses its target: p99 above 50 ms, or its p50 grown more than 1.5 times. */
function missed(large: Row, small: Row | undefined): boolean {
  return large.p99 > TARGET_P99_MS || (small !== undefined && large.p50 / Math.max(small.p50, 0.001) > TARGET_GROWTH);
}

/** explainMisses prints EXPLAIN (ANALYZE, BUFFERS) of every statement of each request that misses (auto_explain). */
async function explainMisses({ chain }: Size, rows: Rows, smallRows: Rows): Promise<void> {
  const misses = Object.entries(rows).filter(
    ([name, r]) => !name.startsWith('websocket') && missed(r, smallRows[name]),
  );
  if (misses.length === 0) return;
  const settings = [
    "session_preload_libraries = 'auto_explain'",
    'auto_explain.log_min_duration = 0',
    'auto_explain.log_analyze = on',
    'auto_explain.log_buffers = on',
  ];
  for (const s of settings) await chain.pool.query(`ALTER SYSTEM SET ${s}`);
  await chain.pool.query('SELECT pg_reload_conf()');
  // a server of its own: the measured one's connections were opened before auto_explain was loaded
  const server = await startMdwServer({ ...chain.env, API_CACHE_MAX_BYTES: '0' });
  for (const [name, r] of misses) {
    chain.takeLog();
    await (await fetch(`${server.url}${r.path}`)).arrayBuffer();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const plans = chain
      .takeLog()
      .join('\n')
      .split(/\n(?=\S.*LOG: )/)
      .filter((entry) => entry.includes('plan:'));
    console.log(`\n--- EXPLAIN (ANALYZE, BUFFERS) of ${name}: ${r.path}\n${plans.join('\n')}`);
  }
  await server.stop();
  for (const s of settings) await chain.pool.query(`ALTER SYSTEM RESET ${s.split(' ')[0]}`);
  await chain.pool.query('SELECT pg_reload_conf()');
}

async function main(): Promise<void> {
  killChildrenOnExit();
  // one size: its load alone, or its export when BENCH_SCALE_ONLY asks for it (no routes to compare with a smaller one)
  if (SIZES.length === 1 && !ONLY?.test('export')) return (await loaded(SIZES[0]!)).stop();
  if (SIZES.length === 1) {
    const size = await ready(SIZES[0]!);
    await printedExportRuns(size);
    await size.server.stop();
    return size.chain.stop();
  }
  const [small, large] = [...SIZES].sort((a, b) => a - b) as [number, number];
  // both sizes stay up, so that each request is asked of both in turns
  const sizes: [Size, Size] = [await ready(small), await ready(large)];
  const [a, b] = await askAll(sizes);
  if (!ONLY)
    for (const [size, rows] of [
      [sizes[0], a],
      [sizes[1], b],
    ] as const)
      rows[`websocket replay of ${REPLAY_HEIGHTS} heights`] = await replayRow(size);
  await explainMisses(sizes[1], b, a);
  const exports: Record<number, Record<ExportFormat, ExportRun>> = {};
  if (!ONLY || ONLY.test('export')) for (const size of sizes) exports[size.percent] = await printedExportRuns(size);
  const cell = (r: Row | undefined): string =>
    r ? `${r.p50.toFixed(1)} / ${r.p99.toFixed(1)}${r.status === 200 ? '' : ` (${r.status})`}` : '–';
  console.log(
    `\n| request | ${small} %: p50 / p99 ms | ${large} %: p50 / p99 ms | growth (p50) | server / PostgreSQL CPU µs, ${small} → ${large} % | |`,
  );
  console.log('|---|---|---|---|---|---|');
  for (const [name, r] of Object.entries(b)) {
    const growth = a[name] ? r.p50 / Math.max(a[name].p50, 0.001) : NaN;
    console.log(
      `| \`${name}\` | ${cell(a[name])} | ${cell(r)} | ${growth.toFixed(2)} | ${a[name] ? `${a[name].serverCpuUs} / ${a[name].postgresCpuUs} → ` : ''}${r.serverCpuUs} / ${r.postgresCpuUs} | ${missed(r, a[name]) ? 'miss' : ''} |`,
    );
  }
  writeResult('scale', {
    date: new Date().toISOString(),
    sizes: { [small]: summary(sizes[0]), [large]: summary(sizes[1]) },
    samples: SAMPLES,
    targets: { p99Ms: TARGET_P99_MS, growth: TARGET_GROWTH },
    rows: { [small]: a, [large]: b },
    exports,
    machine: { cpus: availableParallelism(), note: 'shared by other jobs while measuring; compare ratios' },
  });
  for (const size of sizes) {
    await size.server.stop();
    await size.chain.stop();
  }
}

await main();
