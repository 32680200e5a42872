/** @module canonicalQuantity and sameQuantity: a resource.Quantity written as the API server stores it. */
import { expect } from 'chai';
import { canonicalQuantity, sameQuantity } from '../../../src/operator/kube/canonical-quantity.ts';
import { CANONICAL } from '../api/canonical-quantities.ts';

describe('canonicalQuantity', () => {
  for (const [written, stored] of CANONICAL)
    it(`stores ${written} as ${stored} in a ResourceList`, () =>
      expect(canonicalQuantity(written, 'milli')).to.equal(stored));

  it('rounds up to a nano elsewhere (an emptyDir sizeLimit)', () => {
    expect(canonicalQuantity('0.1n')).to.equal('1n');
    expect(canonicalQuantity('0.5m')).to.equal('500u');
    expect(canonicalQuantity('0.5Gi')).to.equal('512Mi');
  });

  it('reads a number as its JSON, and keeps the sign', () => {
    expect(canonicalQuantity(2)).to.equal('2');
    expect(canonicalQuantity(0.25)).to.equal('250m');
    expect(canonicalQuantity('-0.5')).to.equal('-500m');
    expect(canonicalQuantity('+2')).to.equal('2');
  });

  it('caps at 2^63-1 units, as the API server does', () => {
    expect(canonicalQuantity('10E')).to.equal('9223372036854775807');
  });

  it('is undefined for what is no quantity', () => {
    for (const text of ['', 'half', '1.5e1.5', '1 Gi', '1GiB', '0x10', 'Mi'])
      expect(canonicalQuantity(text), text).to.equal(undefined);
  });
});

describe('sameQuantity', () => {
  it('is true for two spellings of one quantity, false for two quantities', () => {
    expect(sameQuantity('0.5', '500m')).to.equal(true);
    expect(sameQuantity('1024Mi', '1Gi')).to.equal(true);
    expect(sameQuantity(2, '2')).to.equal(true);
    expect(sameQuantity('0.5', '501m')).to.equal(false);
    expect(sameQuantity('1Gi', '1G')).to.equal(false);
    expect(sameQuantity('0.1m', '1m')).to.equal(false);
    expect(sameQuantity('0.1m', '1m', 'milli')).to.equal(true);
  });

  it('compares what is no quantity as it is', () => {
    expect(sameQuantity('half', 'half')).to.equal(true);
    expect(sameQuantity('half', 'HALF')).to.equal(false);
    expect(sameQuantity(undefined, '1')).to.equal(false);
    expect(sameQuantity({ a: 1 }, { a: 1 })).to.equal(false);
  });
});
