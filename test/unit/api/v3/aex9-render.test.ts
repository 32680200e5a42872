/**
 * @module The one AEX-9 integer that may be negative, written so that the SDK's client reads it (its reading through
 * the SDK against a served token: test/integration/v3/aex9-state.test.ts).
 */
import { expect } from 'chai';
import { readableNegative } from '../../../../src/shapes/v3/render-aex9.ts';

describe('AEX-9 answers the SDK can read', () => {
  it('writes an integer below -(2^53 - 1) as its text, any other as an integer', () => {
    const floor = -BigInt(Number.MAX_SAFE_INTEGER);
    expect(readableNegative(floor)).to.equal(floor);
    expect(readableNegative(floor - 1n)).to.equal((floor - 1n).toString());
    expect(readableNegative(-(10n ** 24n))).to.equal('-1000000000000000000000000');
    expect(readableNegative(10n ** 30n)).to.equal(10n ** 30n);
  });
});
