/** @module countedCache: an LRU cache bounded by its number of entries. */
import { expect } from 'chai';
import { countedCache } from '../../src/base/counted-cache.ts';

describe('countedCache', () => {
  it('keeps at most its number of entries, dropping the least recently used first', () => {
    const cache = countedCache<string, number>(3);
    for (const [i, key] of ['a', 'b', 'c'].entries()) cache.set(key, i);
    expect(cache.get('a')).to.equal(0); // used: 'b' is now the least recently used
    cache.set('d', 3);
    expect([...cache.keys()].sort()).to.deep.equal(['a', 'c', 'd']);
    cache.set('e', 4);
    cache.set('f', 5);
    expect(cache.size).to.equal(3);
    expect([...cache.keys()].sort()).to.deep.equal(['d', 'e', 'f']);
  });

  it('holds as many entries as it was made for, not fewer', () => {
    const cache = countedCache<number, number>(1000);
    for (let i = 0; i < 1500; i++) cache.set(i, i);
    expect(cache.size).to.equal(1000);
    expect(cache.get(499)).to.equal(undefined);
    expect(cache.get(500)).to.equal(500);
  });
});
