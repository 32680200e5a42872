/** @module The call info a contract_calls row stores (migration 1000): trimmed of the row's own columns only when exact. */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { encode, Encoding } from '@aeternity/aepp-sdk';
import { parseJson } from '../../../src/chain/json.ts';
import { storedCallInfo } from '../../../src/indexer/rows/call-info-trim.ts';
import type { JsonObject } from '../../../src/indexer/rows/rows.ts';

const caller = encode(randomBytes(32), Encoding.AccountAddress);
const contract = encode(randomBytes(32), Encoding.ContractAddress);
const row = { callerId: caller, contractId: contract, height: 12 };
// as the node writes it: compact, members in its order, a log of nested objects; a big integer stays exact
const nodeText = (height: number, extra = ''): string =>
  `{"caller_id":"${caller}","caller_nonce":7,"contract_id":"${contract}","gas_price":1000000000,` +
  `"gas_used":123456789012345678901234,"height":${height},"log":[{"address":"${contract}","data":"cb_Xfbg4g==",` +
  `"topics":[1,2]}],"return_type":"ok","return_value":"cb_AAAA"${extra}}`;
const parsed = (text: string): JsonObject => parseJson(text) as JsonObject;
const without = (o: JsonObject, keys: string[]): JsonObject =>
  Object.fromEntries(Object.entries(o).filter(([k]) => !keys.includes(k)));
const TRIMMED = ['caller_id', 'contract_id', 'height'];

describe('storedCallInfo', () => {
  it("drops caller_id, contract_id and height from the node's text when they are the row's, keeping the rest exact", () => {
    const text = nodeText(12);
    const stored = storedCallInfo(parsed(text), text, row);
    expect(stored.trimmed).to.equal(true);
    expect(parsed(stored.text)).to.deep.equal(without(parsed(text), TRIMMED));
    // what the queries put back (callInfoSql) is the node's object
    expect({ caller_id: caller, contract_id: contract, height: 12, ...parsed(stored.text) }).to.deep.equal(
      parsed(text),
    );
  });

  it('keeps the whole info when a member differs from the column (a call through a name, another height)', () => {
    const text = nodeText(12);
    const name = encode(randomBytes(32), Encoding.Name);
    expect(storedCallInfo(parsed(text), text, { ...row, contractId: name })).to.deep.equal({ text, trimmed: false });
    const higher = nodeText(123);
    // "height":12 is the start of "height":123: not the member
    expect(storedCallInfo(parsed(higher), higher, row)).to.deep.equal({ text: higher, trimmed: false });
  });

  it('keeps a text it cannot cut exactly whole (spaces), and a GA info without the members', () => {
    const spaced = nodeText(12).replaceAll(',"', ', "');
    expect(storedCallInfo(parsed(spaced), spaced, row)).to.deep.equal({ text: spaced, trimmed: false });
    const ga = `{"caller_id":"${caller}","gas_used":1,"height":12,"return_type":"ok"}`;
    expect(storedCallInfo(parsed(ga), ga, row)).to.deep.equal({ text: ga, trimmed: false });
  });

  it("a member inside the log is never taken for the object's own", () => {
    // the node's order, but height after log, whose entry holds a "height":12 of its own
    const text = `{"caller_id":"${caller}","contract_id":"${contract}","log":[{"height":12}],"height":12}`;
    expect(storedCallInfo(parsed(text), text, row)).to.deep.equal({ text, trimmed: false });
  });

  it("writes an info without the node's text out without the members", () => {
    const info = parsed(nodeText(12));
    const stored = storedCallInfo(info, undefined, row);
    expect(stored.trimmed).to.equal(true);
    expect(parsed(stored.text)).to.deep.equal(without(info, TRIMMED));
  });
});
