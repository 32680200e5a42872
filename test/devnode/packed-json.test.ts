/** @module The packed form of the devnode's JSON values (call and GA infos of sealed transactions) reads back as written. */
import v8 from 'node:v8';
import { expect } from 'chai';
import { MemoryAccount, Encoding, encode as sdkEncode } from '@aeternity/aepp-sdk';
import type { Json } from '../../src/chain/json.ts';
import { packJson, unpackJson } from '../../src/devnode/store/packed-json.ts';

const account = MemoryAccount.generate().address;
const contract = sdkEncode(Buffer.alloc(32, 3), Encoding.ContractAddress);
const callData = sdkEncode(Buffer.from([0x2b, 0x11, 0x44, 0xd6]), Encoding.ContractBytearray);

/** a call info as the node shows one: ids, a log with 256-bit topics as bigints, a FATE return value */
const CALL_INFO: Json = {
  caller_id: account,
  caller_nonce: 17,
  height: 654_915,
  contract_id: contract,
  gas_price: 1_000_000_000,
  gas_used: 4690,
  log: [
    {
      address: contract,
      topics: [2n ** 255n + 12345n, 10n ** 30n, 0n],
      data: callData,
    },
  ],
  return_value: sdkEncode(Buffer.from([0x3f]), Encoding.ContractBytearray),
  return_type: 'ok',
};

function roundTrip(value: Json): Json {
  return unpackJson(packJson(value));
}

describe('devnode packed JSON', () => {
  it('reads a call info back as it was, in fewer bytes than v8.serialize', () => {
    expect(roundTrip(CALL_INFO)).to.deep.equal(CALL_INFO);
    expect(packJson(CALL_INFO).length).to.be.below(v8.serialize(CALL_INFO).length / 1.5);
  });

  it("writes a value its reader knows as a reference: the transaction's fields, an id written before it", () => {
    const context: Json[] = [654_915, 'ContractCallTx', account, 17, contract, 1_000_000_000, 10n ** 30n];
    const packed = packJson(CALL_INFO, context);
    expect(unpackJson(packed, context)).to.deep.equal(CALL_INFO);
    // the caller, the contract, the height and the gas price: two bytes each, where the ids took 34
    expect(packed.length).to.be.below(packJson(CALL_INFO).length - 70);
    // a log's address refers back to the contract id written before it, without a context
    const other = sdkEncode(Buffer.alloc(32, 4), Encoding.ContractAddress);
    expect(packJson(CALL_INFO).length).to.equal(packJson({ ...CALL_INFO, contract_id: other }).length - 33);
    expect(unpackJson(packJson(CALL_INFO), [])).to.deep.equal(CALL_INFO);
  });

  it('keeps the type of a value a reference stands for, and small numbers written out', () => {
    const context: Json[] = [17n, 200, 'text', account];
    const value: Json = { a: 17, b: 17n, c: 200n, d: 200, e: 'text', f: account, g: [account, 'text', 0, -0, 5] };
    const back = unpackJson(packJson(value, context), context);
    expect(back).to.deep.equal(value);
    expect(typeof (back as { b: Json }).b).to.equal('bigint');
    expect(typeof (back as { c: Json }).c).to.equal('bigint');
  });

  it('refuses a reference past what it knows, as it does packed bytes that end early', () => {
    const packed = packJson({ caller_id: account }, [account]);
    expect(() => unpackJson(packed, [])).to.throw(RangeError, /refers to value 0 of 0/);
  });

  it('keeps every kind of value: integers at the edges, bigints, floats, unicode, keys of its own, nesting', () => {
    const values: Json[] = [
      null,
      true,
      false,
      0,
      -1,
      127,
      128,
      Number.MAX_SAFE_INTEGER,
      Number.MIN_SAFE_INTEGER,
      0.5,
      -0,
      1e300,
      2n ** 64n,
      -(2n ** 70n),
      0n,
      '',
      'ünïcødé ✓',
      [],
      {},
      { 'a key of its own': [1, { nested: ['x', null] }], type: 'SpendTx', __proto__x: 1 },
    ];
    for (const value of values) expect(roundTrip(value), String(value)).to.deep.equal(value);
    expect(Object.is(roundTrip(-0), -0)).to.equal(true);
  });

  it('keeps strings that look like ids but are not their canonical text', () => {
    const tampered = `${account.slice(0, -1)}${account.endsWith('1') ? '2' : '1'}`;
    const base64 = callData.replace(/=+$/, '');
    for (const text of ['ak_', 'zz_abc', tampered, base64, `${account} `, 'ak_111111'])
      expect(roundTrip(text)).to.equal(text);
  });

  it('keeps a `__proto__` key as an own property, as JSON.parse does', () => {
    const value = JSON.parse('{"__proto__": {"polluted": 1}, "x": 2}') as Json;
    const back = roundTrip(value) as { [k: string]: Json };
    expect(Object.keys(back)).to.deep.equal(['__proto__', 'x']);
    expect(({} as { polluted?: number }).polluted).to.equal(undefined);
  });
});
