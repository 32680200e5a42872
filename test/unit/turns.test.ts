import { expect } from 'chai';
import { TurnQueue } from '../../src/base/turns.ts';
import { countTurns } from '../support/loop-turns.ts';

describe('TurnQueue', () => {
  it('gives each turn asked for a turn of the event loop of its own, in the order asked', async () => {
    const queue = new TurnQueue();
    const loop = countTurns();
    const got: { who: number; turn: number }[] = [];
    await Promise.all(
      Array.from({ length: 5 }, (_, who) => queue.next().then(() => void got.push({ who, turn: loop.now }))),
    );
    loop.stop();
    expect(got.map((g) => g.who)).to.deep.equal([0, 1, 2, 3, 4]);
    const turns = got.map((g) => g.turn);
    expect(turns.every((t, i) => i === 0 || t > turns[i - 1]!)).to.equal(true);
  });

  it('lets the loop poll for I/O between two turns it gives', async () => {
    const queue = new TurnQueue();
    const order: string[] = [];
    // a timer due at once fires in the loop's timers phase, as a socket's data in its poll: between two turns
    const stretches = Array.from({ length: 3 }, (_, i) =>
      queue.next().then(() => {
        order.push(`stretch ${i}`);
        if (i === 0) setTimeout(() => order.push('I/O'), 0);
        const until = performance.now() + 5;
        while (performance.now() < until); // a stretch of synchronous work, as a page's rendering
      }),
    );
    await Promise.all(stretches);
    expect(order.indexOf('I/O')).to.equal(1);
  });

  it('counts the turns asked for and not yet given', async () => {
    const queue = new TurnQueue();
    const given = [queue.next(), queue.next()];
    expect(queue.waiting).to.equal(2);
    await Promise.all(given);
    expect(queue.waiting).to.equal(0);
  });
});
