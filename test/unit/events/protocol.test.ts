/** @module Tests of the websocket wire protocol: both spellings, every error case. */
import { expect } from 'chai';
import { Encoding, MemoryAccount, encode } from '@aeternity/aepp-sdk';
import {
  formatEvent,
  formatSubscriptions,
  parseClientMessage,
  subscriptionName,
  type Kind,
} from '../../../src/events/protocol.ts';

const account = MemoryAccount.generate().address;
const contract = encode(Buffer.alloc(32, 7), Encoding.ContractAddress);
const keyBlockHash = encode(Buffer.alloc(32, 1), Encoding.KeyBlockHash);

function errorOf(message: string | Uint8Array): string {
  const result = parseClientMessage(message);
  if (result.ok) throw new Error(`expected an error for ${String(message)}`);
  return result.error;
}

describe('parseClientMessage', () => {
  const spellings: [string, Kind, 'snake' | 'pascal'][] = [
    ['key_blocks', 'key_blocks', 'snake'],
    ['KeyBlocks', 'key_blocks', 'pascal'],
    ['micro_blocks', 'micro_blocks', 'snake'],
    ['MicroBlocks', 'micro_blocks', 'pascal'],
    ['transactions', 'transactions', 'snake'],
    ['Transactions', 'transactions', 'pascal'],
    ['tx_update', 'tx_update', 'snake'],
    ['TxUpdate', 'tx_update', 'pascal'],
  ];
  for (const [payload, kind, spelling] of spellings) {
    it(`reads payload ${payload} as ${kind} in ${spelling} spelling`, () => {
      expect(parseClientMessage(JSON.stringify({ op: 'subscribe', payload }))).to.deep.equal({
        ok: true,
        request: { op: 'subscribe', kind, spelling },
      });
    });
  }

  it('accepts both spellings of op', () => {
    for (const [op, parsed] of [
      ['subscribe', 'subscribe'],
      ['Subscribe', 'subscribe'],
      ['unsubscribe', 'unsubscribe'],
      ['Unsubscribe', 'unsubscribe'],
    ]) {
      const result = parseClientMessage(JSON.stringify({ op, payload: 'key_blocks' }));
      expect(result.ok && result.request.op).to.equal(parsed);
    }
  });

  it('reads an object subscription with a checksummed target in either spelling', () => {
    expect(parseClientMessage(JSON.stringify({ op: 'subscribe', payload: 'object', target: account }))).to.deep.equal({
      ok: true,
      request: { op: 'subscribe', kind: 'object', spelling: 'snake', target: account },
    });
    expect(parseClientMessage(JSON.stringify({ op: 'Subscribe', payload: 'Object', target: contract }))).to.deep.equal({
      ok: true,
      request: { op: 'subscribe', kind: 'object', spelling: 'pascal', target: contract },
    });
  });

  it('ignores target on a stream payload and unknown extra keys', () => {
    const result = parseClientMessage(
      JSON.stringify({ op: 'subscribe', payload: 'key_blocks', target: 'whatever', extra: 1 }),
    );
    expect(result).to.deep.equal({ ok: true, request: { op: 'subscribe', kind: 'key_blocks', spelling: 'snake' } });
  });

  it('accepts the array form the original accepted, and UTF-8 binary frames', () => {
    expect(parseClientMessage('["Subscribe","KeyBlocks"]')).to.deep.equal({
      ok: true,
      request: { op: 'subscribe', kind: 'key_blocks', spelling: 'pascal' },
    });
    const bytes = new TextEncoder().encode(JSON.stringify({ op: 'subscribe', payload: 'micro_blocks' }));
    expect(parseClientMessage(bytes).ok).to.equal(true);
  });

  it('rejects malformed JSON, non-objects and invalid UTF-8 with a reason', () => {
    expect(errorOf('{"op": "subscribe"')).to.match(/malformed JSON/);
    expect(errorOf('42')).to.match(/expected a JSON object/);
    expect(errorOf('null')).to.match(/expected a JSON object/);
    expect(errorOf(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]))).to.match(/not valid UTF-8/);
  });

  it('rejects a missing or unknown op', () => {
    expect(errorOf('{"payload":"key_blocks"}')).to.match(/missing "op"/);
    expect(errorOf('{"op":"SUBSCRIBE","payload":"key_blocks"}')).to.match(/unknown op "SUBSCRIBE"/);
    expect(errorOf('{"op":7,"payload":"key_blocks"}')).to.match(/unknown op 7/);
  });

  it('rejects a missing or unknown payload, naming the accepted values', () => {
    expect(errorOf('{"op":"subscribe"}')).to.match(/missing "payload".*key_blocks.*KeyBlocks/);
    expect(errorOf('{"op":"subscribe","payload":"blocks"}')).to.match(/unknown payload "blocks"/);
    expect(errorOf('{"op":"subscribe","payload":["key_blocks"]}')).to.match(/unknown payload/);
  });

  it('rejects an object subscription without a target or with an invalid one', () => {
    expect(errorOf('{"op":"subscribe","payload":"object"}')).to.match(/needs a "target"/);
    expect(errorOf('{"op":"unsubscribe","payload":"Object","target":""}')).to.match(/needs a "target"/);
    expect(errorOf(JSON.stringify({ op: 'subscribe', payload: 'object', target: 12 }))).to.match(/invalid target 12/);
    const badChecksum = `${account.slice(0, -2)}${account.endsWith('11') ? '22' : '11'}`;
    expect(errorOf(JSON.stringify({ op: 'subscribe', payload: 'object', target: badChecksum }))).to.match(
      /invalid target.*(checksum|encoding)/,
    );
    expect(errorOf(JSON.stringify({ op: 'subscribe', payload: 'object', target: keyBlockHash }))).to.match(
      /expected a ak_ or ct_/,
    );
    expect(errorOf(JSON.stringify({ op: 'subscribe', payload: 'object', target: `ak_${'1'.repeat(300)}` }))).to.match(
      /longer than/,
    );
  });
});

describe('formatting', () => {
  it('names each kind in the spelling asked for', () => {
    expect(subscriptionName('tx_update', 'snake')).to.equal('tx_update');
    expect(subscriptionName('tx_update', 'pascal')).to.equal('TxUpdate');
    expect(subscriptionName('object', 'pascal')).to.equal('Object');
  });

  it('frames an event with its serialised payload untouched (exact big integers)', () => {
    const frame = formatEvent('{"nonce":18446744073709551615}', 'key_blocks');
    expect(frame).to.equal('{"payload":{"nonce":18446744073709551615},"subscription":"key_blocks"}');
    expect(JSON.parse(frame).subscription).to.equal('key_blocks');
  });

  it('answers subscriptions as a JSON array', () => {
    expect(formatSubscriptions([])).to.equal('[]');
    expect(JSON.parse(formatSubscriptions(['key_blocks', account]))).to.deep.equal(['key_blocks', account]);
  });
});
