/** @module bench/cpu-profile.lib.ts: a CPU profile's samples summed per stage of the populator. */
import { expect } from 'chai';
import { selfTimes, stageShares, type CpuProfile } from '../../../bench/cpu-profile.lib.ts';

const frame = (
  id: number,
  functionName: string,
  url: string,
  children: number[] = [],
): CpuProfile['nodes'][number] => ({
  id,
  callFrame: { functionName, url },
  children,
});

describe('bench/cpu-profile.lib', () => {
  // root → loader → transformGeneration → storedTxColumns; root → client #once → parseJson; idle; module loading
  const profile: CpuProfile = {
    nodes: [
      frame(1, '(root)', '', [2, 5, 7, 8, 9]),
      frame(2, 'decodeAndTransform', 'file:///app/src/indexer/sync/loader.ts', [3]),
      frame(3, 'transformGeneration', 'file:///app/src/indexer/rows/transform.ts', [4]),
      frame(4, 'storedTxColumns', 'file:///app/src/chain/stored-tx.ts'),
      frame(5, '#once', 'file:///app/src/node/client.ts', [6]),
      frame(6, 'parseJson', 'file:///app/src/chain/json.ts'),
      frame(7, '(idle)', ''),
      frame(8, '(anon)', 'node:internal/modules/esm/loader'),
      frame(9, 'somethingElse', 'file:///app/src/other.ts'),
    ],
    samples: [3, 4, 4, 5, 6, 7, 8, 9, 1],
    timeDeltas: [1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000],
  };

  it('gives each sample to the first stage on its stack, leaving idle time and the start out', () => {
    const shares = stageShares(profile);
    expect(shares.get('stored binary of each transaction')).to.equal(5);
    expect(shares.get('rest of the transform (rows of every table)')).to.equal(1);
    expect(shares.get('JSON parse of the answers')).to.equal(5);
    expect(shares.get('node client (requests, HTTP)')).to.equal(4);
    // the root's own sample and one outside every stage
    expect(shares.get('other')).to.equal(17);
    expect([...shares.values()].reduce((a, b) => a + b, 0)).to.equal(32);
  });

  it("sums each function's own samples by name, file and line, largest first, idle time and the start left out", () => {
    const withLines: CpuProfile = {
      ...profile,
      nodes: profile.nodes.map((n) => (n.id === 4 ? { ...n, callFrame: { ...n.callFrame, lineNumber: 147 } } : n)),
    };
    expect(selfTimes(withLines, 2)).to.deep.equal([
      ['(root)', 9],
      ['somethingElse other.ts', 8],
    ]);
    const all = new Map(selfTimes(withLines, 10));
    expect(all.get('storedTxColumns stored-tx.ts:148')).to.equal(5);
    expect(all.get('#once client.ts')).to.equal(4);
    expect([...all.keys()].some((name) => name.startsWith('(idle)') || name.startsWith('(anon)'))).to.equal(false);
    expect([...all.values()].reduce((a, b) => a + b, 0)).to.equal(32);
  });
});
