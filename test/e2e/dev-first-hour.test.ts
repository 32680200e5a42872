/**
 * @module Issue 44, a developer's first hour with `mdw dev`: it comes up where the default ports are taken, prints
 * funded keys the SDK can use through the printed URLs at once, and a restart never serves the previous chain.
 */
import { AeSdk, MemoryAccount, Name, Node, Oracle, OracleClient } from '@aeternity/aepp-sdk';
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { parseJson, toBigInt, type Json } from '../../src/chain/json.ts';
import { BYTECODE, startDevnode } from '../../src/devnode/index.ts';
import {
  ANY_MIDDLEWARE_PORTS,
  exitCode,
  printed,
  printedSettings,
  runMdw,
  startDev,
  stopDev,
  untilUp,
  type DevRun,
} from '../support/dev-run.ts';
import { silentLog } from '../integration/api/harness.ts';
import { waitFor } from '../support/wait.ts';

const DEFAULT_PORTS = [8080, 3020, 3013, 3113, 54320];

/** how often a case asks the middleware whether it stored what it waits for (mdw dev's populator polls every 500 ms) */
const POLL_MS = 200;

/** listen listens on a port as another program would: undefined when something else has it. */
function listen(port: number): Promise<Server | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/**
 * hold listens on a port, asking again for 10 s while something else has it: the defaults lie in Linux's ephemeral
 * range (54320 does), where a parallel test's socket can sit for a moment and be gone when mdw dev looks (it then
 * took the default). A port some other program keeps is taken anyway.
 */
async function hold(port: number): Promise<Server | undefined> {
  for (const until = Date.now() + 10_000; ; await new Promise((r) => setTimeout(r, 200))) {
    const server = await listen(port);
    if (server || Date.now() > until) return server;
  }
}

/** fundedAccounts reads the keys the banner prints for the developer: address, secret key, balance in AE. */
function fundedAccounts(run: DevRun): { address: string; secretKey: string; ae: string }[] {
  return [...run.output().matchAll(/^ {2}(ak_\w+) {2}(sk_\w+) {2}(\d+) AE$/gm)].map((m) => ({
    address: m[1]!,
    secretKey: m[2]!,
    ae: m[3]!,
  }));
}

/** getJson reads a JSON answer with its integers exact (balances exceed 2^53 aettos). */
async function getJson(url: string): Promise<{ status: number; body: Record<string, Json> }> {
  const res = await fetch(url);
  const text = await res.text();
  let body: Json = {};
  try {
    body = parseJson(text);
  } catch {
    // not JSON: an error page, judged by its status
  }
  return { status: res.status, body: body as Record<string, Json> };
}

describe('mdw dev, a first hour (issue 44)', function () {
  this.timeout(240_000);
  const held: Server[] = [];
  const runs: DevRun[] = [];

  before(async () => {
    for (const port of DEFAULT_PORTS) {
      const server = await hold(port);
      if (server) held.push(server);
    }
  });

  after(async () => {
    for (const run of runs) await stopDev(run);
    for (const server of held) server.close();
    for (const dir of new Set(runs.map((r) => r.dir))) rmSync(dir, { recursive: true, force: true });
  });

  it('fails naming the flag when a port given explicitly is taken', async () => {
    const run = startDev(['--port', '8080']);
    runs.push(run);
    expect(await exitCode(run.child)).to.equal(2);
    expect(run.output()).to.match(/port 8080 \(--port\) is in use by another process/);
  });

  it('comes up on free ports where the defaults are taken, prints them and funded keys that the SDK spends, claims a name and runs an oracle with through the printed URLs', async () => {
    const run = startDev(['--account', `${MemoryAccount.generate().secretKey}:5000000000000000000000`]);
    runs.push(run);
    await untilUp(run);
    for (const [setting, port] of [
      ['PORT', 8080],
      ['WEBSOCKET_ADDRESS', 3020],
      ['--node-port', 3013],
      ['--node-internal-port', 3113],
      ['--pg-port', 54320],
    ] as const) {
      expect(run.output()).to.match(
        new RegExp(`port ${port} \\(${setting}\\) was taken by another process: using \\d+`),
      );
    }
    const url = printed(run, 'new Node(url)');
    expect(new URL(url).port).not.to.equal('8080');
    expect(printed(run, 'GraphQL')).to.equal(`${url}/mdw/graphql`);
    const accounts = fundedAccounts(run);
    expect(accounts.map((a) => a.ae)).to.deep.equal(['1000000', '1000000', '1000000', '5000']);
    // the README's first lines: the printed key, the printed URL, the devnode's block times
    const aeSdk = new AeSdk({
      nodes: [{ name: 'dev', instance: new Node(url) }],
      accounts: [new MemoryAccount(accounts[0]!.secretKey as `sk_${string}`)],
      _expectedMineRate: 1000,
      _microBlockCycle: 300,
    });
    const recipient = MemoryAccount.generate().address;
    const spent = await aeSdk.spend(1_000_000, recipient);
    expect(spent.blockHeight).to.be.at.least(1);
    expect(await aeSdk.getBalance(recipient)).to.equal('1000000');

    const name = new Name(`firsthour${Date.now()}.chain`, aeSdk.getContext());
    await name.preclaim();
    await aeSdk.awaitHeight((await aeSdk.getHeight()) + 1);
    await name.claim();
    expect((await name.getState()).owner).to.equal(accounts[0]!.address);

    const oracle = new Oracle(new MemoryAccount(accounts[1]!.secretKey as `sk_${string}`), aeSdk.getContext());
    await oracle.register('string', 'string', { queryFee: '1000' } as never);
    const client = new OracleClient(oracle.address, aeSdk.getContext());
    const { queryId } = await client.postQuery('ping', { queryTtlValue: 50, responseTtlValue: 50 } as never);
    await oracle.respondToQuery(queryId, 'pong', { responseTtlValue: 50 } as never);
    expect(await client.pollForResponse(queryId)).to.equal('pong');

    // and the middleware lists them, loaded from the same chain
    const mdw = `${url}/mdw/v3`;
    // asked every POLL_MS: each ask is the middleware's work too, which every 50 ms was most of what the wait cost
    await waitFor(
      'the middleware to load the name and the response',
      async () => {
        const [named, answered] = await Promise.all([
          getJson(`${mdw}/names/${name.value}`),
          getJson(`${mdw}/oracles/${oracle.address}/responses`),
        ]);
        return named.status === 200 && ((answered.body.data as unknown[] | undefined)?.length ?? 0) === 1;
      },
      20_000,
      POLL_MS,
    );
    expect(await stopDev(run)).to.equal(0);
  });

  it('starts a restart on a new schema for the new devnode chain, never answering with the previous chain', async () => {
    const first = runs[1]!;
    const schemaOf = (run: DevRun): string => /\(schema (\w+)\)/.exec(run.output())![1]!;
    // its key blocks mined by hand (the rewards test below), so its chain stays below the old one's height
    const second = startDev(['--key-block-interval', String(3_600_000)], first.dir);
    runs.push(second);
    await untilUp(second);
    expect(schemaOf(second)).not.to.equal(schemaOf(first));
    expect(second.output()).to.contain(`"schemas":["${schemaOf(first)}"]`); // the old chain's, dropped
    const url = printed(second, 'new Node(url)');
    const devnode = printed(second, 'devnode');
    const genesis = ((await getJson(`${devnode}/v2/key-blocks/height/0`)).body as { hash: string }).hash;
    // from its first answer on: nothing stored but this chain (the old one stood at height 5 or more)
    const status = await getJson(`${url}/middleware/status`);
    expect(status.body.height ?? -1).to.be.at.most(
      ((await getJson(`${devnode}/v2/key-blocks/current/height`)).body as { height: number }).height,
    );
    const zero = await getJson(`${url}/mdw/v3/key-blocks/0`);
    if (zero.status === 200) expect(zero.body.hash).to.equal(genesis);
    else expect(zero.status).to.equal(404);
    // a height only the old chain reached
    expect((await getJson(`${url}/mdw/v3/key-blocks/3`)).status).to.equal(404);
  });

  // issue 44: mdw dev's REWARD_RULES=devnode was read as mainnet: no rewards for 180 heights, then mainnet-sized ones
  it('counts the block rewards the devnode paid: /mdw/v3/transfers, beneficiary_reward and /mdw/v3/wealth', async () => {
    const run = runs[2]!;
    const mdw = `${printed(run, 'new Node(url)')}/mdw/v3`;
    const node = printed(run, 'devnode');
    const internal = /\(internal (http\S+)\)/.exec(run.output())![1]!;
    const post = await fetch(`${internal}/v2/debug/dev/mine`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key_blocks: 5 }),
    });
    expect(post.status).to.equal(200);
    const top = Number((await getJson(`${node}/v2/key-blocks/current/height`)).body.height);
    expect(top).to.be.at.least(5);
    await waitFor(
      'the middleware to store the top',
      async () => (await getJson(`${mdw}/status`)).body.mdw_height === top,
      20_000,
      POLL_MS,
    );
    const beneficiary = String((await getJson(`${internal}/v2/debug/accounts/beneficiary`)).body.pub_key);
    // the devnode's own ledger: the beneficiary signs nothing, so what its balance gains at a height is that reward
    const balanceAt = async (height: number): Promise<bigint> => {
      const account = await getJson(`${node}/v2/accounts/${beneficiary}/height/${height}`);
      return account.status === 404 ? 0n : toBigInt(account.body.balance);
    };
    const paid: bigint[] = [];
    for (let height = 1; height <= top; height++) paid.push((await balanceAt(height)) - (await balanceAt(height - 1)));
    expect(paid.every((reward) => reward > 0n)).to.equal(true);

    const transfers = (await getJson(`${mdw}/transfers?kind=reward_block&direction=forward&limit=100`)).body;
    expect(
      (transfers.data as { height: number; account_id: string; amount: Json }[]).map((t) => [
        t.height,
        t.account_id,
        toBigInt(t.amount),
      ]),
    ).to.deep.equal(paid.map((reward, i) => [i + 1, beneficiary, reward]));
    for (let height = 1; height <= top; height++) {
      const block = (await getJson(`${mdw}/key-blocks/${height}`)).body;
      expect(toBigInt(block.beneficiary_reward), `height ${height}`).to.equal(paid[height - 1]);
    }
    const wealth = (await getJson(`${mdw}/wealth`)).body as unknown as { account: string; balance: Json }[];
    const listed = wealth.find((w) => w.account === beneficiary);
    expect(listed && toBigInt(listed.balance)).to.equal(await balanceAt(top));

    // the banner's settings (the database's password among them): mdw -v and mdw db usage on the same database
    const settings = printedSettings(run);
    const verified = await runMdw(['-v'], settings);
    expect(verified.code, verified.output).to.equal(0);
    // its DEX_FACTORY is the devnode's own factory, which the banner prints (mainnet's before: /mdw/v3/dex/* empty)
    const factory = /^ {2}DEX +factory (ct_\w+) /m.exec(run.output())?.[1];
    expect(settings.DEX_FACTORY).to.equal(factory);
    expect((await getJson(`${node}/v2/contracts/${factory}/code`)).body.bytecode).to.equal(BYTECODE.factory);
    const usage = await runMdw(['db', 'usage'], settings);
    expect(usage.code, usage.output).to.equal(0);
    expect(JSON.parse(usage.output)).to.have.property('databaseBytes').above(0);
  });

  it('--node-url runs the middleware in front of a node of yours, its chain kept in its schema between runs', async () => {
    const node = await startDevnode(
      { port: 0, internalPort: 0, keyBlockIntervalMs: 0, microBlockIntervalMs: 0 },
      silentLog,
    );
    // in the data directory of the runs before (its PostgreSQL made once for the file), the last of them stopped
    const before = runs[2]!;
    expect(await stopDev(before)).to.equal(0);
    try {
      for (let i = 0; i < 3; i++) await node.mineKeyBlock();
      const first = startDev([...ANY_MIDDLEWARE_PORTS, '--node-url', node.externalUrl], before.dir);
      runs.push(first);
      await untilUp(first);
      expect(printed(first, 'node')).to.equal(node.externalUrl);
      expect(first.output()).not.to.match(/^ {2}devnode /m);
      const status = async (run: DevRun) => (await getJson(`${printed(run, 'new Node(url)')}/mdw/v3/status`)).body;
      await waitFor(
        "the middleware to load the node's chain",
        async () => (await status(first)).mdw_height === 3,
        20_000,
        POLL_MS,
      );
      expect(await stopDev(first)).to.equal(0);
      const second = startDev([...ANY_MIDDLEWARE_PORTS, '--node-url', node.externalUrl], first.dir);
      runs.push(second);
      await untilUp(second);
      const schema = (run: DevRun): string => /\(schema (\w+)\)/.exec(run.output())![1]!;
      expect(schema(second))
        .to.equal(schema(first))
        .and.match(/^node_[0-9a-f]{16}$/);
      // the stored chain answers at once: the same node, the same chain
      expect((await status(second)).mdw_height).to.equal(3);
    } finally {
      await node.stop();
    }
  });
});
