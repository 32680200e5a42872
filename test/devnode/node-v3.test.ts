/**
 * @module The devnode's /v3 as the SDK's `Node` client (aepp-sdk 14, what AeSdk and so every wallet uses) calls
 * it: every operation of the client that means something on a development node, each answer checked against the
 * devnode's chain; the operations it deliberately does not serve, with why; /v2 and /v3 alike where the node's
 * specs agree; the node's CORS headers, 400 and 404.
 */
import { expect } from 'chai';
import { MemoryAccount, Node, Tag, buildTxAsync, unpackTx } from '@aeternity/aepp-sdk';
import { contractCallData, DEVNODE_CONTRACT_BYTECODE } from '../../src/devnode/index.ts';
import { nameStatus } from '../../src/devnode/rules/apply.ts';
import { startTestNode, type TestNode } from './harness.ts';
import { encodedTxFaults } from '../support/encoded-tx.ts';
import { parseJson, type Json } from '../../src/chain/json.ts';
import { reprefix } from '../../src/chain/encoding.ts';
import { codePayable } from '../../src/devnode/contracts/bytecode.ts';
import { readExchanges } from '../support/real-node-recording.ts';

/** NOT_SERVED: the client's operations the devnode does not answer with data, and why. */
const NOT_SERVED: Record<string, string> = {
  getContractPoI: 'the devnode keeps no Merkle state trees, so it has no proof of inclusion: 501 with a reason',
  getPinningTx: 'hyperchains only: the devnode is no hyperchain and answers 404, as such a node does',
  getHyperchainContractPubkeys: 'hyperchains only: 404 with no body, which the SDK reads as "not a hyperchain"',
};

/** sdkOperations are the operations of the SDK's generated node client (its contract with the node). */
function sdkOperations(): string[] {
  const api = Object.getPrototypeOf(Node.prototype) as object;
  return Object.getOwnPropertyNames(api).filter((n) => n !== 'constructor');
}

describe('devnode /v3 through the SDK Node client', function () {
  this.timeout(60_000);
  let t: TestNode;
  let node: Node;
  const called = new Set<string>();
  const call = <T>(operation: string, run: () => Promise<T>): Promise<T> => {
    called.add(operation);
    return run();
  };

  before(async () => {
    t = await startTestNode({ generate: { generations: 100, seed: 'node-v3' } });
    node = new Node(t.node.externalUrl, { retryCount: 0 });
  });
  after(async () => {
    await t?.node.stop();
  });

  it('reports a node version the SDK accepts, says it is a devnode, and is no hyperchain', async () => {
    const status = await call('getStatus', () => node.getStatus());
    const chain = t.node.chain;
    expect(status.nodeVersion).to.match(/^7\.\d+\.\d+\+devnode\./);
    expect(status.nodeRevision).to.match(/devnode/);
    expect(status.topKeyBlockHash).to.equal(chain.top.hash);
    expect(status.topBlockHeight).to.equal(chain.height);
    expect(status.genesisKeyBlockHash).to.equal(chain.keyBlocks[0]!.hash);
    expect(status.networkId).to.equal('ae_devnet');
    expect((await node.getNodeInfo()).consensusProtocolVersion).to.equal(6);
    expect(await node._isHyperchain()).to.equal(false);
    called.add('getHyperchainContractPubkeys');
    // /v2 keeps saying what it always said
    expect((await t.get('/v2/status')).body.node_version).to.match(/^devnode-/);
  });

  it('serves blocks and generations as the chain has them', async () => {
    const chain = t.node.chain;
    const kb = chain.keyBlocks[50]!;
    const mb = chain.keyBlocks.find((k) => k.micro.some((m) => m.txs.length > 1))!.micro.at(-1)!;
    expect((await call('getCurrentKeyBlock', () => node.getCurrentKeyBlock())).hash).to.equal(chain.top.hash);
    expect((await call('getCurrentKeyBlockHash', () => node.getCurrentKeyBlockHash())).hash).to.equal(chain.top.hash);
    expect((await call('getCurrentKeyBlockHeight', () => node.getCurrentKeyBlockHeight())).height).to.equal(
      chain.height,
    );
    const byHash = await call('getKeyBlockByHash', () => node.getKeyBlockByHash(kb.hash));
    expect([byHash.height, byHash.prevKeyHash]).to.deep.equal([50, chain.keyBlocks[49]!.hash]);
    expect((await call('getKeyBlockByHeight', () => node.getKeyBlockByHeight(50))).hash).to.equal(kb.hash);
    expect((await call('getPendingKeyBlock', () => node.getPendingKeyBlock())).height).to.equal(chain.height + 1);
    const generation = await call('getGenerationByHeight', () => node.getGenerationByHeight(50));
    expect(generation.microBlocks).to.deep.equal(kb.micro.map((m) => m.hash));
    expect((await call('getGenerationByHash', () => node.getGenerationByHash(kb.hash))).keyBlock.hash).to.equal(
      kb.hash,
    );
    expect((await call('getCurrentGeneration', () => node.getCurrentGeneration())).keyBlock.hash).to.equal(
      chain.top.hash,
    );
    const top = await call('getTopHeader', () => node.getTopHeader());
    expect(top.hash).to.equal(chain.topHash);
    const header = await call('getMicroBlockHeaderByHash', () => node.getMicroBlockHeaderByHash(mb.hash));
    expect([header.height, header.prevKeyHash]).to.deep.equal([mb.header.height, mb.header.prevKeyHash]);
    const txs = await call('getMicroBlockTransactionsByHash', () => node.getMicroBlockTransactionsByHash(mb.hash));
    expect(txs.transactions.map((x) => x.hash)).to.deep.equal(mb.txs.map((r) => r.hash));
    const count = await call('getMicroBlockTransactionsCountByHash', () =>
      node.getMicroBlockTransactionsCountByHash(mb.hash),
    );
    expect(count.count).to.equal(mb.txs.length);
    const second = await call('getMicroBlockTransactionByHashAndIndex', () =>
      node.getMicroBlockTransactionByHashAndIndex(mb.hash, 2),
    );
    expect(second.hash).to.equal(mb.txs[1]!.hash);
    expect(await call('getChainEnds', () => node.getChainEnds())).to.deep.equal([chain.top.hash]);
  });

  it('serves transactions, their infos, and the state of accounts now and at a past block', async () => {
    const chain = t.node.chain;
    const records = [...chain.txs.values()];
    const callTx = records.find((r) => r.tx.type === 'ContractCallTx' && r.callInfo)!;
    const metaTx = records.find((r) => r.tx.type === 'GAMetaTx')!;
    const found = await call('getTransactionByHash', () => node.getTransactionByHash(callTx.hash));
    expect([found.blockHash, found.blockHeight]).to.deep.equal([callTx.blockHash, callTx.blockHeight]);
    const info = await call('getTransactionInfoByHash', () => node.getTransactionInfoByHash(callTx.hash));
    expect(info.callInfo?.returnValue).to.equal(callTx.callInfo!.return_value);
    expect((await node.getTransactionInfoByHash(metaTx.hash)).gaInfo?.returnType).to.equal('ok');

    const alice = t.accounts[0]!;
    const before = await call('getAccountByPubkey', () => node.getAccountByPubkey(alice.address));
    expect(before.balance).to.equal(chain.state.accounts.get(alice.address)!.balance);
    const heightBefore = chain.height;
    const spend = await buildTxAsync({
      tag: Tag.SpendTx,
      senderId: alice.address,
      recipientId: t.accounts[1]!.address,
      amount: 1234,
      onNode: node,
    });
    expect(unpackTx(spend)).to.include({ nonce: before.nonce + 1 });
    const signed = await alice.signTransaction(spend, { networkId: 'ae_devnet' });
    const { txHash } = await call('postTransaction', () => node.postTransaction({ tx: signed }));
    const pending = await call('getPendingAccountTransactionsByPubkey', () =>
      node.getPendingAccountTransactionsByPubkey(alice.address),
    );
    expect(pending.transactions.map((x) => x.hash)).to.deep.equal([txHash]);
    const next = await call('getAccountNextNonce', () => node.getAccountNextNonce(alice.address));
    expect(next.nextNonce).to.equal(before.nonce + 2);
    expect((await node.getAccountNextNonce(alice.address, { strategy: 'continuity' })).nextNonce).to.equal(
      before.nonce + 2,
    );
    await t.node.mineKeyBlock();
    expect((await node.getTransactionByHash(txHash)).blockHeight).to.equal(heightBefore);
    const after = await node.getAccountByPubkey(alice.address);
    expect(after.balance).to.equal(chain.state.accounts.get(alice.address)!.balance);
    expect(after.balance < before.balance - 1234n).to.equal(true);
    const atHeight = await call('getAccountByPubkeyAndHeight', () =>
      node.getAccountByPubkeyAndHeight(alice.address, heightBefore),
    );
    expect([atHeight.balance, atHeight.nonce]).to.deep.equal([before.balance, before.nonce]);
    const sealed = chain.keyBlocks[heightBefore]!.micro.at(-1)!.hash;
    const atHash = await call('getAccountByPubkeyAndHash', () => node.getAccountByPubkeyAndHash(alice.address, sealed));
    expect([atHash.balance, atHash.nonce]).to.deep.equal([after.balance, after.nonce]);
  });

  it("puts the signed transaction's encoded_tx in every transaction object, pending and mined, as a 7.x node", async () => {
    type Obj = { [key: string]: Json };
    const chain = t.node.chain;
    const faults: string[] = [];
    const types = new Set<string>();
    for (const kb of chain.keyBlocks)
      for (const mb of kb.micro) {
        const v = types.size % 2 === 0 ? 'v3' : 'v2';
        const listed = (await t.get(`/${v}/micro-blocks/hash/${mb.hash}/transactions`)).body as { transactions: Obj[] };
        for (const [i, r] of mb.txs.entries()) {
          const byHash = (await t.get(`/${v}/transactions/${r.hash}`)).body as Obj;
          const byIndex = (await t.get(`/${v}/micro-blocks/hash/${mb.hash}/transactions/index/${i + 1}`)).body as Obj;
          expect([listed.transactions[i], byIndex], r.hash).to.deep.equal([byHash, byHash]);
          faults.push(...encodedTxFaults(byHash));
          types.add(String(r.tx.type));
        }
      }
    expect(faults).to.deep.equal([]);
    expect(types).to.include.members(['SpendTx', 'ContractCallTx', 'GAMetaTx', 'PayingForTx', 'NameClaimTx']);
    // the node's key order: sorted, encoded_tx between block_height and hash
    const some = [...chain.txs.values()].find((r) => r.tx.type === 'SpendTx')!;
    expect((await t.get(`/v3/transactions/${some.hash}`)).text).to.match(
      /^\{"block_hash":"mh_\w+","block_height":\d+,"encoded_tx":"tx_[\w+/=]+","hash":"th_\w+","signatures":\[/,
    );
    const alice = t.accounts[0]!;
    const spend = await buildTxAsync({
      tag: Tag.SpendTx,
      senderId: alice.address,
      recipientId: alice.address,
      amount: 1,
      onNode: node,
    });
    const { txHash } = await node.postTransaction({
      tx: await alice.signTransaction(spend, { networkId: 'ae_devnet' }),
    });
    const pending = (await t.get(`/v3/transactions/${txHash}`)).body as Obj;
    expect(pending.block_height).to.equal(-1);
    expect(encodedTxFaults(pending)).to.deep.equal([]);
    await t.node.mineKeyBlock();
    expect(encodedTxFaults((await t.get(`/v3/transactions/${txHash}`)).body as Obj)).to.deep.equal([]);
  });

  it("answers a contract's account under its ct_ id as the recorded node does: id ak_, payable as its code", async () => {
    type Obj = { [key: string]: Json };
    // the recorded node's answer for a payable contract (Vault) and a contract that is not (Payer)
    const recorded = readExchanges('chain.ndjson.gz').filter((e) => /^\/v3\/accounts\/ct_\w+$/.test(e.path));
    const shapes = recorded.map((e) => {
      const body = parseJson(e.body) as Obj;
      return { keys: Object.keys(body), id: String(body.id), asked: e.path.slice('/v3/accounts/'.length), body };
    });
    expect(shapes.map((r) => r.body.payable)).to.include.members([true, false]);
    const chain = t.node.chain;
    const contracts = [...chain.state.contracts.entries()].map(([, c]) => c);
    for (const payable of [true, false]) {
      const contract = contracts.find(
        (c) => codePayable(c.code) === payable && chain.state.accounts.get(reprefix(c.id, 'ak')) !== undefined,
      )!;
      const answer = await t.get(`/v3/accounts/${contract.id}`);
      expect(answer.status, contract.id).to.equal(200);
      const body = answer.body as Obj;
      expect(Object.keys(body).sort()).to.deep.equal([...shapes[0]!.keys].sort());
      expect(body).to.deep.include({ id: reprefix(contract.id, 'ak'), kind: 'basic', payable });
      expect(BigInt(body.balance as number)).to.equal(chain.state.accounts.get(reprefix(contract.id, 'ak'))!.balance);
      expect(await t.get(`/v3/accounts/${reprefix(contract.id, 'ak')}`)).to.deep.include({ body });
      const atHeight = await t.get(`/v3/accounts/${contract.id}/height/${chain.height}`);
      expect(atHeight.body).to.deep.equal(body);
    }
    for (const r of shapes) expect(r.id, r.asked).to.equal(reprefix(r.asked, 'ak'));
    // a plain account's ct_ form answers it too
    const alice = t.accounts[0]!.address;
    expect(((await t.get(`/v3/accounts/${reprefix(alice, 'ct')}`)).body as Obj).id).to.equal(alice);
  });

  it('serves names, auctions, oracles, contracts and channels from the state', async () => {
    const chain = t.node.chain;
    const state = chain.state;
    const name = [...state.names.entries()].map(([, n]) => n).find((n) => nameStatus(n, chain.height) === 'claimed')!;
    const entry = await call('getNameEntryByName', () => node.getNameEntryByName(name.name));
    expect([entry.id, entry.owner, entry.ttl]).to.deep.equal([name.id, name.owner, name.expires]);
    expect((await call('getNameEntryByNameHash', () => node.getNameEntryByNameHash(name.id))).owner).to.equal(
      name.owner,
    );
    const auction = [...state.auctions.entries()].map(([, a]) => a)[0]!;
    const running = await call('getAuctionEntryByName', () => node.getAuctionEntryByName(auction.name));
    expect([running.highestBidder, running.highestBid, running.endsAt]).to.deep.equal([
      auction.bidder,
      auction.bid,
      auction.ends,
    ]);

    const query = [...state.queries.entries()].map(([, q]) => q).find((q) => state.oracles.get(q.oracleId))!;
    const oracle = await call('getOracleByPubkey', () => node.getOracleByPubkey(query.oracleId));
    expect(oracle.queryFee).to.equal(state.oracles.get(query.oracleId)!.queryFee);
    const queries = await call('getOracleQueriesByPubkey', () => node.getOracleQueriesByPubkey(query.oracleId));
    expect(queries.oracleQueries.map((q) => q.id)).to.include(query.id);
    const one = await call('getOracleQueryByPubkeyAndQueryId', () =>
      node.getOracleQueryByPubkeyAndQueryId(query.oracleId, query.id),
    );
    expect([one.senderId, one.fee]).to.deep.equal([query.senderId, query.fee]);

    const contract = [...state.contracts.entries()]
      .map(([, c]) => c)
      .find((c) => c.code === DEVNODE_CONTRACT_BYTECODE)!;
    expect((await call('getContract', () => node.getContract(contract.id))).ownerId).to.equal(contract.ownerId);
    expect((await call('getContractCode', () => node.getContractCode(contract.id))).bytecode).to.equal(contract.code);
    const dryRun = await call('protectedDryRunTxs', () =>
      node.protectedDryRunTxs({
        txs: [{ callReq: { contract: contract.id, calldata: contractCallData('get', []), amount: 0n, abiVersion: 3 } }],
        txEvents: true,
      }),
    );
    expect(dryRun.results[0]!.result).to.equal('ok');
    expect(dryRun.results[0]!.callObj?.returnType).to.equal('ok');
    expect(dryRun.txEvents).to.deep.equal([]);

    const channel = [...state.channels.entries()].map(([, c]) => c)[0]!;
    const found = await call('getChannelByPubkey', () => node.getChannelByPubkey(channel.id));
    expect([found.initiatorId, found.round]).to.deep.equal([channel.initiatorId, channel.round]);
  });

  it('answers the node-information reads as a development node', async () => {
    const currency = await call('getCurrency', () => node.getCurrency());
    expect([currency.name, currency.symbol, currency.subunitsPerUnit]).to.deep.equal(['aeternity', 'AE', 10n ** 18n]);
    expect(currency.networkName).to.equal('ae_devnet');
    const prices = await call('getRecentGasPrices', () => node.getRecentGasPrices());
    expect(prices.map((p) => p.minutes)).to.deep.equal([1, 5, 15, 60]);
    expect((await call('getPeerPubkey', () => node.getPeerPubkey())).pubkey).to.match(/^pp_/);
    await call('getSyncStatus', () =>
      node.getSyncStatus().then(
        () => expect.fail('the devnode never syncs'),
        (err: Error) => expect(err.message).to.equal('v3/sync-status error: Node is not syncing'),
      ),
    );
  });

  it('answers the operations it does not serve as said in NOT_SERVED', async () => {
    const contract = [...t.node.chain.state.contracts.entries()][0]![1];
    const fails = (p: Promise<unknown>): Promise<string> =>
      p.then(
        () => expect.fail('expected an error'),
        (err: Error & { statusCode?: number }) => `${err.statusCode} ${err.message}`,
      );
    called.add('getContractPoI');
    expect(await fails(node.getContractPoI(contract.id))).to.match(/^501 .*no Merkle state trees/);
    called.add('getPinningTx');
    expect(await fails(node.getPinningTx())).to.equal('404 v3/hyperchain/pin-tx error: 404 status code');
  });

  it('covers every operation of the SDK node client', () => {
    const operations = sdkOperations();
    expect(operations.length).to.be.greaterThan(40);
    expect(operations.filter((op) => !called.has(op))).to.deep.equal([]);
    for (const op of Object.keys(NOT_SERVED)) expect(operations).to.include(op);
  });

  it('answers /v2 and /v3 alike where the node specs agree', async () => {
    const chain = t.node.chain;
    const mb = chain.keyBlocks[40]!.micro[0]!;
    const alice = t.accounts[0]!.address;
    for (const path of [
      `/key-blocks/height/40`,
      `/generations/height/40`,
      `/micro-blocks/hash/${mb.hash}/transactions`,
      `/transactions/${mb.txs[0]!.hash}`,
      `/accounts/${alice}`,
      `/accounts/nope`,
    ]) {
      const [v2, v3] = await Promise.all([t.get(`/v2${path}`), t.get(`/v3${path}`)]);
      expect([v3.status, v3.text], path).to.deep.equal([v2.status, v2.text]);
    }
  });

  it('gives every integer as a string under ?int-as-string, as the node /v3 does, and /v2 ignores the flag', async () => {
    const alice = t.accounts[0]!.address;
    const balance = t.node.chain.state.accounts.get(alice)!.balance;
    const account = await t.get(`/v3/accounts/${alice}?int-as-string=true`);
    expect(account.body).to.include({ balance: balance.toString(), nonce: String(account.body.nonce) });
    expect(typeof account.body.nonce).to.equal('string');
    const kb = await t.get('/v3/key-blocks/height/3?int-as-string');
    expect(kb.body.height).to.equal('3');
    expect(kb.body.pow.every((p: unknown) => typeof p === 'string')).to.equal(true);
    const status = (await t.get('/v3/status?int-as-string=TRUE')).body;
    expect([status.top_block_height, status.sync_progress]).to.deep.equal([String(t.node.chain.height), 100]);
    expect((await t.get('/v3/status?int-as-string=false')).body.top_block_height).to.equal(t.node.chain.height);
    // a recorded node 7.2.2 fails on a flag it cannot read with an empty 500
    const unread = await t.get('/v3/accounts/ak_nope?int-as-string=yes');
    expect([unread.status, unread.text]).to.deep.equal([500, '']);
    expect((await t.get(`/v2/accounts/${alice}?int-as-string=true`)).body.balance).to.equal(balance);
  });

  it('sends the node CORS headers and answers a preflight', async () => {
    const origin = 'https://wallet.example';
    const res = await fetch(`${t.node.externalUrl}/v3/status`, { headers: { origin } });
    expect(res.headers.get('access-control-allow-origin')).to.equal(origin);
    expect(res.headers.get('access-control-allow-credentials')).to.equal('true');
    expect(res.headers.get('vary')).to.equal('origin');
    const preflight = await fetch(`${t.node.externalUrl}/v3/transactions`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).to.equal(200);
    expect(preflight.headers.get('access-control-allow-methods')).to.include('POST');
    expect(preflight.headers.get('access-control-allow-headers')).to.equal('content-type');
    const internal = await fetch(`${t.node.internalUrl}/v3/debug/accounts/beneficiary`, { headers: { origin } });
    expect(internal.headers.get('access-control-allow-origin')).to.equal(origin);
    expect((await fetch(`${t.node.externalUrl}/v3/status`)).headers.get('access-control-allow-origin')).to.equal(null);
  });

  it('reads a height as the node validator does: an integer (sign allowed) first, then its range', async () => {
    // /v2's range error carries the integer, its type error the text
    const negative = await t.get(`/v2/key-blocks/height/-1`);
    expect([negative.status, negative.body]).to.deep.equal([
      400,
      { reason: 'validation_error', parameter: 'height', info: { error: 'not_in_range', data: -1 } },
    ]);
    expect(negative.text).to.contain('"data":-1');
    expect((await t.get(`/v2/generations/height/-7`)).body.info).to.deep.equal({ error: 'not_in_range', data: -7 });
    expect((await t.get(`/v2/key-blocks/height/1.5`)).body.info).to.deep.equal({ error: 'wrong_type', data: '1.5' });
    // /v3's router fails on the same with an empty 500, as a recorded node 7.2.2 does
    for (const path of ['key-blocks/height/-1', 'generations/height/-7', 'key-blocks/height/1.5']) {
      const failed = await t.get(`/v3/${path}`);
      expect([failed.status, failed.text], path).to.deep.equal([500, '']);
    }
    for (const v of ['v2', 'v3']) {
      expect((await t.get(`/${v}/key-blocks/height/+1`)).body).to.deep.equal(
        (await t.get(`/${v}/key-blocks/height/1`)).body,
      );
      expect((await t.get(`/${v}/key-blocks/height/-0`)).body.height).to.equal(0);
    }
    // each spec's maximum: /v2's 2^64 - 1; /v3's is written 18446744073709552000, so 2^64 is a height it lets through
    const past = await t.get('/v2/key-blocks/height/18446744073709551616');
    expect([past.status, past.text]).to.deep.equal([
      400,
      '{"info":{"data":18446744073709551616,"error":"not_in_range"},"parameter":"height","reason":"validation_error"}',
    ]);
    expect((await t.get('/v3/key-blocks/height/18446744073709551616')).status).to.equal(404);
    expect((await t.get('/v3/key-blocks/height/18446744073709552001')).status).to.equal(500);
  });

  it('answers bad /v3 requests with the node 400 and unknown paths with its bodiless 404', async () => {
    expect((await t.get('/v2/key-blocks/height/abc')).body).to.deep.equal({
      reason: 'validation_error',
      parameter: 'height',
      info: { error: 'wrong_type', data: 'abc' },
    });
    expect((await t.get('/v3/accounts/ak_nope')).body).to.deep.equal({
      reason: 'Invalid public key',
      error_code: 'invalid_encoding',
    });
    expect((await t.get('/v3/accounts/ak_nope/next-nonce?strategy=any')).status).to.equal(400);
    expect((await t.post('/v3/transactions', { tx: 'nope' })).body).to.deep.equal({
      reason: 'Invalid api encoding',
      error_code: 'invalid_encoding',
    });
    expect((await t.post('/v3/dry-run', '{"txs": [')).body.reason).to.equal('validation_error');
    for (const path of ['/v3/nothing', '/v3/hyperchain/contracts', '/v3']) {
      const reply = await t.get(path);
      expect([reply.status, reply.text], path).to.deep.equal([404, '']);
    }
    const wrongMethod = await t.post('/v3/status', {});
    expect([wrongMethod.status, wrongMethod.text]).to.deep.equal([405, '']);
  });

  it('serves the node /v3/debug builders and the devnode controls on the internal port', async () => {
    const [alice, bob] = t.accounts;
    const built = await t.postInternal('/v3/debug/transactions/spend', {
      sender_id: alice!.address,
      recipient_id: bob!.address,
      amount: 1,
      fee: 20_000_000_000_000,
      payload: 'ba_Xfbg4g==',
    });
    expect(built.status).to.equal(200);
    const signed = await MemoryAccount.prototype.signTransaction.call(alice, built.body.tx, {
      networkId: 'ae_devnet',
    });
    const { txHash } = await node.postTransaction({ tx: signed });
    const mined = await t.postInternal('/v3/debug/dev/mine', { key_blocks: 1 });
    expect(mined.body.height).to.equal(t.node.chain.height);
    expect((await node.getTransactionByHash(txHash)).blockHeight).to.equal(t.node.chain.height - 1);
    expect((await t.getInternal('/v3/debug/accounts/beneficiary')).body.pub_key).to.match(/^ak_/);
    expect((await t.getInternal(`/v3/debug/check-tx/pool/${txHash}`)).body).to.deep.equal({ status: 'included' });
  });

  it('answers the internal reads about peers, channels and the mempool as a node alone in its network', async () => {
    const [alice, bob] = t.accounts;
    const spend = await buildTxAsync({
      tag: Tag.SpendTx,
      senderId: alice!.address,
      recipientId: bob!.address,
      amount: 1,
      onNode: node,
    });
    const { txHash } = await node.postTransaction({
      tx: await alice!.signTransaction(spend, { networkId: 'ae_devnet' }),
    });
    const check = (hash: string) => t.getInternal(`/v3/debug/check-tx/pool/${hash}`);
    expect((await check(txHash)).body).to.deep.equal({ status: 'includable' });
    expect((await check('th_nope')).body).to.deep.equal({ reason: 'Invalid hash: hash' });
    const unknown = t.node.chain.keyBlocks[0]!.hash.replace('kh_', 'th_');
    expect(await check(unknown).then((r) => [r.status, r.body])).to.deep.equal([404, { reason: 'tx_not_found' }]);
    expect((await t.getInternal('/v3/debug/peers')).body).to.deep.equal({
      peers: [],
      inbound: [],
      outbound: [],
      blocked: [],
    });
    expect((await t.getInternal('/v3/debug/channels/fsm-count')).body).to.deep.equal({ count: 0 });
    expect((await t.getInternal('/v3/node/operator/peers/count')).body.blocked).to.equal(0);
    expect((await t.getInternal('/v3/debug/network')).status).to.equal(404);
  });
});
