/** @module /v3 test harness: a generated devnode chain, the populator, our HTTP server on a free port and the SDK's Middleware client. */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { Middleware } from '@aeternity/aepp-sdk';
import prom from 'prom-client';
import { createApp } from '../../../src/api/app.ts';
import { parseJson, stringifyJson, type Json } from '../../../src/chain/json.ts';
import { loadConfig, type Config } from '../../../src/config/middleware.ts';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import { genesisAccountsJson, startDevnode, type Devnode, type DevnodeOptions } from '../../../src/devnode/index.ts';
import { writeNodeFiles } from '../../../src/cli/dev/node-files.ts';
import type { GenerateOptions } from '../../../src/devnode/generator.ts';
import { startPopulator, type Populator } from '../../../src/indexer/sync/populator.ts';
import { verifyChain } from '../../../src/indexer/maintenance/verify.ts';
import { startWebsocketServer } from '../../../src/events/ws-server.ts';
import type { Role } from '../../../src/base/roles.ts';
import { plainGet } from '../../support/app-request.ts';
import { createPopulatedDatabase, createTestDatabase } from '../../support/postgres.ts';
import { populateToTop } from '../../support/populate.ts';
import { seededAccounts } from '../../support/seeded-accounts.ts';
import { MemoryAccount } from '@aeternity/aepp-sdk';
import { expect } from 'chai';
import { silentLog } from '../api/harness.ts';
import './sdk-workaround.ts';

type Obj = { [key: string]: Json };

/** A transaction of the node's chain with its place. */
export interface ChainTx {
  readonly hash: string;
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly blockHash: string;
  readonly signed: Obj;
}

/** The node's chain as its HTTP API shows it: the truth every /v3 answer is compared with. */
export interface ChainTruth {
  readonly keyBlocks: readonly Obj[];
  readonly microBlocks: ReadonlyMap<number, readonly Obj[]>;
  readonly transactions: readonly ChainTx[];
}

export interface V3UnderTest {
  readonly devnode: Devnode;
  readonly pool: Pool;
  /** the server's URL: the node's API at /v2 and /v3, ae_mdw's at /mdw/v3 */
  readonly url: string;
  /** the SDK's Middleware client, given the server's URL with `/mdw` as a gateway's users give it */
  readonly mdw: Middleware;
  /** the websocket server's base URL (ws://host:port) */
  readonly wsUrl: string;
  /** spend submits a SpendTx from a prefunded account to the recipient (mined with the next micro block) */
  spend(recipient: string, amount: number): Promise<string>;
  /** submit signs an unsigned `tx_…` with prefunded account `signer` (or an `sk_` secret key) and posts it; the tx hash */
  submit(tx: string, signer?: number | string): Promise<string>;
  nodeGet(path: string): Promise<Json>;
  /** the settings (environment) the populator and the server were started with */
  readonly settings: Record<string, string>;
  /** serveWith runs another server over the same database with some settings changed (stop it with `close`) */
  serveWith(overrides: Record<string, string>): Promise<{ url: string; close(): Promise<void> }>;
  /** get fetches a path of the server (ae_mdw's under /mdw/v3) */
  get(path: string): Promise<{ status: number; body: Json; text: string }>;
  /** walk follows a raw list's `next` links from `path` to the end (every page must answer 200): every item */
  walk(path: string): Promise<Obj[]>;
  /** the chain as the node's API shows it, read once per chain state (perChainState) */
  truth(): Promise<ChainTruth>;
  /** synced resolves once the populator stored the devnode's top */
  synced(): Promise<void>;
  /** withoutPopulator runs `fn` with the populator stopped (a -H reload needs the schema's writer lock), then starts it again */
  withoutPopulator<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * aex9BalancesApart compares the balance /mdw/v3 serves each of `accounts` in `token` with `expected` (e.g. the
 * contract's dry-run answer): the differences, one line each (none: each served, 200, and equal).
 */
export async function aex9BalancesApart(
  v3: V3UnderTest,
  token: string,
  accounts: readonly string[],
  expected: ReadonlyMap<string, bigint>,
): Promise<string[]> {
  const apart: string[] = [];
  for (const account of accounts) {
    const ours = await v3.get(`/mdw/v3/aex9/${token}/balances/${account}`);
    const served = ours.status === 200 ? BigInt(String((ours.body as Obj).amount)) : `${ours.status} ${ours.text}`;
    if (served !== expected.get(account)) apart.push(`${account}: ${served} ≠ ${expected.get(account)}`);
  }
  return apart;
}

/**
 * verifyClean checks every stored height against the devnode with the settings the populator ran with (`mdw -v
 * --full`): no difference at all, full JSON included.
 */
export async function verifyClean(v3: V3UnderTest): Promise<void> {
  const lines: string[] = [];
  const report = await verifyChain(
    { cfg: loadConfig(v3.settings), log: silentLog, out: (l) => lines.push(l) },
    { full: true },
  );
  expect(lines).to.deep.equal([]);
  expect(report.differences).to.equal(0);
}

/** mdwLink is the server path of a `next`/`prev` link of ae_mdw's API, which is relative to its base (`/v3/…`, under /mdw here). */
export function mdwLink(link: string | null): string | null {
  return link === null ? null : `/mdw${link}`;
}

/**
 * devnodeGet reads a path of the devnode's external API, lossless, over plain node:http (plainGet): the oracles read
 * the chain a request at a time, thousands of them, at a third of fetch's CPU each.
 */
async function devnodeGet(devnode: Devnode, path: string): Promise<Json> {
  return parseJson((await plainGet(`${devnode.externalUrl}${path}`)).text);
}

/** readChainTruth reads the devnode's chain as its HTTP API shows it, one request at a time: V3UnderTest.truth's. */
export async function readChainTruth(devnode: Devnode): Promise<ChainTruth> {
  const nodeGet = (path: string): Promise<Json> => devnodeGet(devnode, path);
  const keyBlocks: Obj[] = [];
  const microBlocks = new Map<number, Obj[]>();
  const transactions: ChainTx[] = [];
  for (let h = 0; h <= devnode.height(); h++) {
    const gen = (await nodeGet(`/v2/generations/height/${h}`)) as { key_block: Obj; micro_blocks: string[] };
    keyBlocks.push(gen.key_block);
    const micros: Obj[] = [];
    for (const [microIndex, mh] of gen.micro_blocks.entries()) {
      micros.push((await nodeGet(`/v2/micro-blocks/hash/${mh}/header`)) as Obj);
      const { transactions: txs } = (await nodeGet(`/v2/micro-blocks/hash/${mh}/transactions`)) as {
        transactions: Obj[];
      };
      txs.forEach((signed, txIndex) =>
        transactions.push({ hash: String(signed.hash), height: h, microIndex, txIndex, blockHash: mh, signed }),
      );
    }
    microBlocks.set(h, micros);
  }
  return { keyBlocks, microBlocks, transactions };
}

/**
 * perChainState reads something of the devnode's chain once per chain state: again only once its top block changed
 * (a block's hash names all the blocks before it). A read during which the chain moved is not kept. The tests' oracles
 * walk the node's API one request at a time; asked again of the same chain, they were most of a file's time.
 */
export function perChainState<T>(devnode: Devnode, read: () => Promise<T>): () => Promise<T> {
  let kept: { top: string; value: Promise<T> } | undefined;
  return () => {
    const top = devnode.chain.topHash;
    if (kept?.top === top) return kept.value;
    const value = read();
    const entry = { top, value };
    kept = entry;
    const forget = (): void => {
      if (kept === entry) kept = undefined;
    };
    value.then(() => {
      if (devnode.chain.topHash !== top) forget();
    }, forget);
    return value;
  };
}

/** MiddlewarePage is what the SDK's list methods return: a page that fetches its neighbours. */
export interface MiddlewarePage<T> {
  readonly data: T[];
  readonly nextPath: string | null;
  readonly prevPath: string | null;
  next(): Promise<MiddlewarePage<T>>;
  prev(): Promise<MiddlewarePage<T>>;
}
type Item = Record<string, unknown>;

/** walkPages follows `next` from the first page an SDK list method returned to the end: every item. */
export async function walkPages<T = Item>(first: unknown): Promise<T[]> {
  let current = first as MiddlewarePage<T>;
  const items = [...current.data];
  while (current.nextPath !== null) {
    current = await current.next();
    items.push(...current.data);
  }
  return items;
}

/** walkBack follows `prev` from an SDK page to the start: the items before it, in list order. */
export async function walkBack<T = Item>(last: unknown): Promise<T[]> {
  const items: T[] = [];
  for (let current = last as MiddlewarePage<T>; current.prevPath !== null;) {
    current = await current.prev();
    items.unshift(...current.data);
  }
  return items;
}

/**
 * startV3 runs devnode → populator → database → our server, and a Middleware client pointed at it; `env` adds
 * settings that depend on the generated chain (e.g. its wrapped AE). With 0 generations the devnode starts at
 * genesis (where `node.hardForks` may give it a protocol schedule); `node.profile` generates a mainnet-like chain,
 * `node.tokenShare` one with that share of token transactions, `node.shape` its micro blocks and transactions per
 * generation (fewer: a cheaper chain of the same length in time) and its key blocks' spacing in time,
 * `node.hotSpots` its hot spots.
 */
export async function startV3(
  generations = 30,
  seed = 'v3-api',
  /** the settings beside the harness's, told the devnode before the populator starts (a test may set it up there) */
  env: (devnode: Devnode) => Record<string, string> | Promise<Record<string, string>> = () => ({}),
  node: Pick<DevnodeOptions, 'gcHeight' | 'hardForks' | 'accounts' | 'dryRunTimeoutMs'> & {
    readonly profile?: 'mainnet-like';
    /** the share of token, NFT and DEX transactions (GenerateOptions.tokenShare) */
    readonly tokenShare?: number;
    /** a names registrar's AENS calls among them (GenerateOptions.registrar) */
    readonly registrar?: boolean;
    readonly shape?: Pick<GenerateOptions, 'microBlocksPerGeneration' | 'txsPerMicroBlock' | 'keyBlockSpacingMs'>;
    /** objects far busier than the mix makes them (GenerateOptions.hotSpots) */
    readonly hotSpots?: GenerateOptions['hotSpots'];
    /**
     * the database is a copy of the one the run populated for this chain and these settings (createPopulatedDatabase):
     * for a chain other files load the same way. Its prefunded accounts are then derived from the seed (a chain is
     * the same chain in every file only so)
     */
    readonly populatedOnce?: boolean;
    /** the file runs `-v --full`: its scratch schema comes migrated (createTestDatabase's verifyScratch) */
    readonly verifyScratch?: boolean;
  } = {},
): Promise<V3UnderTest> {
  const { profile, tokenShare, registrar, shape, hotSpots, populatedOnce, verifyScratch, ...options } = node;
  if (populatedOnce && !options.accounts) options.accounts = seededAccounts(seed);
  const devnode = await startDevnode(
    {
      port: 0,
      internalPort: 0,
      microBlockIntervalMs: 0,
      keyBlockIntervalMs: 0,
      ...(generations > 0
        ? {
            generate: {
              generations,
              seed,
              ...(profile ? { profile } : {}),
              ...(tokenShare ? { tokenShare } : {}),
              ...(registrar ? { registrar } : {}),
              ...(hotSpots ? { hotSpots } : {}),
              ...shape,
            },
          }
        : {}),
      ...options,
    },
    silentLog,
  );
  // the node's genesis accounts and hard-fork files, as a node operator gives the ones the node was started with
  const genesisDir = await mkdtemp(join(tmpdir(), 'mdw-genesis-'));
  const { genesisAccountsFile, forkFiles } = await writeNodeFiles(genesisDir, devnode.chain);
  const local = {
    GENESIS_ACCOUNTS_FILE: genesisAccountsFile,
    ...forkFiles,
    NODE_URL: devnode.externalUrl,
    NODE_INTERNAL_URL: devnode.internalUrl,
    WEBSOCKET_ADDRESS: '127.0.0.1:0',
  };
  const common = {
    REWARD_RULES: 'devnode',
    // the populator polls the node and PostgreSQL each interval while the file's cases run (a poll of the node's top,
    // its top generation and the stored rows: ~5 ms of CPU): every 50 ms that cost 0.06 CPU-s a second of the file's
    // wall; every 200 ms, a block a case mines waits at most 150 ms longer to be stored
    POLL_INTERVAL_MS: '200',
    DATABASE_SCHEMA: 'mdw_v3',
    ...(await env(devnode)),
  };
  // a copy of a template with the schema migrated, which the populator finds up to date (migrating it cost ~1 CPU s),
  // or of one populated with this chain (the chain named by its top block, whose hash covers every block before it)
  const db = populatedOnce
    ? await createPopulatedDatabase(
        'mdw_v3',
        stringifyJson({ top: devnode.chain.topHash, genesis: genesisAccountsJson(devnode.chain), options, common }),
        (url) => populateToTop(loadConfig({ ...local, ...common, DATABASE_URL: url }), undefined, silentLog),
      )
    : await createTestDatabase({ migrated: 'mdw_v3', verifyScratch: verifyScratch ?? false });
  const settings = { ...local, ...common, DATABASE_URL: db.url };
  const cfg = loadConfig(settings);
  let populator: Populator = await startPopulator({ cfg, log: silentLog, registry: new prom.Registry() });
  await populator.synced();
  const pool = createPool(
    { databaseUrl: db.url, schema: 'mdw_v3', configSchema: cfg.databaseConfigSchema, max: 4 },
    silentLog,
  );
  const serve = async (config: Config): Promise<{ url: string; server: Server }> => {
    const app = createApp({ cfg: config, log: silentLog, pool, registry: new prom.Registry(), version: 'test-build' });
    const server: Server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
  };
  const stopServer = (server: Server): Promise<void> =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  const { url, server } = await serve(cfg);
  const ws: Role & { url: string } = await startWebsocketServer({
    cfg,
    log: silentLog,
    pool,
    registry: new prom.Registry(),
  });
  const nodeGet = (path: string): Promise<Json> => devnodeGet(devnode, path);
  const submit = async (tx: string, signer: number | string = 0): Promise<string> => {
    const secretKey = typeof signer === 'string' ? signer : devnode.accounts[signer]!.secretKey;
    const signed = await new MemoryAccount(secretKey as `sk_${string}`).signTransaction(tx as `tx_${string}`, {
      networkId: 'ae_devnet',
    });
    const posted = await fetch(`${devnode.externalUrl}/v2/transactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tx: signed }),
    });
    const body = (await posted.json()) as { tx_hash?: string; reason?: string };
    if (!body.tx_hash) throw new Error(`transaction refused: ${body.reason}`);
    return body.tx_hash;
  };
  // over plain node:http (plainGet), uncompressed: the cases compare thousands of answers' contents, at a third of
  // fetch's CPU each (the SDK's client, `mdw`, and the encodings' own tests ask as a user's client does)
  const get = async (path: string): Promise<{ status: number; body: Json; text: string }> => {
    const { status, text } = await plainGet(`${url}${path}`);
    return { status, body: parseJson(text), text };
  };
  return {
    devnode,
    pool,
    url,
    mdw: new Middleware(`${url}/mdw`),
    wsUrl: ws.url,
    async spend(recipient, amount) {
      const { publicKey } = devnode.accounts[0]!;
      const built = await fetch(`${devnode.internalUrl}/v2/debug/transactions/spend`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ sender_id: publicKey, recipient_id: recipient, amount, fee: 20_000_000_000_000 }),
      });
      const { tx } = (await built.json()) as { tx: `tx_${string}` };
      return submit(tx, 0);
    },
    submit,
    nodeGet,
    settings,
    get,
    async walk(path) {
      const items: Obj[] = [];
      for (let next: string | null = path; next !== null;) {
        const res = await get(next);
        expect(res.status, `${next}: ${res.text}`).to.equal(200);
        const page = res.body as { data: Obj[]; next: string | null };
        items.push(...page.data);
        next = mdwLink(page.next);
      }
      return items;
    },
    async serveWith(overrides) {
      const other = await serve(loadConfig({ ...settings, ...overrides }));
      return { url: other.url, close: () => stopServer(other.server) };
    },
    truth: perChainState(devnode, () => readChainTruth(devnode)),
    async synced() {
      // stored top generation = the node's: same key block and the same micro blocks
      for (let i = 0; i < 400; i++) {
        const gen = (await nodeGet('/v2/generations/current')) as { key_block: Obj; micro_blocks: string[] };
        const { rows } = await pool.query<{ hash: string; micros: string[] }>(
          `SELECT k.hash, ARRAY(SELECT m.hash FROM micro_blocks m WHERE m.height = k.height ORDER BY m.micro_index) AS micros
             FROM key_blocks k WHERE k.height = $1`,
          [gen.key_block.height],
        );
        const r = rows[0];
        if (r && r.hash === gen.key_block.hash && r.micros.join() === gen.micro_blocks.join()) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('the populator did not reach the node top');
    },
    async withoutPopulator(fn) {
      await populator.stop();
      try {
        return await fn();
      } finally {
        populator = await startPopulator({ cfg, log: silentLog, registry: new prom.Registry() });
      }
    },
    async close() {
      await ws.stop();
      await stopServer(server);
      await populator.stop();
      await pool.end();
      await devnode.stop();
      await db.drop();
      await rm(genesisDir, { recursive: true, force: true });
    },
  };
}
