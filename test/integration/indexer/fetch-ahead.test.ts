/** @module FetchAhead: one stream of heights; each batch is cut from its front, the rest is fetched meanwhile, once. */
import { expect } from 'chai';
import type { Devnode } from '../../../src/devnode/index.ts';
import { FetchAhead } from '../../../src/indexer/sync/fetch-ahead.ts';
import { fetchGenerations } from '../../../src/indexer/sync/fetch.ts';
import { NodeClient, type JsonObject } from '../../../src/node/client.ts';
import { silent } from './support/harness.ts';
import { startGeneratedDevnode } from '../../support/devnode.ts';

/** RecordingClient notes the order in which generations are asked for, and fails `failOnce` the next time it is. */
class RecordingClient extends NodeClient {
  readonly asked: number[] = [];
  failOnce: number | undefined;
  override generation(height: number): Promise<JsonObject> {
    this.asked.push(height);
    if (height === this.failOnce) {
      this.failOnce = undefined;
      return Promise.reject(new Error('node hiccup'));
    }
    return super.generation(height);
  }
}

describe('FetchAhead', () => {
  let devnode: Devnode;
  let answers = 0;
  const counted = (): RecordingClient =>
    new RecordingClient({ url: devnode.externalUrl, timeoutMs: 5000, onAnswer: () => answers++ }, silent);
  const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 300));
  const txs = (g: { microBlocks: readonly { transactions: readonly unknown[] }[] }): number =>
    g.microBlocks.reduce((n, m) => n + m.transactions.length, 0);
  before(async () => {
    devnode = await startGeneratedDevnode({ generations: 40, seed: 'ahead' });
  });
  after(() => devnode.stop());

  it('hands the next batch what it fetched ahead, equal to a fresh fetch, without asking the node again', async () => {
    const heights = Array.from({ length: 41 }, (_, i) => i);
    const node = counted();
    const ahead = new FetchAhead(node, 20);
    const first = await ahead.fetch(heights, 4, 25);
    expect(first.map((g) => g.height)).to.deep.equal(first.map((_, i) => i));
    expect(first.reduce((n, g) => n + txs(g), 0)).to.be.at.most(25);
    // fetched ahead: heights after `first` up to 20 at least (the last 20 of the 41 are within the margin, which a
    // fast start may have begun while the first batch was cut); the follower asks next from where the batch ended
    await settle();
    const askedAhead = new Set(node.asked);
    expect(
      [...heights.slice(first.length, 21)].every((h) => askedAhead.has(h)),
      'fetched ahead',
    ).to.equal(true);
    const second = await ahead.fetch(heights.slice(first.length), 4, 25);
    await settle();
    expect(
      second.every((g) => askedAhead.has(g.height)),
      'the second batch came from what was fetched ahead',
    ).to.equal(true);
    expect(new Set(node.asked).size, 'no height asked twice').to.equal(node.asked.length);
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

  it('asks for the next batch’s heights before the current batch is handed out, each height once', async () => {
    const node = counted();
    const ahead = new FetchAhead(node, 0);
    const heights = Array.from({ length: 41 }, (_, i) => i);
    const handed: number[] = [];
    let first = { length: 0, asked: 0 };
    for (let from = 0; from <= 40;) {
      const batch = await ahead.fetch(heights.slice(from), 4, 30);
      if (from === 0) first = { length: batch.length, asked: node.asked.length };
      handed.push(...batch.map((g) => g.height));
      from += batch.length;
    }
    expect(handed).to.deep.equal(heights);
    expect(first.length).to.be.below(41);
    expect(first.asked, 'heights after the first batch were asked for before it was handed out').to.be.greaterThan(
      first.length,
    );
    expect(new Set(node.asked).size, 'no height asked twice').to.equal(node.asked.length);
    expect([...node.asked].sort((a, b) => a - b)).to.deep.equal(heights);
  });

  it('ends a batch before a height that failed, and fetches that height again when asked for', async () => {
    const node = counted();
    node.failOnce = 5;
    const ahead = new FetchAhead(node, 0);
    const heights = Array.from({ length: 11 }, (_, i) => i);
    const first = await ahead.fetch(heights, 4, Infinity);
    expect(first.map((g) => g.height)).to.deep.equal([0, 1, 2, 3, 4]);
    const rest = await ahead.fetch(heights.slice(5), 4, Infinity);
    expect(rest.map((g) => g.height)).to.deep.equal([5, 6, 7, 8, 9, 10]);
    node.failOnce = 5;
    await ahead.fetch([20], 4, Infinity); // a new stream
    let thrown: unknown;
    await ahead.fetch([5, 6], 4, Infinity).catch((e: unknown) => (thrown = e));
    expect((thrown as Error).message, 'the first height failed: the call fails').to.equal('node hiccup');
    expect((await ahead.fetch([5, 6], 4, Infinity)).map((g) => g.height)).to.deep.equal([5, 6]);
    expect(
      node.asked.every((h) => Number.isInteger(h)),
      'only heights asked for',
    ).to.equal(true);
  });

  it('hands a retried step what it handed out, and the batch prepared ahead, without asking the node again', async () => {
    const node = counted();
    const ahead = new FetchAhead(node, 0);
    const heights = Array.from({ length: 41 }, (_, i) => i);
    const first = await ahead.fetch(heights, 4, 30);
    const next = await ahead.fetch(heights.slice(first.length), 4, 30);
    // the step of `first` failed (its write) once `next` was prepared: the follower asks for its heights again
    const again = await ahead.fetch(heights, 4, 30);
    expect(again, 'the same generations').to.deep.equal(first);
    expect(await ahead.fetch(heights.slice(first.length), 4, 30)).to.deep.equal(next);
    const handed = [...again, ...next].map((g) => g.height);
    for (let from = handed.length; from <= 40;) {
      const batch = await ahead.fetch(heights.slice(from), 4, 30);
      handed.push(...batch.map((g) => g.height));
      from += batch.length;
    }
    expect(handed).to.deep.equal(heights);
    expect(
      [...node.asked].sort((a, b) => a - b),
      'each height asked once',
    ).to.deep.equal(heights);
  });

  it('keeps what was handed out until it is written, and nothing above a fork', async () => {
    const node = counted();
    const ahead = new FetchAhead(node, 0);
    const heights = Array.from({ length: 21 }, (_, i) => i);
    const first = await ahead.fetch(heights, 4, 60);
    expect(first.length).to.be.greaterThan(2);
    await ahead.fetch(heights.slice(first.length), 4, 60);
    ahead.written(first.at(-1)!.height);
    let asked = node.asked.length;
    expect(await ahead.fetch(heights, 4, 60)).to.have.length(first.length);
    const sorted = (from: number) => node.asked.slice(from).sort((a, b) => a - b);
    expect(sorted(asked).slice(0, first.length), 'written: asked again').to.deep.equal(first.map((g) => g.height));
    // a fork from height 2: what is kept from there up is the old chain's
    ahead.forget(2);
    asked = node.asked.length;
    const afterFork = await ahead.fetch(heights, 4, 60);
    expect(afterFork.map((g) => g.height)).to.deep.equal(first.map((g) => g.height));
    expect(sorted(asked)[0], 'asked again from the fork').to.equal(2);
    expect(afterFork.slice(0, 2), 'kept below the fork').to.deep.equal(first.slice(0, 2));
  });

  it('asks a retry again for what it fetched within the margin of the node’s top, and keeps nothing above a lower top', async () => {
    const node = counted();
    const heights = Array.from({ length: 11 }, (_, i) => 30 + i);
    const near = new FetchAhead(node, 5);
    near.nodeTop(40);
    await near.fetch(heights, 4, Infinity);
    let asked = node.asked.length;
    // the step failed: 30..35 are handed out again, 36..40 (within 5 of the top) asked again
    expect((await near.fetch(heights, 4, Infinity)).map((g) => g.height)).to.deep.equal(heights);
    expect(node.asked.slice(asked).sort((a, b) => a - b)).to.deep.equal([36, 37, 38, 39, 40]);
    const lower = new FetchAhead(node, 0);
    lower.nodeTop(40);
    await lower.fetch(heights, 4, Infinity);
    // the top went down to 33 while the step failed: 30..33 are handed out again, nothing asked
    lower.nodeTop(33);
    asked = node.asked.length;
    expect((await lower.fetch([30, 31, 32, 33], 4, Infinity)).map((g) => g.height)).to.deep.equal([30, 31, 32, 33]);
    expect(node.asked.length).to.equal(asked);
    // 34..40 were dropped: the top back at 40, they are asked again
    lower.written(33);
    lower.nodeTop(40);
    expect((await lower.fetch(heights.slice(4), 4, Infinity)).map((g) => g.height)).to.deep.equal(heights.slice(4));
    expect(node.asked.slice(asked).sort((a, b) => a - b)).to.deep.equal(heights.slice(4));
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
