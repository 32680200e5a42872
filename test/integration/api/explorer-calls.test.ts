/**
 * @module What the æScan explorer (aeternity/aescan) asks of a gateway, asked of ours, each answer checked against
 * the devnode's chain. The explorer is configured with the node's /v3 (NODE_URL) and ae_mdw's /mdw/v3
 * (MIDDLEWARE_URL); it reads both with plain HTTP (axios), and makes its contract calls through an AeSdk on
 * `new Node(NODE_URL without /v3)`. The node calls, and the pages that make them:
 * - GET /status: the status page (the node's height and version beside ae_mdw's)
 * - GET /currency: every page (the coin's name and symbol, the network's name)
 * - GET /accounts/{id}: the account page (balance, nonce, kind), the contract page (the contract's balance, read as
 *   ak_…), the transaction page (a generalized account's contract)
 * - GET /contracts/{id}: the contract page (owner, VM and ABI versions, deposit)
 * - GET /transactions/{hash}: the transaction page (the signed transaction, its block)
 * - GET /micro-blocks/hash/{hash}/transactions: the transaction page (the previous and next transactions)
 * - GET /micro-blocks/hash/{hash}/header: the transaction page (the block's time)
 * - GET /transactions/{hash}/info: the contract page's events panel (the call's return, decoded with its ACI)
 * - POST /dry-run: the token page (total_supply) and the contract page's read entrypoints, through
 *   `Contract.initialize` on the AeSdk (which also reads the contract and the top key block)
 * The detail panels also link the node's own answer (key block, micro block header, transaction, account, contract,
 * oracle) for the reader to open.
 * The ae_mdw calls made on those same pages, beside them:
 * - /status (status page); /transactions/{hash}, /micro-blocks/{hash}, /key-blocks/{height}/micro-blocks with
 *   limit and direction (transaction page: the adjacent blocks); /contracts/{id}, /transactions/count?id=,
 *   /transactions?contract=…&direction=forward&limit=1 (contract page: calls and creation); /aex9/{id} (token page);
 *   /transactions?channel=… and /transactions/count?id=ch_… (state channel page, which adds one for the creation).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import prom from 'prom-client';
import { AeSdk, Contract, Middleware, Node, buildContractId, type Encoded } from '@aeternity/aepp-sdk';
import { parseJson } from '../../../src/chain/json.ts';
import { loadConfig } from '../../../src/config/middleware.ts';
import { createApp } from '../../../src/api/app.ts';
import { createPool, type Pool } from '../../../src/db/connection/pool.ts';
import { startDevnode, TOKEN_ACI, type Devnode, type TxRecord } from '../../../src/devnode/index.ts';
import { createTestDatabase } from '../../support/postgres.ts';
import { populateToTop } from '../../support/populate.ts';
import { aex9Tokens, ledgerBalances } from '../../support/aex9-truth.ts';
import { silentLog } from './harness.ts';

describe("the explorer's calls, through the SDK's clients on the gateway", function () {
  this.timeout(60_000);
  let devnode: Devnode;
  let pool: Pool;
  let drop: () => Promise<void>;
  let server: Server;
  /** the SDK's clients: on the gateway (as the explorer), and on the devnode (the truth) */
  let node: Node;
  let truth: Node;
  let mdw: Middleware;
  let url: string;

  /** same asserts the gateway answers a plain GET of the node's /v3 path as the devnode does, digit for digit. */
  const same = async (path: string): Promise<void> => {
    const get = async (base: string): Promise<{ status: number; body: unknown }> => {
      const res = await fetch(`${base}/v3${path}`);
      return { status: res.status, body: parseJson(await res.text()) };
    };
    const ours = await get(url);
    expect(ours.status, path).to.equal(200);
    expect(ours, path).to.deep.equal(await get(devnode.externalUrl));
  };
  /** mdwGet is a plain GET of ae_mdw's API on the gateway (as the explorer makes them), its JSON read losslessly. */
  const mdwGet = async (path: string): Promise<unknown> => {
    const res = await fetch(`${url}/mdw/v3${path}`);
    expect(res.status, path).to.equal(200);
    return parseJson(await res.text());
  };
  /** records are the chain's mined transactions, in chain order. */
  const records = (): TxRecord[] => devnode.chain.keyBlocks.flatMap((k) => k.micro.flatMap((m) => [...m.txs]));
  /** createdBy is the ContractCreateTx that created `id` (the contract id is the owner's and the nonce's). */
  const createdBy = (id: string): TxRecord | undefined =>
    records().find(
      (r) =>
        r.tx.type === 'ContractCreateTx' &&
        buildContractId(r.tx.owner_id as Encoded.AccountAddress, Number(r.tx.nonce)) === id,
    );

  before(async () => {
    devnode = await startDevnode(
      { port: 0, internalPort: 0, microBlockIntervalMs: 0, generate: { generations: 30, seed: 'explorer-calls' } },
      silentLog,
    );
    const db = await createTestDatabase({ migrated: 'mdw' });
    drop = db.drop;
    const cfg = loadConfig({ DATABASE_URL: db.url, NODE_URL: devnode.externalUrl, DATABASE_SCHEMA: 'mdw' });
    await populateToTop(cfg);
    pool = createPool({ databaseUrl: db.url, schema: 'mdw', max: 4 }, silentLog);
    const app = createApp({ cfg, log: silentLog, pool, registry: new prom.Registry(), version: 't' });
    server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    node = new Node(url, { retryCount: 0 });
    truth = new Node(devnode.externalUrl, { retryCount: 0 });
    mdw = new Middleware(`${url}/mdw`, { retryCount: 0 });
  });
  after(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await pool?.end();
    await devnode?.stop();
    await drop?.();
  });

  it('status page and every page: the node status and currency, and ae_mdw status, as the chain has them', async () => {
    const chain = devnode.chain;
    const status = await node.getStatus();
    const nodeStatus = await truth.getStatus();
    // uptime is the node's clock: the two reads may fall on either side of a second
    expect([status.uptime, nodeStatus.uptime]).to.satisfy((u: unknown[]) => u.every((t) => typeof t === 'string'));
    expect({ ...status, uptime: '' }).to.deep.equal({ ...nodeStatus, uptime: '' });
    expect([status.topBlockHeight, status.topKeyBlockHash]).to.deep.equal([chain.height, chain.top.hash]);
    expect(await node.getCurrency()).to.deep.equal(await truth.getCurrency());
    for (const path of ['/status', '/currency']) await same(path);

    const mdwStatus = await mdw.getStatus();
    expect([mdwStatus.mdwHeight, mdwStatus.nodeHeight, mdwStatus.mdwSynced]).to.deep.equal([
      chain.height,
      chain.height,
      true,
    ]);
  });

  it("transaction page: the transaction, its block's header and transactions, and the adjacent blocks", async () => {
    const chain = devnode.chain;
    // a transaction in the second micro block of a generation that is neither the first nor the last
    const kb = chain.keyBlocks.find((k, h) => h > 1 && h < chain.height - 1 && k.micro.length > 1)!;
    const mb = kb.micro[1]!;
    const tx = mb.txs[0]!;

    expect(await node.getTransactionByHash(tx.hash as Encoded.TxHash)).to.deep.equal(
      await truth.getTransactionByHash(tx.hash as Encoded.TxHash),
    );
    expect((await node.getTransactionByHash(tx.hash as Encoded.TxHash)).blockHash).to.equal(mb.hash);
    const mh = mb.hash as Encoded.MicroBlockHash;
    const header = await node.getMicroBlockHeaderByHash(mh);
    expect(header).to.deep.equal(await truth.getMicroBlockHeaderByHash(mh));
    expect([header.hash, header.height, header.time.getTime()]).to.deep.equal([
      mb.hash,
      kb.header.height,
      Number(mb.header.time),
    ]);
    const listed = await node.getMicroBlockTransactionsByHash(mh);
    expect(listed).to.deep.equal(await truth.getMicroBlockTransactionsByHash(mh));
    expect(listed.transactions.map((t) => t.hash)).to.deep.equal(mb.txs.map((t) => t.hash));
    for (const path of [
      `/transactions/${tx.hash}`,
      `/micro-blocks/hash/${mh}/header`,
      `/micro-blocks/hash/${mh}/transactions`,
    ])
      await same(path);

    const mdwTx = await mdw.getTransaction(tx.hash as Encoded.TxHash);
    expect([mdwTx.hash, mdwTx.blockHash, mdwTx.blockHeight, mdwTx.tx.type]).to.deep.equal([
      tx.hash,
      mb.hash,
      kb.header.height,
      tx.tx.type,
    ]);
    const mdwMb = await mdw.getMicroBlock(mh);
    expect([mdwMb.hash, mdwMb.height, mdwMb.transactionsCount, mdwMb.prevHash]).to.deep.equal([
      mb.hash,
      kb.header.height,
      mb.txs.length,
      kb.micro[0]!.hash,
    ]);
    const height = kb.header.height;
    // plain HTTP, as the explorer: the SDK's getKeyBlockMicroBlocks refuses the height its types allow (a number)
    const hashes = async (query: string): Promise<unknown> =>
      ((await mdwGet(`/key-blocks/${query}`)) as { data: { hash: string }[] }).data.map((m) => m.hash);
    expect(await hashes(`${height}/micro-blocks?limit=100&direction=forward`)).to.deep.equal(
      kb.micro.map((m) => m.hash),
    );
    expect(await hashes(`${height - 1}/micro-blocks?limit=1&direction=backward`)).to.deep.equal(
      chain.keyBlocks[height - 1]!.micro.slice(-1).map((m) => m.hash),
    );
    expect(await hashes(`${height + 1}/micro-blocks?limit=1&direction=forward`)).to.deep.equal(
      chain.keyBlocks[height + 1]!.micro.slice(0, 1).map((m) => m.hash),
    );
  });

  it('account and contract pages: the account, the contract, its balance, its calls and its creation', async () => {
    const chain = devnode.chain;
    const [token] = [...aex9Tokens(chain)].find(([id, kind]) => kind === 'aex9' && createdBy(id))!;
    const contract = chain.state.contracts.get(token)!;
    const ct = token as Encoded.ContractAddress;

    const owner = contract.ownerId as Encoded.AccountAddress;
    const account = await node.getAccountByPubkey(owner);
    expect(account).to.deep.equal(await truth.getAccountByPubkey(owner));
    expect(account.balance).to.equal(chain.state.accounts.get(owner)!.balance);
    const asAccount = token.replace(/^ct_/, 'ak_') as Encoded.AccountAddress;
    expect(await node.getAccountByPubkey(asAccount)).to.deep.equal(await truth.getAccountByPubkey(asAccount));
    const onChain = await node.getContract(ct);
    expect(onChain).to.deep.equal(await truth.getContract(ct));
    expect([onChain.ownerId, onChain.vmVersion, onChain.abiVersion, onChain.deposit]).to.deep.equal([
      contract.ownerId,
      contract.vmVersion,
      contract.abiVersion,
      contract.deposit,
    ]);
    for (const path of [`/accounts/${owner}`, `/accounts/${asAccount}`, `/contracts/${ct}`]) await same(path);

    const create = createdBy(token)!;
    const mdwContract = await mdw.getContract(ct);
    expect([mdwContract.contract, mdwContract.sourceTxHash, mdwContract.createTx.ownerId]).to.deep.equal([
      token,
      create.hash,
      contract.ownerId,
    ]);
    const first = await mdw.getTransactions({ contract: ct, direction: 'forward', limit: 1 });
    expect(first.data.map((t) => t.hash)).to.deep.equal([create.hash]);
    // as ae_mdw counts an id: the transactions naming the contract in one of their own fields, not its creation
    const naming = records().filter((r) => Object.values(r.tx).includes(token));
    expect(naming.length).to.be.above(0);
    expect(naming).to.not.include(create);
    expect(await mdwGet(`/transactions/count?id=${token}`)).to.equal(naming.length);
  });

  it("state channel page: the channel's transactions and their count, which the explorer adds the creation to", async () => {
    const channelTxs = records().filter((r) => typeof r.tx.channel_id === 'string');
    const ch = channelTxs[0]!.tx.channel_id as string;
    const naming = channelTxs.filter((r) => r.tx.channel_id === ch);
    const count = await mdwGet(`/transactions/count?id=${ch}`);
    expect(count).to.equal(naming.length);
    // the list (`channel=`) holds the creation too: the explorer shows "count + 1" records for it
    const list = (await mdwGet(`/transactions?channel=${ch}&direction=forward&limit=100`)) as {
      data: { hash: string; tx: { type: string } }[];
    };
    expect(list.data.map((t) => t.hash).slice(1)).to.deep.equal(naming.map((r) => r.hash));
    expect(list.data[0]!.tx.type).to.equal('ChannelCreateTx');
    expect(list.data.length).to.equal((count as number) + 1);
  });

  it("token and contract pages: the contract's read entrypoints dry-run through AeSdk, and the call info", async () => {
    const chain = devnode.chain;
    const [token] = [...aex9Tokens(chain)].find(([id, kind]) => kind === 'aex9' && createdBy(id))!;
    const ct = token as Encoded.ContractAddress;
    const aeSdk = new AeSdk({ nodes: [{ name: 'ae_devnet', instance: node }] });
    const contract = await Contract.initialize<{
      total_supply: () => bigint;
      meta_info: () => [string, string, bigint];
    }>({ ...aeSdk.getContext(), aci: TOKEN_ACI as never, address: ct });
    const supply = [...ledgerBalances(chain)]
      .filter(([k]) => k.startsWith(`${token} `))
      .reduce((s, [, v]) => s + v, 0n);
    expect((await contract.total_supply()).decodedResult).to.equal(supply);
    const [name, symbol, decimals] = (await contract.meta_info()).decodedResult;
    const aex9 = await mdw.getAex9ByContract(ct);
    expect([aex9.contractId, aex9.name, aex9.symbol, aex9.decimals]).to.deep.equal([
      token,
      name,
      symbol,
      Number(decimals),
    ]);

    const call = records().find((r) => r.tx.type === 'ContractCallTx' && r.tx.contract_id === token)!;
    const th = call.hash as Encoded.TxHash;
    const info = await node.getTransactionInfoByHash(th);
    expect(info).to.deep.equal(await truth.getTransactionInfoByHash(th));
    expect(info.callInfo?.returnValue).to.equal(call.callInfo!.return_value);
    await same(`/transactions/${th}/info`);

    // the same dry-run as plain HTTP (the chain's own call data of that call): the devnode's answer, digit for digit;
    // its caller's next nonce and the token's ABI, as a real node requires them
    const caller = String(call.tx.caller_id);
    const nonce = chain.state.accounts.get(caller)!.nonce + 1;
    const callReq = { contract: token, calldata: call.tx.call_data, caller, nonce, amount: 0, abi_version: 3 };
    const body = JSON.stringify({ txs: [{ call_req: callReq }], tx_events: true });
    const dryRun = async (base: string): Promise<{ status: number; body: unknown }> => {
      const res = await fetch(`${base}/v3/dry-run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      return { status: res.status, body: parseJson(await res.text()) };
    };
    const ours = await dryRun(url);
    expect(ours).to.deep.equal(await dryRun(devnode.externalUrl));
    expect((ours.body as { results: { result: string }[] }).results.map((r) => r.result)).to.deep.equal(['ok']);
  });

  it("the detail panels' links to the node's API open the node's answer", async () => {
    const chain = devnode.chain;
    const [oracle] = [...chain.state.oracles.entries()].map(([id]) => id);
    expect(oracle).to.be.a('string');
    for (const path of [`/key-blocks/hash/${chain.keyBlocks[5]!.hash}`, `/oracles/${oracle}`]) await same(path);
  });
});
