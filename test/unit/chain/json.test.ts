import { expect } from 'chai';
import { isDeepStrictEqual } from 'node:util';
import {
  jsonEqual,
  parseJson,
  parseJsonMember,
  stringifyJson,
  toBigInt,
  toSafeNumber,
  withSortedKeys,
  type Json,
} from '../../../src/chain/json.ts';

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

  it('parses exactly what the reviver parse gives, long integers inside strings and look-alike strings included', () => {
    const exact = (text: string): unknown =>
      JSON.parse(text, (_k, v: unknown, ctx?: { source?: string }) =>
        typeof v === 'number' && !Number.isSafeInteger(v) && /^-?\d+$/.test(ctx?.source ?? '')
          ? BigInt(ctx!.source!)
          : v,
      );
    const texts = [
      '{"a":999999999999999,"b":"x"}',
      '{"a":9007199254740993,"safe":9007199254740991,"sixteen":1000000000000000}',
      '{"a":-18446744073709551615,"f":1.5,"g":1.2345678901234567,"e":1e1234567890123456}',
      // a long digit run inside a string (a payload, an oracle query) is text, never a number
      '{"q":"x1234567890123456789y","r":"a:1234567890123456789,b","n":12345678901234567890}',
      '{"s":"\\"12345678901234567890","t":["#12345678901234567890"],"n":12345678901234567890}',
      // a string shaped like parseJson's own mark stays a string
      '{"s":"#12345678901234567","n":12345678901234567}',
      '[12345678901234567890,[{"deep":-99999999999999999999}]]',
      // whitespace wherever JSON allows it, and a long integer as the whole text
      '{ "a" :\n\t 12345678901234567890 , "b" : [ 1 ,\r\n -12345678901234567890 ] }',
      '[\n12345678901234567890\n]',
      '12345678901234567890',
      ' -12345678901234567890 ',
      '9007199254740993',
    ];
    for (const text of texts) expect(parseJson(text), text).to.deep.equal(exact(text));
  });

  it('keeps an own "__proto__" key as data, never as the prototype', () => {
    const value = parseJson('{"__proto__":12345678901234567890,"a":1}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).to.equal(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).to.equal(12345678901234567890n);
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
    // nested deeper than the walk looks for bigints: written all the same, a bigint at the bottom bare
    const deep = (leaf: unknown): unknown => Array.from({ length: 100 }).reduce((inner) => ({ a: [inner] }), leaf);
    expect(stringifyJson(deep(7))).to.equal(JSON.stringify(deep(7)));
    expect(stringifyJson(deep(2n ** 64n))).to.equal(JSON.stringify(deep(7)).replace('7', '18446744073709551616'));
    // a bigint behind a toJSON is written bare too
    expect(stringifyJson({ a: { toJSON: () => 2n ** 64n } })).to.equal('{"a":18446744073709551616}');
  });

  it('writes the bigints of a value without changing the value, and as the replacer would', () => {
    const shared = { amount: 10n ** 20n, fee: 16_840_000_000_000 };
    const page = {
      data: [
        { tx: shared, n: -(2n ** 70n) },
        { tx: shared, list: [1, 2n ** 53n + 1n, 'x'] },
      ],
      next: null,
    };
    const before = structuredClone(page);
    const replacer = (_k: string, v: unknown): unknown => (typeof v === 'bigint' ? JSON.rawJSON(v.toString()) : v);
    expect(stringifyJson(page)).to.equal(JSON.stringify(page, replacer));
    expect(stringifyJson(page, 2)).to.equal(JSON.stringify(page, replacer, 2));
    expect(page).to.deep.equal(before);
    expect(page.data[0]!.tx).to.equal(page.data[1]!.tx);
    // an own "__proto__" member (JSON.parse makes one) is written as a member, never made the copy's prototype
    const proto = parseJson('{"__proto__":{"x":123456789012345678901},"y":1}');
    expect(stringifyJson(proto)).to.equal('{"__proto__":{"x":123456789012345678901},"y":1}');
  });

  it('keeps the node’s own text of a one-member wrapper’s value, parsed as the whole text parses it', () => {
    const callInfo =
      '{"caller_id":"ak_2","gas_used":123456789012345678901,"log":[{"address":"ct_1","topics":[1,2],"data":"cb_Xfbg4g=="}],"return_type":"ok"}';
    for (const text of [`{"call_info":${callInfo}}`, ` {\n  "call_info" : ${callInfo} \n}\n`]) {
      const { whole, member, memberText } = parseJsonMember(text, 'call_info');
      expect(memberText).to.equal(callInfo);
      expect(member).to.deep.equal(parseJson(callInfo));
      expect(whole).to.deep.equal(parseJson(text));
      expect((member as { gas_used: unknown }).gas_used).to.equal(123456789012345678901n);
    }
    // any other shape is parsed whole, and no text is kept: a second member, a duplicate key, another key, no object
    for (const text of [
      `{"call_info":${callInfo},"x":1}`,
      `{"call_info":{"a":1},"call_info":{"a":2}}`,
      '{"ga_info":{"a":1}}',
      '{"tx_info":"x"}',
      '[{"call_info":{}}]',
    ]) {
      const { whole, memberText } = parseJsonMember(text, 'call_info');
      expect(memberText, text).to.equal(undefined);
      expect(whole, text).to.deep.equal(parseJson(text));
    }
    expect(() => parseJsonMember('{"call_info":{', 'call_info')).to.throw();
  });

  it('converts integer fields and refuses lossy narrowing', () => {
    expect(toBigInt('18446744073709551615')).to.equal(18446744073709551615n);
    expect(toBigInt(7)).to.equal(7n);
    expect(() => toBigInt('1e3')).to.throw(TypeError);
    expect(toSafeNumber(12n)).to.equal(12);
    expect(() => toSafeNumber(2n ** 60n)).to.throw(RangeError);
  });

  it('sorts every object’s keys as the node writes them, nested and in arrays, integers kept exact', () => {
    const value = parseJson(
      '{"tx":{"type":"SpendTx","amount":18446744073709551617},"hash":"th_x","block_hash":"mh_y","list":[{"b":1,"a":2}]}',
    );
    const sorted = withSortedKeys(value);
    expect(stringifyJson(sorted)).to.equal(
      '{"block_hash":"mh_y","hash":"th_x","list":[{"a":2,"b":1}],"tx":{"amount":18446744073709551617,"type":"SpendTx"}}',
    );
    expect(stringifyJson(value), 'the value itself is left as it was').to.match(/^\{"tx":/);
    expect(withSortedKeys(parseJson('{"__proto__":1,"a":[]}'))).to.have.own.property('__proto__', 1);
  });

  it('compares JSON values as isDeepStrictEqual does (the stored transactions’ render-back check)', () => {
    const values = parseJson(
      '[1, 1.0, -0, 0, 9007199254740993, "1", true, false, null, [], {}, [1,2], [2,1], [1,[2]], [1,[2,3]], ' +
        '{"a":1,"b":[2]}, {"b":[2],"a":1}, {"a":1}, {"a":1,"b":null}, {"a":null}, {"b":1}, {"__proto__":1}, ' +
        '{"__proto__":2}, {"tx":{"amount":18446744073709551617,"fee":2}}, {"tx":{"amount":18446744073709551618,"fee":2}}, ' +
        '{"tx":{"amount":18446744073709551617,"fee":"2"}}, [{"a":[]}], [{"a":{}}]]',
    ) as Json[];
    // what JSON.parse does not make: an object without a prototype, a bigint of a safe value, NaN
    const odd: Json[] = [Object.assign(Object.create(null) as { [key: string]: Json }, { a: 1 }), 1n, NaN];
    for (const a of [...values, ...odd])
      for (const b of [...values, ...odd, ...values.map((v) => parseJson(stringifyJson(v)))])
        expect(jsonEqual(a, b), `${stringifyJson(a)} ${stringifyJson(b)}`).to.equal(isDeepStrictEqual(a, b));
  });
});
