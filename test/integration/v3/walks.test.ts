import { expect } from 'chai';
import { stringifyJson, type Json } from '../../../src/chain/json.ts';
import { startV3, type ChainTruth, type V3UnderTest } from './harness.ts';

type Obj = { [key: string]: Json };
/** A page as the SDK's requestByPath gives it (camelCase items). */
type SdkPage = { data: Obj[]; nextPath: string | null; prevPath: string | null };

/** A list: its path, how its items are told apart, and what the node's chain says it holds (oldest first). */
interface List {
  readonly path: string;
  readonly id: (item: Obj) => string;
  readonly truth: (chain: ChainTruth) => string[] | Promise<string[]>;
}

const isCall = (tx: Obj): boolean => tx.type === 'ContractCallTx' || tx.type === 'ContractCreateTx';
const innerOf = (tx: Obj): Obj | undefined => (tx.tx as Obj | undefined)?.tx as Obj | undefined;

describe('/v3 lists walked forward and backward while blocks arrive and forks replace the top', function () {
  this.timeout(300_000);
  let v3: V3UnderTest;
  let account: string;
  let beneficiary: string;

  const lists = (): List[] => [
    { path: '/v3/key-blocks', id: (k) => String(k.hash), truth: (c) => c.keyBlocks.map((k) => String(k.hash)) },
    { path: '/v3/transactions', id: (t) => String(t.hash), truth: (c) => c.transactions.map((t) => t.hash) },
    {
      path: `/v3/transactions?account=${account}`,
      id: (t) => String(t.hash),
      truth: (c) => c.transactions.filter((t) => stringifyJson(t.signed).includes(account)).map((t) => t.hash),
    },
    {
      path: '/v3/transfers?kind=reward_block',
      id: (t) => `${String(t.height)} ${String(t.accountId)}`,
      truth: (c) => c.keyBlocks.slice(1).map((k) => `${String(k.height)} ${String(k.beneficiary)}`),
    },
    {
      path: `/v3/accounts/${beneficiary}/activities`,
      id: (a) => `${String(a.height)} ${String(a.type)} ${String(a.blockHash)}`,
      truth: (c) => c.keyBlocks.slice(1).map((k) => `${String(k.height)} InternalTransferEvent ${String(k.hash)}`),
    },
    {
      path: '/v3/contracts/logs',
      id: (l) => `${String(l.callTxHash)} ${String(l.logIdx)}`,
      truth: async (c) => {
        const ids: string[] = [];
        for (const t of c.transactions) {
          const tx = t.signed.tx as Obj;
          if (!isCall(tx) && !isCall(innerOf(tx) ?? {})) continue;
          const info = (await v3.nodeGet(`/v2/transactions/${t.hash}/info`)) as Obj;
          const ga = info.ga_info as Obj | undefined;
          const call = (info.call_info ?? (ga?.inner_object as Obj | undefined)?.call_info) as Obj | undefined;
          ((call?.log as Json[] | undefined) ?? []).forEach((_, i) => ids.push(`${t.hash} ${i}`));
        }
        return ids;
      },
    },
  ];

  /** open reads a list's first page through the SDK. */
  const open = async (list: List, direction: 'forward' | 'backward', limit: number): Promise<SdkPage> =>
    v3.mdw.requestByPath<SdkPage>(
      `${list.path}${list.path.includes('?') ? '&' : '?'}direction=${direction}&limit=${limit}`,
    );

  /** rest follows `next` links to the end, collecting item ids. */
  const rest = async (list: List, page: SdkPage, seen: string[]): Promise<void> => {
    for (let current = page; current.nextPath !== null;) {
      current = await v3.mdw.requestByPath<SdkPage>(current.nextPath);
      seen.push(...current.data.map(list.id));
    }
  };

  /** change mines a spend of `account` in a new generation, forks the top two away, and mines a spend again. */
  const change = async (): Promise<void> => {
    await v3.spend(account, 5);
    await v3.devnode.mineMicroBlock();
    await v3.devnode.mineKeyBlock();
    await v3.devnode.fork(2);
    await v3.spend(account, 6);
    await v3.devnode.mineMicroBlock();
    await v3.devnode.mineKeyBlock();
    await v3.synced();
  };

  before(async () => {
    v3 = await startV3(12, 'v3-walks');
    account = v3.devnode.accounts[1]!.publicKey;
    beneficiary = String((await v3.truth()).keyBlocks[1]!.beneficiary);
    // the account's transactions: more than a page, in generations of their own (a backward walk stops above some)
    for (const amount of [1, 2, 3, 4]) {
      await v3.spend(account, amount);
      await v3.devnode.mineKeyBlock();
    }
    await v3.synced();
  });
  after(async () => {
    await v3?.close();
  });

  // Each test starts every list's walk, changes the chain once under them all, then finishes each walk: every walk still
  // meets the change between two of its pages, and the populator follows one fork a test and the node's chain is read
  // again once, where a change per list cost six of each.
  it('a forward walk that the change overtakes ends with the chain as the node has it afterwards', async () => {
    const walks: { list: List; page: SdkPage; seen: string[] }[] = [];
    for (const list of lists()) {
      const page = await open(list, 'forward', 3);
      expect(page.nextPath, `${list.path} has more than a page`).to.not.equal(null);
      walks.push({ list, page, seen: page.data.map(list.id) });
    }
    await change();
    for (const { list, page, seen } of walks) {
      await rest(list, page, seen);
      const truth = await list.truth(await v3.truth());
      expect(seen, list.path).to.deep.equal(truth);
      expect(new Set(seen).size, `${list.path}: no item twice`).to.equal(seen.length);
    }
  });

  it('a backward walk past the forked heights keeps what it read and ends with the unchanged rest', async () => {
    const top = v3.devnode.height();
    // below the heights the fork replaces before the chain changes (a list's items carry their height or block)
    const heights = new Map((await v3.truth()).keyBlocks.map((k) => [String(k.hash), Number(k.height)]));
    const heightOf = async (id: string): Promise<number> => {
      const first = id.split(' ')[0]!;
      if (/^\d+$/.test(first)) return Number(first);
      if (heights.has(first)) return heights.get(first)!;
      return Number(((await v3.nodeGet(`/v2/transactions/${first}`)) as Obj).block_height);
    };
    const walks: { list: List; before: string[]; page: SdkPage; seen: string[] }[] = [];
    for (const list of lists()) {
      const before = (await list.truth(await v3.truth())).reverse();
      let page = await open(list, 'backward', 2);
      const seen = page.data.map(list.id);
      while (page.nextPath !== null && (await heightOf(seen.at(-1)!)) > top - 4) {
        page = await v3.mdw.requestByPath<SdkPage>(page.nextPath);
        seen.push(...page.data.map(list.id));
      }
      walks.push({ list, before, page, seen });
    }
    await change();
    for (const { list, before, page, seen } of walks) {
      await rest(list, page, seen);
      expect(seen, list.path).to.deep.equal(before);
      // and walking back up from the end with prev links gives the changed chain above the old cursor
      const after = await list.truth(await v3.truth());
      const forward = await open(list, 'forward', 4);
      const all = [...forward.data.map(list.id)];
      await rest(list, forward, all);
      expect(all, `${list.path} after`).to.deep.equal(after);
    }
  });

  it('prev links walk back over a fork without a gap or a repeat', async () => {
    const ends: { list: List; page: SdkPage }[] = [];
    for (const list of lists()) {
      // go to the end forward, then walk back with prev while the top is forked away
      let page = await open(list, 'forward', 3);
      while (page.nextPath !== null) page = await v3.mdw.requestByPath<SdkPage>(page.nextPath);
      ends.push({ list, page });
    }
    await change();
    for (const { list, page } of ends) {
      const back: string[] = [];
      for (let current = page; current.prevPath !== null;) {
        current = await v3.mdw.requestByPath<SdkPage>(current.prevPath);
        back.unshift(...current.data.map(list.id));
      }
      const truth = await list.truth(await v3.truth());
      // every position up to the link's cursor, as the chain now has them: a prefix of the list
      expect(back.length, list.path).to.be.greaterThan(0);
      expect(back, list.path).to.deep.equal(truth.slice(0, back.length));
      expect(new Set(back).size, `${list.path}: no item twice`).to.equal(back.length);
    }
  });
});
