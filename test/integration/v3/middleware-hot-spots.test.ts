/**
 * @module The original middleware's lookups of a busy object against the devnode's chain (issue 57 made their statements
 * walk the object's own rows first): the names pointing at an id (a hundred names point at the hot oracle, tens at
 * each name owner) and a contract's transactions (the hot contract's calls spread over every generation), page by
 * page, before and after a fork that moves the top generations' calls.
 */
import { expect } from 'chai';
import { buildContractId, produceNameId } from '@aeternity/aepp-sdk';
import type { Json } from '../../../src/chain/json.ts';
import { startV3, type ChainTx, type V3UnderTest } from './harness.ts';

type Obj = { [key: string]: Json };

/** effective is the transaction a signed one carries, inside its GAMetaTx and PayingForTx wrappers. */
function effective(signed: Obj): Obj {
  let tx = signed.tx as Obj;
  while (tx.type === 'GAMetaTx' || tx.type === 'PayingForTx') tx = (tx.tx as Obj).tx as Obj;
  return tx;
}

/** A name as the node shows it now. */
interface NodeName {
  readonly name: string;
  readonly id: string;
  readonly owner: string;
  readonly pointers: { key: string; id: string }[];
}

describe('the original middleware over a busy name pointee and a busy contract, against the devnode', function () {
  this.timeout(300_000);
  let v3: V3UnderTest;

  before(async () => {
    v3 = await startV3(40, 'mdw-hot-spots', () => ({}), {
      hotSpots: {
        contractCalls: 240,
        tokenTransfers: 4,
        tokenHolders: 2,
        names: 500,
        channelUpdates: 2,
        oracleQueries: 2,
      },
    });
  });
  after(async () => {
    await v3?.close();
  });

  /** pages asks `path` page by page (`limit` each) until a short page: every item, in the order given */
  const pages = async <T>(path: string, limit: number, items: (body: Json) => T[]): Promise<T[]> => {
    const all: T[] = [];
    for (let page = 1; ; page++) {
      const res = await v3.get(`${path}?limit=${limit}&page=${page}`);
      expect(res.status, res.text).to.equal(200);
      const got = items(res.body);
      all.push(...got);
      if (got.length < limit) return all;
    }
  };

  /**
   * pointingNames: the node's names now that an update gave pointers (each claimed and updated name asked of its API;
   * an inactive one answers 404)
   */
  const pointingNames = async (): Promise<NodeName[]> => {
    const txs = (await v3.truth()).transactions.map((t) => effective(t.signed));
    const updated = new Set(txs.filter((tx) => tx.type === 'NameUpdateTx').map((tx) => String(tx.name_id)));
    const claimed = new Set(
      txs
        .filter((tx) => tx.type === 'NameClaimTx')
        .map((tx) => String(tx.name))
        .filter((name) => updated.has(produceNameId(name as `${string}.chain`))),
    );
    const found: NodeName[] = [];
    for (const name of claimed) {
      const answer = (await v3.nodeGet(`/v2/names/${name}`)) as Obj;
      if (typeof answer.id === 'string') found.push({ ...(answer as unknown as NodeName), name });
    }
    return found;
  };

  /** byDatabaseOrder orders names as the database's collation does (the route promises its order by name) */
  const byDatabaseOrder = async (names: string[]): Promise<string[]> =>
    (await v3.pool.query<{ n: string }>('SELECT n FROM unnest($1::text[]) n ORDER BY n', [names])).rows.map((r) => r.n);

  const expectReverseLookups = async (): Promise<void> => {
    const pointedAt = new Map<string, NodeName[]>();
    for (const n of await pointingNames())
      for (const id of new Set(n.pointers.map((p) => p.id))) pointedAt.set(id, [...(pointedAt.get(id) ?? []), n]);
    const busiest = [...pointedAt.entries()].sort((a, b) => b[1].length - a[1].length).slice(0, 3);
    expect(busiest[0]![1].length, 'the hot oracle').to.be.at.least(50);
    for (const [id, names] of busiest) {
      const order = await byDatabaseOrder(names.map((n) => n.name));
      const byName = new Map(names.map((n) => [n.name, n]));
      const expected = order.map((name) => {
        const n = byName.get(name)!;
        return { name, name_hash: n.id, owner: n.owner, pointers: n.pointers };
      });
      const got = await pages(`/middleware/names/reverse/${id}`, 7, (body) =>
        (body as Obj[]).map((r) => ({ name: r.name, name_hash: r.name_hash, owner: r.owner, pointers: r.pointers })),
      );
      expect(got, id).to.deep.equal(expected);
    }
  };

  /** the contract with the most calls, with its transactions (its create, then its calls) in chain order */
  const busiestContract = async (): Promise<{ id: string; txs: ChainTx[] }> => {
    const byContract = new Map<string, ChainTx[]>();
    for (const t of (await v3.truth()).transactions) {
      const tx = effective(t.signed);
      const id =
        tx.type === 'ContractCallTx'
          ? String(tx.contract_id)
          : tx.type === 'ContractCreateTx' || tx.type === 'GAAttachTx'
            ? buildContractId(tx.owner_id as `ak_${string}`, Number(tx.nonce))
            : undefined;
      if (id !== undefined) byContract.set(id, [...(byContract.get(id) ?? []), t]);
    }
    const [id, txs] = [...byContract.entries()].sort((a, b) => b[1].length - a[1].length)[0]!;
    return { id, txs };
  };

  const expectContractTransactions = async (): Promise<void> => {
    const { id, txs } = await busiestContract();
    expect(txs.length, 'the hot contract').to.be.at.least(200);
    expect(new Set(txs.map((t) => t.height)).size, 'its calls spread over the generations').to.be.at.least(30);
    const expected = txs.map((t) => ({ hash: t.hash, block_height: t.height, block_hash: t.blockHash }));
    for (const limit of [100, 37]) {
      const got = await pages(`/middleware/contracts/transactions/address/${id}`, limit, (body) =>
        ((body as { transactions: Obj[] }).transactions ?? []).map((t) => ({
          hash: t.hash,
          block_height: t.block_height,
          block_hash: t.block_hash,
        })),
      );
      expect(got, `${id} by ${limit}`).to.deep.equal(expected);
    }
  };

  it('lists the active names pointing at the busiest ids by name, page by page, as the node has them', async () => {
    await expectReverseLookups();
  });

  it("lists a busy contract's create and then its calls in chain order, page by page, as the node has them", async () => {
    await expectContractTransactions();
  });

  it('answers both from the new chain after a fork of the top generations', async () => {
    const before = (await busiestContract()).txs.map((t) => t.blockHash);
    await v3.devnode.fork(3);
    await v3.devnode.mineKeyBlock();
    await v3.synced();
    expect((await busiestContract()).txs.map((t) => t.blockHash)).to.not.deep.equal(before);
    await expectContractTransactions();
    await expectReverseLookups();
  });
});
