/** @module The webhooks' pure parts: filters read from a request, signatures, the addresses refused, a delivery's body. */
import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { MemoryAccount, decode, type Encoded } from '@aeternity/aepp-sdk';
import type { AppError } from '../../../src/base/errors.ts';
import { idKey, txTypeCode } from '../../../src/chain/id-key.ts';
import { nameId } from '../../../src/chain/derived-ids.ts';
import type { QueuedDelivery } from '../../../src/db/writes/webhook-queue.ts';
import { deliveryBody } from '../../../src/webhooks/delivery-body.ts';
import { parseFilters } from '../../../src/webhooks/filters.ts';
import { eventTopic as devnodeEventTopic } from '../../../src/devnode/contracts/frame.ts';
import { Webhook } from 'standardwebhooks';
import { checkedUrl, isPrivateAddress } from '../../../src/webhooks/outbound.ts';
import { deliveryHeaders, isSignedBy, newSecret, signingKey } from '../../../src/webhooks/signature.ts';
import { DataCache } from '../../../src/webhooks/data-cache.ts';
import { reachedPosition, sentElsewhere } from '../../../src/webhooks/reached.ts';

const account = MemoryAccount.generate().address;

describe('parseFilters', () => {
  it('reads each kind into the key it matches, with its types and fields', () => {
    const oracle = account.replace('ak_', 'ok_');
    const contract = account.replace('ak_', 'ct_');
    const keys = parseFilters([
      { account, direction: 'in', types: ['SpendTx'] },
      { account, direction: 'out' },
      { account },
      { name: 'alice.chain' },
      { oracle },
      { contract },
    ]);
    expect(keys.map((k) => k.idKey)).to.deep.equal([
      idKey(account),
      idKey(account),
      idKey(account),
      idKey(nameId('alice.chain')),
      idKey(oracle),
      idKey(contract),
    ]);
    expect(keys[0]!.txTypes).to.deep.equal([txTypeCode('SpendTx')]);
    expect(keys[4]!.txTypes).to.deep.equal([txTypeCode('OracleQueryTx')]);
    const inFields = new RegExp(keys[0]!.fieldsRe!);
    const outFields = new RegExp(keys[1]!.fieldsRe!);
    expect(['recipient_id', 'tx.recipient_id', 'sender_id recipient_id'].every((f) => inFields.test(f))).to.equal(true);
    expect(['sender_id', 'tx.tx.caller_id', 'owner_id pointers'].every((f) => outFields.test(f))).to.equal(true);
    expect(inFields.test('sender_id')).to.equal(false);
    expect(outFields.test('recipient_id pointers')).to.equal(false);
    expect(keys[2]!.fieldsRe).to.equal(null);
    expect(keys.map((k) => k.logTopic)).to.deep.equal([null, null, null, null, null, null]);
  });

  it("reads a contract's event into the contract and the event's topic 0, as the devnode's contracts emit it", () => {
    const contract = account.replace('ak_', 'ct_');
    const [key] = parseFilters([{ contract, event: 'Transfer' }]);
    expect(key).to.deep.include({ idKey: idKey(contract), txTypes: null, fieldsRe: null, logContract: contract });
    expect(key!.logTopic).to.equal(devnodeEventTopic('Transfer').toString());
  });

  it("reads an AEX-9 token's transfers, to, from or of an account, into the Transfer topics that must be it", () => {
    const token = account.replace('ak_', 'ct_');
    const asTopic = BigInt(`0x${Buffer.from(decode(account as Encoded.AccountAddress)).toString('hex')}`).toString();
    const [all, into, out, any] = parseFilters([
      { aex9: token },
      { aex9: token, account, direction: 'in' },
      { aex9: token, account, direction: 'out' },
      { aex9: token, account },
    ]);
    expect(all).to.deep.include({ logContract: token, logAccount: null, logDelivery: 'aex9_transfer' });
    expect(all!.logTopic).to.equal(devnodeEventTopic('Transfer').toString());
    const [nft] = parseFilters([{ aex141: token, account, direction: 'in' }]);
    expect(nft).to.deep.include({ logContract: token, logAccount: asTopic, logDelivery: 'aex141_transfer' });
    expect([into, out, any].map((k) => [k!.logAccount, k!.logAccountTopics])).to.deep.equal([
      [asTopic, [2]],
      [asTopic, [1]],
      [asTopic, [1, 2]],
    ]);
  });

  for (const [what, filters] of [
    ['no array', { account }],
    ['an empty array', []],
    ['two kinds in one filter', [{ account, name: 'a.chain' }]],
    ['a bad checksum', [{ account: `${account.slice(0, -2)}xx` }]],
    ['a wrong prefix', [{ account: account.replace('ak_', 'ok_') }]],
    ['an unknown type', [{ account, types: ['SpendyTx'] }]],
    ['an unknown field', [{ name: 'a.chain', direction: 'in' }]],
    ['a bad name', [{ name: 'no dots' }]],
    ['an event that is no name', [{ contract: account.replace('ak_', 'ct_'), event: 'Trans fer' }]],
    ['an event with types', [{ contract: account.replace('ak_', 'ct_'), event: 'Transfer', types: ['SpendTx'] }]],
    ['an event of no contract', [{ account, event: 'Transfer' }]],
    ['an aex9 filter of an account', [{ aex9: account }]],
    ['an aex9 direction without an account', [{ aex9: account.replace('ak_', 'ct_'), direction: 'in' }]],
    ['an aex141 filter of an account', [{ aex141: account }]],
    [
      'an aex9 and an aex141 filter in one',
      [{ aex9: account.replace('ak_', 'ct_'), aex141: account.replace('ak_', 'ct_') }],
    ],
    ['an aex9 direction sideways', [{ aex9: account.replace('ak_', 'ct_'), account, direction: 'up' }]],
    ['too many', Array.from({ length: 101 }, () => ({ account }))],
  ] as const)
    it(`answers 400 for ${what}`, () => {
      try {
        parseFilters(filters);
        expect.fail('should throw');
      } catch (err) {
        expect((err as AppError).status).to.equal(400);
      }
    });
});

describe('deliveryHeaders / isSignedBy', () => {
  const body = '{"id":"x"}';
  const at = 1_700_000_000;

  it('signs `t.body` with HMAC-SHA256 of the whole secret in Mdw-Signature as a receiver recomputes it', () => {
    const secret = newSecret();
    const header = deliveryHeaders([secret], 'x', at, body)['mdw-signature']!;
    const v1 = createHmac('sha256', secret).update(`1700000000.${body}`).digest('hex');
    expect(header).to.equal(`t=1700000000,v1=${v1}`);
    expect(isSignedBy(secret, header, body, at + 100)).to.equal(true);
    expect(isSignedBy(secret, header, `${body} `, at + 100)).to.equal(false);
    expect(isSignedBy(newSecret(), header, body, at + 100)).to.equal(false);
    expect(isSignedBy(secret, header, body, at + 1000), 'too old').to.equal(false);
  });

  it("signs as Standard Webhooks' verifier checks: a new secret, a secret of 0.3 in hex, and both at once", () => {
    const secret = newSecret();
    expect(secret).to.match(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(signingKey(secret)).to.have.length(32);
    const hex = `whsec_${'0123456789abcdef'.repeat(4)}`;
    const now = Math.floor(Date.now() / 1000);
    const headers = deliveryHeaders([secret, hex], 'msg_1', now, body);
    expect(headers['webhook-signature']!.split(' ')).to.have.length(2);
    expect(headers['mdw-delivery-id']).to.equal('msg_1');
    for (const s of [secret, hex]) {
      expect(new Webhook(s).verify(body, headers)).to.deep.equal({ id: 'x' });
      expect(() => new Webhook(s).verify(`${body} `, headers), 'tampered').to.throw();
      expect(() => new Webhook(s).verify(body, { ...headers, 'webhook-id': 'msg_2' }), 'another id').to.throw();
    }
    expect(() => new Webhook(newSecret()).verify(body, headers), 'another secret').to.throw();
  });
});

describe('isPrivateAddress / checkedUrl', () => {
  it('refuses private, loopback, link-local and mapped addresses, and only those', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
    ])
      expect(isPrivateAddress(a), a).to.equal(true);
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect(isPrivateAddress(a), a).to.equal(false);
  });

  it('takes http and https URLs without credentials', () => {
    expect(checkedUrl('https://hooks.example/x?y=1')).to.be.instanceOf(URL);
    expect(checkedUrl('ftp://hooks.example')).to.be.a('string');
    expect(checkedUrl('https://u:p@hooks.example')).to.be.a('string');
    expect(checkedUrl('not a url')).to.be.a('string');
  });
});

describe('deliveryBody', () => {
  const d: QueuedDelivery = {
    webhookId: 'wh_1',
    deliveryId: 'd1',
    type: 'transaction',
    height: 10,
    rank: 1,
    microIndex: 2,
    txIndex: 0,
    logIdx: null,
    blockHash: 'mh_x',
    txHash: 'th_y',
    invalidated: null,
    attempts: 0,
    lastError: null,
  };
  it('puts the fields in order with the data as given, its integers exact', () => {
    expect(deliveryBody(d, 13, '{"amount":123456789012345678901234567890}')).to.equal(
      '{"id":"d1","type":"transaction","height":10,"block_hash":"mh_x","micro_index":2,"tx_hash":"th_y","confirmations":3,"data":{"amount":123456789012345678901234567890}}',
    );
  });
  it('names the invalidated deliveries of a reorg', () => {
    const reorg = { ...d, type: 'reorg' as const, blockHash: null, txHash: null, invalidated: ['a', 'b'] };
    expect(JSON.parse(deliveryBody(reorg, 13, undefined))).to.deep.equal({
      id: 'd1',
      type: 'reorg',
      height: 10,
      block_hash: null,
      micro_index: null,
      tx_hash: null,
      confirmations: null,
      data: { invalidated: ['a', 'b'] },
    });
  });
});

describe('sentElsewhere (a blue/green reload resumes each hook where the other generation got)', () => {
  const at = (height: number, txIndex: number, logIdx: number | null = null): QueuedDelivery => ({
    webhookId: 'wh_1',
    deliveryId: `${height}/${txIndex}/${logIdx}`,
    type: 'transaction',
    height,
    rank: 1,
    microIndex: 0,
    txIndex,
    logIdx,
    blockHash: 'mh_x',
    txHash: 'th_y',
    invalidated: null,
    attempts: 0,
    lastError: null,
  });
  const hook = { reached: reachedPosition(at(10, 1)), reachedSchema: 'g1' };
  it('skips what the other schema sent, up to and with its last, and nothing after', () => {
    expect(sentElsewhere(at(9, 5), hook, 'g2')).to.equal(true);
    expect(sentElsewhere(at(10, 1), hook, 'g2')).to.equal(true);
    expect(sentElsewhere(at(10, 1, 0), hook, 'g2')).to.equal(false);
    expect(sentElsewhere(at(10, 2), hook, 'g2')).to.equal(false);
    expect(sentElsewhere(at(11, 0), hook, 'g2')).to.equal(false);
  });
  it('skips nothing in the schema that sent it, nor a reorg, nor for a hook that got nowhere', () => {
    expect(sentElsewhere(at(9, 5), hook, 'g1')).to.equal(false);
    expect(sentElsewhere({ ...at(9, 5), type: 'reorg', rank: 0 }, hook, 'g2')).to.equal(false);
    expect(sentElsewhere(at(9, 5), { reached: null, reachedSchema: 'g1' }, 'g2')).to.equal(false);
  });
});

describe('DataCache', () => {
  const d = { type: 'transaction', blockHash: 'mh_x', txHash: 'th_y', logIdx: null } as QueuedDelivery;
  it('reads an event once while it is fresh, again after, and a failed read again at once', async () => {
    const cache = new DataCache(1000, 2);
    let reads = 0;
    const read = async () => String(++reads);
    expect(await cache.get(d, read, 0)).to.equal('1');
    expect(await cache.get(d, read, 999)).to.equal('1');
    expect(await cache.get(d, read, 1000)).to.equal('2');
    const failing = new DataCache(1000, 2);
    await failing.get(d, () => Promise.reject(new Error('x')), 0).catch(() => undefined);
    expect(await failing.get(d, read, 1)).to.equal('3');
  });
  it('keeps at most its size, the oldest going first', async () => {
    const cache = new DataCache(1000, 2);
    let reads = 0;
    const read = async () => String(++reads);
    for (const txHash of ['a', 'b', 'c']) await cache.get({ ...d, txHash }, read, 0);
    expect(await cache.get({ ...d, txHash: 'c' }, read, 0)).to.equal('3');
    expect(await cache.get({ ...d, txHash: 'a' }, read, 0)).to.equal('4');
  });
});
