/** @module What a chunk read for some payloads covers: the live feed reads a chunk again when it does not. */
import { expect } from 'chai';
import { covers, NODE_PAYLOADS } from '../../../src/events/events-source.ts';

describe('covers', () => {
  it('holds when the read renders every payload wanted, and not when a wanted one was left out', () => {
    const all = { mdw: true, epochs: true };
    expect(covers(NODE_PAYLOADS, NODE_PAYLOADS)).to.equal(true);
    expect(covers(all, { mdw: true, epochs: false })).to.equal(true);
    expect(covers({ mdw: true, epochs: false }, all)).to.equal(false);
    expect(covers({ mdw: false, epochs: true }, { mdw: true, epochs: true })).to.equal(false);
    expect(covers(NODE_PAYLOADS, { mdw: false, epochs: true })).to.equal(false);
  });
});
