/** @module namePointer: a transaction's name pointer as the recorded node 7.2.2 renders it, `encoded_key` and all. */
import { expect } from 'chai';
import { encode as sdkEncode, Encoding } from '@aeternity/aepp-sdk';
import { namePointer } from '../../../src/chain/aens.ts';
import { isJsonObject, type Json } from '../../../src/chain/json.ts';
import { parseBody, readExchanges } from '../../support/real-node-recording.ts';

/** recordedPointers are the pointers in every answer of the recording (names, and name updates in transactions) */
function recordedPointers(): { [key: string]: Json }[] {
  const found: { [key: string]: Json }[] = [];
  const walk = (value: Json | undefined): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (isJsonObject(value))
      for (const [key, inner] of Object.entries(value))
        if (key === 'pointers' && Array.isArray(inner)) found.push(...inner.filter(isJsonObject));
        else walk(inner);
  };
  for (const file of ['chain.ndjson.gz', 'dry-run.ndjson.gz', 'errors.ndjson.gz'])
    for (const e of readExchanges(file)) walk(parseBody(e.body));
  return found;
}

describe('namePointer(pointer)', () => {
  const recorded = recordedPointers();

  it("renders each recorded pointer as the node did, in its key order, from its text alone or from the node's", () => {
    expect(recorded.length, 'pointers in the recording').to.be.at.least(3);
    for (const p of recorded) {
      const json = JSON.stringify(p);
      expect(JSON.stringify(namePointer({ key: p.key!, id: p.id! })), 'from key and id').to.equal(json);
      expect(JSON.stringify(namePointer(p)), 'from the node').to.equal(json);
    }
  });

  it("keeps the node's encoded_key where the key's text lost bytes that are not UTF-8", () => {
    const bytes = Buffer.from([0x6b, 0xff, 0xfe]);
    const encoded = sdkEncode(bytes, Encoding.Bytearray);
    const p = namePointer({ encoded_key: encoded, id: 'ak_1', key: bytes.toString('utf8') });
    expect(p).to.deep.equal({ encoded_key: encoded, id: 'ak_1', key: 'k\ufffd\ufffd' });
    expect(namePointer({ key: 'extra_1', id: 'ak_1' }).encoded_key).to.equal(
      sdkEncode(Buffer.from('extra_1'), Encoding.Bytearray),
    );
  });
});
