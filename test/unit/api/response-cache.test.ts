import { expect } from 'chai';
import { invalidatedFrom } from '../../../src/api/http/cache-invalidation.ts';
import { ResponseCache, type CachedAnswer } from '../../../src/api/http/response-cache.ts';

function answer(height: number, bytes = 100): CachedAnswer {
  return { body: Buffer.alloc(bytes, 0x61), etag: `"e${height}"`, height, route: '/v2/key-blocks/height/:height' };
}

describe('ResponseCache', () => {
  it('returns the stored answer, byte for byte, and counts hits', () => {
    const cache = new ResponseCache({ maxBytes: 10_000 });
    const stored = answer(5);
    expect(cache.set('/v2/a', stored, cache.ticket())).to.equal(true);
    expect(cache.get('/v2/a')?.body.equals(stored.body)).to.equal(true);
    expect(cache.get('/v2/b')).to.equal(undefined);
    cache.recordMiss();
    expect(cache.stats()).to.include({ entries: 1, hits: 1, misses: 1 });
  });

  it('never holds more bytes than its bound, dropping the oldest entries', () => {
    const cache = new ResponseCache({ maxBytes: 1000 });
    for (let h = 0; h < 20; h++) {
      cache.set(`/v2/k/${h}`, answer(h, 200), cache.ticket());
      expect(cache.stats().bytes).to.be.at.most(1000);
    }
    const { entries, evictions } = cache.stats();
    expect(entries).to.be.greaterThan(1);
    expect(evictions).to.equal(20 - entries);
    expect(cache.get('/v2/k/19')).to.not.equal(undefined);
    expect(cache.get('/v2/k/0')).to.equal(undefined);
  });

  it('keeps a recently read entry over an older one', () => {
    const cache = new ResponseCache({ maxBytes: 10_000, maxEntries: 2 });
    cache.set('/v2/old', answer(1), cache.ticket());
    cache.set('/v2/mid', answer(2), cache.ticket());
    cache.get('/v2/old');
    cache.set('/v2/new', answer(3), cache.ticket());
    expect(cache.get('/v2/mid')).to.equal(undefined);
    expect(cache.get('/v2/old')).to.not.equal(undefined);
    expect(cache.stats()).to.include({ entries: 2, evictions: 1 });
  });

  it('refuses an answer bigger than the whole cache', () => {
    const cache = new ResponseCache({ maxBytes: 500 });
    expect(cache.set('/v2/huge', answer(1, 1000), cache.ticket())).to.equal(false);
    expect(cache.stats()).to.include({ entries: 0, bytes: 0 });
  });

  it('invalidateFrom drops answers at and above the height, keeps those below', () => {
    const cache = new ResponseCache({ maxBytes: 10_000 });
    for (const h of [3, 4, 5, 6]) cache.set(`/v2/k/${h}`, answer(h), cache.ticket());
    cache.invalidateFrom(5);
    expect([3, 4, 5, 6].map((h) => cache.get(`/v2/k/${h}`) !== undefined)).to.deep.equal([true, true, false, false]);
    expect(cache.stats()).to.include({ entries: 2, invalidations: 2 });
    cache.clear();
    expect(cache.stats()).to.include({ entries: 0, bytes: 0, invalidations: 4 });
  });

  it('refuses an answer read before an invalidation that covers its height, accepts one below it', () => {
    const cache = new ResponseCache({ maxBytes: 10_000 });
    const ticket = cache.ticket();
    cache.invalidateFrom(10);
    expect(cache.set('/v2/k/12', answer(12), ticket)).to.equal(false);
    expect(cache.set('/v2/k/9', answer(9), ticket)).to.equal(true);
    const beforeClear = cache.ticket();
    cache.clear();
    expect(cache.set('/v2/k/1', answer(1), beforeClear)).to.equal(false);
    expect(cache.set('/v2/k/1', answer(1), cache.ticket())).to.equal(true);
  });

  it('refuses an answer whose read outlived more invalidations than it remembers', () => {
    const cache = new ResponseCache({ maxBytes: 10_000 });
    const ticket = cache.ticket();
    for (let i = 0; i < 100; i++) cache.invalidateFrom(1000 + i);
    expect(cache.set('/v2/k/1', answer(1), ticket)).to.equal(false);
  });

  it('while suspended is empty and stores nothing; after resume it refuses reads begun while suspended and stores new ones', () => {
    const cache = new ResponseCache({ maxBytes: 10_000 });
    cache.set('/v2/a', answer(1), cache.ticket());
    const beforeLost = cache.ticket();
    cache.suspend();
    expect(cache.get('/v2/a')).to.equal(undefined);
    expect(cache.set('/v2/a', answer(1), cache.ticket())).to.equal(false);
    const whileLost = cache.ticket();
    cache.resume();
    expect(cache.set('/v2/a', answer(1), beforeLost)).to.equal(false);
    expect(cache.set('/v2/a', answer(1), whileLost)).to.equal(false);
    expect(cache.stats()).to.include({ entries: 0, invalidations: 1 });
    expect(cache.set('/v2/a', answer(1), cache.ticket())).to.equal(true);
    expect(cache.get('/v2/a')).to.not.equal(undefined);
  });
});

describe('ResponseCache.encodedBody', () => {
  const double = (body: Buffer): Buffer => Buffer.concat([body, body]);

  it('encodes once per encoding, keeps it with the entry and counts its bytes', () => {
    const cache = new ResponseCache({ maxBytes: 10_000 });
    cache.set('/a', answer(5, 100), cache.ticket());
    const before = cache.stats().bytes;
    let calls = 0;
    const encode = (body: Buffer): Buffer => {
      calls++;
      return double(body);
    };
    const first = cache.encodedBody('/a', cache.get('/a')!, 'gzip', encode);
    const again = cache.encodedBody('/a', cache.get('/a')!, 'gzip', encode);
    expect(again).to.equal(first);
    expect(first.length).to.equal(200);
    expect(calls).to.equal(1);
    expect(cache.stats().bytes).to.equal(before + 200);
    cache.encodedBody('/a', cache.get('/a')!, 'br', encode);
    expect(calls).to.equal(2);
  });

  it('stays within its bound when encoded bodies grow an entry, dropping the oldest', () => {
    const cache = new ResponseCache({ maxBytes: 700 });
    cache.set('/old', answer(1, 100), cache.ticket());
    cache.set('/new', answer(2, 100), cache.ticket());
    cache.encodedBody('/new', cache.get('/new')!, 'gzip', (b) => Buffer.concat([b, b, b]));
    expect(cache.stats().bytes).to.be.at.most(700);
    expect(cache.get('/old')).to.equal(undefined);
    expect(cache.get('/new')).to.not.equal(undefined);
  });

  it('encodes an answer no longer stored without keeping it', () => {
    const cache = new ResponseCache({ maxBytes: 10_000 });
    cache.set('/a', answer(5, 100), cache.ticket());
    const held = cache.get('/a')!;
    cache.invalidateFrom(5);
    expect(cache.encodedBody('/a', held, 'gzip', double).length).to.equal(200);
    expect(cache.stats()).to.include({ entries: 0, bytes: 0 });
  });
});

describe('invalidatedFrom(notification)', () => {
  it('is the rollback height when there is one, else the first written height', () => {
    expect(invalidatedFrom({ from: 50, to: 60, rollbackFrom: 40 })).to.equal(40);
    expect(invalidatedFrom({ from: 61, to: 70 })).to.equal(61);
    expect(invalidatedFrom({ from: 20, to: 70, rollbackFrom: 30 })).to.equal(20);
  });
});
