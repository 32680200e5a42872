/** @module FetchAhead: the next batch's generations are fetched while the current one is handled, once. */
import { expect } from 'chai';
import { startDevnode, type Devnode } from '../../../src/devnode/index.ts';
import { FetchAhead } from '../../../src/indexer/fetch-ahead.ts';
import { fetchGenerations } from '../../../src/indexer/fetch.ts';
import { NodeClient } from '../../../src/node/client.ts';
import { silent } from './support/harness.ts';

describe('FetchAhead', () => {
  let devnode: Devnode;
  let answers = 0;
  const counted = (): NodeClient =>
    new NodeClient({ url: devnode.externalUrl, timeoutMs: 5000, onAnswer: () => answers++ }, silent);
  const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 300));
  before(async () => {
    devnode = await startDevnode(
      { port: 0, internalPort: 0, mine: false, microBlockIntervalMs: 0, generate: { generations: 40, seed: 'ahead' } },
      silent,
    );
  });
  after(() => devnode.stop());

  it('hands the next batch what it fetched ahead, equal to a fresh fetch, without asking the node again', async () => {
    const heights = Array.from({ length: 41 }, (_, i) => i);
    // one transaction a batch: a few generations each (those started before the first arrived)
    const ahead = new FetchAhead(counted(), 20);
    const first = await ahead.fetch(heights, 4, 1);
    // fetched ahead: heights after `first` up to 20 (the last 20 of the 41 are within the margin)
    const next = heights.slice(first.length, 21);
    await settle();
    const before = answers;
    const second = await ahead.fetch(next, 4, 1);
    await settle();
    expect(answers - before, 'the second batch came from what was fetched ahead').to.equal(0);
    expect(second[0]!.height).to.equal(first.length);
    const fresh = await fetchGenerations(
      new NodeClient({ url: devnode.externalUrl, timeoutMs: 5000 }, silent),
      second.map((g) => g.height),
      4,
    );
    expect(second.map((g) => g.keyBlock.hash)).to.deep.equal(fresh.map((g) => g.keyBlock.hash));
    expect(second.map((g) => g.microBlocks.map((m) => m.transactions.length))).to.deep.equal(
      fresh.map((g) => g.microBlocks.map((m) => m.transactions.length)),
    );
  });

  it('fetches nothing ahead within the margin, and afresh when asked for other heights (a fork moved the sync)', async () => {
    const ahead = new FetchAhead(counted(), 10);
    const gens = await ahead.fetch([30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40], 4, 1);
    expect(gens[0]!.height).to.equal(30);
    await settle();
    const settled = answers;
    await settle();
    expect(answers, 'nothing fetched ahead').to.equal(settled);
    const again = await ahead.fetch([20, 21], 4, Infinity);
    expect(again.map((g) => g.height)).to.deep.equal([20, 21]);
    expect(answers).to.be.greaterThan(settled);
  });
});
