/**
 * @module /v3 DEX swaps and AEX-141 NFTs through the SDK's Middleware client, over a generated devnode chain with
 * tokens, NFTs and swaps: every answer is recomputed from the node's call logs (decoded here with the SDK) and
 * compared with the devnode's own contract state, before and after a fork injected while the populator follows.
 */
import { expect } from 'chai';
import { Ajv } from 'ajv';
import { V3_SCHEMAS, responseSchema } from '../../../src/api/mdw/rest/api-document.ts';
import { V3_OPERATIONS } from '../../../src/api/mdw/rest/operations.ts';
import { isPage } from '../../../src/api/mdw/resources/resource.ts';
import { encode, Encoding, hash } from '@aeternity/aepp-sdk';
import type { Json } from '../../../src/chain/json.ts';
import type { FateMap, FateTuple, FateValue, FateVariant } from '../../../src/chain/fate.ts';
import { contractId } from '../../../src/chain/derived-ids.ts';
import { contractsOf } from '../../support/devnode-contracts.ts';
import { mdwLink, perChainState, startV3, walkPages, type V3UnderTest } from './harness.ts';

type Item = Record<string, unknown>;

type Obj = { [key: string]: Json };

const topicOf = (name: string): bigint => BigInt(`0x${Buffer.from(hash(name)).toString('hex')}`);
const idOf = (topic: Json, encoding: Encoding.AccountAddress | Encoding.ContractAddress): string =>
  encode(Buffer.from(BigInt(String(topic)).toString(16).padStart(64, '0'), 'hex'), encoding);
const text = (data: Json): string => Buffer.from(String(data).slice(3), 'base64').subarray(0, -4).toString('utf8');

/** A log entry as the node gives it, with the call's place (emission order: the node lists a call's log newest first). */
interface Logged {
  readonly txHash: string;
  readonly height: number;
  readonly order: number;
  readonly logIdx: number;
  readonly address: string;
  readonly topics: Json[];
  readonly data: Json;
}

describe('/v3 DEX swaps and AEX-141 NFTs through the SDK, checked against the devnode chain', function () {
  this.timeout(600_000);
  let v3: V3UnderTest;
  let factory: string;
  let wae: string;

  /** logs reads every contract tx's call info from the node, in chain order (once per chain state). */
  let logs: () => Promise<Logged[]>;
  async function readLogs(): Promise<Logged[]> {
    const { transactions } = await v3.truth();
    const out: Logged[] = [];
    for (const [order, t] of transactions.entries()) {
      const type = (t.signed.tx as Obj).type;
      if (type !== 'ContractCallTx' && type !== 'ContractCreateTx') continue;
      const info = (await v3.nodeGet(`/v2/transactions/${t.hash}/info`)) as { call_info?: { log: Obj[] } };
      const log = [...(info.call_info?.log ?? [])].reverse();
      log.forEach((l, logIdx) =>
        out.push({
          txHash: t.hash,
          height: t.height,
          order,
          logIdx,
          address: String(l.address),
          topics: l.topics as Json[],
          data: l.data!,
        }),
      );
    }
    return out;
  }

  before(async () => {
    // half of the traffic tokens, NFTs and swaps: 100 generations hold every kind the cases check (each asserts its
    // kinds are present: 48 swaps through 9 pairs, 8 burns, 25 tokens of templates) that 1000 of the default mix held
    v3 = await startV3(
      100,
      'nft-dex',
      (devnode) => {
        factory = contractsOf(devnode, 'factory')[0]!;
        wae = contractsOf(devnode, 'wae')[0]!;
        // the default configuration: the devnode's factory and wrapped AE are known by their code (issue 58)
        return {};
      },
      { tokenShare: 0.5 },
    );
    logs = perChainState(v3.devnode, readLogs);
  });
  after(async () => {
    await v3?.close();
  });

  /** expectedSwaps: SwapTokens of the pairs the factory announced, newest first, as ae_mdw renders them. */
  function expectedSwaps(all: Logged[]): Item[] {
    const pairs = new Map<string, [string, string]>();
    for (const l of all)
      if (l.address === factory && BigInt(String(l.topics[0])) === topicOf('PairCreated'))
        pairs.set(idOf(l.topics[3]!, Encoding.ContractAddress), [
          idOf(l.topics[1]!, Encoding.ContractAddress),
          idOf(l.topics[2]!, Encoding.ContractAddress),
        ]);
    const symbol = (token: string): string =>
      (v3.devnode.chain.state.contractStore.get(`${token}/meta`) as FateTuple).items[1] as string;
    return all
      .filter((l) => BigInt(String(l.topics[0])) === topicOf('SwapTokens') && pairs.has(l.address))
      .map((l) => {
        const [token0, token1] = pairs.get(l.address)!;
        const [in0, in1, out0, out1] = text(l.data).split('|').map(BigInt) as [bigint, bigint, bigint, bigint];
        return {
          txHash: l.txHash,
          logIdx: l.logIdx,
          height: l.height,
          caller: idOf(l.topics[1]!, Encoding.AccountAddress),
          toAccount: idOf(l.topics[2]!, Encoding.AccountAddress),
          fromContract: token0,
          toContract: token1,
          fromToken: symbol(token0),
          toToken: symbol(token1),
          fromAmount: in0 + in1,
          toAmount: out0 + out1,
          amounts: { amount0In: in0, amount1In: in1, amount0Out: out0, amount1Out: out1 },
          action: token0 === wae ? 'BUY' : token1 === wae ? 'SELL' : 'SWAP',
        };
      })
      .reverse();
  }

  const pick = (s: Item): Item => {
    const { txHash, logIdx, height, caller, toAccount, fromContract, toContract, fromToken, toToken } = s;
    const { fromAmount, toAmount, amounts, action } = s;
    return {
      txHash,
      logIdx,
      height,
      caller,
      toAccount,
      fromContract,
      toContract,
      fromToken,
      toToken,
      fromAmount,
      toAmount,
      amounts,
      action,
    };
  };

  /** rawWalk follows a list's `next` links from `path`, for the routes the SDK has no method for. */
  async function rawWalk(path: string): Promise<Obj[]> {
    const items: Obj[] = [];
    for (let next: string | null = path; next !== null;) {
      const res = await v3.get(next);
      expect(res.status, res.text).to.equal(200);
      items.push(...(res.body as { data: Obj[] }).data);
      next = mdwLink((res.body as { next: string | null }).next);
    }
    return items;
  }

  async function checkSwaps(): Promise<void> {
    const expected = expectedSwaps(await logs());
    expect(expected.length, 'the generated chain swaps through the router').to.be.above(3);
    expect([v3.settings.DEX_FACTORY, v3.settings.DEX_WRAPPED_AE], 'the default configuration').to.deep.equal([
      undefined,
      undefined,
    ]);
    expect((await walkPages(await v3.mdw.getDexSwaps())).map(pick)).to.deep.equal(expected);
    const forward = await walkPages(await v3.mdw.getDexSwaps({ direction: 'forward' }));
    expect(forward.map(pick)).to.deep.equal([...expected].reverse());
    for (const caller of new Set(expected.map((s) => s.caller as `ak_${string}`))) {
      const mine = await walkPages(await v3.mdw.getAccountDexSwaps(caller));
      expect(mine.map(pick), caller).to.deep.equal(expected.filter((s) => s.caller === caller));
    }
    for (const token of new Set(expected.flatMap((s) => [s.fromContract, s.toContract]) as `ct_${string}`[])) {
      const ofToken = await walkPages(await v3.mdw.getDexSwapsByContractId(token));
      expect(ofToken.map(pick), token).to.deep.equal(
        expected.filter((s) => s.fromContract === token || s.toContract === token),
      );
      // ae_mdw's debug route lists the same swaps of a token (no SDK method: walked by its links)
      const debug = await rawWalk(`/mdw/v3/debug/dex/${token}/swaps?limit=2`);
      expect(
        debug.map((s) => [s.tx_hash, s.log_idx]),
        token,
      ).to.deep.equal(ofToken.map((s) => [s.txHash, s.logIdx]));
    }
    // a pair's own id lists its swaps (the SwapTokens it emitted), both ways, a page of two at a time so that every
    // walk of each pair continues from a cursor
    const emitted = (await logs()).filter((l) => BigInt(String(l.topics[0])) === topicOf('SwapTokens'));
    const pairOf = new Map(emitted.map((l) => [`${l.txHash}/${l.logIdx}`, l.address]));
    const pairs = contractsOf(v3.devnode, 'pair');
    expect(pairs.filter((p) => expected.some((s) => pairOf.get(`${s.txHash}/${s.logIdx}`) === p))).to.have.length.above(
      1,
    );
    for (const pair of pairs) {
      const own = expected
        .filter((s) => pairOf.get(`${s.txHash}/${s.logIdx}`) === pair)
        .map((s) => [s.txHash, s.logIdx]);
      const back = await rawWalk(`/mdw/v3/dex/${pair}/swaps?limit=2`);
      expect(
        back.map((s) => [s.tx_hash, s.log_idx]),
        pair,
      ).to.deep.equal(own);
      const forth = await rawWalk(`/mdw/v3/dex/${pair}/swaps?limit=2&direction=forward`);
      expect(
        forth.map((s) => [s.tx_hash, s.log_idx]),
        pair,
      ).to.deep.equal([...own].reverse());
      // a pair is not a token: the debug route lists nothing for it, as ae_mdw's does
      expect(await rawWalk(`/mdw/v3/debug/dex/${pair}/swaps`)).to.deep.equal([]);
    }
    // a contract in no pair (the factory, a collection) lists none, on both routes
    for (const none of [factory, ...contractsOf(v3.devnode, 'aex141').slice(0, 1)]) {
      expect(await rawWalk(`/mdw/v3/dex/${none}/swaps`), none).to.deep.equal([]);
      expect(await rawWalk(`/mdw/v3/debug/dex/${none}/swaps`), none).to.deep.equal([]);
    }
  }

  /** ownership recomputes each collection's owners, templates and transfers from the NFT events of its logs. */
  function ownership(all: Logged[], collection: string) {
    const owners = new Map<
      bigint,
      { owner: string; template?: bigint; txHash?: string; logIdx?: number; edition?: string }
    >();
    const templates = new Map<bigint, { txHash: string; logIdx: number }>();
    const transfers: Item[] = [];
    let burns = 0;
    const is = (l: Logged, name: string, arity: number): boolean =>
      BigInt(String(l.topics[0])) === topicOf(name) && l.topics.length === arity + 1;
    for (const l of all.filter((e) => e.address === collection)) {
      const [a, b, c] = l.topics.slice(1);
      if (is(l, 'Transfer', 3)) {
        const token = BigInt(String(c));
        owners.set(token, { ...owners.get(token), owner: idOf(b!, Encoding.AccountAddress) });
        transfers.push({
          sender: idOf(a!, Encoding.AccountAddress),
          recipient: idOf(b!, Encoding.AccountAddress),
          tokenId: Number(token),
          txHash: l.txHash,
          logIdx: l.logIdx,
          blockHeight: l.height,
        });
      } else if (is(l, 'Mint', 2)) owners.set(BigInt(String(b)), { owner: idOf(a!, Encoding.AccountAddress) });
      else if (is(l, 'Burn', 2)) {
        owners.delete(BigInt(String(b)));
        burns++;
      } else if (is(l, 'TemplateMint', 3))
        owners.set(BigInt(String(c)), {
          owner: idOf(a!, Encoding.AccountAddress),
          template: BigInt(String(b)),
          txHash: l.txHash,
          logIdx: l.logIdx,
          edition: text(l.data),
        });
      else if (is(l, 'TemplateCreation', 1)) templates.set(BigInt(String(a)), { txHash: l.txHash, logIdx: l.logIdx });
      else if (is(l, 'TemplateDeletion', 1)) templates.delete(BigInt(String(a)));
    }
    return { owners, templates, transfers: transfers.reverse(), burns };
  }

  async function checkNfts(): Promise<void> {
    const all = await logs();
    const collections = contractsOf(v3.devnode, 'aex141') as `ct_${string}`[];
    expect(collections, 'the generated chain has NFT collections').to.have.length.above(0);
    const listed = await walkPages(await v3.mdw.getSortedAex141Contracts({ direction: 'forward' }));
    expect(listed.map((c) => c.contractId)).to.have.members(collections);
    const byAccount = new Map<string, Item[]>();
    let [burns, templateTokens] = [0, 0];
    for (const collection of collections) {
      const { owners, templates, transfers, ...counts } = ownership(all, collection);
      burns += counts.burns;
      templateTokens += [...owners.values()].filter((o) => o.template !== undefined).length;
      const store = v3.devnode.chain.state.contractStore;
      // the node's own ledger agrees with the events
      for (const [token, { owner }] of owners)
        expect(store.get(`${collection}/o:${token}`), `${token}`).to.equal(owner);
      const tokens = [...owners.entries()]
        .sort(([a], [b]) => (a < b ? 1 : -1))
        .map(([token, { owner }]) => ({ contractId: collection, ownerId: owner, tokenId: Number(token) }));
      expect(tokens.length, `${collection} has tokens`).to.be.above(0);
      const served = await walkPages(await v3.mdw.getAex141ContractTokens(collection, { limit: 4 }));
      expect(served.map(({ contractId, ownerId, tokenId }) => ({ contractId, ownerId, tokenId }))).to.deep.equal(
        tokens,
      );
      for (const t of tokens) byAccount.set(t.ownerId, [...(byAccount.get(t.ownerId) ?? []), t]);
      const one = tokens[0]!;
      const detail = await v3.mdw.getAex141TokenOwner(collection, one.tokenId);
      expect([detail.ownerId, detail.tokenId]).to.deep.equal([one.ownerId, one.tokenId]);
      // the metadata the devnode keeps for the token (a MetadataMap), read by a dry-run
      const kept = v3.devnode.chain.state.contractStore.get(`${collection}/m:${one.tokenId}`) as FateVariant;
      const entries = (kept.values[0] as FateMap).entries.map(([k, v]) => [String(k), String(v)]);
      const rawDetail = (await v3.get(`/mdw/v3/aex141/${collection}/tokens/${one.tokenId}`)).body as Obj;
      expect(rawDetail.metadata, 'metadata').to.deep.equal({ map: Object.fromEntries(entries) });
      const collectionObject = await v3.mdw.getAex141ByContract(collection);
      expect(collectionObject.contractId).to.equal(collection);
      const raw = (await v3.get(`/mdw/v3/aex141/${collection}`)).body as Obj;
      expect([raw.nfts_amount, raw.nft_owners]).to.deep.equal([
        tokens.length,
        new Set(tokens.map((t) => t.ownerId)).size,
      ]);
      expect(raw.incomplete, 'every call info is known').to.equal(false);

      const servedTemplates = await walkPages(await v3.mdw.getAex141ContractTemplates(collection, { limit: 2 }));
      expect(servedTemplates.map((t) => [t.templateId, t.txHash, t.logIdx])).to.deep.equal(
        [...templates.entries()]
          .sort(([a], [b]) => (a < b ? 1 : -1))
          .map(([id, t]) => [Number(id), t.txHash, t.logIdx]),
      );
      for (const id of templates.keys()) {
        const minted = [...owners.entries()]
          .filter(([, o]) => o.template === id)
          .sort(([a], [b]) => (a < b ? 1 : -1))
          .map(([token, o]) => ({ tokenId: Number(token), ownerId: o.owner, txHash: o.txHash, logIdx: o.logIdx }));
        const servedMinted = await walkPages(await v3.mdw.getAex141TemplateTokens(collection, Number(id)));
        expect(
          servedMinted.map(({ tokenId, ownerId, txHash, logIdx }) => ({ tokenId, ownerId, txHash, logIdx })),
        ).to.deep.equal(minted);
        // the edition: the limit the devnode keeps for the template, and the tokens minted from it that exist
        const tuple = v3.devnode.chain.state.contractStore.get(`${collection}/tpl:${id}`) as FateTuple;
        const limit = tuple.items[1] as { tag: number; values: readonly FateValue[] };
        const raw = (await v3.get(`/mdw/v3/aex141/${collection}/templates?limit=100`)).body as { data: Obj[] };
        const edition = raw.data.find((t) => BigInt(String(t.template_id)) === id)!.edition as Obj | null;
        expect(edition?.limit, `template ${id}`).to.equal(limit.tag === 1 ? Number(limit.values[0]) : undefined);
        expect(edition?.supply, `template ${id}`).to.equal(minted.length > 0 ? minted.length : undefined);
      }

      const pickTransfer = ({ sender, recipient, tokenId, txHash, logIdx, blockHeight }: Item): Item => ({
        sender,
        recipient,
        tokenId,
        txHash,
        logIdx,
        blockHeight,
      });
      expect(transfers.length, `${collection} has transfers`).to.be.above(0);
      const servedTransfers = await walkPages(await v3.mdw.getAex141ContractTransfers(collection, { limit: 5 }));
      expect(servedTransfers.map(pickTransfer)).to.deep.equal(transfers);
      const sender = transfers[0]!.sender as `ak_${string}`;
      const fromOne = await walkPages(await v3.mdw.getAex141ContractTransfers(collection, { from: sender }));
      expect(fromOne.map(pickTransfer)).to.deep.equal(transfers.filter((t) => t.sender === sender));
      const recipient = transfers.at(-1)!.recipient as `ak_${string}`;
      const toOne = await walkPages(await v3.mdw.getAex141ContractTransfers(collection, { to: recipient }));
      expect(toOne.map(pickTransfer)).to.deep.equal(transfers.filter((t) => t.recipient === recipient));
    }
    expect(burns, 'the chain burns NFTs').to.be.above(0);
    expect(templateTokens, 'the chain mints NFTs from templates').to.be.above(0);
    // ae_mdw's router-only lists: the count, and every collection's transfers (here from one account)
    expect(((await v3.get('/mdw/v3/aex141/count')).body as Obj).data).to.equal(collections.length);
    const everyTransfer = collections.flatMap((c) => ownership(all, c).transfers);
    const someone = String(everyTransfer[0]!.sender);
    const fromSomeone = (await v3.walk(`/mdw/v3/aex141/transfers?from=${someone}&limit=3`)).map((t) => [
      t.tx_hash,
      t.log_idx,
    ]);
    expect(fromSomeone).to.have.deep.members(
      everyTransfer.filter((t) => t.sender === someone).map((t) => [t.txHash, t.logIdx]),
    );
    expect(fromSomeone).to.have.length(everyTransfer.filter((t) => t.sender === someone).length);
    const order = (a: Item, b: Item): number =>
      a.contractId === b.contractId ? Number(b.tokenId) - Number(a.tokenId) : a.contractId! < b.contractId! ? 1 : -1;
    for (const [account, tokens] of byAccount) {
      const served = await walkPages(await v3.mdw.getAex141OwnedTokens(account as `ak_${string}`, { limit: 3 }));
      expect(
        served.map(({ contractId, ownerId, tokenId }) => ({ contractId, ownerId, tokenId })),
        account,
      ).to.deep.equal([...tokens].sort(order));
    }
  }

  it('lists every swap of the factory pairs, by caller and by token, as the node logged them', checkSwaps);

  it(
    "serves every collection, its tokens and owners, templates and transfers, and each account's NFTs as the logs and the node's ledger say",
    checkNfts,
  );

  it('stays exact when the node replaces its top generations while the populator follows', async () => {
    // a deep fork, and a second one while the populator is still taking in the first
    await v3.devnode.fork(60);
    await v3.devnode.mineKeyBlock();
    await v3.devnode.fork(9);
    await v3.devnode.mineKeyBlock();
    await v3.synced();
    await checkSwaps();
    await checkNfts();
  });

  it('sorts collections by creation, name and symbol, finds them by prefix or exact value, with their meta info and limits', async () => {
    const collections = contractsOf(v3.devnode, 'aex141');
    const meta = (c: string): string[] =>
      (v3.devnode.chain.state.contractStore.get(`${c}/meta`) as FateTuple).items.slice(0, 2) as string[];
    const raw = (query: string): Promise<Obj[]> => rawWalk(`/mdw/v3/aex141?limit=1&${query}`);
    const byName = [...collections].sort((a, b) => (meta(a)[0]! < meta(b)[0]! ? -1 : 1));
    expect((await raw('by=name&direction=forward')).map((c) => c.contract_id)).to.deep.equal(byName);
    expect((await raw('by=name')).map((c) => c.contract_id)).to.deep.equal([...byName].reverse());
    const bySymbol = [...collections].sort((a, b) => (meta(a)[1]! < meta(b)[1]! ? -1 : 1));
    expect((await raw('by=symbol&direction=forward')).map((c) => c.contract_id)).to.deep.equal(bySymbol);
    const [first] = byName;
    const [name, symbol] = meta(first!);
    expect((await raw(`by=name&prefix=${encodeURIComponent(name!.slice(0, 4))}`)).map((c) => c.contract_id)).to.include(
      first,
    );
    expect((await raw(`by=symbol&exact=${symbol}`)).map((c) => c.contract_id)).to.deep.equal([first]);
    const sdk = await walkPages(await v3.mdw.getSortedAex141Contracts({ by: 'symbol', exact: symbol }));
    expect(sdk.map((c) => c.contractId)).to.deep.equal([first]);
    const [c] = await raw(`by=name&exact=${encodeURIComponent(name!)}`);
    expect([c!.name, c!.symbol, c!.metadata_type, c!.invalid]).to.deep.equal([name, symbol, 'map', false]);
    // the devnode's collections announce their template limit when created
    const limit = v3.devnode.chain.state.contractStore.get(`${first}/template_limit`);
    expect((c!.limits as Obj).template_limit).to.equal(Number(limit));
    expect((c!.limits as Obj).limit_tx_hash).to.equal(c!.contract_tx_hash);
    expect((await v3.get('/mdw/v3/aex141?by=size')).body).to.deep.equal({ error: 'invalid query: by=size' });
  });

  it("lists NFT transfers and swaps among each account's activities, after their transaction, in log order", async () => {
    const all = await logs();
    const transfers = contractsOf(v3.devnode, 'aex141').flatMap((c) => ownership(all, c).transfers);
    const byPosition = (a: Item, b: Item): number =>
      Number(b.blockHeight) - Number(a.blockHeight) ||
      all.findIndex((l) => l.txHash === b.txHash) - all.findIndex((l) => l.txHash === a.txHash) ||
      Number(b.logIdx) - Number(a.logIdx);
    const account = String(transfers[0]!.recipient);
    const mine = transfers.filter((t) => t.sender === account || t.recipient === account).sort(byPosition);
    const listed = await rawWalk(`/mdw/v3/accounts/${account}/activities?type=aex141&limit=7`);
    expect(listed.map((a) => a.type)).to.satisfy((types: string[]) => types.every((t) => t === 'Aex141TransferEvent'));
    expect(
      listed.map((a) => {
        const p = a.payload as Obj;
        return [p.tx_hash, p.log_idx, p.sender_id, p.recipient, Number(p.token_id)];
      }),
    ).to.deep.equal(mine.map((t) => [t.txHash, t.logIdx, t.sender, t.recipient, t.tokenId]));
    const sent = await rawWalk(`/mdw/v3/accounts/${account}/activities?type=aex141&owned_only=true`);
    expect(sent.map((a) => (a.payload as Obj).tx_hash)).to.deep.equal(
      mine.filter((t) => t.sender === account).map((t) => t.txHash),
    );

    const swaps = expectedSwaps(all);
    const caller = String(swaps[0]!.caller);
    const swapped = await rawWalk(`/mdw/v3/accounts/${caller}/activities?type=swaps`);
    expect(
      swapped.map((a) => [a.type, ((a.payload as Obj).tx as Obj).hash, BigInt(String((a.payload as Obj).amount))]),
    ).to.deep.equal(swaps.filter((s) => s.caller === caller).map((s) => ['DexSwapEvent', s.txHash, s.fromAmount]));
    // DEX_FACTORY is an override: the pairs of a factory whose code is not known as one (unmarked here, as a
    // factory of other code leaves them) are listed only while the setting names it, in the feed as in /v3/dex
    const announcers = await v3.pool.query('SELECT DISTINCT factory_id, factory_by_code FROM dex_pairs');
    expect(announcers.rows, 'the devnode factory, known by its code').to.deep.equal([
      { factory_id: factory, factory_by_code: true },
    ]);
    await v3.pool.query('UPDATE dex_pairs SET factory_by_code = false');
    const unnamed = await v3.serveWith({});
    const named = await v3.serveWith({ DEX_FACTORY: factory });
    try {
      for (const path of [`/mdw/v3/accounts/${caller}/activities?type=swaps`, `/mdw/v3/accounts/${caller}/dex/swaps`]) {
        const none = await fetch(`${unnamed.url}${path}`);
        expect(await none.json(), path).to.deep.equal({ data: [], next: null, prev: null });
        const some = (await (await fetch(`${named.url}${path}`)).json()) as { data: Obj[] };
        expect(some.data.length, path).to.be.above(0);
      }
    } finally {
      await v3.pool.query('UPDATE dex_pairs SET factory_by_code = true');
      await unnamed.close();
      await named.close();
    }
    // in the whole feed (newest first) a transaction's transfers come just before the transaction itself
    const own = mine.find((t) => t.sender === account)!;
    const feed = await rawWalk(`/mdw/v3/accounts/${account}/activities?limit=100&scope=gen:${own.blockHeight}`);
    const hashOf = (a: Obj): Json | undefined =>
      (a.payload as Obj)[a.type === 'Aex141TransferEvent' ? 'tx_hash' : 'hash'];
    const ofTx = feed.flatMap((a, i) => (hashOf(a) === own.txHash ? [[i, a.type]] : []));
    const count = mine.filter((t) => t.txHash === own.txHash).length;
    expect(ofTx.map(([, type]) => type)).to.deep.equal([
      ...Array(count).fill('Aex141TransferEvent'),
      'ContractCallTxEvent',
    ]);
    expect(ofTx.map(([i]) => Number(i) - Number(ofTx[0]![0]))).to.deep.equal([...Array(count + 1).keys()]);
  });

  it("lists the calls that reached a contract through another one as its `contract` activities, as the node's logs show", async () => {
    const { transactions } = await v3.truth();
    const called = new Map<string, string>();
    for (const t of transactions) {
      const tx = t.signed.tx as Obj;
      if (tx.type === 'ContractCallTx') called.set(t.hash, String(tx.contract_id));
      if (tx.type === 'ContractCreateTx') called.set(t.hash, contractId(String(tx.owner_id), BigInt(String(tx.nonce))));
    }
    const all = await logs();
    // a pair's first token: the router's swaps reach it, and its own Transfer events say so
    const pair = expectedSwaps(all)[0]!;
    for (const token of [String(pair.fromContract), String(pair.toContract)]) {
      const reached = [
        ...new Set(all.filter((l) => l.address === token && called.get(l.txHash) !== token).map((l) => l.txHash)),
      ];
      expect(reached.length, `calls reaching ${token}`).to.be.above(0);
      const listed = await walkPages(
        await v3.mdw.getAccountActivities(token as `ak_${string}`, {
          type: 'contract',
          direction: 'forward',
          limit: 7,
        }),
      );
      // (a token's own internal calls, wrapped AE's Chain.spend, are among them too: internal-calls.test.ts)
      const remote = <T>(items: readonly T[]): T[] =>
        items.filter((a) => (a as { type?: string }).type !== 'InternalContractCallEvent');
      expect(remote(listed).map((a) => [a.type, (a.payload as { hash: string }).hash])).to.deep.equal(
        reached.map((hash) => ['ContractCallTxEvent', hash]),
      );
      const owned = await v3.mdw.getAccountActivities(token as `ak_${string}`, { type: 'contract', ownedOnly: true });
      expect(remote(owned.data)).to.deep.equal([]);
    }
  });

  it('writes the contracts a call reached through another as remote_log_emitters reads them from the stored calls', async () => {
    // the writer's rows (migration 1154) against the schema's own reading of the stored call infos (1003)
    const stored = await v3.pool.query(
      'SELECT contract_id, height, micro_index, tx_index FROM contract_remote_calls ORDER BY 1, 2, 3, 4',
    );
    const derived = await v3.pool.query(
      `SELECT DISTINCT e.contract_id, c.height, c.micro_index, c.tx_index
         FROM contract_calls c CROSS JOIN LATERAL remote_log_emitters(c.call_info, c.contract_id) e(contract_id)
        ORDER BY 1, 2, 3, 4`,
    );
    expect(stored.rows.length, 'remote calls').to.be.above(0);
    expect(stored.rows).to.deep.equal(derived.rows);
  });

  it('answers every AEX-141 and DEX operation of the /v3/api document in the shape it documents', async () => {
    const ajv = new Ajv({ strict: false });
    ajv.addSchema({ $id: 'doc', components: { schemas: V3_SCHEMAS } });
    const collection = contractsOf(v3.devnode, 'aex141')[0]!;
    const tokens = (await v3.get(`/mdw/v3/aex141/${collection}/tokens?limit=1`)).body as { data: Obj[] };
    const { owner_id: owner, token_id: token } = tokens.data[0]!;
    const swap = ((await v3.get('/mdw/v3/dex/swaps?limit=1')).body as { data: Obj[] }).data[0]!;
    const values: Record<string, string> = {
      '{id}': collection,
      '{contractId}': collection,
      '{tokenId}': String(token),
      '{templateId}': '0',
      '{accountId}': String(owner),
    };
    const ops = V3_OPERATIONS.filter((o) => /^\/(aex141|dex)|\/(aex141|dex)\//.test(o.path));
    expect(ops).to.have.length(14);
    for (const op of ops) {
      let path = `/mdw/v3${op.path}`;
      if (op.path.includes('/dex/{'))
        path = path
          .replace('{contractId}', String(swap.from_contract))
          .replace('{contract_id}', String(swap.from_contract));
      if (op.path.includes('/dex/')) path = path.replace('{accountId}', String(swap.caller));
      for (const [param, value] of Object.entries(values)) path = path.replace(param, value);
      const res = await v3.get(path);
      expect(res.status, `${path}: ${res.text}`).to.equal(200);
      const validate = ajv.compile(
        JSON.parse(JSON.stringify(responseSchema(op.resource.answers)).replaceAll('"#/components', '"doc#/components')),
      );
      expect(validate(JSON.parse(res.text)), `${path}: ${JSON.stringify(validate.errors)}`).to.equal(true);
      if (isPage(op.resource.answers)) expect((res.body as { data: Obj[] }).data, path).to.have.length.above(0);
    }
  });

  it('answers bad input with ae_mdw errors', async () => {
    expect((await v3.get('/mdw/v3/dex/ct_nope/swaps')).status).to.equal(400);
    expect((await v3.get('/mdw/v3/accounts/ak_nope/dex/swaps')).body).to.deep.equal({ error: 'invalid id: ak_nope' });
    expect((await v3.get('/mdw/v3/dex/swaps?cursor=1-2')).body).to.deep.equal({ error: 'invalid cursor: 1-2' });
    const [collection] = contractsOf(v3.devnode, 'aex141');
    const [token] = contractsOf(v3.devnode, 'aex9');
    expect((await v3.get(`/mdw/v3/aex141/${token}`)).status, 'an AEX-9 token is no collection').to.equal(404);
    expect((await v3.get(`/mdw/v3/aex141/${collection}/tokens/99999999`)).status).to.equal(404);
    expect((await v3.get(`/mdw/v3/aex141/${collection}/tokens/x`)).status).to.equal(404);
    expect((await v3.get(`/mdw/v3/aex141/${collection}/tokens?cursor=zz`)).body).to.deep.equal({
      error: 'invalid cursor: zz',
    });
    expect((await v3.get('/mdw/v3/aex141?cursor=%%%')).status).to.equal(400);
    expect((await v3.get(`/mdw/v3/aex141/${collection}/transfers?from=ak_x`)).body).to.deep.equal({
      error: 'invalid id: ak_x',
    });
  });
});

describe('/v3 AEX-141 collections over a pruning node', function () {
  this.timeout(600_000);
  let v3: V3UnderTest;
  // the collections are created in the first generations: below the GC height, each has calls stored pruned (206)
  const GC_HEIGHT = 40;
  before(async () => {
    v3 = await startV3(45, 'nft-dex', () => ({}), { gcHeight: GC_HEIGHT, tokenShare: 0.5 });
  });
  after(async () => {
    await v3?.close();
  });

  it('marks a collection incomplete when calls since its creation were stored without their call info (410)', async () => {
    const { rows } = await v3.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM contract_calls WHERE call_info_pruned AND height < $1',
      [GC_HEIGHT],
    );
    expect(rows[0]!.n, 'calls below the GC height were stored as pruned').to.be.above(0);
    const collections = contractsOf(v3.devnode, 'aex141');
    expect(collections).to.have.length.above(0);
    for (const c of collections)
      expect(((await v3.get(`/mdw/v3/aex141/${c}`)).body as Obj).incomplete, c).to.equal(true);
  });
});
