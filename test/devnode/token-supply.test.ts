/** @module The node's token supply categories over a devnode state, alone. */
import { expect } from 'chai';
import { encode, reprefix } from '../../src/chain/encoding.ts';
import { tokenSupply } from '../../src/devnode/api/token-supply.ts';
import { newState } from '../../src/devnode/store/state.ts';

const id = (prefix: 'ak' | 'oq' | 'nm', n: number): string => encode(prefix, new Uint8Array(32).fill(n));

describe('devnode token supply', () => {
  it('puts each account’s aettos in the node’s category and held amounts apart, their sum the total', () => {
    const state = newState();
    const [plain, contract, oracle, contractOracle] = [1, 2, 3, 4].map((n) => id('ak', n)) as [string, ...string[]];
    const account = (balance: bigint) => ({ balance, nonce: 0 });
    state.accounts.set(plain, account(1n));
    state.accounts.set(contract!, account(20n));
    state.accounts.set(oracle!, account(300n));
    state.accounts.set(contractOracle!, account(4_000n));
    state.accounts.set('ak_11111111111111111111111111111111273Yts', account(50_000n));
    for (const c of [contract!, contractOracle!])
      state.contracts.set(reprefix(c, 'ct'), {
        id: reprefix(c, 'ct'),
        ownerId: plain,
        vmVersion: 7,
        abiVersion: 3,
        deposit: 0n,
        code: 'cb_',
      });
    for (const o of [oracle!, contractOracle!])
      state.oracles.set(reprefix(o, 'ok'), {
        id: reprefix(o, 'ok'),
        queryFormat: 'q',
        responseFormat: 'r',
        queryFee: 1n,
        expires: 100,
        abiVersion: 0,
        queryIds: [],
      });
    const query = { senderId: plain, senderNonce: 1, oracleId: reprefix(oracle!, 'ok'), query: 'q', expires: 9 };
    state.queries.set(id('oq', 1), { ...query, id: id('oq', 1), fee: 600_000n, responseTtl: 5 });
    state.queries.set(id('oq', 2), { ...query, id: id('oq', 2), fee: 7n, responseTtl: 5, response: 'answered' });
    state.auctions.set(id('nm', 1), {
      id: id('nm', 1),
      name: 'x.chain',
      bidder: plain,
      bid: 7_000_000n,
      started: 1,
      ends: 9,
    });
    expect(tokenSupply(state)).to.deep.equal({
      accounts: 1n,
      auctions: 7_000_000n,
      channels: 0n,
      contract_oracles: 4_000n,
      contracts: 20n,
      locked: 50_000n,
      oracle_queries: 600_000n,
      oracles: 300n,
      pending_rewards: 0n,
      total: 7_654_321n,
    });
  });
});
