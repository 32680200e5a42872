import { expect } from 'chai';
import { encode, Encoding } from '@aeternity/aepp-sdk';
import { getNamedType, isScalarType, type GraphQLObjectType } from 'graphql';
import { parseJson, type Json } from '../../../src/chain/json.ts';
import { SCHEMA } from '../../../src/api/mdw/graphql/schema.ts';
import { wrappedAe } from '../../support/aex9-truth.ts';
import { startV3, type V3UnderTest } from '../v3/harness.ts';

type Obj = { [key: string]: Json };
interface GraphQLAnswer {
  status: number;
  data: Obj | null;
  errors: { message: string; extensions?: Obj }[] | undefined;
}

describe('GraphQL at /mdw/graphql, field by field the REST answers of /mdw/v3', function () {
  this.timeout(180_000);
  let v3: V3UnderTest;

  before(async () => {
    v3 = await startV3(120, 'v3-aex9', (devnode) => ({ DEX_WRAPPED_AE: wrappedAe(devnode.chain) }), {
      populatedOnce: true,
    });
  });
  after(async () => {
    await v3?.close();
  });

  const send = async (query: string, variables: Obj): Promise<[number, string]> => {
    const res = await fetch(`${v3.url}/mdw/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    return [res.status, await res.text()];
  };

  /**
   * post sends a query as aepp clients do (POST, JSON) and reads the answer with exact integers. It sends it twice:
   * graphql-js executes a shape's first document, graphql-jit its later ones (compiled-operations.ts), and the two
   * answers are the same text.
   */
  async function post(query: string, variables: Obj = {}): Promise<GraphQLAnswer> {
    const [status, text] = await send(query, variables);
    expect(await send(query, variables), `${query}, run again (compiled)`).to.deep.equal([status, text]);
    const body = parseJson(text) as Obj;
    return {
      status,
      data: (body.data ?? null) as Obj | null,
      errors: body.errors as GraphQLAnswer['errors'],
    };
  }

  /** ok runs a query that must answer without errors and returns its data. */
  async function ok(query: string, variables: Obj = {}): Promise<Obj> {
    const answer = await post(query, variables);
    expect(answer.errors, `${query}: ${JSON.stringify(answer.errors)}`).to.equal(undefined);
    expect(answer.status).to.equal(200);
    return answer.data!;
  }

  const rest = async (path: string): Promise<Json> => {
    const res = await v3.get(path);
    expect(res.status, path).to.equal(200);
    return res.body;
  };

  /** selection asks for every scalar field of a type (the REST answer must hold each). */
  function selection(type: GraphQLObjectType): string {
    return Object.values(type.getFields())
      .filter((f) => isScalarType(getNamedType(f.type)))
      .map((f) => f.name)
      .join(' ');
  }

  /** itemType is the object type a query field answers (a page's item type for a list). */
  function itemType(field: string): { type: GraphQLObjectType; paged: boolean } {
    const type = getNamedType(SCHEMA.getQueryType()!.getFields()[field]!.type) as GraphQLObjectType;
    const data = type.getFields().data;
    return data ? { type: getNamedType(data.type) as GraphQLObjectType, paged: true } : { type, paged: false };
  }

  /** expectSame compares a GraphQL item with its REST item field by field (BigInt as the REST integer's digits). */
  function expectSame(item: Obj, restItem: Obj, type: GraphQLObjectType, where: string): void {
    for (const field of Object.values(type.getFields())) {
      const named = getNamedType(field.type);
      if (!isScalarType(named)) continue;
      const restValue = restItem[field.name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] ?? null;
      const value = item[field.name];
      const expected = named.name === 'BigInt' && restValue !== null ? String(restValue) : restValue;
      expect(value, `${where}.${field.name}`).to.deep.equal(expected);
    }
  }

  /** compare queries a field and the REST path it stands for and compares them field by field, page links too. */
  async function compare(field: string, args: string, path: string): Promise<Obj[]> {
    const { type, paged } = itemType(field);
    const restAnswer = (await rest(path)) as Obj;
    const query = paged
      ? `{ ${field}${args} { data { ${selection(type)} } nextCursor prevCursor } }`
      : `{ ${field}${args} { ${selection(type)} } }`;
    const data = (await ok(query))[field] as Obj;
    if (!paged) {
      expectSame(data, restAnswer, type, field);
      return [restAnswer];
    }
    const items = data.data as Obj[];
    const restItems = restAnswer.data as Obj[];
    expect(items.length, `${field} page size`).to.equal(restItems.length);
    items.forEach((item, i) => expectSame(item, restItems[i]!, type, `${field}[${i}]`));
    expect(data.nextCursor === null, `${field} has a next page as REST does`).to.equal(restAnswer.next === null);
    expect(data.prevCursor === null, `${field} has a previous page as REST does`).to.equal(restAnswer.prev === null);
    return restItems;
  }

  it('answers blocks as /key-blocks and /micro-blocks do', async () => {
    const [top] = (await compare('keyBlocks', '(limit: 5)', '/mdw/v3/key-blocks?limit=5')) as Obj[];
    await compare(
      'keyBlocks',
      '(limit: 3, fromHeight: 2, toHeight: 9, direction: FORWARD)',
      '/mdw/v3/key-blocks?limit=3&scope=gen:2-9',
    );
    await compare('keyBlock', '(id: "7")', '/mdw/v3/key-blocks/7');
    await compare('keyBlockAtHeight', '(height: 7)', '/mdw/v3/key-blocks/7');
    await compare('keyBlockWithHash', `(hash: "${String(top!.hash)}")`, `/mdw/v3/key-blocks/${String(top!.hash)}`);
    const withMicro = ((await rest('/mdw/v3/key-blocks?limit=100')) as Obj).data as Obj[];
    const busy = withMicro.find((k) => Number(k.micro_blocks_count) > 1)!;
    const micro = await compare(
      'keyBlockMicroBlocks',
      `(id: "${String(busy.height)}")`,
      `/mdw/v3/key-blocks/${String(busy.height)}/micro-blocks`,
    );
    await compare(
      'microBlocksOfKeyBlockAtHeight',
      `(height: ${String(busy.height)}, limit: 1)`,
      `/mdw/v3/key-blocks/${String(busy.height)}/micro-blocks?limit=1`,
    );
    await compare(
      'microBlock',
      `(hash: "${String(micro[0]!.hash)}")`,
      `/mdw/v3/micro-blocks/${String(micro[0]!.hash)}`,
    );
    await compare(
      'microBlockTransactions',
      `(hash: "${String(micro[0]!.hash)}")`,
      `/mdw/v3/micro-blocks/${String(micro[0]!.hash)}/transactions`,
    );
  });

  it('answers transactions as /transactions does, each with its block read in one batch', async () => {
    const txs = await compare('transactions', '(limit: 100)', '/mdw/v3/transactions?limit=100');
    expect(txs.length).to.equal(100);
    await compare('transactions', '(type: ["spend"], limit: 7)', '/mdw/v3/transactions?type=spend&limit=7');
    await compare('transaction', `(hash: "${String(txs[3]!.hash)}")`, `/mdw/v3/transactions/${String(txs[3]!.hash)}`);
    await compare('transaction', `(id: "${String(txs[3]!.hash)}")`, `/mdw/v3/transactions/${String(txs[3]!.hash)}`);
    const count = (await ok('{ transactionsCount }')).transactionsCount;
    expect(count).to.equal(await rest('/mdw/v3/transactions/count'));
    const { transactions } = await ok(
      `{ transactions(limit: 100) { data { hash blockHash block { ${selection(itemType('microBlock').type)} keyBlock { hash height } } } } }`,
    );
    const blocks = new Map<string, Obj>();
    for (const t of (transactions as Obj).data as Obj[]) {
      const block = t.block as Obj;
      expect(block.hash).to.equal(t.blockHash);
      const restBlock =
        blocks.get(String(block.hash)) ?? ((await rest(`/mdw/v3/micro-blocks/${String(block.hash)}`)) as Obj);
      blocks.set(String(block.hash), restBlock);
      expectSame(block, restBlock, itemType('microBlock').type, 'transaction.block');
      expect((block.keyBlock as Obj).height).to.equal(restBlock.height);
    }
  });

  it('walks a list by its cursors to the same items as the REST links, both ways', async () => {
    const restWalk = (await v3.walk('/mdw/v3/transactions?limit=7&direction=forward&scope=gen:0-20')).map(
      (t) => t.hash,
    );
    const seen: Json[] = [];
    let cursor: string | null = null;
    let last: Obj | undefined;
    do {
      const page = (
        await ok(
          'query($c: String) { transactions(limit: 7, direction: FORWARD, fromHeight: 0, toHeight: 20, cursor: $c) { data { hash } nextCursor prevCursor } }',
          cursor ? { c: cursor } : {},
        )
      ).transactions as Obj;
      seen.push(...(page.data as Obj[]).map((t) => t.hash!));
      cursor = page.nextCursor as string | null;
      last = page;
    } while (cursor !== null);
    expect(seen).to.deep.equal(restWalk);
    // one page back from the last is the page before it
    const back = (
      await ok(
        'query($c: String) { transactions(limit: 7, direction: FORWARD, fromHeight: 0, toHeight: 20, cursor: $c) { data { hash } } }',
        { c: last!.prevCursor as string },
      )
    ).transactions as Obj;
    const lastSize = restWalk.length % 7 || 7;
    expect((back.data as Obj[]).map((t) => t.hash)).to.deep.equal(restWalk.slice(-lastSize - 7, -lastSize));
  });

  it('answers names, contracts, channels and oracles as their REST routes do', async () => {
    const names = await compare('names', '(limit: 20)', '/mdw/v3/names?by=deactivation&limit=20');
    expect(names.length, 'the chain has names').to.be.above(0);
    await compare('names', '(orderBy: NAME, state: ACTIVE, limit: 5)', '/mdw/v3/names?by=name&state=active&limit=5');
    const name = String(names[0]!.name);
    await compare('name', `(id: "${name}")`, `/mdw/v3/names/${name}`);
    await compare('nameClaims', `(id: "${name}")`, `/mdw/v3/names/${name}/claims`);
    await compare('nameUpdates', `(id: "${name}")`, `/mdw/v3/names/${name}/updates`);
    await compare('nameHistory', `(id: "${name}", limit: 5)`, `/mdw/v3/names/${name}/history?limit=5`);
    expect((await ok('{ namesCount }')).namesCount).to.equal(await rest('/mdw/v3/names/count'));
    const contracts = await compare('contracts', '(limit: 10)', '/mdw/v3/contracts?limit=10');
    expect(contracts.length, 'the chain has contracts').to.be.above(0);
    const ct = String(contracts[0]!.contract);
    await compare('contract', `(id: "${ct}")`, `/mdw/v3/contracts/${ct}`);
    await compare('contractsLogs', '(limit: 10)', '/mdw/v3/contracts/logs?limit=10');
    await compare('contractsCalls', '(limit: 10)', '/mdw/v3/contracts/calls?limit=10');
    await compare('contractCalls', `(id: "${ct}")`, `/mdw/v3/contracts/${ct}/calls`);
    const channels = await compare('channels', '', '/mdw/v3/channels');
    for (const c of channels.slice(0, 2)) {
      await compare('channel', `(id: "${String(c.channel)}")`, `/mdw/v3/channels/${String(c.channel)}`);
      await compare('channelUpdates', `(id: "${String(c.channel)}")`, `/mdw/v3/channels/${String(c.channel)}/updates`);
    }
    const oracles = await compare('oracles', '', '/mdw/v3/oracles');
    for (const o of oracles.slice(0, 2)) {
      const id = String(o.oracle);
      await compare('oracle', `(id: "${id}")`, `/mdw/v3/oracles/${id}`);
      await compare('oracleQueries', `(id: "${id}")`, `/mdw/v3/oracles/${id}/queries`);
      await compare('oracleResponses', `(id: "${id}")`, `/mdw/v3/oracles/${id}/responses`);
      await compare('oracleExtends', `(id: "${id}")`, `/mdw/v3/oracles/${id}/extends`);
    }
  });

  it('answers tokens, swaps, activities, transfers, statistics and status as REST does', async () => {
    const tokens = await compare('aex9Contracts', '', '/mdw/v3/aex9?by=creation');
    expect(tokens.length, 'the chain has AEX-9 tokens').to.be.above(0);
    const token = String(tokens[0]!.contract_id);
    await compare('aex9Contract', `(id: "${token}")`, `/mdw/v3/aex9/${token}`);
    const holders = await compare(
      'aex9ContractBalances',
      `(id: "${token}")`,
      `/mdw/v3/aex9/${token}/balances?by=pubkey`,
    );
    const holder = String(holders[0]!.account_id);
    await compare(
      'aex9ContractTransfers',
      `(contractId: "${token}", account: "${holder}")`,
      `/mdw/v3/aex9/${token}/transfers?account=${holder}`,
    );
    await compare('aex9AccountBalances', `(accountId: "${holder}")`, `/mdw/v3/accounts/${holder}/aex9/balances`);
    await compare(
      'aex9TokenBalance',
      `(contractId: "${token}", accountId: "${holder}")`,
      `/mdw/v3/aex9/${token}/balances/${holder}`,
    );
    expect((await ok('{ aex9Count }')).aex9Count).to.equal(((await rest('/mdw/v3/aex9/count')) as Obj).data);
    await compare('aex141Contracts', '', '/mdw/v3/aex141?by=creation');
    await compare('swaps', '', '/mdw/v3/dex/swaps');
    await compare(
      'accountActivities',
      `(id: "${holder}", limit: 20)`,
      `/mdw/v3/accounts/${holder}/activities?limit=20`,
    );
    await compare('transfers', '(limit: 20)', '/mdw/v3/transfers?limit=20');
    await compare('totalStats', '(limit: 5)', '/mdw/v3/stats/total?limit=5');
    await compare('deltaStats', '(limit: 5)', '/mdw/v3/stats/delta?limit=5');
    await compare('minersStats', '', '/mdw/v3/stats/miners');
    await compare('transactionsStats', '', '/mdw/v3/stats/transactions');
    const wealth = ((await ok('{ wealth { data { account balance } } }')).wealth as Obj).data as Obj[];
    const restWealth = (await rest('/mdw/v3/wealth')) as Obj[];
    expect(wealth.length, 'the ranking lists accounts').to.be.above(0);
    expect(wealth).to.deep.equal(restWealth.map((w) => ({ account: w.account, balance: String(w.balance) })));
    const status = (await ok('{ status { mdwHeight mdwSynced nodeHeight mdwVersion } }')).status as Obj;
    const restStatus = (await rest('/mdw/v3/status')) as Obj;
    expect(status).to.deep.equal({
      mdwHeight: restStatus.mdw_height,
      mdwSynced: restStatus.mdw_synced,
      nodeHeight: restStatus.node_height,
      mdwVersion: restStatus.mdw_version,
    });
  });

  it("answers account from the stored balances as the node has them, syncStatus and Status's fields ae_mdw leaves null", async () => {
    const wealth = (await rest('/mdw/v3/wealth')) as Obj[];
    const contract = (((await rest('/mdw/v3/contracts?limit=1')) as Obj).data as Obj[])[0]!.contract as string;
    expect(wealth.length, 'the ranking lists accounts').to.be.above(2);
    for (const id of wealth.slice(0, 3).map((w) => w.account as string)) {
      const { account } = await ok('query($id: String!) { account(id: $id) { id balance creationTime } }', { id });
      const node = (await v3.nodeGet(`/v3/accounts/${id}`)) as Obj;
      expect(account, id).to.deep.equal({ id, balance: String(node.balance), creationTime: null });
    }
    const unknown = encode(new Uint8Array(32).fill(7), Encoding.AccountAddress);
    const missing = await post(`{ account(id: "${unknown}") { balance } }`);
    expect(missing.errors![0]!.extensions, missing.errors![0]!.message).to.deep.include({ status: 404 });
    for (const id of ['ak_nope', contract]) {
      const bad = await post(`{ account(id: "${id}") { balance } }`);
      expect(bad.errors![0]!.extensions, bad.errors![0]!.message).to.deep.include({ status: 400 });
    }

    const data = await ok(`{
      syncStatus { lastSyncedHeight partial }
      status { mdwHeight mdwSyncing partial lastSyncedHeight lastKeyBlockHash lastKeyBlockTime totalTransactions pendingTransactions }
    }`);
    const restStatus = (await rest('/mdw/v3/status')) as Obj;
    const top = (await rest(`/mdw/v3/key-blocks/${String(restStatus.mdw_height)}`)) as Obj;
    expect(data.syncStatus).to.deep.equal({ lastSyncedHeight: restStatus.mdw_height, partial: restStatus.mdw_syncing });
    expect(data.status).to.deep.equal({
      mdwHeight: restStatus.mdw_height,
      mdwSyncing: restStatus.mdw_syncing,
      partial: restStatus.mdw_syncing,
      lastSyncedHeight: restStatus.mdw_height,
      lastKeyBlockHash: top.hash,
      lastKeyBlockTime: top.time,
      totalTransactions: (await v3.truth()).transactions.length,
      pendingTransactions: await rest('/mdw/v3/transactions/pending/count'),
    });
  });

  it('refuses what is over its limits, a bad argument and a foreign cursor with a GraphQL error, never a 5xx', async () => {
    const many = Array.from(
      { length: 8 },
      (_, i) => `t${i}: transactions(limit: 100) { data { hash block { hash } } }`,
    );
    const costly = await post(`{ ${many.join(' ')} }`);
    expect(costly.status).to.equal(200);
    expect(costly.data).to.equal(null);
    expect(costly.errors![0]!.message).to.match(/^query cost \d+ exceeds the limit 1000/);
    const deep = await post(
      '{ __schema { types { fields { type { fields { type { fields { type { fields { name } } } } } } } } } }',
    );
    expect(deep.status).to.equal(200);
    expect(deep.errors![0]!.message).to.match(/introspection|too deep|depth/i);
    const bad = await post('{ keyBlock(id: "xyz") { hash } }');
    expect(bad.status).to.equal(200);
    expect(bad.errors![0]!.message).to.equal('invalid block index: xyz');
    expect(bad.errors![0]!.extensions).to.deep.include({ code: 'BAD_USER_INPUT', status: 400 });
    const nowhere = encode(new Uint8Array(32), Encoding.MicroBlockHash);
    const missing = await post(`{ microBlock(hash: "${nowhere}") { hash } }`);
    expect(missing.errors![0]!.extensions, missing.errors![0]!.message).to.deep.include({ status: 404 });
    const typed = await post('{ keyBlocks(limit: "ten") { data { hash } } }');
    expect(typed.status).to.equal(200);
    expect(typed.errors![0]!.message).to.match(/Int/);
    const { keyBlocks } = await ok('{ keyBlocks(limit: 2) { nextCursor } }');
    const foreign = await post(
      `{ microBlocksOfKeyBlockAtHeight(height: 3, cursor: "${String((keyBlocks as Obj).nextCursor)}") { data { hash } } }`,
    );
    expect(foreign.errors![0]!.message).to.match(/^invalid cursor: .* \(not a cursor of this list\)$/);
    const garbage = await post('{ keyBlocks(cursor: "@@@") { data { hash } } }');
    expect(garbage.errors![0]!.message).to.match(/^invalid cursor/);
    const syntax = await post('{ keyBlocks(');
    expect(syntax.status).to.equal(200);
    expect(syntax.errors![0]!.message).to.match(/Syntax Error/);
    const unknown = await post('{ noSuchField }');
    expect(unknown.errors![0]!.message).to.match(/noSuchField/);
    const notJson = await fetch(`${v3.url}/mdw/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{',
    });
    expect(notJson.status).to.equal(400);
    const empty = await fetch(`${v3.url}/mdw/graphql`);
    expect(empty.status).to.equal(400);
    const put = await fetch(`${v3.url}/mdw/graphql`, { method: 'PUT' });
    expect(put.status).to.equal(405);
  });

  it('refuses a hostile client’s small documents of unbounded work: fragment chains, count aliases, introspection aliases', async () => {
    const aliases = (n: number, field: string) => Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(' ');
    // 40 fragments, each spreading the next twice: 2^40 paths, measured once per fragment
    const chain = Array.from({ length: 40 }, (_, i) =>
      i === 39 ? 'fragment F39 on Status { mdwHeight }' : `fragment F${i} on Status { ...F${i + 1} ...F${i + 1} }`,
    ).join(' ');
    const fanned = await ok(`{ status { ...F0 } } ${chain}`);
    expect((fanned.status as Obj).mdwHeight).to.be.a('number');
    // every alias of a count is a read of its own (cost.test.ts), but a thousand are refused before that: too many
    // fields to validate (graphql-js compares fields of one response name pairwise)
    for (const query of [
      `{ ${aliases(1001, 'aex9Count')} }`,
      `{ status { ${aliases(1001, 'pendingTransactions')} } }`,
    ]) {
      const counts = await post(query);
      expect(counts.data, query.slice(0, 40)).to.equal(null);
      expect(counts.errors![0]!.message).to.match(/^the document selects 100[12] fields, more than 256$/);
    }
    // each schema is some 15 KB of answer: eleven are more than a client needs
    const schemas = await post(`{ ${aliases(11, '__schema { types { fields { name } } }')} }`);
    expect(schemas.data).to.equal(null);
    expect(schemas.errors!.map((e) => e.message)).to.deep.equal([
      'more than 10 introspection fields (__schema, __type) in one document',
    ]);
  });

  it('takes GET and form requests as ae_mdw does, BigInt as strings', async () => {
    const q = encodeURIComponent('{ keyBlock(id: "4") { height beneficiaryReward nonce time } }');
    const got = parseJson(await (await fetch(`${v3.url}/mdw/graphql?query=${q}`)).text()) as Obj;
    const block = (got.data as Obj).keyBlock as Obj;
    const restBlock = (await rest('/mdw/v3/key-blocks/4')) as Obj;
    expect(block).to.deep.equal({
      height: 4,
      beneficiaryReward: String(restBlock.beneficiary_reward),
      nonce: String(restBlock.nonce),
      time: restBlock.time,
    });
    const form = await fetch(`${v3.url}/mdw/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        query: 'query($h: Int!) { keyBlockAtHeight(height: $h) { height } }',
        variables: '{"h":4}',
      }),
    });
    expect(((parseJson(await form.text()) as Obj).data as Obj).keyBlockAtHeight).to.deep.equal({ height: 4 });
  });

  it('serves GraphiQL and its assets from the installed packages', async () => {
    const page = await fetch(`${v3.url}/mdw/graphiql`);
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.match(/^text\/html/);
    const html = await page.text();
    expect(html).to.not.match(/https?:\/\//);
    for (const [asset, type] of [
      ['graphiql.js', /^text\/javascript/],
      ['graphiql.css', /^text\/css/],
      ['react.js', /^text\/javascript/],
      ['react-dom.js', /^text\/javascript/],
    ] as const) {
      expect(html).to.include(`graphiql/${asset}`);
      const res = await fetch(`${v3.url}/mdw/graphiql/${asset}`);
      expect(res.status, asset).to.equal(200);
      expect(res.headers.get('content-type'), asset).to.match(type);
      expect((await res.arrayBuffer()).byteLength, asset).to.be.above(5000);
    }
    // a name no asset has, and the names every object inherits: 404, never the prototype's member read as an asset
    for (const other of ['other.js', 'constructor', '__proto__', 'hasOwnProperty'])
      expect((await fetch(`${v3.url}/mdw/graphiql/${other}`)).status, other).to.equal(404);
  });
});
