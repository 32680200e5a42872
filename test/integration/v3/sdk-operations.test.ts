/**
 * @module Every one of the SDK's non-hyperchain Middleware operations (issue 58), with the middleware's default
 * configuration, on generated chains of two seeds (a mainnet-like one among them), through the SDK's Middleware
 * client used unchanged: each with an id the chain has, each list walked to its end by the SDK's own `next()`, and
 * its items equal (by their identifying field) to what the raw answer lists, which the other /v3 tests compare with
 * the devnode's chain. What fails here fails for a user of the SDK even where the raw JSON is right (a model the SDK
 * cannot read, an amount it cannot convert to a BigInt, a link it cannot follow).
 */
import { expect } from 'chai';
import { Middleware } from '@aeternity/aepp-sdk';
import type { Json } from '../../../src/chain/json.ts';
import { wrappedAe } from '../../support/aex9-truth.ts';
import { startV3, walkPages, type V3UnderTest } from './harness.ts';

type Obj = { [key: string]: Json };

/** the SDK's field for an ae_mdw field: camelCase, as its models name them */
const camel = (field: string): string => field.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** the SDK's operations under /v3/hyperchain, which a main chain's middleware answers with a 404 (hyperchain tests) */
const HYPERCHAIN_OPERATIONS = [
  'getEpochs',
  'getEpochTop',
  'getSchedules',
  'getSchedule',
  'getValidators',
  'getValidator',
  'getValidatorDelegates',
  'getTopValidatorDelegates',
];

/** every operation of the SDK's generated Middleware client (its prototype chain's methods named `get…`) */
function sdkOperations(): string[] {
  const names = new Set<string>();
  for (let proto = Middleware.prototype; proto !== Object.prototype; proto = Object.getPrototypeOf(proto))
    for (const name of Object.getOwnPropertyNames(proto)) if (/^get[A-Z]/.test(name)) names.add(name);
  return [...names].sort();
}

/**
 * The chains: the default generator's and a mainnet-like one, each as small as holds every kind of entry (a share of
 * token transactions enough for NFTs minted from templates and transferred, and swaps), with some generations to spare:
 * the first lacks an NFT minted from a template at 60 generations, the second at 30.
 */
const CHAINS = [
  { seed: 'v3-sdk-operations', generations: 70, tokenShare: 0.25 },
  { seed: 'v3-sdk-operations-mainnet', generations: 50, tokenShare: 0.1, profile: 'mainnet-like' as const },
];

for (const chain of CHAINS)
  describe(`/v3 through every SDK Middleware operation, default configuration (${chain.seed}${chain.profile ? `, ${chain.profile}` : ''})`, function () {
    this.timeout(600_000);
    let v3: V3UnderTest;
    /** the operations called so far, through `mdw` (the SDK's client, recording) */
    const called = new Set<string>();
    let mdw: Middleware;

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
      const { generations, seed, ...node } = chain;
      v3 = await startV3(generations, seed, () => ({}), node);
      mdw = new Proxy(v3.mdw, {
        get(target, name, receiver) {
          const value: unknown = Reflect.get(target, name, receiver);
          if (typeof value !== 'function') return value;
          if (typeof name === 'string') called.add(name);
          return (value as (...args: unknown[]) => unknown).bind(target);
        },
      });
    });
    after(async () => {
      await v3?.close();
    });

    it('blocks and transactions', async () => {
      const keyBlocks = await same('getKeyBlocks', mdw.getKeyBlocks({ limit: 100 }), '/mdw/v3/key-blocks?limit=100', [
        'hash',
      ]);
      const withMicros = keyBlocks.find((k) => Number(k.micro_blocks_count) > 1)!;
      // (the SDK types a height as a number but its serializer sends only strings: its own bug, ae_mdw's too)
      expect((await mdw.getKeyBlock(String(withMicros.height) as never)).hash).to.equal(withMicros.hash);
      const micros = await same(
        'getKeyBlockMicroBlocks',
        mdw.getKeyBlockMicroBlocks(withMicros.hash as `kh_${string}`, { limit: 1 }),
        `/mdw/v3/key-blocks/${String(withMicros.hash)}/micro-blocks?limit=1`,
        ['hash', 'micro_block_index'],
      );
      const mh = micros[0]!.hash as `mh_${string}`;
      expect((await mdw.getMicroBlock(mh)).transactionsCount).to.equal(Number(micros[0]!.transactions_count));
      const txs = await same(
        'getMicroBlockTransactions',
        mdw.getMicroBlockTransactions(mh),
        `/mdw/v3/micro-blocks/${mh}/transactions`,
        ['hash'],
      );
      expect((await mdw.getTransaction(txs[0]!.hash as `th_${string}`)).blockHash).to.equal(mh);
      const all = await same('getTransactions', mdw.getTransactions({ limit: 100 }), '/mdw/v3/transactions?limit=100', [
        'hash',
      ]);
      expect(await mdw.getTransactionsCount()).to.deep.equal({ body: all.length });
      const sender = String((all.find((t) => (t.tx as Obj).type === 'SpendTx')!.tx as Obj).sender_id) as `ak_${string}`;
      await same(
        'getTransactions by account and type',
        mdw.getTransactions({ account: sender, type: ['spend'], limit: 7 }),
        `/mdw/v3/transactions?account=${sender}&type=spend&limit=7`,
        ['hash'],
      );
      expect((await mdw.getAccountTransactionsCount(sender)).total).to.equal(
        (await v3.walk(`/mdw/v3/transactions?account=${sender}&limit=100`)).length,
      );
      const pending = await mdw.getPendingTransactions();
      expect(pending.data).to.deep.equal([]);
      expect(await mdw.getPendingTransactionsCount()).to.deep.equal({ body: 0 });
    });

    it('names, auctions, their claims, transfers and updates, and pointees', async () => {
      const names = await same(
        'getNames',
        mdw.getNames({ limit: 100, state: 'active' }),
        '/mdw/v3/names?limit=100&state=active',
        ['name'],
      );
      const inactive = await v3.walk('/mdw/v3/names?limit=100&state=inactive');
      expect(await mdw.getNamesCount()).to.deep.equal({ body: names.length });
      const byName = await same(
        'getNames by name',
        mdw.getNames({ by: 'name', limit: 100 }),
        '/mdw/v3/names?by=name&limit=100',
        ['name'],
      );
      expect(byName.length).to.equal(names.length + inactive.length);
      const name = names[0]!.name as `${string}.chain`;
      expect((await mdw.getName(name)).name).to.equal(name);
      await same('getNameClaims', mdw.getNameClaims(name, { limit: 1 }), `/mdw/v3/names/${name}/claims?limit=1`, [
        'source_tx_hash',
      ]);
      const updated = (await v3.walk('/mdw/v3/transactions?type=name_update&limit=100')).map((t) =>
        String((t.tx as Obj).name_id),
      );
      const withUpdates = names.find((n) => updated.includes(String((n as Obj).hash)))!;
      await same(
        'getNameUpdates',
        mdw.getNameUpdates(withUpdates.name as `${string}.chain`),
        `/mdw/v3/names/${String(withUpdates.name)}/updates`,
        ['source_tx_hash'],
      );
      const transferred = (await v3.walk('/mdw/v3/transactions?type=name_transfer&limit=100')).map((t) =>
        String((t.tx as Obj).name_id),
      );
      const withTransfers = [...names, ...inactive].find((n) => transferred.includes(String((n as Obj).hash)))!;
      await same(
        'getNameTransfers',
        mdw.getNameTransfers(withTransfers.name as `${string}.chain`),
        `/mdw/v3/names/${String(withTransfers.name)}/transfers`,
        ['source_tx_hash'],
      );
      const auctions = await same(
        'getNamesAuctions',
        mdw.getNamesAuctions({ limit: 100 }),
        '/mdw/v3/names/auctions?limit=100',
        ['name'],
      );
      const auction = auctions[0]!.name as `${string}.chain`;
      expect((await mdw.getNameAuction(auction)).name).to.equal(auction);
      await same(
        'getNameAuctionClaims',
        mdw.getNameAuctionClaims(auction),
        `/mdw/v3/names/auctions/${auction}/claims`,
        ['source_tx_hash'],
      );
      // a NameClaimTx's account (a contract's AENS.claims are its account's: internal-calls.test.ts)
      const claimTx = (await v3.walk('/mdw/v3/transactions?type=name_claim&limit=100')).find(
        (t) => (t.tx as Obj).type === 'NameClaimTx',
      )!;
      const claimer = String((claimTx.tx as Obj).account_id) as `ak_${string}`;
      await same(
        'getAccountNameClaims',
        mdw.getAccountNameClaims(claimer),
        `/mdw/v3/accounts/${claimer}/names/claims`,
        ['source_tx_hash'],
      );
      const pointed = (await v3.walk('/mdw/v3/transactions?type=name_update&limit=100'))
        .flatMap((t) => ((t.tx as Obj).pointers as Obj[]).map((p) => String(p.id)))
        .find((id) => id.startsWith('ak_'))!;
      await same(
        'getAccountPointees',
        mdw.getAccountPointees(pointed as `ak_${string}`),
        `/mdw/v3/accounts/${pointed}/names/pointees`,
        ['name', 'key'],
      );
    });

    it('oracles with their queries, responses and extensions; channels', async () => {
      const oracles = await same('getOracles', mdw.getOracles({ limit: 100 }), '/mdw/v3/oracles?limit=100', ['oracle']);
      const id = oracles[0]!.oracle as `ok_${string}`;
      expect((await mdw.getOracle(id)).oracle).to.equal(id);
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
          mdw[op](withSome[0]!.oracle as `ok_${string}`),
          `/mdw/v3/oracles/${String(withSome[0]!.oracle)}/${path}`,
          [field],
        );
      }
      const channels = await same('getChannels', mdw.getChannels({ limit: 100 }), '/mdw/v3/channels?limit=100', [
        'channel',
      ]);
      const channel = channels[0]!.channel as `ch_${string}`;
      expect((await mdw.getChannel(channel)).channel).to.equal(channel);
    });

    it('contracts, their calls and logs; transfers and activities', async () => {
      const creates = await v3.walk('/mdw/v3/transactions?type=contract_create&limit=100');
      const contract = String((creates[0]!.tx as Obj).contract_id) as `ct_${string}`;
      expect((await mdw.getContract(contract)).contract).to.equal(contract);
      await same('getContractCalls', mdw.getContractCalls({ limit: 100 }), '/mdw/v3/contracts/calls?limit=100', [
        'call_tx_hash',
      ]);
      await same('getContractLogs', mdw.getContractLogs({ limit: 100 }), '/mdw/v3/contracts/logs?limit=100', [
        'call_tx_hash',
        'log_idx',
      ]);
      await same('getTransfers', mdw.getTransfers({ limit: 100 }), '/mdw/v3/transfers?limit=100', [
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
          mdw.getAccountActivities(account, { limit: 100, ...(type ? { type } : {}) }),
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
        mdw.getSortedAex9Tokens({ limit: 100 }),
        '/mdw/v3/aex9?limit=100',
        ['contract_id'],
      );
      expect((await mdw.getAex9TokensCount()).data).to.equal(tokens.length);
      const holders = new Set<string>();
      for (const t of tokens) {
        const ct = t.contract_id as `ct_${string}`;
        expect((await mdw.getAex9ByContract(ct)).contractId).to.equal(ct);
        const balances = await v3.walk(`/mdw/v3/aex9/${ct}/balances?limit=100`);
        const viaSdk = (await answers(mdw.getAex9ContractBalances(ct, { limit: 100 }))) as { accountId: string }[];
        expect(
          viaSdk.map((b) => b.accountId),
          `getAex9ContractBalances ${ct}`,
        ).to.deep.equal(balances.map((b) => b.account_id));
        if (balances.length === 0) continue;
        const holder = balances[0]!.account_id as `ak_${string}`;
        balances.forEach((b) => holders.add(String(b.account_id)));
        expect((await mdw.getAex9ContractAccountBalance(ct, holder)).amount).to.equal(
          BigInt(balances[0]!.amount as bigint),
        );
        await same(
          `getAex9ContractAccountBalanceHistory ${ct}`,
          mdw.getAex9ContractAccountBalanceHistory(ct, holder, { limit: 100 }),
          `/mdw/v3/aex9/${ct}/balances/${holder}/history?limit=100`,
          ['height', 'amount'],
        );
      }
      expect(holders.size, 'tokens with holders').to.be.above(0);
      for (const account of holders)
        await same(
          `getAex9AccountBalances ${account}`,
          mdw.getAex9AccountBalances(account as `ak_${string}`),
          `/mdw/v3/accounts/${account}/aex9/balances`,
          ['contract_id', 'amount'],
        );
    });

    /** the first of `items` for which the raw list at `path(item)` has entries (the chain must have one) */
    const firstWith = async (what: string, items: Obj[], path: (item: Obj) => string): Promise<Obj> => {
      for (const item of items) if ((await v3.walk(path(item))).length > 0) return item;
      throw new Error(`${what}: the chain has none`);
    };

    it('AEX-141 collections, their tokens and owners, templates, transfers and owned tokens', async () => {
      const collections = await same(
        'getSortedAex141Contracts',
        mdw.getSortedAex141Contracts({ limit: 100 }),
        '/mdw/v3/aex141?limit=100',
        ['contract_id'],
      );
      for (const c of collections)
        expect((await mdw.getAex141ByContract(c.contract_id as `ct_${string}`)).contractId).to.equal(c.contract_id);
      const id = (c: Obj): `ct_${string}` => c.contract_id as `ct_${string}`;
      const minted = id(await firstWith('tokens', collections, (c) => `/mdw/v3/aex141/${id(c)}/tokens?limit=100`));
      const tokens = await same(
        'getAex141ContractTokens',
        mdw.getAex141ContractTokens(minted, { limit: 100 }),
        `/mdw/v3/aex141/${minted}/tokens?limit=100`,
        ['token_id', 'owner_id'],
      );
      const token = tokens[0]!;
      const owner = await mdw.getAex141TokenOwner(minted, Number(token.token_id));
      expect([owner.ownerId, owner.tokenId]).to.deep.equal([token.owner_id, Number(token.token_id)]);
      await same(
        'getAex141OwnedTokens',
        mdw.getAex141OwnedTokens(token.owner_id as `ak_${string}`, { limit: 100 }),
        `/mdw/v3/accounts/${String(token.owner_id)}/aex141/tokens?limit=100`,
        ['contract_id', 'token_id'],
      );
      const withTemplates = id(
        await firstWith('templates', collections, (c) => `/mdw/v3/aex141/${id(c)}/templates?limit=100`),
      );
      const templates = await same(
        'getAex141ContractTemplates',
        mdw.getAex141ContractTemplates(withTemplates, { limit: 100 }),
        `/mdw/v3/aex141/${withTemplates}/templates?limit=100`,
        ['template_id', 'tx_hash'],
      );
      const fromTemplate = await firstWith(
        'tokens minted from a template',
        templates,
        (t) => `/mdw/v3/aex141/${withTemplates}/templates/${String(t.template_id)}/tokens?limit=100`,
      );
      await same(
        'getAex141TemplateTokens',
        mdw.getAex141TemplateTokens(withTemplates, Number(fromTemplate.template_id), { limit: 100 }),
        `/mdw/v3/aex141/${withTemplates}/templates/${String(fromTemplate.template_id)}/tokens?limit=100`,
        ['token_id', 'owner_id'],
      );
      const moved = id(await firstWith('transfers', collections, (c) => `/mdw/v3/aex141/${id(c)}/transfers?limit=100`));
      await same(
        'getAex141ContractTransfers',
        mdw.getAex141ContractTransfers(moved, { limit: 100 }),
        `/mdw/v3/aex141/${moved}/transfers?limit=100`,
        ['tx_hash', 'log_idx'],
      );
    });

    it("DEX swaps of the devnode's DEX, its factory and wrapped AE known by their code (DEX_FACTORY unset)", async () => {
      expect([v3.settings.DEX_FACTORY, v3.settings.DEX_WRAPPED_AE], 'the default configuration').to.deep.equal([
        undefined,
        undefined,
      ]);
      // the SDK's DEX methods send no limit: pages of 10, walked by its next()
      const swaps = await same('getDexSwaps', mdw.getDexSwaps(), '/mdw/v3/dex/swaps', ['tx_hash', 'log_idx']);
      // the chain's own wrapped AE (the devnode deployed it) decides each swap's action
      const wae = wrappedAe(v3.devnode.chain);
      expect(swaps.map((x) => x.action)).to.deep.equal(
        swaps.map((x) => (x.from_contract === wae ? 'BUY' : x.to_contract === wae ? 'SELL' : 'SWAP')),
      );
      expect(
        swaps.map((x) => x.action),
        'swaps of wrapped AE',
      ).to.include.oneOf(['BUY', 'SELL']);
      const token = String(swaps[0]!.from_contract) as `ct_${string}`;
      await same('getDexSwapsByContractId', mdw.getDexSwapsByContractId(token), `/mdw/v3/dex/${token}/swaps`, [
        'tx_hash',
        'log_idx',
      ]);
      const caller = String(swaps[0]!.caller) as `ak_${string}`;
      await same('getAccountDexSwaps', mdw.getAccountDexSwaps(caller), `/mdw/v3/accounts/${caller}/dex/swaps`, [
        'tx_hash',
        'log_idx',
      ]);
    });

    it('statistics and the status', async () => {
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
        const items = op === 'getStats' ? [await mdw.getStats()] : await answers(mdw[op]({ limit: 100 }));
        expect(items.length, op).to.be.above(0);
      }
      expect((await mdw.getStatus()).mdwHeight).to.equal(v3.devnode.height());
    });

    it("has called every one of the SDK's non-hyperchain operations", () => {
      const operations = sdkOperations();
      expect(operations, "the hyperchain operations are the SDK's").to.include.members(HYPERCHAIN_OPERATIONS);
      const mainChain = operations.filter((op) => !HYPERCHAIN_OPERATIONS.includes(op));
      expect(
        mainChain.filter((op) => !called.has(op)),
        'not called',
      ).to.deep.equal([]);
      expect(mainChain).to.have.length(66);
    });
  });
