/**
 * @module A contract call's typed values and outcome as ae_mdw's transaction renderer sends them (format.ex:
 * `encode_raw_values`, a ContractCall record's `result`/`return`, a create's `args_type_value`/`element_value`).
 */
import { expect } from 'chai';
import type { Json } from '../../../../src/chain/json.ts';
import { callOutcome, initArgs, mdwEncoded } from '../../../../src/shapes/v3/call-values.ts';

const int = (value: number | bigint): Json => ({ type: 'int', value });
const str = (value: string): Json => ({ type: 'string', value });
const bool = (value: boolean): Json => ({ type: 'bool', value });
const list = (...value: Json[]): Json => ({ type: 'list', value });
const tuple = (...value: Json[]): Json => ({ type: 'tuple', value });
const map = (...entries: [Json, Json][]): Json => ({ type: 'map', value: entries.map(([key, val]) => ({ key, val })) });
const variant = (tag: number, ...args: Json[]): Json => ({ type: 'variant', value: [tag, ...args] });
const UNIT: Json = { type: 'unit', value: '' };

describe("a call's typed values as ae_mdw sends them", () => {
  it('writes every boolean as its text and keeps the rest, big integers exact', () => {
    const args = [int(2n ** 80n), bool(true), list(bool(false)), map([str('k'), tuple(bool(true), UNIT)])];
    expect(mdwEncoded(args)).to.deep.equal([
      int(2n ** 80n),
      { type: 'bool', value: 'true' },
      list({ type: 'bool', value: 'false' }),
      map([str('k'), tuple({ type: 'bool', value: 'true' }, UNIT)]),
    ]);
  });

  it("gives a call's result and return by its return type, as its ContractCall record holds them", () => {
    expect(callOutcome('ok', bool(true))).to.deep.equal({ result: 'ok', return: { type: 'bool', value: 'true' } });
    expect(callOutcome('ok', UNIT)).to.deep.equal({ result: 'ok', return: UNIT });
    // a revert is an ok call that returned `invalid`; the reason is not sent
    expect(callOutcome('revert', str('not allowed'))).to.deep.equal({ result: 'ok', return: 'invalid' });
    expect(callOutcome('error', null)).to.deep.equal({ result: 'invalid', return: null });
    // no call info (a pruned node): no outcome to tell
    expect(callOutcome(null, null)).to.deep.equal({ result: null, return: null });
  });

  it("writes a create's args typed at the top, their elements bare (element_value)", () => {
    const args = [
      int(1),
      bool(true),
      str('a'),
      UNIT,
      list(int(1), int(2)),
      list(),
      tuple(int(1), str('a')),
      map([str('k'), bool(true)]),
      variant(1, int(5)),
      // nested lists and tuples: their elements by kind, the last of a kind kept
      list(list(int(1), int(2)), list(int(3))),
      list(tuple(int(1), str('a'))),
      // nested maps and variants: their elements as Elixir writes the raw terms
      list(map([int(1), list(int(2))])),
      list(variant(1, int(1))),
    ];
    expect(initArgs(args)).to.deep.equal([
      { type: 'int', value: 1 },
      { type: 'bool', value: 'true' },
      { type: 'string', value: 'a' },
      { type: 'unit', value: '' },
      { type: 'list', value: [1, 2] },
      { type: 'list', value: [] },
      { type: 'tuple', value: [1, 'a'] },
      { type: 'map', value: [{ key: 'k', val: 'true' }] },
      { type: 'variant', value: [1, 5] },
      {
        type: 'list',
        value: [
          { type: 'list', value: { int: 2 } },
          { type: 'list', value: { int: 3 } },
        ],
      },
      { type: 'list', value: [{ type: 'tuple', value: { int: 1, string: 'a' } }] },
      { type: 'list', value: [[{ key: ['int', 1], val: { list: [['int', 2]] } }]] },
      { type: 'list', value: [[1, ['int', 1]]] },
    ]);
  });

  it("leaves a create's args in another form (the compiler's, none) as they are but for the booleans", () => {
    expect(initArgs(null)).to.deep.equal([]);
    expect(initArgs([42, true])).to.deep.equal([42, 'true']);
  });
});
