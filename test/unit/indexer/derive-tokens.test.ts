import { expect } from 'chai';
import { encode } from '../../../src/chain/encoding.ts';
import { emittedLogs } from '../../../src/indexer/rows/aexn-rows.ts';
import { storedGenerations } from '../../../src/indexer/derived/derive-tokens.ts';
import type { StoredContractTx } from '../../../src/db/writes/derive-backfill.ts';

const CT = encode('ct', Buffer.alloc(32, 3));
const info = (topic: number) => ({ return_type: 'ok', log: [{ address: CT, topics: [topic] }] });
const stored = (height: number, microIndex: number, txIndex: number, withInfo: boolean): StoredContractTx => ({
  height,
  microIndex,
  txIndex,
  hash: `th_${height}_${microIndex}_${txIndex}`,
  microBlockHash: `mh_${height}_${microIndex}`,
  tx: { type: 'ContractCallTx', contract_id: CT },
  ...(withInfo ? { call: { contractId: CT, callerId: 'ak_x', callInfo: info(txIndex) } } : {}),
});

describe('the generations a token derivation reads, rebuilt from stored contract txs', () => {
  it('puts each tx at its stored micro block and index, other places holding nothing a derivation reads', () => {
    const gens = storedGenerations([stored(4, 1, 2, true), stored(4, 1, 5, true), stored(7, 0, 0, false)]);
    expect(gens.map((g) => g.height)).to.deep.equal([4, 7]);
    const [four, seven] = gens;
    // micro block 0 of height 4 holds no contract tx; micro block 1 its txs at indexes 2 and 5
    expect(four!.microBlocks.map((m) => m.header.hash)).to.deep.equal(['', 'mh_4_1']);
    expect(four!.microBlocks[0]!.transactions).to.deep.equal([]);
    expect(four!.microBlocks[1]!.transactions.map((t) => t.hash)).to.deep.equal([
      '',
      '',
      'th_4_1_2',
      '',
      '',
      'th_4_1_5',
    ]);
    expect([...four!.callInfos.keys()]).to.deep.equal(['th_4_1_2', 'th_4_1_5']);
    expect(seven!.callInfos.size).to.equal(0);
    // the events are read at the stored places, as from the node's generation
    expect(emittedLogs(four!).map((l) => [l.height, l.microIndex, l.txIndex, l.txHash, l.logIdx])).to.deep.equal([
      [4, 1, 2, 'th_4_1_2', 0],
      [4, 1, 5, 'th_4_1_5', 0],
    ]);
  });

  it('gives nothing for no stored tx', () => {
    expect(storedGenerations([])).to.deep.equal([]);
  });
});
