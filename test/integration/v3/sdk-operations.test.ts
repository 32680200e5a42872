/**
 * @module Every operation of issue 12's groups, and the token, DEX, statistics and status ones with the middleware's
 * default configuration (issue 58), through the SDK's Middleware client, used unchanged: each list
 * walked to its end by the SDK's own `next()`, and its items equal (by their identifying field) to what the raw
 * answer lists, which the other /v3 tests compare with the devnode's chain. What fails here fails for a user of
 * the SDK even where the raw JSON is right (a model the SDK cannot read, a link it cannot follow).
 */
import { expect } from 'chai';
import type { Json } from '../../../src/chain/json.ts';
import { startV3, walkPages, type V3UnderTest } from './harness.ts';

type Obj = { [key: string]: Json };

/** the SDK's field for an ae_mdw field: camelCase, as its models name them */
const camel = (field: string): string => field.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

describe("/v3 through every SDK Middleware operation of issue 12's groups", function () {
  this.timeout(300_000);
  let v3: V3UnderTest;

  /** the same list through the SDK and raw, compared by its identifying fields; at least one item */
  const same = async (what: string, sdk: Promise<unknown>, rawPath: string, fields: string[]): Promise<Obj[]> => {
    const raw = await v3.walk(rawPath);
    expect(raw.length, `${what}: the chain has some`).to.be.above(0);
    const listed = await walkPages<Record<string, unknown>>(await sdk);
    expect(
      listed.map((item) => fields.map((f) => String(item[camel(f)]))),
      what,
    ).to.deep.equal(raw.map((item) => fields.map((f) => String(item[f]))));
    return raw;
  };

  before(async () => {
    v3 = await startV3(80, 'v3-sdk-operations');
  });
  after(async () => {
    await v3?.close();
  });

  it('blocks and transactions', async () => {
    const keyBlocks = await same('getKeyBlocks', v3.mdw.getKeyBlocks({ limit: 100 }), '/mdw/v3/key-blocks?limit=100', [
      'hash',
    ]);
    const withMicros = keyBlocks.find((k) => Number(k.micro_blocks_count) > 1)!;
    // (the SDK types a height as a number but its serializer sends only strings: its own bug, ae_mdw's too)
    expect((await v3.mdw.getKeyBlock(String(withMicros.height) as never)).hash).to.equal(withMicros.hash);
    const micros = await same(
      'getKeyBlockMicroBlocks',
      v3.mdw.getKeyBlockMicroBlocks(withMicros.hash as `kh_${string}`, { limit: 1 }),
      `/mdw/v3/key-blocks/${String(withMicros.hash)}/micro-blocks?limit=1`,
      ['hash', 'micro_block_index'],
    );
    const mh = micros[0]!.hash as `mh_${string}`;
    expect((await v3.mdw.getMicroBlock(mh)).transactionsCount).to.equal(Number(micros[0]!.transactions_count));
    const txs = await same(
      'getMicroBlockTransactions',
      v3.mdw.getMicroBlockTransactions(mh),
      `/mdw/v3/micro-blocks/${mh}/transactions`,
      ['hash'],
    );
    expect((await v3.mdw.getTransaction(txs[0]!.hash as `th_${string}`)).blockHash).to.equal(mh);
    const all = await same(
      'getTransactions',
      v3.mdw.getTransactions({ limit: 100 }),
      '/mdw/v3/transactions?limit=100',
      ['hash'],
    );
    expect(await v3.mdw.getTransactionsCount()).to.deep.equal({ body: all.length });
    const sender = String((all.find((t) => (t.tx as Obj).type === 'SpendTx')!.tx as Obj).sender_id) as `ak_${string}`;
    await same(
      'getTransactions by account and type',
      v3.mdw.getTransactions({ account: sender, type: ['spend'], limit: 7 }),
      `/mdw/v3/transactions?account=${sender}&type=spend&limit=7`,
      ['hash'],
    );
    expect((await v3.mdw.getAccountTransactionsCount(sender)).total).to.equal(
      (await v3.walk(`/mdw/v3/transactions?account=${sender}&limit=100`)).length,
    );
    const pending = await v3.mdw.getPendingTransactions();
    expect(pending.data).to.deep.equal([]);
    expect(await v3.mdw.getPendingTransactionsCount()).to.deep.equal({ body: 0 });
  });

  it('names, auctions, their claims, transfers and updates, and pointees', async () => {
    const names = await same(
      'getNames',
      v3.mdw.getNames({ limit: 100, state: 'active' }),
      '/mdw/v3/names?limit=100&state=active',
      ['name'],
    );
    const inactive = await v3.walk('/mdw/v3/names?limit=100&state=inactive');
    expect(await v3.mdw.getNamesCount()).to.deep.equal({ body: names.length });
    const byName = await same(
      'getNames by name',
      v3.mdw.getNames({ by: 'name', limit: 100 }),
      '/mdw/v3/names?by=name&limit=100',
      ['name'],
    );
    expect(byName.length).to.equal(names.length + inactive.length);
    const name = names[0]!.name as `${string}.chain`;
    expect((await v3.mdw.getName(name)).name).to.equal(name);
    await same('getNameClaims', v3.mdw.getNameClaims(name, { limit: 1 }), `/mdw/v3/names/${name}/claims?limit=1`, [
      'source_tx_hash',
    ]);
    const updated = (await v3.walk('/mdw/v3/transactions?type=name_update&limit=100')).map((t) =>
      String((t.tx as Obj).name_id),
    );
    const withUpdates = names.find((n) => updated.includes(String((n as Obj).hash)))!;
    await same(
      'getNameUpdates',
      v3.mdw.getNameUpdates(withUpdates.name as `${string}.chain`),
      `/mdw/v3/names/${String(withUpdates.name)}/updates`,
      ['source_tx_hash'],
    );
    const transferred = (await v3.walk('/mdw/v3/transactions?type=name_transfer&limit=100')).map((t) =>
      String((t.tx as Obj).name_id),
    );
    const withTransfers = [...names, ...inactive].find((n) => transferred.includes(String((n as Obj).hash)))!;
    await same(
      'getNameTransfers',
      v3.mdw.getNameTransfers(withTransfers.name as `${string}.chain`),
      `/mdw/v3/names/${String(withTransfers.name)}/transfers`,
      ['source_tx_hash'],
    );
    const auctions = await same(
      'getNamesAuctions',
      v3.mdw.getNamesAuctions({ limit: 100 }),
      '/mdw/v3/names/auctions?limit=100',
      ['name'],
    );
    const auction = auctions[0]!.name as `${string}.chain`;
    expect((await v3.mdw.getNameAuction(auction)).name).to.equal(auction);
    await same(
      'getNameAuctionClaims',
      v3.mdw.getNameAuctionClaims(auction),
      `/mdw/v3/names/auctions/${auction}/claims`,
      ['source_tx_hash'],
    );
    const claimer = String(
      ((await v3.walk(`/mdw/v3/names/${name}/claims`))[0]!.tx as Obj).account_id,
    ) as `ak_${string}`;
    await same(
      'getAccountNameClaims',
      v3.mdw.getAccountNameClaims(claimer),
      `/mdw/v3/accounts/${claimer}/names/claims`,
      ['source_tx_hash'],
    );
    const pointed = (await v3.walk('/mdw/v3/transactions?type=name_update&limit=100'))
      .flatMap((t) => ((t.tx as Obj).pointers as Obj[]).map((p) => String(p.id)))
      .find((id) => id.startsWith('ak_'))!;
    await same(
      'getAccountPointees',
      v3.mdw.getAccountPointees(pointed as `ak_${string}`),
      `/mdw/v3/accounts/${pointed}/names/pointees`,
      ['name', 'key'],
    );
  });

  it('oracles with their queries, responses and extensions; channels', async () => {
    const oracles = await same('getOracles', v3.mdw.getOracles({ limit: 100 }), '/mdw/v3/oracles?limit=100', [
      'oracle',
    ]);
    const id = oracles[0]!.oracle as `ok_${string}`;
    expect((await v3.mdw.getOracle(id)).oracle).to.equal(id);
    for (const [op, path, field] of [
      ['getOracleQueries', 'queries', 'query_id'],
      ['getOracleResponses', 'responses', 'query_id'],
      ['getOracleExtends', 'extends', 'source_tx_hash'],
    ] as const) {
      const withSome = [];
      for (const o of oracles)
        if ((await v3.walk(`/mdw/v3/oracles/${String(o.oracle)}/${path}`)).length > 0) withSome.push(o);
      expect(withSome.length, `${op}: the chain has some`).to.be.above(0);
      await same(
        op,
        v3.mdw[op](withSome[0]!.oracle as `ok_${string}`),
        `/mdw/v3/oracles/${String(withSome[0]!.oracle)}/${path}`,
        [field],
      );
    }
    const channels = await same('getChannels', v3.mdw.getChannels({ limit: 100 }), '/mdw/v3/channels?limit=100', [
      'channel',
    ]);
    const channel = channels[0]!.channel as `ch_${string}`;
    expect((await v3.mdw.getChannel(channel)).channel).to.equal(channel);
  });

  it('contracts, their calls and logs; transfers and activities', async () => {
    const creates = await v3.walk('/mdw/v3/transactions?type=contract_create&limit=100');
    const contract = String((creates[0]!.tx as Obj).contract_id) as `ct_${string}`;
    expect((await v3.mdw.getContract(contract)).contract).to.equal(contract);
    await same('getContractCalls', v3.mdw.getContractCalls({ limit: 100 }), '/mdw/v3/contracts/calls?limit=100', [
      'call_tx_hash',
    ]);
    await same('getContractLogs', v3.mdw.getContractLogs({ limit: 100 }), '/mdw/v3/contracts/logs?limit=100', [
      'call_tx_hash',
      'log_idx',
    ]);
    await same('getTransfers', v3.mdw.getTransfers({ limit: 100 }), '/mdw/v3/transfers?limit=100', [
      'account_id',
      'kind',
      'height',
    ]);
    const claim = (
      (await v3.get('/mdw/v3/transactions?type=name_claim&limit=1&direction=forward')).body as { data: Obj[] }
    ).data[0]!;
    const account = String((claim.tx as Obj).account_id) as `ak_${string}`;
    for (const type of [undefined, 'transactions', 'transfers'] as const)
      await same(
        `getAccountActivities ${type ?? ''}`,
        v3.mdw.getAccountActivities(account, { limit: 100, ...(type ? { type } : {}) }),
        `/mdw/v3/accounts/${account}/activities?limit=100${type ? `&type=${type}` : ''}`,
        ['type', 'height', 'block_hash'],
      );
  });

  /** a list the chain may leave empty (the DEX of the default factory, mainnet's): walked to its end all the same */
  const answers = async (sdk: Promise<unknown>): Promise<unknown[]> => walkPages(await sdk);

  it('AEX-9 tokens and balances, with the default configuration (issue 58: they failed on negative balances)', async () => {
    expect(v3.settings.DEX_WRAPPED_AE, 'the default configuration').to.equal(undefined);
    const tokens = await same(
      'getSortedAex9Tokens',
      v3.mdw.getSortedAex9Tokens({ limit: 100 }),
      '/mdw/v3/aex9?limit=100',
      ['contract_id'],
    );
    expect((await v3.mdw.getAex9TokensCount()).data).to.equal(tokens.length);
    const holders = new Set<string>();
    for (const t of tokens) {
      const ct = t.contract_id as `ct_${string}`;
      expect((await v3.mdw.getAex9ByContract(ct)).contractId).to.equal(ct);
      const balances = await v3.walk(`/mdw/v3/aex9/${ct}/balances?limit=100`);
      const viaSdk = (await answers(v3.mdw.getAex9ContractBalances(ct, { limit: 100 }))) as { accountId: string }[];
      expect(
        viaSdk.map((b) => b.accountId),
        `getAex9ContractBalances ${ct}`,
      ).to.deep.equal(balances.map((b) => b.account_id));
      if (balances.length === 0) continue;
      const holder = balances[0]!.account_id as `ak_${string}`;
      balances.forEach((b) => holders.add(String(b.account_id)));
      expect((await v3.mdw.getAex9ContractAccountBalance(ct, holder)).amount).to.equal(
        BigInt(balances[0]!.amount as bigint),
      );
      await same(
        `getAex9ContractAccountBalanceHistory ${ct}`,
        v3.mdw.getAex9ContractAccountBalanceHistory(ct, holder, { limit: 100 }),
        `/mdw/v3/aex9/${ct}/balances/${holder}/history?limit=100`,
        ['height', 'amount'],
      );
    }
    expect(holders.size, 'tokens with holders').to.be.above(0);
    for (const account of holders)
      await same(
        `getAex9AccountBalances ${account}`,
        v3.mdw.getAex9AccountBalances(account as `ak_${string}`),
        `/mdw/v3/accounts/${account}/aex9/balances`,
        ['contract_id', 'amount'],
      );
  });

  it('AEX-141 collections, DEX swaps, statistics and the status, with the default configuration', async () => {
    const collections = await same(
      'getSortedAex141Contracts',
      v3.mdw.getSortedAex141Contracts({ limit: 100 }),
      '/mdw/v3/aex141?limit=100',
      ['contract_id'],
    );
    const ct = collections[0]!.contract_id as `ct_${string}`;
    for (const c of collections)
      expect((await v3.mdw.getAex141ByContract(c.contract_id as `ct_${string}`)).contractId).to.equal(c.contract_id);
    const owner = String(
      ((await v3.walk('/mdw/v3/transactions?type=contract_create&limit=100'))[0]!.tx as Obj).owner_id,
    ) as `ak_${string}`;
    const dex = await answers(v3.mdw.getDexSwaps());
    expect(dex).to.have.length((await v3.walk('/mdw/v3/dex/swaps')).length);
    await answers(v3.mdw.getDexSwapsByContractId(ct));
    await answers(v3.mdw.getAccountDexSwaps(owner));
    for (const op of [
      'getStats',
      'getDeltaStats',
      'getTotalStats',
      'getMinerStats',
      'getBlocksStats',
      'getTransactionsStats',
      'getNamesStats',
      'getContractsStats',
      'getActiveAccountsStats',
      'getTotalAccountsStats',
      'getDifficultyStats',
      'getHashrateStats',
      'getAex9TransfersStats',
    ] as const) {
      const items = op === 'getStats' ? [await v3.mdw.getStats()] : await answers(v3.mdw[op]({ limit: 100 }));
      expect(items.length, op).to.be.above(0);
    }
    expect((await v3.mdw.getStatus()).mdwHeight).to.equal(v3.devnode.height());
  });
});
