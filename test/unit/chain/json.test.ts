import { expect } from 'chai';
import { parseJson, stringifyJson, toBigInt, toSafeNumber } from '../../../src/chain/json.ts';

describe('chain/json', () => {
  it('keeps integers beyond 2^53 digit for digit through parse and stringify', () => {
    const text =
      '{"nonce":15041902164601590529,"fee":19320000000000,"salt":115792089237316195423570985008687907853269984665640564039457584007913129639935,"neg":-9007199254740993,"f":1.5}';
    const value = parseJson(text) as Record<string, unknown>;
    expect(value.nonce).to.equal(15041902164601590529n);
    expect(value.fee).to.equal(19320000000000);
    expect(value.neg).to.equal(-9007199254740993n);
    expect(stringifyJson(value)).to.equal(text);
  });

  it('converts integer fields and refuses lossy narrowing', () => {
    expect(toBigInt('18446744073709551615')).to.equal(18446744073709551615n);
    expect(toBigInt(7)).to.equal(7n);
    expect(() => toBigInt('1e3')).to.throw(TypeError);
    expect(toSafeNumber(12n)).to.equal(12);
    expect(() => toSafeNumber(2n ** 60n)).to.throw(RangeError);
  });
});
