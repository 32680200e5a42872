/** @module Tests of one client's subscription state against the seed's websocket rules 1 and 2. */
import { expect } from 'chai';
import { Encoding, MemoryAccount, encode } from '@aeternity/aepp-sdk';
import { parseClientMessage, type ClientRequest } from '../../../src/events/protocol.ts';
import { MAX_OBJECT_SUBSCRIPTIONS, Subscriptions } from '../../../src/events/subscriptions.ts';

const account = MemoryAccount.generate().address;
const oracle = encode(Buffer.alloc(32, 9), Encoding.OracleAddress);

function request(message: object): ClientRequest {
  const parsed = parseClientMessage(JSON.stringify(message));
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.request;
}

function apply(subs: Subscriptions, message: object): string[] {
  const result = subs.apply(request(message));
  if (!result.ok) throw new Error(result.error);
  return subs.names();
}

describe('Subscriptions', () => {
  it('follows rule 2: key_blocks, then both, then key_blocks again', () => {
    const subs = new Subscriptions();
    expect(apply(subs, { op: 'subscribe', payload: 'key_blocks' })).to.deep.equal(['key_blocks']);
    expect(apply(subs, { op: 'subscribe', payload: 'micro_blocks' })).to.deep.equal(['key_blocks', 'micro_blocks']);
    expect(apply(subs, { op: 'unsubscribe', payload: 'micro_blocks' })).to.deep.equal(['key_blocks']);
  });

  it('follows rule 2 in the original spelling, answering in that spelling', () => {
    const subs = new Subscriptions();
    expect(apply(subs, { op: 'Subscribe', payload: 'KeyBlocks' })).to.deep.equal(['KeyBlocks']);
    expect(apply(subs, { op: 'Subscribe', payload: 'MicroBlocks' })).to.deep.equal(['KeyBlocks', 'MicroBlocks']);
    expect(apply(subs, { op: 'Unsubscribe', payload: 'MicroBlocks' })).to.deep.equal(['KeyBlocks']);
  });

  it('follows rule 1: lists an object subscription as its target, and can become empty', () => {
    const subs = new Subscriptions();
    expect(apply(subs, { op: 'subscribe', payload: 'object', target: account })).to.deep.equal([account]);
    expect(apply(subs, { op: 'subscribe', payload: 'tx_update' })).to.deep.equal(['tx_update', account]);
    expect(apply(subs, { op: 'subscribe', payload: 'object', target: oracle })).to.deep.equal([
      'tx_update',
      account,
      oracle,
    ]);
    expect(apply(subs, { op: 'unsubscribe', payload: 'object', target: account })).to.deep.equal(['tx_update', oracle]);
    apply(subs, { op: 'unsubscribe', payload: 'tx_update' });
    expect(apply(subs, { op: 'unsubscribe', payload: 'object', target: oracle })).to.deep.equal([]);
  });

  it('lists kinds in a fixed order whatever the subscription order', () => {
    const subs = new Subscriptions();
    for (const payload of ['tx_update', 'transactions', 'micro_blocks', 'key_blocks'])
      apply(subs, { op: 'subscribe', payload });
    expect(subs.names()).to.deep.equal(['key_blocks', 'micro_blocks', 'transactions', 'tx_update']);
  });

  it('treats a repeated subscribe and an unknown unsubscribe as no change', () => {
    const subs = new Subscriptions();
    expect(subs.apply(request({ op: 'unsubscribe', payload: 'transactions' }))).to.deep.equal({
      ok: true,
      change: { type: 'none' },
    });
    expect(subs.apply(request({ op: 'subscribe', payload: 'transactions' }))).to.deep.equal({
      ok: true,
      change: { type: 'added', kind: 'transactions' },
    });
    expect(subs.apply(request({ op: 'subscribe', payload: 'transactions' }))).to.deep.equal({
      ok: true,
      change: { type: 'none' },
    });
    expect(subs.names()).to.deep.equal(['transactions']);
  });

  it('keeps the spelling of the latest subscribe for events', () => {
    const subs = new Subscriptions();
    apply(subs, { op: 'subscribe', payload: 'transactions' });
    apply(subs, { op: 'Subscribe', payload: 'Transactions' });
    expect(subs.spellingOf('transactions')).to.equal('pascal');
    expect(subs.names()).to.deep.equal(['Transactions']);
    apply(subs, { op: 'Subscribe', payload: 'Object', target: account });
    expect(subs.targetSpelling(account)).to.equal('pascal');
  });

  it(`refuses more than ${MAX_OBJECT_SUBSCRIPTIONS} object subscriptions and keeps the existing ones`, () => {
    const subs = new Subscriptions();
    for (let i = 0; i < MAX_OBJECT_SUBSCRIPTIONS; i += 1) {
      const target = encode(Buffer.from(i.toString(16).padStart(64, '0'), 'hex'), Encoding.AccountAddress);
      expect(subs.apply({ op: 'subscribe', kind: 'object', spelling: 'snake', target }).ok).to.equal(true);
    }
    const result = subs.apply(request({ op: 'subscribe', payload: 'object', target: account }));
    expect(result).to.deep.include({ ok: false });
    expect(subs.targets()).to.have.length(MAX_OBJECT_SUBSCRIPTIONS);
    // Re-subscribing a target already held is still fine at the limit.
    expect(subs.apply({ op: 'subscribe', kind: 'object', spelling: 'snake', target: subs.targets()[0]! }).ok).to.equal(
      true,
    );
  });
});
