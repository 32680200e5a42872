/** @module The series a batch's rows decide, counted in memory (the stored derivation's twin is compared in test/integration/indexer/stats-memory.test.ts). */
import { expect } from 'chai';
import type { CountedSeries, DerivedFigures } from '../../../src/db/writes/stats-derive.ts';
import type { GenerationRows } from '../../../src/indexer/rows/rows.ts';
import { countedSeries } from '../../../src/indexer/derived/stats-series.ts';

const DAY = 86_400_000n;

/** gen is a generation with only what the counting reads: its key block's time, its micro blocks' and txs' times and types. */
function gen(
  height: number,
  keyMs: bigint,
  micros: { ms: bigint; types: string[] }[],
  continuesAt?: number,
): GenerationRows {
  return {
    keyBlock: { height, timeMs: keyMs },
    continuesAt,
    microBlocks: micros.map((m, microIndex) => ({ microIndex, timeMs: m.ms })),
    transactions: micros.flatMap((m) => m.types.map((txType) => ({ microTimeMs: m.ms, txType }))),
  } as unknown as GenerationRows;
}

const figures = (...heights: number[]): Map<number, { difficulty: bigint; hashrate: bigint }> =>
  new Map(heights.map((h) => [h, { difficulty: BigInt(1000 + h), hashrate: BigInt(h) }]));

/** nothing derived by the batch's statements */
const NONE: DerivedFigures = { miners: [], generations: [], aex9Transfers: [] };

const rows = (c: CountedSeries['rows']): string[] =>
  c.heights.map((h, i) => `${h} ${c.series[i]} ${c.days[i]} ${c.counts[i]}`).sort();
/** batchSeriesCounts are the rows per height alone */
const batchSeriesCounts = (
  gens: Parameters<typeof countedSeries>[0],
  f: Parameters<typeof countedSeries>[1],
  derived = NONE,
): CountedSeries['rows'] => countedSeries(gens, f, derived).rows;

describe('countedSeries', () => {
  it('counts blocks, transactions per type, difficulty and hashrate per height and UTC day', () => {
    const day = 20_454n;
    const counts = batchSeriesCounts(
      [
        gen(7, day * DAY + 5n, [
          { ms: day * DAY + 10n, types: ['SpendTx', 'SpendTx', 'ContractCallTx'] },
          { ms: day * DAY + 20n, types: ['SpendTx'] },
        ]),
        // a generation over midnight: its key block on one day, its second micro block and its tx on the next
        gen(8, (day + 1n) * DAY - 2n, [
          { ms: (day + 1n) * DAY - 1n, types: [] },
          { ms: (day + 1n) * DAY, types: ['NameClaimTx'] },
        ]),
      ],
      figures(7, 8),
    );
    expect(rows(counts)).to.deep.equal(
      [
        `7 blocks:key ${day} 1`,
        `7 blocks:all ${day} 3`,
        `7 blocks:micro ${day} 2`,
        `7 difficulty ${day} 1007`,
        `7 hashrate ${day} 7`,
        `7 transactions ${day} 4`,
        `7 transactions:SpendTx ${day} 3`,
        `7 transactions:ContractCallTx ${day} 1`,
        `8 blocks:key ${day} 1`,
        `8 blocks:all ${day} 2`,
        `8 blocks:micro ${day} 1`,
        `8 difficulty ${day} 1008`,
        `8 hashrate ${day} 8`,
        `8 blocks:all ${day + 1n} 1`,
        `8 blocks:micro ${day + 1n} 1`,
        `8 transactions ${day + 1n} 1`,
        `8 transactions:NameClaimTx ${day + 1n} 1`,
      ].sort(),
    );
  });

  it('leaves out sums of zero (a key block whose target reads as 0) as the stored derivation does', () => {
    const counts = batchSeriesCounts([gen(0, 0n, [])], new Map([[0, { difficulty: 0n, hashrate: 0n }]]));
    expect(rows(counts)).to.deep.equal(['0 blocks:all 0 1', '0 blocks:key 0 1']);
  });

  it('refuses what it cannot count alone: a continued generation, a height without figures', () => {
    expect(() => batchSeriesCounts([gen(3, 0n, [], 2)], figures(3))).to.throw(RangeError, /continues/);
    expect(() => batchSeriesCounts([gen(3, 0n, [])], figures(4))).to.throw(RangeError, /no difficulty/);
  });

  // issue 39: an unknown type stopped the statistics; it is counted under the node's name, as tx_type_name names it
  it('counts a type this version does not know under its own name', () => {
    const counted = rows(batchSeriesCounts([gen(3, 0n, [{ ms: 0n, types: ['FutureTx', 'FutureTx'] }])], figures(3)));
    expect(counted).to.include('3 transactions:FutureTx 0 2');
  });

  it('sums the counts per series and UTC day for the intervals', () => {
    const day = 20_000n;
    const { rows: counted, daySums } = countedSeries(
      [
        gen(1, day * DAY, [{ ms: day * DAY + 1n, types: ['SpendTx'] }]),
        gen(2, day * DAY + 2n, [{ ms: (day + 1n) * DAY, types: ['SpendTx', 'SpendTx'] }]),
      ],
      figures(1, 2),
      NONE,
    );
    expect(rows(counted)).to.have.length(15);
    expect(daySums.series.map((s, i) => `${s} ${daySums.days[i]} ${daySums.counts[i]}`).sort()).to.deep.equal(
      [
        `blocks:key ${day} 2`,
        `blocks:all ${day} 3`,
        `blocks:all ${day + 1n} 1`,
        `blocks:micro ${day} 1`,
        `blocks:micro ${day + 1n} 1`,
        `difficulty ${day} 2003`,
        `hashrate ${day} 3`,
        `transactions ${day} 1`,
        `transactions ${day + 1n} 2`,
        `transactions:SpendTx ${day} 1`,
        `transactions:SpendTx ${day + 1n} 2`,
      ].sort(),
    );
  });

  it("counts what the batch's statements derived: miners and names at the key block's day, AEX-9 events at their micro block's", () => {
    const day = 20_454n;
    const counted = countedSeries(
      [
        gen(7, day * DAY - 5n, [
          { ms: day * DAY - 1n, types: ['ContractCallTx'] },
          { ms: day * DAY, types: ['ContractCallTx', 'ContractCallTx'] },
        ]),
        gen(8, day * DAY + 5n, []),
      ],
      figures(7, 8),
      {
        miners: [
          { height: 7, miner: 'ak_a' },
          { height: 7, miner: 'ak_b' },
          { height: 8, miner: 'ak_a' },
        ],
        generations: [
          { height: 7, names_activated: 2, contracts_created: 0 },
          { height: 8, names_activated: 0, contracts_created: 1 },
        ],
        aex9Transfers: [
          { height: 7, micro_index: 0, count: 1 },
          { height: 7, micro_index: 1, count: 3 },
        ],
      },
    );
    const derived = rows(counted.rows).filter((r) => !/ (blocks|transactions|difficulty|hashrate)/.test(r));
    expect(derived).to.deep.equal(
      [
        `7 miner:ak_a ${day - 1n} 1`,
        `7 miner:ak_b ${day - 1n} 1`,
        // contracts_created 0 and names_activated 0 left out (the SQL's HAVING)
        `7 names ${day - 1n} 2`,
        `7 aex9_transfers ${day - 1n} 1`,
        `7 aex9_transfers ${day} 3`,
        `8 miner:ak_a ${day} 1`,
        `8 contracts ${day} 1`,
      ].sort(),
    );
    const sums = counted.daySums.series.map((s, i) => `${s} ${counted.daySums.days[i]} ${counted.daySums.counts[i]}`);
    expect(sums.filter((r) => /^(miner|aex9|names|contracts)/.test(r)).sort()).to.deep.equal(
      [
        `miner:ak_a ${day - 1n} 1`,
        `miner:ak_a ${day} 1`,
        `miner:ak_b ${day - 1n} 1`,
        `names ${day - 1n} 2`,
        `contracts ${day} 1`,
        `aex9_transfers ${day - 1n} 1`,
        `aex9_transfers ${day} 3`,
      ].sort(),
    );
  });
});
