/** @module The pure parts of API keys: key text, ids, tiers and keys files, route costs, the RateLimit fields. */
import { expect } from 'chai';
import { apikeyParameter, keyIdOf, keySha256, newKey, presentedKey } from '../../../../src/api/quota/key-text.ts';
import { parseKeysFile } from '../../../../src/api/quota/keys-file.ts';
import { policyField, rateLimitField } from '../../../../src/api/quota/ratelimit-fields.ts';
import { routeCost } from '../../../../src/api/quota/route-cost.ts';
import { QuotaBook } from '../../../../src/api/quota/quota-book.ts';
import { DEFAULT_TIERS, parseTiers } from '../../../../src/api/quota/tiers.ts';

describe('API key text', () => {
  it('makes keys of 256 random bits, stores their SHA-256, and names them by an id of that hash alone', () => {
    const key = newKey();
    expect(key).to.match(/^mdw_[A-Za-z0-9_-]{43}$/);
    expect(newKey()).not.to.equal(key);
    // the SHA-256 of "abc" (FIPS 180-2's example)
    expect(keySha256('abc').toString('hex')).to.equal(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    const id = keyIdOf(keySha256(key));
    expect(id).to.match(/^key_[0-9a-f]{16}$/);
    expect(keyIdOf(keySha256(key))).to.equal(id);
    expect(keySha256(key).toString('hex')).not.to.contain(id.slice(4));
  });

  it('reads the key from X-API-Key, else apikey=, an empty one being none', () => {
    expect(presentedKey('mdw_a', 'mdw_b')).to.equal('mdw_a');
    expect(presentedKey(['mdw_a', 'mdw_c'], undefined)).to.equal('mdw_a');
    expect(presentedKey(undefined, 'mdw_b')).to.equal('mdw_b');
    expect(presentedKey(' ', '')).to.equal(undefined);
    expect(presentedKey(undefined, undefined)).to.equal(undefined);
    expect(apikeyParameter('/v2/status?x=1&apikey=mdw_b%2B')).to.equal('mdw_b+');
    expect(apikeyParameter('/v2/status')).to.equal(undefined);
  });
});

describe('parseTiers and parseKeysFile', () => {
  it('reads tiers, anonymous required, every limit a whole number, naming each problem', () => {
    const text = JSON.stringify(Object.fromEntries(DEFAULT_TIERS.map(({ name, ...limits }) => [name, limits])));
    expect(parseTiers(text)).to.deep.equal(DEFAULT_TIERS);
    expect(parseTiers('{"free": {"requestsPerSecond": -1, "requestsPerDay": 1.5, "burst": 3}}')).to.deep.equal({
      problems: [
        'free.burst: unknown (requestsPerSecond, requestsPerDay, websocketConnections, subscriptions, exports)',
        'free.requestsPerSecond: expected a whole number ≥ 0, got -1',
        'free.requestsPerDay: expected a whole number ≥ 0, got 1.5',
        'free.websocketConnections: expected a whole number ≥ 0, got undefined',
        'free.subscriptions: expected a whole number ≥ 0, got undefined',
        'free.exports: expected a whole number ≥ 0, got undefined',
        'the tier anonymous is missing',
      ],
    });
    expect(parseTiers('[')).to.have.property('problems').with.length(1);
  });

  it('reads a keys file of keys or their hashes, each of a configured tier, the same key once', () => {
    const tiers = new Set(['anonymous', 'pro']);
    const hash = keySha256('mdw_given_as_a_hash_0001');
    const keys = parseKeysFile(
      JSON.stringify([
        { name: 'a', tier: 'pro', key: 'mdw_given_as_text_00001' },
        { name: 'b', tier: 'pro', sha256: hash.toString('hex') },
      ]),
      tiers,
    );
    expect(keys).to.deep.equal([
      {
        id: keyIdOf(keySha256('mdw_given_as_text_00001')),
        keySha256: keySha256('mdw_given_as_text_00001'),
        name: 'a',
        tier: 'pro',
      },
      { id: keyIdOf(hash), keySha256: hash, name: 'b', tier: 'pro' },
    ]);
    expect(
      parseKeysFile(
        JSON.stringify([
          { name: 'a', tier: 'gold', key: 'short' },
          { name: 'b', tier: 'pro', key: 'mdw_given_as_text_00001' },
          { name: 'c', tier: 'pro', key: 'mdw_given_as_text_00001' },
        ]),
        tiers,
      ),
    ).to.deep.equal({
      problems: [
        '[0].tier: expected one of anonymous, pro, got "gold"',
        '[0]: expected either "key" (16 to 256 characters) or "sha256" (64 hex digits)',
        '[2]: the same key as an entry before it',
      ],
    });
  });
});

describe('routeCost', () => {
  it('counts a plain request 1, a limit per 100 and a deep page per 10 pages', () => {
    expect(routeCost({})).to.equal(1);
    expect(routeCost({ limit: '100' })).to.equal(1);
    expect(routeCost({ limit: '1000', page: '25' })).to.equal(12);
    // what is no whole number counts nothing more (the route refuses it)
    expect(routeCost({ limit: '1e9', page: ['20', '1'] })).to.equal(3);
  });
});

describe('RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers-10)', () => {
  it("are structured-field lists of the tier's windows: quota and window, remaining and reset", () => {
    const tier = DEFAULT_TIERS[1]!;
    expect(policyField(tier)).to.equal('"second";q=25;w=1, "day";q=100000;w=86400');
    const { windows } = new QuotaBook().take('key_a', tier, 3, Date.UTC(2026, 0, 1, 23, 59, 59, 500));
    expect(rateLimitField(windows)).to.equal('"second";r=22;t=1, "day";r=99997;t=1');
  });
});
