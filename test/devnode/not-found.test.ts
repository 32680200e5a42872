/**
 * @module The devnode's 404s for an unknown object: the reason and, where the node's handler adds one, the
 * `error_code` (aehttp_dispatch_ext.erl of node 7.x, whose API the devnode speaks; docs/devnode.md). `/v2` and `/v3`
 * answer alike.
 */
import { expect } from 'chai';
import { MemoryAccount } from '@aeternity/aepp-sdk';
import { encode } from '../../src/chain/encoding.ts';
import { startTestNode, type TestNode } from './harness.ts';

describe('devnode 404s for unknown objects, as node 7.x answers them', () => {
  let t: TestNode;
  before(async () => {
    t = await startTestNode();
  });
  after(() => t.node.stop());

  const id = (prefix: Parameters<typeof encode>[0]): string => encode(prefix, new Uint8Array(32).fill(9));

  it('answers each unknown block, transaction, account, name, contract, oracle, query and channel so', async () => {
    const account = MemoryAccount.generate().address;
    const cases: [string, Record<string, string>][] = [
      // blocks
      [`key-blocks/hash/${id('kh')}`, { reason: 'Block not found' }],
      ['key-blocks/height/1000', { reason: 'Block not found', error_code: 'chain_too_short' }],
      [`micro-blocks/hash/${id('mh')}/header`, { reason: 'Block not found', error_code: 'block_not_found' }],
      [`micro-blocks/hash/${id('mh')}/transactions`, { reason: 'Block not found', error_code: 'block_not_found' }],
      [
        `micro-blocks/hash/${id('mh')}/transactions/count`,
        { reason: 'Block not found', error_code: 'block_not_found' },
      ],
      [`micro-blocks/hash/${id('mh')}/transactions/index/1`, { reason: 'Block not found' }],
      ['generations/height/1000', { reason: 'Chain too short' }],
      // transactions
      [`transactions/${id('th')}`, { reason: 'Transaction not found' }],
      [`transactions/${id('th')}/info`, { reason: 'Transaction not found' }],
      // accounts
      [`accounts/${account}`, { reason: 'Account not found' }],
      [`accounts/${account}/height/0`, { reason: 'Account not found' }],
      ['accounts/' + account + '/height/1000', { reason: 'Height not available', error_code: 'chain_too_short' }],
      [`accounts/${account}/hash/${id('kh')}`, { reason: 'Hash not available', error_code: 'no_state_trees' }],
      [`accounts/${account}/next-nonce`, { reason: 'Account not found', error_code: 'account_not_found' }],
      [`accounts/${account}/transactions/pending`, { reason: 'Account not found' }],
      // names
      ['names/nosuchname.chain', { reason: 'Name not found', error_code: 'name_not_found' }],
      [`names/hash/${id('nm')}`, { reason: 'Name not found', error_code: 'name_not_found' }],
      ['auctions/nosuchname.chain', { reason: 'Name not found', error_code: 'name_not_found' }],
      // contracts, oracles, channels
      [`contracts/${id('ct')}`, { reason: 'Contract not found', error_code: 'not_present' }],
      [`contracts/${id('ct')}/code`, { reason: 'Contract not found', error_code: 'not_present' }],
      [`oracles/${id('ok')}`, { reason: 'Oracle not found', error_code: 'not_found' }],
      [`oracles/${id('ok')}/queries/${id('oq')}`, { reason: 'Query not found', error_code: 'not_found' }],
      [`channels/${id('ch')}`, { reason: 'Channel not found', error_code: 'not_found' }],
    ];
    for (const version of ['v2', 'v3'])
      for (const [path, body] of cases) {
        const reply = await t.get(`/${version}/${path}`);
        expect([reply.status, reply.body], `/${version}/${path}`).to.deep.equal([404, body]);
      }
    // an index past a known micro block's transactions is a bad request to the node, not a miss
    const [from, to] = t.accounts as [MemoryAccount, MemoryAccount];
    const spend = { sender_id: from.address, recipient_id: to.address, amount: 1, fee: 2e13 };
    expect((await t.submit('transactions/spend', spend, from)).status).to.equal(200);
    await t.node.mineMicroBlock();
    const micro = t.node.chain.top.micro.at(-1)!.hash;
    expect((await t.get(`/v2/micro-blocks/hash/${micro}/transactions/index/1`)).status).to.equal(200);
    const past = await t.get(`/v2/micro-blocks/hash/${micro}/transactions/index/2`);
    expect([past.status, past.body]).to.deep.equal([400, { reason: 'Invalid hash or index' }]);
    // an unknown oracle's queries are an empty list, not a 404 (the handler's, though the spec lists one)
    expect((await t.get(`/v2/oracles/${id('ok')}/queries`)).body).to.deep.equal({ oracle_queries: [] });
  });
});
