import { expect } from 'chai';
import { idKey } from '../../../src/chain/id-key.ts';
import { contractId } from '../../../src/chain/derived-ids.ts';
import { Ajv } from 'ajv';
import { V3_SCHEMAS, responseSchema } from '../../../src/api/mdw/rest/api-document.ts';
import { V3_OPERATIONS } from '../../../src/api/mdw/rest/operations.ts';
import type { Json } from '../../../src/chain/json.ts';
import { startV3, walkBack, walkPages, type ChainTruth, type MiddlewarePage, type V3UnderTest } from './harness.ts';

type Obj = { [key: string]: Json };

/** An SDK model as tests read it (camelCase fields). */
type Item = { [key: string]: unknown; hash: string; height: number };

/** kbi: a height as the SDK sends it at run time (a string; its types say number). */
const kbi = (height: number): `kh_${string}` => String(height) as `kh_${string}`;

/** page types what a page method of the SDK returns. */
const page = (value: unknown): MiddlewarePage<Item> => value as MiddlewarePage<Item>;

describe('/v3 blocks and transactions through the SDK Middleware client (devnode → populator → server)', function () {
  this.timeout(180_000);
  let v3: V3UnderTest;
  let chain: ChainTruth;
  before(async () => {
    v3 = await startV3(30, 'v3-api', () => ({}), { populatedOnce: true });
    chain = await v3.truth();
  });
  after(async () => {
    await v3?.close();
  });

  it('answers getStatus with a version the SDK accepts and the stored height', async () => {
    const status = await v3.mdw.getStatus();
    expect(status.mdwVersion).to.match(/^1\.\d+\.\d+$/);
    expect(status.mdwHeight).to.equal(v3.devnode.height());
    expect(status.nodeHeight).to.equal(v3.devnode.height());
    expect(status.mdwSynced).to.equal(true);
    expect(status.mdwTxIndex).to.equal(chain.transactions.length);
    expect(await v3.mdw.requestByPath('/v3/status')).to.deep.equal(status);
  });

  it('lists every key block newest first, page by page forward and back, equal to the node', async () => {
    const first = page(await v3.mdw.getKeyBlocks({ limit: 7 }));
    expect(first.prevPath).to.equal(null);
    expect(first.nextPath).to.match(/^\/v3\/key-blocks\?cursor=\d+&limit=7$/);
    const all = await walkPages<Item>(first);
    expect(all.map((k) => k.hash)).to.deep.equal(chain.keyBlocks.map((k) => k.hash).reverse());
    // from the last page back to the first: the same blocks, none skipped or repeated
    let last = first;
    while (last.nextPath !== null) last = await last.next();
    const before = await walkBack<Item>(last);
    expect([...before, ...last.data].map((k) => k.hash)).to.deep.equal(all.map((k) => k.hash));
    const kb = all.find((k) => k.height === 5)!;
    const node = chain.keyBlocks[5]!;
    expect(kb.prevHash).to.equal(node.prev_hash);
    expect(kb.microBlocksCount).to.equal(chain.microBlocks.get(5)!.length);
    expect(kb.transactionsCount).to.equal(chain.transactions.filter((t) => t.height === 5).length);
  });

  it('walks a gen scope forward and a single key block by height and by hash', async () => {
    const scoped = await walkPages<Item>(await v3.mdw.getKeyBlocks({ scope: 'gen:3-12', limit: 4 }));
    expect(scoped.map((k) => k.height)).to.deep.equal([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    const byHeight = await v3.mdw.getKeyBlock(kbi(7));
    const byHash = await v3.mdw.getKeyBlock(chain.keyBlocks[7]!.hash as `kh_${string}`);
    expect(byHeight).to.deep.equal(byHash);
    expect(byHeight.hash).to.equal(chain.keyBlocks[7]!.hash);
  });

  it('lists micro blocks of every generation and the transactions of every micro block, as the node has them', async () => {
    for (const [height, micros] of chain.microBlocks) {
      const listed = await walkPages<Item>(
        await v3.mdw.getKeyBlockMicroBlocks(kbi(height), { limit: 2, direction: 'forward' }),
      );
      expect(
        listed.map((m) => m.hash),
        `generation ${height}`,
      ).to.deep.equal(micros.map((m) => m.hash));
      for (const [i, m] of listed.entries()) {
        expect(m.microBlockIndex).to.equal(i);
        const txs = chain.transactions.filter((t) => t.blockHash === m.hash);
        expect(m.transactionsCount).to.equal(txs.length);
        const micro = await v3.mdw.getMicroBlock(m.hash as `mh_${string}`);
        expect(micro.hash).to.equal(m.hash);
        // the SDK sends no paging parameters here: ae_mdw's default, newest first
        const listedTxs = await walkPages<Item>(await v3.mdw.getMicroBlockTransactions(m.hash as `mh_${string}`));
        expect(listedTxs.map((t) => t.hash)).to.deep.equal(txs.map((t) => t.hash).reverse());
        const forward = await v3.mdw.requestByPath(`/v3/micro-blocks/${m.hash}/transactions?direction=forward&limit=2`);
        expect((await walkPages<Item>(forward)).map((t) => t.hash)).to.deep.equal(txs.map((t) => t.hash));
      }
    }
  });

  it('serves every transaction by hash with the node tx, its place and its encoding', async () => {
    for (const t of chain.transactions.slice(0, 60)) {
      const raw = (await v3.get(`/mdw/v3/transactions/${t.hash}`)).body as Obj;
      expect(raw.block_hash).to.equal(t.blockHash);
      expect(raw.block_height).to.equal(t.height);
      expect(raw.micro_index).to.equal(t.microIndex);
      const nodeTx = t.signed.tx as Obj;
      // ae_mdw sends an oracle's query and response as base64 of the text the node shows
      const base64 = (k: string): boolean =>
        (nodeTx.type === 'OracleQueryTx' && k === 'query') || (nodeTx.type === 'OracleRespondTx' && k === 'response');
      for (const [k, v] of Object.entries(nodeTx))
        expect((raw.tx as Obj)[k], `${t.hash} ${k}`).to.deep.equal(
          base64(k) ? Buffer.from(String(v)).toString('base64') : v,
        );
      expect(raw.encoded_tx).to.match(/^tx_/);
      const viaSdk = await v3.mdw.getTransaction(t.hash as `th_${string}`);
      expect(viaSdk.hash).to.equal(t.hash);
    }
  });

  it('lists all transactions both ways and counts them', async () => {
    const all = await walkPages<Item>(await v3.mdw.getTransactions({ limit: 100 }));
    expect(all.map((t) => t.hash)).to.deep.equal(chain.transactions.map((t) => t.hash).reverse());
    // the SDK wraps a bare integer answer as {body}
    expect(await v3.mdw.getTransactionsCount()).to.deep.equal({ body: chain.transactions.length });
    const forward = await walkPages<Item>(await v3.mdw.getTransactions({ limit: 17, direction: 'forward' }));
    expect(forward.map((t) => t.hash)).to.deep.equal(chain.transactions.map((t) => t.hash));
  });

  it('scopes transactions and calls by txi: the count of transactions before one in chain order', async () => {
    const hashes = chain.transactions.map((t) => t.hash);
    const n = hashes.length;
    for (const [a, b] of [
      [0, 0],
      [3, 40],
      [n - 5, n - 1],
      [17, 17],
      [n - 3, n + 50],
    ] as const) {
      const listed = await walkPages<Item>(await v3.mdw.getTransactions({ scope: `txi:${a}-${b}`, limit: 7 }));
      expect(
        listed.map((t) => t.hash),
        `txi:${a}-${b}`,
      ).to.deep.equal(hashes.slice(a, b + 1));
      const back = (await v3.get(`/mdw/v3/transactions?scope=txi:${b}-${a}&limit=100`)).body as { data: Obj[] };
      expect(back.data.map((t) => t.hash)).to.deep.equal(hashes.slice(a, b + 1).reverse());
      expect((await v3.get(`/mdw/v3/transactions/count?scope=txi:${a}-${b}`)).body).to.equal(
        hashes.slice(a, b + 1).length,
      );
    }
    expect((await v3.get(`/mdw/v3/transactions?scope=txi:${n}-${n + 9}`)).body).to.deep.include({ data: [] });
    // contract calls in a txi range are the calls among those transactions (A < B walks forward)
    const range = new Set(hashes.slice(10, 60));
    const calls = (await v3.get('/mdw/v3/contracts/call-transactions?direction=forward&limit=100')).body as {
      data: Obj[];
    };
    const scoped = (await v3.get('/mdw/v3/contracts/call-transactions?scope=txi:10-59&limit=100')).body as {
      data: Obj[];
    };
    expect(scoped.data.map((c) => c.call_tx_hash)).to.deep.equal(
      calls.data.map((c) => c.call_tx_hash).filter((h) => range.has(String(h))),
    );
  });

  it('filters by type, by generic id, by typed field, and ANDs them, each list equal to its count', async () => {
    const spends = chain.transactions.filter((t) => (t.signed.tx as Obj).type === 'SpendTx');
    expect(spends.length).to.be.above(2);
    const listedSpends = await walkPages<Item>(await v3.mdw.getTransactions({ type: ['spend'], limit: 25 }));
    expect(listedSpends.map((t) => t.hash)).to.deep.equal(spends.map((t) => t.hash).reverse());
    expect(await v3.mdw.getTransactionsCount({ txType: 'spend' })).to.deep.equal({ body: spends.length });

    const sender = String((spends[0]!.signed.tx as Obj).sender_id);
    const bySender = spends.filter((t) => (t.signed.tx as Obj).sender_id === sender);
    const page = (await v3.mdw.requestByPath(`/v3/transactions?spend.sender_id=${sender}&limit=100`)) as {
      data: { hash: string }[];
    };
    expect(page.data.map((t) => t.hash)).to.deep.equal(bySender.map((t) => t.hash).reverse());

    const recipient = String((spends[0]!.signed.tx as Obj).recipient_id);
    const both = spends.filter(
      (t) => (t.signed.tx as Obj).sender_id === sender && (t.signed.tx as Obj).recipient_id === recipient,
    );
    const anded = (await v3.mdw.requestByPath(
      `/v3/transactions?sender_id=${sender}&recipient_id=${recipient}&limit=100`,
    )) as { data: { hash: string }[] };
    expect(anded.data.map((t) => t.hash)).to.deep.equal(both.map((t) => t.hash).reverse());
    expect(
      await v3.mdw.requestByPath(`/v3/transactions/count?sender_id=${sender}&recipient_id=${recipient}`),
    ).to.deep.equal({ body: both.length });

    const { rows: calls } = await v3.pool.query<{ contract_id: string; function: string }>(
      "SELECT contract_id, function FROM contract_calls WHERE function IS NOT NULL AND function <> 'init' LIMIT 1",
    );
    if (calls[0]) {
      const { contract_id: contract, function: fn } = calls[0];
      const { rows: expected } = await v3.pool.query<{ tx_hash: string }>(
        'SELECT tx_hash FROM contract_calls WHERE contract_id = $1 AND function = $2 ORDER BY height DESC, micro_index DESC, tx_index DESC',
        [contract, fn],
      );
      const called = (await v3.mdw.requestByPath(
        `/v3/transactions?contract=${contract}&entrypoint=${fn}&limit=100`,
      )) as {
        data: { hash: string; tx: { function: string } }[];
      };
      expect(called.data.map((t) => t.hash)).to.deep.equal(expected.map((r) => r.tx_hash));
      for (const t of called.data) expect(t.tx.function).to.equal(fn);
    }
    const counts = await v3.mdw.getAccountTransactionsCount(sender as `ak_${string}`);
    const { rows } = await v3.pool.query(
      'SELECT count(*)::int AS n FROM account_transactions WHERE account = (SELECT num FROM account_ids WHERE key = $1)',
      [idKey(sender)],
    );
    expect(counts.total).to.equal(rows[0].n);
  });

  it("answers bad input with 400 and ae_mdw's error shape, unknown objects with 404, never a 5xx", async () => {
    const cases: [string, number, string][] = [
      ['/mdw/v3/transactions?limit=101', 400, 'limit too large: 101'],
      ['/mdw/v3/transactions?limit=0', 400, 'invalid limit: 0'],
      ['/mdw/v3/transactions?direction=up', 400, 'invalid direction: up'],
      ['/mdw/v3/transactions?scope=epoch:1-2', 400, 'invalid scope: epoch'],
      ['/mdw/v3/transactions?scope=gen:a-2', 400, 'invalid range: a-2'],
      ['/mdw/v3/transactions?type=foo', 400, 'invalid transaction type: foo'],
      ['/mdw/v3/transactions?type_group=foo', 400, 'invalid transaction group: foo'],
      ['/mdw/v3/transactions?account=ak_bad', 400, 'invalid id: ak_bad'],
      ['/mdw/v3/transactions?spend.owner_id=ak_bad', 400, 'invalid transaction field: spend.owner_id'],
      ['/mdw/v3/transactions?cursor=abc', 400, 'invalid cursor: abc'],
      ['/mdw/v3/key-blocks?cursor=1-2-3', 400, 'invalid cursor: 1-2-3'],
      ['/mdw/v3/transactions/th_bad', 400, 'invalid hash: th_bad'],
      ['/mdw/v3/key-blocks/xyz', 400, 'invalid block index: xyz'],
      ['/mdw/v3/key-blocks/99999', 404, 'not found: 99999'],
      ['/mdw/v3/nothing-here', 404, 'no such route'],
    ];
    for (const [path, status, error] of cases) {
      const res = await v3.get(path);
      expect(res.status, path).to.equal(status);
      expect(res.body, path).to.deep.equal({ error });
    }
    const unknownTx = `th_${'2'.repeat(10)}`;
    expect((await v3.get(`/mdw/v3/transactions/${unknownTx}`)).status).to.equal(400);
  });

  it('writes every integer as a string with int-as-string, and ignores the SDK retry parameter in links', async () => {
    const res = await v3.get('/mdw/v3/key-blocks?limit=1&int-as-string=true&__sdk-retry=1');
    const kb = (res.body as { data: Obj[] }).data[0]!;
    expect(kb.height).to.equal(String(v3.devnode.height()));
    expect((res.body as { next: string }).next).to.equal(
      `/v3/key-blocks?cursor=${v3.devnode.height() - 1}&int-as-string=true&limit=1`,
    );
  });

  it('is also served under /mdw, with links as ae_mdw forms them', async () => {
    const res = await v3.get('/mdw/v3/key-blocks?limit=2&scope=gen:1-10');
    expect((res.body as { next: string }).next).to.equal('/v3/key-blocks?cursor=3&limit=2&scope=gen%3A1-10');
  });

  it('every answer of every operation matches the response schema /v3/api documents for it', async () => {
    const ajv = new Ajv({ strict: false });
    ajv.addSchema({ $id: 'doc', components: { schemas: V3_SCHEMAS } });
    const tx = chain.transactions[0]!;
    const sender = String(
      (tx.signed.tx as Obj).sender_id ?? (tx.signed.tx as Obj).account_id ?? (tx.signed.tx as Obj).owner_id,
    );
    const examples: Record<string, string> = {
      '{hash_or_kbi}': '3',
      '{hash}': '',
      '{id}': sender,
      '{accountId}': sender,
      // a contract that is no DEX pair: an empty page of swaps
      '{contractId}': contractId(sender, 1n),
    };
    // names, oracles, channels, contracts and one token's routes need ids of their own kind: their own tests
    // check their schemas
    const ownTests = /\/names|^\/(oracles|channels|contracts|hyperchain)|^\/(aex9|aex141)\/\{/;
    for (const op of V3_OPERATIONS.filter((o) => !ownTests.test(o.path))) {
      let path = `/mdw/v3${op.path}`;
      if (path.startsWith('/mdw/v3/micro-blocks/{hash}')) path = path.replace('{hash}', tx.blockHash);
      else path = path.replace('{hash}', tx.hash);
      for (const [param, value] of Object.entries(examples)) path = path.replace(param, value);
      const res = await v3.get(path);
      expect(res.status, path).to.equal(200);
      const schema = JSON.parse(
        JSON.stringify(responseSchema(op.resource.answers)).replaceAll('"#/components', '"doc#/components'),
      );
      const validate = ajv.compile(schema);
      expect(validate(JSON.parse(res.text)), `${path}: ${JSON.stringify(validate.errors)}`).to.equal(true);
    }
  });
  it('ANDs two fields of one id on its own transactions (its spends to itself), listed and counted', async () => {
    const self = v3.devnode.accounts[0]!.publicKey;
    await v3.spend(self, 7);
    await v3.spend(self, 8);
    await v3.devnode.mineMicroBlock();
    await v3.devnode.mineKeyBlock();
    await v3.synced();
    // the outer transaction's fields, or a wrapped one's (PayingForTx, GAMetaTx: tx.tx.tx)
    const selfSpend = (tx: Obj | undefined): boolean =>
      tx !== undefined && tx.sender_id === self && tx.recipient_id === self;
    const own = (await v3.truth()).transactions.filter((t) => {
      const outer = t.signed.tx as Obj;
      return selfSpend(outer) || selfSpend((outer.tx as Obj | undefined)?.tx as Obj | undefined);
    });
    expect(own.length).to.be.at.least(2);
    const path = `sender_id=${self}&recipient_id=${self}`;
    expect((await v3.walk(`/mdw/v3/transactions?${path}&limit=1`)).map((t) => t.hash)).to.deep.equal(
      own.map((t) => t.hash).reverse(),
    );
    expect((await v3.get(`/mdw/v3/transactions/count?${path}`)).body).to.equal(own.length);
  });
});
