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

  it('parses and writes alike with and without an integer beyond 2^53 in the text', () => {
    // 16 digits: the first length that can be unsafe; a safe one stays a number either way
    expect(parseJson('{"a":9007199254740991,"b":"1234567890123456"}')).to.deep.equal({
      a: 9007199254740991,
      b: '1234567890123456',
    });
    expect(parseJson('[9007199254740993, 1e20, 1.5, -12]')).to.deep.equal([9007199254740993n, 1e20, 1.5, -12]);
    expect(parseJson('{"x":[1,2,{"y":null}]}')).to.deep.equal({ x: [1, 2, { y: null }] });
    expect(stringifyJson({ a: 1, b: [true, 'x'] })).to.equal('{"a":1,"b":[true,"x"]}');
    expect(stringifyJson({ a: 1, b: [2n ** 64n, 'x'] })).to.equal('{"a":1,"b":[18446744073709551616,"x"]}');
    expect(stringifyJson({ a: 1n }, 2)).to.equal('{\n  "a": 1\n}');
    const circular: { self?: unknown } = {};
    circular.self = circular;
    expect(() => stringifyJson(circular)).to.throw(TypeError);
  });

  it('converts integer fields and refuses lossy narrowing', () => {
    expect(toBigInt('18446744073709551615')).to.equal(18446744073709551615n);
    expect(toBigInt(7)).to.equal(7n);
    expect(() => toBigInt('1e3')).to.throw(TypeError);
    expect(toSafeNumber(12n)).to.equal(12);
    expect(() => toSafeNumber(2n ** 60n)).to.throw(RangeError);
  });
});
