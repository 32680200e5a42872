import { expect } from 'chai';
import { storedTxAmounts, storedTxColumns } from '../../../src/chain/stored-tx.ts';
import { parseJson } from '../../../src/chain/json.ts';
import { encode } from '../../../src/chain/encoding.ts';
import { generateChain } from '../../../src/devnode/index.ts';
import { txJson } from '../../../src/devnode/api/views.ts';
import { heldTransactions } from '../../../src/indexer/derived/balance-changes.ts';
import { batchTransactions, WrittenTransactions } from '../../../src/indexer/derived/written-transactions.ts';
import { transformGeneration } from '../../../src/indexer/rows/transform.ts';
import type { FetchedGeneration, GenerationRows, JsonObject } from '../../../src/indexer/rows/rows.ts';

const hash = (prefix: 'kh' | 'mh' | 'ak', n: number): string => encode(prefix, new Uint8Array(32).fill(n));

describe('WrittenTransactions (derived/written-transactions.ts)', () => {
  // the node's JSON of a devnode chain's spends and oracle registrations, as the populator reads it
  const { chain } = generateChain({ generations: 40, seed: 'written-transactions' });
  const signed = [...chain.txs.values()]
    .map((r) => parseJson(txJson(r)) as JsonObject)
    .filter((s) => ['SpendTx', 'OracleRegisterTx'].includes(String((s.tx as JsonObject).type)))
    .slice(0, 6);

  /** generation `height`: a micro block of `txs`, then an empty one */
  const generation = (height: number, txs: JsonObject[]): GenerationRows => {
    const kh = hash('kh', height);
    const gen: FetchedGeneration = {
      height,
      keyBlock: {
        hash: kh,
        height,
        prev_hash: hash('kh', height - 1),
        prev_key_hash: hash('kh', height - 1),
        miner: hash('ak', 1),
        beneficiary: hash('ak', 1),
        time: 1700000000000,
        version: 6,
      },
      microBlocks: [
        {
          header: { hash: hash('mh', height), height, time: 1700000001000, prev_hash: kh, prev_key_hash: kh },
          transactions: txs,
        },
        {
          header: { hash: hash('mh', height + 100), height, time: 1700000002000, prev_hash: kh, prev_key_hash: kh },
          transactions: [],
        },
      ],
      callInfos: new Map(),
      decodedCalls: new Map(),
    };
    return transformGeneration(gen);
  };
  const gens = [generation(10, signed.slice(0, 3)), generation(11, signed.slice(3))];
  const amounts = signed.map((s) => ({ hash: String(s.hash), fields: storedTxAmounts(storedTxColumns(s).signed) }));

  it("gives a kept micro block's transactions in their order, with the ids and amounts their stored bytes give", () => {
    expect(signed.length).to.equal(6);
    const kept = new WrittenTransactions(100);
    kept.keep(gens);
    expect(kept.count).to.equal(6);
    expect(kept.transactionsOf(hash('mh', 10))).to.deep.equal(amounts.slice(0, 3));
    expect(kept.transactionsOf(hash('mh', 11))).to.deep.equal(amounts.slice(3));
    expect(kept.transactionsOf(hash('mh', 110))).to.deep.equal([]);
    expect(kept.transactionsOf(hash('mh', 12))).to.equal(undefined);
  });

  it('forgets the heights a stretch derived, and the oldest micro blocks past its bound', () => {
    const bounded = new WrittenTransactions(4);
    bounded.keep(gens.slice(0, 1));
    bounded.keep(gens.slice(1));
    // six written, four allowed: the oldest micro block's three dropped
    expect(bounded.count).to.equal(3);
    expect(bounded.transactionsOf(hash('mh', 10))).to.equal(undefined);
    expect(bounded.transactionsOf(hash('mh', 11))).to.have.length(3);
    const kept = new WrittenTransactions(100);
    kept.keep(gens);
    kept.forgetThrough(10);
    expect([10, 110, 11, 111].map((n) => kept.transactionsOf(hash('mh', n)) !== undefined)).to.deep.equal([
      false,
      false,
      true,
      true,
    ]);
    expect(kept.count).to.equal(3);
  });

  it("gives a batch's own transactions whole, by micro block", () => {
    const own = batchTransactions(gens);
    expect(own(hash('mh', 11))?.map((t) => [t.hash, t.fields])).to.deep.equal(
      signed.slice(3).map((s) => [s.hash, s.tx]),
    );
    expect(own(hash('mh', 12))).to.equal(undefined);
  });
});

describe('heldTransactions (derived/balance-changes.ts)', () => {
  const tx = (n: number) => ({ hash: `th_${n}`, fields: { type: 'SpendTx', n } });
  const held = new Map([
    ['mh_a', [tx(1), tx(2)]],
    ['mh_b', []],
    ['mh_c', [tx(3)]],
  ]);
  const known = (microHash: string) => held.get(microHash);
  const block = (height: number, microIndex: number, hash: string) => ({ height, microIndex, hash });

  it("places a range's held transactions by their blocks, in chain order, key blocks holding none", () => {
    const blocks = [
      block(5, -1, 'kh_5'),
      block(5, 0, 'mh_a'),
      block(5, 1, 'mh_b'),
      block(6, -1, 'kh_6'),
      block(6, 0, 'mh_c'),
    ];
    expect(heldTransactions(blocks, known)).to.deep.equal([
      { height: 5, microIndex: 0, txIndex: 0, ...tx(1) },
      { height: 5, microIndex: 0, txIndex: 1, ...tx(2) },
      { height: 6, microIndex: 0, txIndex: 0, ...tx(3) },
    ]);
  });

  it('holds none of a range where a micro block is not held', () => {
    expect(heldTransactions([block(5, 0, 'mh_a'), block(5, 1, 'mh_x')], known)).to.equal(undefined);
  });
});
