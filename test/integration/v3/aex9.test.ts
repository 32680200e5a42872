/**
 * @module /v3/aex9 through the SDK's Middleware client (and raw where its models lose digits), over a generated
 * devnode chain with token traffic: every answer checked against the chain, balances against both the node's
 * call logs and the devnode's ledger.
 */
import { expect } from 'chai';
import { Ajv } from 'ajv';
import type { Json } from '../../../src/chain/json.ts';
import { encode } from '../../../src/chain/encoding.ts';
import { contractId } from '../../../src/chain/derived-ids.ts';
import { V3_SCHEMAS, responseSchema } from '../../../src/api/mdw/rest/api-document.ts';
import { V3_OPERATIONS } from '../../../src/api/mdw/rest/operations.ts';
import { kindOfCode } from '../../../src/devnode/contracts/standards.ts';
import type { FateTuple } from '../../../src/chain/fate.ts';
import { eventTopic } from '../../../src/devnode/contracts/frame.ts';
import {
  aex9Tokens,
  balanceKey,
  balancesFromLogs,
  balancesFromLogsAt,
  ledgerBalances,
  wrappedAe,
  type Balances,
} from '../../support/aex9-truth.ts';
import { startV3, type V3UnderTest } from './harness.ts';

type Obj = { [key: string]: Json };
const ak = (topic: bigint): string => encode('ak', Buffer.from(topic.toString(16).padStart(64, '0'), 'hex'));

describe('/v3/aex9 against the devnode chain', function () {
  this.timeout(300_000);
  let v3: V3UnderTest;
  let tokens: Map<string, string>;
  let ledger: Balances;

  const walk = (path: string): Promise<Obj[]> => v3.walk(path);
  const big = (v: Json | undefined): bigint => BigInt(v as number | bigint | string);
  const meta = (id: string): readonly unknown[] =>
    (v3.devnode.chain.state.contractStore.get(`${id}/meta`) as FateTuple).items;
  /**
   * sdkSafe: the SDK can parse the token's answer. Its parseBigIntPolicy protects unsigned integers only, so a
   * supply below -2^53 (a token whose burns exceed its mints by that much since creation, as ae_mdw's
   * event_supply can be) fails its BigInt conversion, from ae_mdw as from us.
   */
  const sdkSafe = (id: string): boolean => {
    const store = v3.devnode.chain.state.contractStore;
    const supply = (store.get(`${id}/supply`) as bigint | undefined) ?? 0n;
    return supply - initialSupply(id) >= -(2n ** 53n);
  };
  const initialSupply = (id: string): bigint => {
    const init = [...v3.devnode.chain.txs.values()].find(
      (r) => r.tx.type === 'ContractCreateTx' && contractId(String(r.tx.owner_id), BigInt(String(r.tx.nonce))) === id,
    );
    const mint = ((init?.callInfo?.log ?? []) as { topics: bigint[] }[]).find(
      (l) => l.topics[0] === eventTopic('Mint'),
    );
    return mint?.topics[2] ?? 0n;
  };
  const holdersOf = (id: string): Map<string, bigint> =>
    new Map([...ledger].filter(([k]) => k.startsWith(`${id} `)).map(([k, v]) => [k.slice(id.length + 1), v] as const));

  before(async () => {
    v3 = await startV3(120, 'v3-aex9', (devnode) => ({ DEX_WRAPPED_AE: wrappedAe(devnode.chain) }), {
      populatedOnce: true,
    });
    await v3.synced();
    tokens = aex9Tokens(v3.devnode.chain);
    ledger = ledgerBalances(v3.devnode.chain);
    // the two truths agree: the chain's events explain the ledger
    expect(balancesFromLogs(v3.devnode.chain)).to.deep.equal(ledger);
  });
  after(async () => {
    await v3?.close();
  });

  it('counts and lists every token, sorted by name, symbol and creation, with prefix and exact searches', async () => {
    expect((await v3.mdw.getAex9TokensCount()).data).to.equal(tokens.size);
    const byName = (await walk('/mdw/v3/aex9?limit=3')).map((t) => String(t.contract_id));
    expect([...byName].sort()).to.deep.equal([...tokens.keys()].sort());
    const names = byName.map((id) => String(meta(id)[0]).toLowerCase());
    expect(names, 'backward by lower-cased name').to.deep.equal([...names].sort().reverse());
    // the SDK's pages, followed by their links (over tokens whose supplies it can parse: see sdkSafe)
    const prefix = String(meta(byName.find(sdkSafe)!)[0]).slice(0, 4);
    const viaSdk: string[] = [];
    for (let page = await v3.mdw.getSortedAex9Tokens({ limit: 1, prefix }); ; page = await page.next()) {
      viaSdk.push(...page.data.map((t) => t.contractId));
      if (page.nextPath === null) break;
    }
    expect(viaSdk).to.deep.equal(
      byName.filter((id) => String(meta(id)[0]).toLowerCase().startsWith(prefix.toLowerCase())),
    );
    const bySymbol = await walk('/mdw/v3/aex9?by=symbol&direction=forward&limit=4');
    const symbols = bySymbol.map((t) => String(t.symbol).toLowerCase());
    expect(symbols).to.deep.equal([...symbols].sort());
    const byCreation = (await walk('/mdw/v3/aex9?by=creation&direction=forward&limit=2')).map((t) => t.contract_id);
    expect(byCreation).to.deep.equal(creationOrder());
    const gold = [...tokens.keys()].find((id) => meta(id)[1] === 'GOLD')!;
    expect((await walk('/mdw/v3/aex9?prefix=devnode%20g')).map((t) => t.contract_id)).to.deep.equal([gold]);
    expect((await walk('/mdw/v3/aex9?by=symbol&exact=GOLD')).map((t) => t.contract_id)).to.deep.equal([gold]);
    expect(await walk('/mdw/v3/aex9?by=symbol&exact=gold')).to.deep.equal([]);
  });

  /** the tokens in order of creation: by their create transaction, or (pairs cloned in calls) the call that created them */
  const creationOrder = (): string[] => {
    const seen: string[] = [];
    const see = (id: string): void => {
      if (tokens.has(id) && !seen.includes(id)) seen.push(id);
    };
    for (const kb of v3.devnode.chain.keyBlocks)
      for (const mb of kb.micro)
        for (const r of mb.txs) {
          if (r.tx.type === 'ContractCreateTx' && r.callInfo?.return_type === 'ok')
            see(contractId(String(r.tx.owner_id), BigInt(String(r.tx.nonce))));
          for (const l of (r.callInfo?.log ?? []) as { address: string }[]) see(l.address);
        }
    return seen;
  };

  it('serves each token with its meta info, holders and supplies as the ledger has them', async () => {
    const store = v3.devnode.chain.state.contractStore;
    for (const id of tokens.keys()) {
      const raw = (await v3.get(`/mdw/v3/aex9/${id}`)).body as Obj;
      const [name, symbol, decimals] = meta(id);
      expect([raw.name, raw.symbol, big(raw.decimals)]).to.deep.equal([name, symbol, decimals]);
      if (sdkSafe(id)) {
        const sdk = await v3.mdw.getAex9ByContract(id as `ct_${string}`);
        expect([sdk.name, sdk.symbol, sdk.initialSupply, sdk.eventSupply]).to.deep.equal([
          name,
          symbol,
          big(raw.initial_supply),
          big(raw.event_supply),
        ]);
      }
      const holders = holdersOf(id);
      expect(raw.holders, id).to.equal(holders.size);
      expect(big(raw.initial_supply) + big(raw.event_supply), id).to.equal(store.get(`${id}/supply`) ?? 0n);
      expect(raw.invalid).to.equal(false);
      expect(raw).to.not.have.property('incomplete');
      const created = [...v3.devnode.chain.txs].find(
        ([, r]) =>
          r.tx.type === 'ContractCreateTx' && contractId(String(r.tx.owner_id), BigInt(String(r.tx.nonce))) === id,
      );
      if (created) expect(raw.contract_tx_hash).to.equal(created[0]);
      // the contract itself says its standard; a pair cloned in a call names that call as its source
      const contract = (await v3.get(`/mdw/v3/contracts/${id}`)).body as Obj;
      expect([contract.aexn_type, contract.source_tx_hash]).to.deep.equal(['aex9', raw.contract_tx_hash]);
      expect(contract.source_tx_type).to.equal(created ? 'ContractCreateTx' : 'ContractCallTx');
    }
  });

  it("lists each token's holders by key and by amount, exactly the ledger's, without duplicates", async () => {
    let checked = 0;
    for (const id of tokens.keys()) {
      const holders = holdersOf(id);
      for (const by of ['pubkey', 'amount']) {
        const items = await walk(`/mdw/v3/aex9/${id}/balances?by=${by}&limit=4`);
        const accounts = items.map((i) => String(i.account_id));
        expect(new Set(accounts).size, 'no duplicate holder').to.equal(accounts.length);
        expect(new Map(items.map((i) => [String(i.account_id), big(i.amount)]))).to.deep.equal(
          new Map([...holders].sort()),
        );
        if (by === 'amount') {
          const amounts = items.map((i) => big(i.amount));
          expect(amounts).to.deep.equal([...amounts].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
        } else expect(accounts).to.deep.equal([...accounts].sort().reverse());
        for (const item of items) {
          const record = v3.devnode.chain.txs.get(String(item.last_tx_hash))!;
          expect(record.blockHash).to.equal(item.block_hash);
        }
      }
      checked += holders.size;
    }
    expect(checked, 'holders checked').to.be.above(20);
    // the SDK's client reads the same page
    const busiest = [...tokens.keys()].sort((a, b) => holdersOf(b).size - holdersOf(a).size)[0]!;
    const page = await v3.mdw.getAex9ContractBalances(busiest as `ct_${string}`, { limit: 5 });
    expect(page.data).to.have.length(5);
    for (const b of page.data) expect(b.amount).to.equal(holdersOf(busiest).get(b.accountId));
    const second = await page.next();
    expect(second.data[0]!.accountId < page.data.at(-1)!.accountId).to.equal(true);
  });

  it("answers an account's balance now, at a block hash and at a height, as the chain's events say", async () => {
    const chain = v3.devnode.chain;
    const [key, amount] = [...ledger][0]!;
    const [id, account] = key.split(' ') as [`ct_${string}`, `ak_${string}`];
    const now = await v3.mdw.getAex9ContractAccountBalance(id, account);
    expect([now.account, now.contract, now.amount]).to.deep.equal([account, id, amount]);
    // at every 7th micro block and key block of the chain: the logs replayed up to it
    const blocks = chain.keyBlocks.flatMap((kb) => [kb.hash, ...kb.micro.map((m) => m.hash)]);
    let compared = 0;
    const sampled = blocks.filter((_, i) => i % 7 === 3);
    const truths = balancesFromLogsAt(chain, sampled);
    for (const hash of sampled) {
      const expected = truths.get(hash)!;
      for (const [k, want] of [...expected].filter(([k]) => k.startsWith(`${id} `)).slice(0, 3)) {
        const holder = k.split(' ')[1]!;
        const raw = (await v3.get(`/mdw/v3/aex9/${id}/balances/${holder}?hash=${hash}`)).body as Obj;
        expect(big(raw.amount), `${k} at ${hash}`).to.equal(want);
        compared++;
      }
      const page = await walk(`/mdw/v3/aex9/${id}/balances?block_hash=${hash}&limit=50`);
      expect(new Map(page.map((i) => [balanceKey(id, String(i.account_id)), big(i.amount)]))).to.deep.equal(
        new Map([...expected].filter(([k]) => k.startsWith(`${id} `))),
      );
    }
    expect(compared).to.be.above(10);
    const kb = chain.keyBlocks[60]!;
    const atHeight = (await v3.get(`/mdw/v3/aex9/${id}/balances/${account}?height=60`)).body as Obj;
    expect(atHeight.amount === null ? undefined : big(atHeight.amount)).to.equal(
      balancesFromLogs(chain, kb.hash).get(key),
    );
  });

  it("gives an account's balance history at each generation's key block", async () => {
    const chain = v3.devnode.chain;
    const [key] = [...ledger].find(([k]) => tokens.get(k.split(' ')[0]!) === 'aex9')!;
    const [id, account] = key.split(' ') as [`ct_${string}`, `ak_${string}`];
    const items = await walk(`/mdw/v3/aex9/${id}/balances/${account}/history?limit=25`);
    expect(items[0]!.height).to.equal(chain.height);
    for (const item of items.filter((_, i) => i % 9 === 0)) {
      const want = balancesFromLogs(chain, chain.keyBlocks[Number(item.height)]!.hash).get(key);
      expect(item.amount === null ? undefined : big(item.amount), `height ${String(item.height)}`).to.equal(
        want === undefined && item.amount !== null ? 0n : want,
      );
    }
    const sdk = await v3.mdw.getAex9ContractAccountBalanceHistory(id, account, { limit: 3, scope: 'gen:50-55' });
    expect(sdk.data.map((h) => h.height)).to.deep.equal([50, 51, 52]);
  });

  it("lists an account's tokens with the ledger's balances", async () => {
    const trader = [...ledger.keys()][0]!.split(' ')[1] as `ak_${string}`;
    const page = await v3.mdw.getAex9AccountBalances(trader);
    const items = await walk(`/mdw/v3/accounts/${trader}/aex9/balances?limit=3`);
    expect(page.data.map((b) => b.contractId)).to.deep.equal(items.slice(0, 10).map((i) => i.contract_id));
    const want = new Map([...ledger].filter(([k]) => k.endsWith(` ${trader}`)).map(([k, v]) => [k.split(' ')[0]!, v]));
    expect(
      new Map(items.filter((i) => big(i.amount) !== 0n).map((i) => [String(i.contract_id), big(i.amount)])),
    ).to.deep.equal(want);
    for (const i of items) {
      expect(i.token_symbol).to.equal(meta(String(i.contract_id))[1]);
      expect(i.tx_type).to.match(/^contract_c(all|reate)_tx$/);
      // tx_index is ae_mdw's txi of tx_hash: the transaction a txi scope of that one index lists
      const [atTxi] = (await walk(
        `/mdw/v3/transactions?scope=txi:${String(i.tx_index)}-${String(i.tx_index)}`,
      )) as Obj[];
      expect(atTxi?.hash, String(i.tx_index)).to.equal(i.tx_hash);
    }
  });

  it("lists a token's transfers from and to an account as its Transfer events", async () => {
    const chain = v3.devnode.chain;
    const transfer = eventTopic('Transfer');
    const [key] = [...ledger].find(([k]) => tokens.get(k.split(' ')[0]!) === 'aex9')!;
    const [id, account] = key.split(' ') as [string, string];
    const events: { hash: string; from: string; to: string; amount: bigint }[] = [];
    for (const kb of chain.keyBlocks)
      for (const mb of kb.micro)
        for (const r of mb.txs)
          for (const l of [...((r.callInfo?.log ?? []) as { address: string; topics: bigint[] }[])].reverse())
            if (l.address === id && l.topics[0] === transfer)
              events.push({
                hash: r.hash,
                from: ak(l.topics[1]!),
                to: ak(l.topics[2]!),
                amount: l.topics[3]!,
              });
    const sent = (await walk(`/mdw/v3/aex9/${id}/transfers?sender=${account}&limit=5`)).reverse();
    expect(sent.map((t) => [t.tx_hash, t.recipient, big(t.amount)])).to.deep.equal(
      events.filter((e) => e.from === account).map((e) => [e.hash, e.to, e.amount]),
    );
    // a transaction says the standard of the contract it calls (ae_mdw's tx.aexn_type)
    for (const t of sent.slice(0, 5)) {
      const tx = ((await v3.get(`/mdw/v3/transactions/${String(t.tx_hash)}`)).body as Obj).tx as Obj;
      const called = String(tx.contract_id);
      const kind = kindOfCode(chain.state.contracts.get(called)!.code);
      expect(tx.aexn_type, called).to.equal(tokens.has(called) ? 'aex9' : kind === 'aex141' ? 'aex141' : null);
    }
    const either = await walk(`/mdw/v3/aex9/${id}/transfers?account=${account}&direction=forward`);
    expect(either.map((t) => t.tx_hash)).to.deep.equal(
      events.filter((e) => e.from === account || e.to === account).map((e) => e.hash),
    );
    // newest first, in pages of 3: each page merges the two sides' own pages
    const backward = await walk(`/mdw/v3/aex9/${id}/transfers?account=${account}&limit=3`);
    expect(backward.map((t) => t.tx_hash)).to.deep.equal(either.map((t) => t.tx_hash).reverse());
  });

  it("puts an account's AEX-9 transfers in its activities, sent and received, newest first", async () => {
    const chain = v3.devnode.chain;
    const transfer = eventTopic('Transfer');
    // the feed's order, newest first: position, then log index, then 'sent' before 'received'
    const expectedOf = (account: string): string[] => {
      const expected: string[] = [];
      for (const kb of chain.keyBlocks)
        for (const mb of kb.micro)
          for (const r of mb.txs) {
            const mine: string[] = [];
            [...((r.callInfo?.log ?? []) as { address: string; topics: bigint[] }[])].reverse().forEach((l, logIdx) => {
              if (!tokens.has(l.address) || l.topics[0] !== transfer) return;
              if (ak(l.topics[2]!) === account) mine.push(`${r.hash} ${logIdx} received`);
              if (ak(l.topics[1]!) === account) mine.push(`${r.hash} ${logIdx} sent`);
            });
            expected.push(...mine);
          }
      return expected;
    };
    // the holder with the most transfers, so that the feed takes several pages
    const [account, expected] = [...new Set([...ledger.keys()].map((k) => k.split(' ')[1]!))]
      .map((a) => [a, expectedOf(a)] as const)
      .sort((a, b) => b[1].length - a[1].length)[0]!;
    const items = await walk(`/mdw/v3/accounts/${account}/activities?type=aex9&limit=7`);
    expect(items.every((i) => i.type === 'Aex9TransferEvent')).to.equal(true);
    const got = items.map((i) => {
      const p = i.payload as Obj;
      return `${String(p.tx_hash)} ${String(p.log_idx)} ${p.sender_id === account && p.recipient_id !== account ? 'sent' : 'received'}`;
    });
    expect(got.length, 'more than a page').to.be.above(7);
    expect(got.map((g) => g.split(' ').slice(0, 2).join(' '))).to.deep.equal(
      expected.reverse().map((g) => g.split(' ').slice(0, 2).join(' ')),
    );
    const first = items[0]!.payload as Obj;
    expect(first.token_symbol).to.equal(meta(String(first.contract_id))[1]);
    const owned = await walk(`/mdw/v3/accounts/${account}/activities?type=aex9&owned_only=true&limit=50`);
    expect(owned.map((i) => (i.payload as Obj).sender_id)).to.satisfy((s: Json[]) => s.every((x) => x === account));
    const sdk = await v3.mdw.getAccountActivities(account as `ak_${string}`, { type: 'aex9', limit: 2 });
    expect(sdk.data.map((a) => a.type)).to.deep.equal(['Aex9TransferEvent', 'Aex9TransferEvent']);
  });

  it('answers with the documented schemas, and bad input with 400 and 404', async () => {
    const ajv = new Ajv({ strict: false });
    ajv.addSchema({ $id: 'doc', components: { schemas: V3_SCHEMAS } });
    const [key] = [...ledger][0]!;
    const [id, account] = key.split(' ') as [string, string];
    for (const op of V3_OPERATIONS.filter((o) => o.path.includes('aex9'))) {
      const path = `/mdw/v3${op.path}`
        .replace('{id}', id)
        .replace('{contractId}', id)
        .replace('{accountId}', account)
        .concat(op.path.endsWith('/transfers') ? `?account=${account}` : '');
      const res = await v3.get(path);
      expect(res.status, `${path}: ${res.text}`).to.equal(200);
      const validate = ajv.compile(
        JSON.parse(JSON.stringify(responseSchema(op.resource.answers)).replaceAll('"#/components', '"doc#/components')),
      );
      expect(validate(JSON.parse(res.text)), `${path}: ${JSON.stringify(validate.errors)}`).to.equal(true);
    }
    const factory = [...v3.devnode.chain.state.contracts.entries()].find(
      ([, c]) => kindOfCode(c.code) === 'factory',
    )![0];
    for (const [path, status, error] of [
      ['/mdw/v3/aex9/ct_nope', 400, 'invalid id: ct_nope'],
      [`/mdw/v3/aex9/${factory}`, 404, `not found: ${factory}`],
      [`/mdw/v3/aex9/${factory}/balances`, 400, `not AEX9 contract: ${factory}`],
      [`/mdw/v3/aex9/${id}/balances?cursor=zz`, 400, 'invalid cursor: zz'],
      [`/mdw/v3/aex9/${id}/balances?by=size`, 400, 'invalid query: by=size'],
      [`/mdw/v3/aex9/${id}/balances/${account}?hash=kh_nope`, 400, 'invalid query: hash=kh_nope'],
      [`/mdw/v3/aex9/${id}/transfers`, 400, 'invalid query: sender or recipient param is required'],
      ['/mdw/v3/aex9?by=size', 400, 'invalid query: by=size'],
      ['/mdw/v3/aex9?prefix=a&exact=b', 400, "invalid query: can't use both `prefix` and `exact` parameters"],
      ['/mdw/v3/aex9?cursor=%7B', 400, 'invalid cursor: {'],
    ] as const) {
      const res = await v3.get(path);
      expect([res.status, res.body], path).to.deep.equal([status, { error }]);
    }
  });
});
