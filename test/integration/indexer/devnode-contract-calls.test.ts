/** @module A generated devnode chain indexed end to end: contract calls decode, and tx sizes/hashes match the signed bytes. */
import { expect } from 'chai';
import prom from 'prom-client';
import { buildTxHash } from '@aeternity/aepp-sdk';
import { encode } from '../../../src/chain/encoding.ts';
import { startPopulator, type Populator } from '../../../src/indexer/populator.ts';
import { startHarness, silent, type Harness } from './support/harness.ts';

describe('devnode chain through the populator (contract calls and tx sizes)', function () {
  this.timeout(60_000);
  let h: Harness;
  let populator: Populator | undefined;

  before(async () => {
    h = await startHarness(30, 'devnode-contract-calls');
    populator = await startPopulator({ cfg: h.config(), log: silent, registry: new prom.Registry() });
    await populator.synced();
  });
  after(async () => {
    await populator?.stop();
    await h.close();
  });

  it('stores every contract call with its function and return value and no decode_error', async () => {
    const calls = await h.query<{ function: string | null; result: unknown; decode_error: string | null }>('mdw', 'SELECT function, result, decode_error FROM contract_calls');
    expect(calls.length).to.be.greaterThan(5);
    expect(calls.filter((c) => c.decode_error !== null)).to.deep.equal([]);
    expect(new Set(calls.map((c) => c.function))).to.include.members(['init', 'set', 'get', 'note']);
    const byFunction = new Map(calls.map((c) => [c.function, c.result]));
    expect(byFunction.get('get')).to.equal(42);
    expect(byFunction.get('init')).to.equal(null);
    expect(byFunction.get('note')).to.be.a('string').and.match(/^note /);
  });

  it('stores the byte size of each signed transaction (v5 nodes send no encoded_tx), whose blake2b is the th_ hash', async () => {
    const rows = await h.query<{ hash: string; tx_type: string; size: number }>('mdw', 'SELECT hash, tx_type, size FROM transactions');
    expect(rows.length).to.equal(h.devnode.chain.txs.size);
    for (const row of rows) {
      const signedBytes = h.devnode.chain.txs.get(row.hash)!.signedBytes;
      expect(row.size, `${row.tx_type} ${row.hash}`).to.equal(signedBytes.length);
      expect(buildTxHash(encode('tx', signedBytes) as `tx_${string}`)).to.equal(row.hash);
    }
    expect(new Set(rows.map((r) => r.tx_type))).to.include.members([
      'SpendTx', 'OracleRegisterTx', 'OracleExtendTx', 'OracleQueryTx', 'OracleRespondTx', 'NamePreclaimTx', 'NameClaimTx', 'NameUpdateTx', 'NameTransferTx', 'NameRevokeTx',
      'ContractCreateTx', 'ContractCallTx', 'ChannelCreateTx', 'ChannelCloseMutualTx',
    ]);
  });
});
