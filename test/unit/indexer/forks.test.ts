/** @module Fork planning and verify's comparison: pure parts. */
import { expect } from 'chai';
import { classifyTopMicroBlocks, linkBreak, lowestMismatch } from '../../../src/indexer/sync/forks.ts';
import {
  canonical,
  compareGeneration,
  openTop,
  type StoredGeneration,
} from '../../../src/indexer/maintenance/verify.ts';
import type { FetchedGeneration } from '../../../src/indexer/rows/rows.ts';
import { droppedBlocks } from '../../../src/indexer/sync/reorg-log.ts';

function fetched(
  height: number,
  prevKey: string,
  prev: string,
  micro: { hash: string; txs: string[] }[] = [],
): FetchedGeneration {
  return {
    height,
    keyBlock: { hash: `kh_${height}`, height, prev_key_hash: prevKey, prev_hash: prev, nonce: 2n ** 64n - 1n },
    microBlocks: micro.map((m) => ({
      header: { hash: m.hash },
      transactions: m.txs.map((t) => ({ hash: t, tx: { type: 'SpendTx', fee: 1 }, signatures: ['sg_1'] })),
    })),
    callInfos: new Map(),
    decodedCalls: new Map(),
  };
}

describe('lowestMismatch(stored, node)', () => {
  it('finds the lowest differing height, treating a missing node block as a difference', () => {
    const stored = [
      { height: 12, hash: 'c' },
      { height: 11, hash: 'b' },
      { height: 10, hash: 'a' },
    ];
    expect(lowestMismatch(stored, ['c', 'b', 'a'])).to.equal(undefined);
    expect(lowestMismatch(stored, ['x', 'y', 'a'])).to.equal(11);
    expect(lowestMismatch(stored, [null, 'b', 'a'])).to.equal(12);
  });
});

describe('classifyTopMicroBlocks(stored, node)', () => {
  it('calls equal lists the same, including an empty generation', () => {
    expect(classifyTopMicroBlocks([], [])).to.equal('same');
    expect(classifyTopMicroBlocks(['mh_1', 'mh_2'], ['mh_1', 'mh_2'])).to.equal('same');
  });
  it('calls new micro blocks after every stored one growth, not a fork', () => {
    expect(classifyTopMicroBlocks([], ['mh_1'])).to.equal('grew');
    expect(classifyTopMicroBlocks(['mh_1'], ['mh_1', 'mh_2', 'mh_3'])).to.equal('grew');
  });
  it('calls a stored micro block that is replaced, dropped or moved a fork', () => {
    expect(classifyTopMicroBlocks(['mh_1', 'mh_2'], ['mh_1', 'mh_x'])).to.equal('forked');
    expect(classifyTopMicroBlocks(['mh_1', 'mh_2'], ['mh_1', 'mh_x', 'mh_2'])).to.equal('forked');
    expect(classifyTopMicroBlocks(['mh_1', 'mh_2'], ['mh_1'])).to.equal('forked');
    expect(classifyTopMicroBlocks(['mh_1'], [])).to.equal('forked');
    expect(classifyTopMicroBlocks(['mh_1', 'mh_2'], ['mh_2', 'mh_1'])).to.equal('forked');
  });
});

describe('linkBreak(gen, prev)', () => {
  const prev = { height: 9, keyHash: 'kh_9', lastMicroHash: 'mh_2' };
  it('accepts a generation that points at the previous key block and its last micro block', () => {
    expect(linkBreak(fetched(10, 'kh_9', 'mh_2'), prev)).to.equal(undefined);
    expect(linkBreak(fetched(10, 'kh_9', 'kh_9'), { ...prev, lastMicroHash: null })).to.equal(undefined);
  });
  it('reports the previous height when the key block or the micro-block tail differs', () => {
    expect(linkBreak(fetched(10, 'kh_X', 'mh_2'), prev)).to.equal(9);
    expect(linkBreak(fetched(10, 'kh_9', 'mh_1'), prev)).to.equal(9);
  });
  it('ignores generations that are not adjacent', () => {
    expect(linkBreak(fetched(12, 'kh_X', 'mh_1'), prev)).to.equal(undefined);
  });
});

describe('compareGeneration(db, node, full)', () => {
  const node = fetched(10, 'kh_9', 'mh_b', [
    { hash: 'mh_a', txs: ['th_1', 'th_2'] },
    { hash: 'mh_b', txs: [] },
  ]);
  const stored = (): StoredGeneration => ({
    height: 10,
    keyBlock: { ...node.keyBlock },
    microBlocks: node.microBlocks.map((m) => ({
      hash: String(m.header.hash),
      header: m.header,
      txs: m.transactions.map((t) => ({ hash: String(t.hash), tx: t.tx as never, signatures: ['sg_1'] })),
    })),
  });

  it('reports nothing for an equal height, whatever the key order', () => {
    const db: { -readonly [K in keyof StoredGeneration]: StoredGeneration[K] } = stored();
    db.keyBlock = { nonce: 2n ** 64n - 1n, prev_hash: 'mh_b', prev_key_hash: 'kh_9', height: 10, hash: 'kh_10' };
    expect(compareGeneration(db, node, true)).to.deep.equal([]);
  });

  it('reports each difference on its own line', () => {
    const db = stored();
    (db as { keyBlock: object }).keyBlock = { ...db.keyBlock, hash: 'kh_other' };
    (db.microBlocks[0]!.txs as unknown[]).pop();
    expect(compareGeneration(db, node, false)).to.deep.equal([
      'height 10: key block hash differs: db kh_other node kh_10',
      'height 10: micro block mh_a transaction count differs: db 1 node 2',
      'height 10: micro block mh_a transaction 1 differs: db (none) node th_2',
    ]);
  });

  it('with full, reports a changed stored object', () => {
    const db = stored();
    (db.microBlocks[0]!.txs[0] as { tx: object }).tx = { type: 'SpendTx', fee: 2 };
    expect(compareGeneration(db, node, false)).to.deep.equal([]);
    expect(compareGeneration(db, node, true)).to.deep.equal(['height 10: transaction th_1 content differs']);
  });

  // issue 79: a populator stopped inside an open generation, the node adding micro blocks after
  it('tells a generation stored while open, of which the node has more now, from one that differs', () => {
    const db = stored();
    expect(openTop(db, node)).to.equal(undefined);
    (db.microBlocks as unknown[]).pop();
    expect(openTop(db, node)).to.deep.equal({ height: 10, stored: 1, node: 2 });
    (db.microBlocks as unknown[]).pop();
    expect(openTop(db, node)).to.deep.equal({ height: 10, stored: 0, node: 2 });
    const other = stored();
    (other.microBlocks as unknown[]).shift();
    expect(openTop(other, node), 'not the first of the node’s').to.equal(undefined);
    (other as { keyBlock: object }).keyBlock = { ...other.keyBlock, hash: 'kh_other' };
    (other.microBlocks as unknown[]).length = 0;
    expect(openTop(other, node), 'another key block').to.equal(undefined);
  });

  it('canonicalises big integers exactly', () => {
    expect(canonical({ b: 2n ** 70n, a: [1] })).to.equal('{"a":[1],"b":1180591620717411303424}');
  });
});

describe('droppedBlocks(before, written)', () => {
  const before = [
    { height: 10, hash: 'kh_10' },
    { height: 10, hash: 'mh_a' },
    { height: 10, hash: 'mh_b' },
    { height: 11, hash: 'kh_11x' },
    { height: 11, hash: 'mh_c' },
  ];

  it('lists, in chain order, the blocks stored before that the written generations do not hold', () => {
    // generation 10 kept its key block and first micro block; 11 is another key block with no micro block
    const written = [
      fetched(10, 'kh_9', 'kh_9', [
        { hash: 'mh_a', txs: [] },
        { hash: 'mh_z', txs: [] },
      ]),
    ];
    expect(droppedBlocks(before, written)).to.deep.equal([
      { height: 10, hash: 'mh_b' },
      { height: 11, hash: 'kh_11x' },
      { height: 11, hash: 'mh_c' },
    ]);
  });

  it('drops nothing when the same blocks are written again (a reload that found no fork)', () => {
    const written = [
      fetched(10, 'kh_9', 'kh_9', [
        { hash: 'mh_a', txs: [] },
        { hash: 'mh_b', txs: [] },
      ]),
      { ...fetched(11, 'kh_10', 'mh_b', [{ hash: 'mh_c', txs: [] }]), keyBlock: { hash: 'kh_11x', height: 11 } },
    ];
    expect(droppedBlocks(before, written)).to.deep.equal([]);
  });
});
