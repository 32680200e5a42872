/**
 * @module aepp-sdk 14 end to end with the middleware as the node URL: the flows of test/support/aesdk-flows.ts run
 * with `new Node(<gateway>)` over devnode → populator → database → API, each answer checked against the devnode's
 * chain. Then each outcome is read back through ae_mdw's API (the SDK's `new Middleware(<gateway>/mdw)`) and the
 * original middleware's routes (/middleware), and compared with what the SDK saw and the devnode holds.
 */
import { expect } from 'chai';
import { Middleware, Node } from '@aeternity/aepp-sdk';
import { parseJson, type Json } from '../../../src/chain/json.ts';
import { referencedIds } from '../../../src/chain/tx-fields.ts';
import { startDevnode, type Devnode } from '../../../src/devnode/index.ts';
import { aeSdkFlows, sdkAccounts, type AeSdkOutcomes, sdkDevnodeOptions } from '../../support/aesdk-flows.ts';
import { waitFor } from '../../support/wait.ts';
import { silentLog } from './harness.ts';
import { startPipeline, type PipelineStack } from './pipeline-stack.ts';

describe('aepp-sdk AeSdk with the middleware as the node URL, read back through /mdw/v3 and /middleware', function () {
  this.timeout(60_000);
  let devnode: Devnode;
  let stack: PipelineStack;
  let url: string;
  const accounts = sdkAccounts();

  /** chainTxsOf is the hash of every transaction on the devnode's chain naming `id` in its fields (or its inner tx's). */
  const chainTxsOf = async (id: string): Promise<string[]> => {
    const hashes: string[] = [];
    for (const hash of devnode.chain.txs.keys()) {
      const { tx } = parseJson(await (await fetch(`${devnode.externalUrl}/v2/transactions/${hash}`)).text()) as {
        tx: { [k: string]: Json };
      };
      if (referencedIds(tx).has(id)) hashes.push(hash);
    }
    return hashes;
  };
  /** get is the gateway's answer at `path`, parsed losslessly. */
  const get = async (path: string): Promise<{ status: number; body: Json }> => {
    const res = await fetch(`${url}${path}`);
    return { status: res.status, body: parseJson(await res.text()) };
  };
  const expectCount = async (path: string, count: number): Promise<void> => {
    expect((await get(path)).body).to.deep.equal({ count });
  };

  before(async () => {
    devnode = await startDevnode(sdkDevnodeOptions(accounts), silentLog);
    stack = await startPipeline(devnode, 'mdw');
    url = stack.url;
  });
  after(async () => {
    await stack?.stop();
    await devnode?.stop();
  });

  // the gateway's current height is its database's (known difference: it trails the node's by up to a poll)
  const stored = async (): Promise<number> => (await new Middleware(`${url}/mdw`).getStatus()).mdwHeight;
  const outcomes = aeSdkFlows(accounts, () => ({ devnode, nodeUrl: url, lowestHeight: stored }));

  describe('read back', () => {
    let mdw: Middleware;
    before(async () => {
      mdw = new Middleware(`${url}/mdw`);
      const top = devnode.height();
      await waitFor('the populator to load the flows', async () => (await mdw.getStatus()).mdwHeight >= top, 30_000);
    });

    it('finds every transaction the SDK sent at /mdw/v3/transactions/{hash}, in its block, as the node has it', async () => {
      const node = new Node(devnode.externalUrl);
      for (const hash of sentHashes(outcomes)) {
        const [ours, chain] = await Promise.all([mdw.getTransaction(hash), node.getTransactionByHash(hash)]);
        const { blockHash, blockHeight, signatures, tx } = chain;
        // the node leaves out a meta transaction's empty signatures; ae_mdw lists them as []
        expect(ours, hash).to.deep.include({ hash, blockHash, blockHeight, signatures: signatures ?? [] });
        // every field of the node's (ae_mdw sends an oracle query's and response's bytes in base64), and ae_mdw's
        // additions (a claim's name_id, a call's call info, …)
        const b64 = (text: unknown): string => Buffer.from(String(text)).toString('base64');
        const asMdw = { ...tx } as Record<string, unknown>;
        if (asMdw.type === 'OracleQueryTx') asMdw.query = b64(asMdw.query);
        if (asMdw.type === 'OracleRespondTx') asMdw.response = b64(asMdw.response);
        expect(ours.tx, hash).to.deep.include(asMdw);
      }
    });

    it("reads the names back: the auction's winner, and the revoked name's owners and revoke", async () => {
      const { auction, name } = outcomes as Required<AeSdkOutcomes>;
      const won = await mdw.getName(auction.value as `${string}.chain`);
      expect(won).to.deep.include({ name: auction.value, active: true, nameFee: auction.bid, auction: null });
      expect(won.ownership).to.deep.equal({ current: auction.winner, original: auction.winner });
      const revoked = await mdw.getName(name.value as `${string}.chain`);
      expect(revoked).to.deep.include({ name: name.value, hash: name.id, active: false });
      expect(revoked.ownership).to.deep.equal({ current: accounts.bob.address, original: accounts.alice.address });
      expect(revoked.revoke?.hash).to.equal(name.hashes.revoke);
      const nameId = name.value as `${string}.chain`;
      const updates = (await mdw.getNameUpdates(nameId)).data.map((u) => u.sourceTxHash);
      // the SDK extends a name's TTL with a NameUpdateTx
      expect(updates).to.deep.equal([name.hashes.extend, name.hashes.update]);
      const transfers = (await mdw.getNameTransfers(nameId)).data.map((t) => t.sourceTxHash);
      expect(transfers).to.deep.equal([name.hashes.transfer]);
      const claims = (await mdw.getNameClaims(auction.value as `${string}.chain`)).data.map((c) => c.sourceTxHash);
      expect(claims).to.deep.equal([auction.bidHash, auction.claimHash]);
      const original = await get(`/middleware/names/${auction.value}`);
      expect(original.body).to.deep.equal([
        {
          ...(original.body as Record<string, Json>[])[0],
          name: auction.value,
          tx_hash: auction.claimHash,
          owner: auction.winner,
          pointers: [],
        },
      ]);
      const gone = await get(`/middleware/names/${name.value}`);
      expect((gone.body as { owner: string; tx_hash: string }[]).map((n) => [n.owner, n.tx_hash])).to.deep.equal([
        [accounts.bob.address, name.hashes.claim],
      ]);
    });

    it('reads the oracle, its query and its response back', async () => {
      const { oracle } = outcomes as Required<AeSdkOutcomes>;
      const id = oracle.id as `ok_${string}`;
      const state = await mdw.getOracle(id);
      expect(state).to.deep.include({ oracle: id, active: true, queryFee: 1000n });
      expect(state.registerTxHash).to.equal(oracle.hashes.register);
      expect(state.format).to.deep.equal({ query: '{"city": string}', response: '{"temperature": int}' });
      const queries = (await mdw.getOracleQueries(id)).data;
      expect(queries.map((q) => [q.queryId, q.sourceTxHash, q.senderId])).to.deep.equal([
        [oracle.queryId, oracle.hashes.query, accounts.alice.address],
      ]);
      // ae_mdw sends the query's bytes in base64
      expect(Buffer.from(queries[0]!.query, 'base64').toString()).to.equal(oracle.query);
      const responses = (await mdw.getOracleResponses(id)).data;
      expect(responses.map((r) => [r.queryId, r.sourceTxHash])).to.deep.equal([
        [oracle.queryId, oracle.hashes.respond],
      ]);
      expect(Buffer.from(responses[0]!.response, 'base64').toString()).to.equal(oracle.response);
      // ae_mdw gives each query its response and each response its query
      const { response } = queries[0] as unknown as { response: { sourceTxHash: string } | null };
      expect(response?.sourceTxHash).to.equal(oracle.hashes.respond);
      const { query } = responses[0] as unknown as { query: { sourceTxHash: string } | null };
      expect(query?.sourceTxHash).to.equal(oracle.hashes.query);
      const extends_ = (await mdw.getOracleExtends(id)).data;
      expect(extends_.map((e) => e.sourceTxHash)).to.deep.equal([oracle.hashes.extend]);
      const original = (await get(`/middleware/oracles/${id}`)).body as {
        query_id: string;
        request: { hash: string; query: string };
        response: { hash: string; response: string };
      }[];
      expect(
        original.map((q) => [q.query_id, q.request.hash, q.request.query, q.response.hash, q.response.response]),
      ).to.deep.equal([[oracle.queryId, oracle.hashes.query, oracle.query, oracle.hashes.respond, oracle.response]]);
    });

    it("reads the contract and its calls back: its creation and the token's transfer", async () => {
      const { contract } = outcomes as Required<AeSdkOutcomes>;
      const address = contract.address as `ct_${string}`;
      const state = await mdw.getContract(address);
      expect(state).to.deep.include({ contract: address, sourceTxHash: contract.createHash, aexnType: 'aex9' });
      expect(state.createTx.ownerId).to.equal(accounts.alice.address);
      // its calls as transactions (/v3/contracts/call-transactions); the token moved no AE: no internal calls
      const calls = (
        (await get(`/mdw/v3/contracts/call-transactions?contract_id=${address}`)).body as {
          data: { [k: string]: Json }[];
        }
      ).data;
      expect(calls.map((c) => [c.call_tx_hash, c.function, c.contract_tx_hash])).to.deep.equal([
        [contract.callHash, 'transfer', contract.createHash],
        [contract.createHash, 'init', contract.createHash],
      ]);
      expect((await mdw.getContractCalls({ contractId: address } as never)).data).to.deep.equal([]);
      const original = (await get(`/middleware/contracts/calls/address/${address}`)).body as {
        transaction_id: string;
        function: string;
        caller_id: string;
        return_type: string;
      }[];
      expect(original.map((c) => [c.transaction_id, c.function, c.caller_id, c.return_type])).to.deep.equal([
        [contract.createHash, 'init', accounts.alice.address, 'ok'],
        [contract.callHash, 'transfer', accounts.alice.address, 'ok'],
      ]);
    });

    it("reads an account's balance, activities and transaction list back, as the chain has them", async () => {
      const { carol } = accounts;
      const { spend, ga, payingFor, oracle } = outcomes as Required<AeSdkOutcomes>;
      const gateway = new Node(url);
      expect((await gateway.getAccountByPubkey(carol.address)).balance).to.equal(
        devnode.chain.state.accounts.get(carol.address)!.balance,
      );
      // the chain's list: every transaction whose fields (or inner transaction's) name carol's account
      const chain = new Node(devnode.externalUrl);
      const truth = await chainTxsOf(carol.address);
      expect(truth).to.include.members([spend.hash, ga.metaHash, payingFor.hash, oracle.hashes.register]);
      const listed = (await get(`/middleware/transactions/account/${carol.address}?limit=1000`)).body as {
        hash: string;
      }[];
      expect(listed.map((t) => t.hash).sort()).to.deep.equal([...truth].sort());
      await expectCount(`/middleware/transactions/account/${carol.address}/count`, truth.length);
      const activities = (await mdw.getAccountActivities(carol.address)).data;
      // known difference: ae_mdw finds an id's transactions by its public key, so ae_mdw's activities of carol's
      // account also list her oracle's (ok_, the same key) query, response and extension; ours list the ak_ id's only
      const txEvents = activities.filter((a) => a.type.endsWith('TxEvent'));
      expect(txEvents.map((a) => (a.payload as { hash: string }).hash).sort()).to.deep.equal([...truth].sort());
      for (const a of txEvents) {
        const { blockHash } = await chain.getTransactionByHash((a.payload as { hash: `th_${string}` }).hash);
        expect(a.blockHash).to.equal(blockHash);
      }
      // the account transferFunds opened: that one spend, and its balance
      const { fresh } = accounts;
      const opened = (await get(`/middleware/transactions/account/${fresh.address}`)).body as { hash: string }[];
      expect(opened.map((t) => t.hash)).to.deep.equal([outcomes.transfer!.hash]);
      const freshEvents = (await mdw.getAccountActivities(fresh.address)).data;
      expect(freshEvents.map((a) => [a.type, (a.payload as { hash: string }).hash])).to.deep.equal([
        ['SpendTxEvent', outcomes.transfer!.hash],
      ]);
      expect((await gateway.getAccountByPubkey(fresh.address)).balance).to.equal(outcomes.transfer!.amount);
      // InternalTransferEvent is not in the SDK's enum of activity types (ae_mdw #2137)
      // her oracle's id lists the oracle's transactions (the SDK types the id as ak_; ae_mdw takes any id)
      const ofOracle = (await mdw.getAccountActivities(oracle.id as `ak_${string}`)).data;
      const oracleTxs = ofOracle.filter((a) => a.type.endsWith('TxEvent'));
      expect(oracleTxs.map((a) => (a.payload as { hash: string }).hash).sort()).to.deep.equal(
        (await chainTxsOf(oracle.id)).sort(),
      );
      const transfers = activities.filter((a) => String(a.type) === 'InternalTransferEvent').map((a) => a.payload);
      // and her genesis balance, from the node's genesis accounts file the operator gives (GENESIS_ACCOUNTS_FILE)
      const genesis = devnode.chain.options.genesisAccounts.find((a) => a.address === carol.address)!.balance;
      expect(transfers).to.deep.equal([
        { amount: 1000n, kind: 'reward_oracle', refTxHash: oracle.hashes.respond },
        { amount: genesis, kind: 'accounts_roma', refTxHash: null },
      ]);
    });
  });
});

/** sentHashes is every transaction hash the flows recorded. */
function sentHashes(o: AeSdkOutcomes): `th_${string}`[] {
  const hashes = [
    o.spend?.hash,
    o.transfer?.hash,
    ...Object.values(o.name?.hashes ?? {}),
    o.auction?.claimHash,
    o.auction?.bidHash,
    ...Object.values(o.oracle?.hashes ?? {}),
    o.contract?.createHash,
    o.contract?.callHash,
    o.ga?.attachHash,
    o.ga?.metaHash,
    o.payingFor?.hash,
  ];
  return hashes.filter((h): h is `th_${string}` => h !== undefined) as `th_${string}`[];
}
