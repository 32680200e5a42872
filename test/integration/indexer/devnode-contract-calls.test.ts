/** @module A generated devnode chain indexed end to end: contract calls decode, tx sizes and hashes match the signed bytes, verify re-hashes. */
import { expect } from 'chai';
import prom from 'prom-client';
import { buildTxHash } from '@aeternity/aepp-sdk';
import { encode } from '../../../src/chain/encoding.ts';
import { startPopulator, type Populator } from '../../../src/indexer/sync/populator.ts';
import { compareGeneration, loadStored, verifyChain } from '../../../src/indexer/maintenance/verify.ts';
import type { Queryable } from '../../../src/db/connection/pool.ts';
import { startHarness, silent, type Harness } from './support/harness.ts';
import { FULL_VERIFY_BATCH } from '../../support/verify-batch.ts';
import { txTypeCode } from '../../../src/chain/id-key.ts';

describe('devnode chain through the populator (contract calls and tx sizes)', function () {
  this.timeout(60_000);
  let h: Harness;
  let populator: Populator | undefined;

  before(async () => {
    // 45 generations: the types the second case asserts all appear by height 38 (its mutual close), the functions the
    // first asserts sooner
    h = await startHarness(45, 'devnode-contract-calls');
    populator = await startPopulator({ cfg: h.config(), log: silent, registry: new prom.Registry() });
    await populator.synced();
  });
  after(async () => {
    await populator?.stop();
    await h.close();
  });

  it('stores every contract call with its function and return value and no decode_error', async () => {
    const calls = await h.query<{ function: string | null; result: unknown; decode_error: string | null }>(
      'mdw',
      'SELECT function, result, decode_error FROM contract_calls',
    );
    expect(calls.length).to.be.greaterThan(5);
    expect(calls.filter((c) => c.decode_error !== null)).to.deep.equal([]);
    expect(new Set(calls.map((c) => c.function))).to.include.members(['init', 'set', 'get', 'note']);
    const byFunction = new Map(calls.map((c) => [c.function, c.result]));
    // ae_mdw's typed form: each value with its FATE kind
    expect(byFunction.get('get')).to.deep.equal({ type: 'int', value: 42 });
    // the constructor's return value read by its own tags (the bare form read it by init's declared type: nothing)
    expect(byFunction.get('init')).to.deep.equal({ type: 'unit', value: '' });
    const note = byFunction.get('note') as { type: string; value: string };
    expect(note.type).to.equal('string');
    expect(note.value).to.match(/^note /);
  });

  it('stores the byte size of each signed transaction (v5 nodes send no encoded_tx), whose blake2b is the th_ hash', async () => {
    const rows = await h.query<{ hash: string; tx_type: string; size: number }>(
      'mdw',
      'SELECT hash, tx_type_name(tx_type) AS tx_type, size FROM transactions',
    );
    expect(rows.length).to.equal(h.devnode.chain.txs.size);
    for (const row of rows) {
      const signedBytes = h.devnode.chain.txs.get(row.hash)!.signedBytes;
      expect(row.size, `${row.tx_type} ${row.hash}`).to.equal(signedBytes.length);
      expect(buildTxHash(encode('tx', signedBytes) as `tx_${string}`)).to.equal(row.hash);
    }
    expect(new Set(rows.map((r) => r.tx_type))).to.include.members([
      'SpendTx',
      'OracleRegisterTx',
      'OracleExtendTx',
      'OracleQueryTx',
      'OracleRespondTx',
      'NamePreclaimTx',
      'NameClaimTx',
      'NameUpdateTx',
      'NameTransferTx',
      'NameRevokeTx',
      'ContractCreateTx',
      'ContractCallTx',
      'ChannelCreateTx',
      'ChannelCloseMutualTx',
    ]);
  });

  it('verify --full re-serialises each stored transaction and reports one whose content does not hash to its hash', async () => {
    const lines: string[] = [];
    const report = await verifyChain(
      { cfg: h.config(FULL_VERIFY_BATCH), log: silent, out: (l) => lines.push(l) },
      { full: true },
    );
    expect([report.differences, lines]).to.deep.equal([0, []]);
    const [spend] = await h.query<{ height: number; hash: string }>(
      'mdw',
      `SELECT height, hash FROM transactions WHERE tx_type = ${txTypeCode('SpendTx')} LIMIT 1`,
    );
    const db = {
      query: async (sql: string, params: unknown[]) => ({ rows: await h.query('mdw', sql, params) }),
    } as unknown as Queryable;
    const stored = (await loadStored(db, spend!.height))!;
    const tx = stored.microBlocks.flatMap((m) => m.txs).find((t) => t.hash === spend!.hash)!;
    (tx.tx as { amount: unknown }).amount = 1;
    // the node agrees with the altered content, so only the hash check can see it
    const node = {
      height: stored.height,
      keyBlock: stored.keyBlock,
      callInfos: new Map(),
      decodedCalls: new Map(),
      microBlocks: stored.microBlocks.map((m) => ({
        header: m.header,
        transactions: m.txs.map((t) => ({ hash: t.hash, tx: t.tx, signatures: t.signatures })),
      })),
    };
    const diffs = compareGeneration(stored, node, true);
    expect(diffs).to.have.length(1);
    expect(diffs[0]).to.match(new RegExp(`^height ${spend!.height}: transaction ${spend!.hash} serialises to th_`));
  });
});
