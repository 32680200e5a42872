/**
 * @module transactions.created_id (migration 1013): the writer stores the id each transaction creates, a database
 * stored before it gets them from its stored bytes (the `created` area), the renderer reads them from the row and
 * `mdw -v --full` compares them.
 */
import { expect } from 'chai';
import { buildContractId, produceNameId } from '@aeternity/aepp-sdk';
import prom from 'prom-client';
import { renderStoredTx } from '../../../src/chain/stored-tx.ts';
import { createPool } from '../../../src/db/connection/pool.ts';
import { transactionByHash } from '../../../src/db/queries/transactions.ts';
import { startPopulator } from '../../../src/indexer/sync/populator.ts';
import { verifyChain } from '../../../src/indexer/maintenance/verify.ts';
import { transactionObject } from '../../../src/shapes/v3/render-tx.ts';
import { populateToTop } from '../../support/populate.ts';
import { FULL_VERIFY_BATCH } from '../../support/verify-batch.ts';
import { silent, startHarness, waitFor, type Harness } from './support/harness.ts';
import { rowsApart } from './support/schema-rows.ts';

interface Stored {
  hash: string;
  type: string;
  created_id: string | null;
  signed: Buffer;
}

describe('created ids stored with their transactions', function () {
  this.timeout(240_000);
  let h: Harness;

  const stored = (schema: string): Promise<Stored[]> =>
    h.query<Stored>(schema, 'SELECT hash, tx_type_name(tx_type) AS type, created_id, signed FROM transactions');

  before(async () => {
    // 30 generations: every type that creates an id is there (a GAAttachTx at height 29, asserted by the first case)
    h = await startHarness(30, 'created-ids');
    await populateToTop(h.config());
  });
  after(() => h?.close());

  it('are written for each transaction that creates one, as the SDK computes them', async () => {
    const rows = await stored('mdw');
    const byType = new Map<string, number>();
    for (const r of rows) {
      const tx = renderStoredTx(r.signed).tx as { owner_id: `ak_${string}`; nonce: number; name: `${string}.chain` };
      if (r.type === 'ContractCreateTx') expect(r.created_id, r.hash).to.equal(buildContractId(tx.owner_id, tx.nonce));
      else if (r.type === 'NameClaimTx') expect(r.created_id, r.hash).to.equal(produceNameId(tx.name));
      else if (r.type === 'SpendTx' || r.type === 'ContractCallTx') expect(r.created_id, r.hash).to.equal(null);
      if (r.created_id !== null) byType.set(r.type, (byType.get(r.type) ?? 0) + 1);
    }
    expect([...byType.keys()]).to.include.members([
      'ContractCreateTx',
      'GAAttachTx',
      'NameClaimTx',
      'OracleRegisterTx',
      'OracleQueryTx',
      'ChannelCreateTx',
    ]);
  });

  it('are read from the row when a transaction is rendered', async () => {
    const [create] = (await stored('mdw')).filter((r) => r.type === 'ContractCreateTx');
    const other = buildContractId('ak_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi', 99);
    const pool = createPool({ databaseUrl: h.db.url, schema: 'mdw', max: 1 }, silent);
    try {
      await h.query('mdw', 'UPDATE transactions SET created_id = $1 WHERE hash = $2', [other, create!.hash]);
      const row = await transactionByHash(pool, create!.hash);
      expect(transactionObject(row!).tx).to.include({ contract_id: other });
    } finally {
      await h.query('mdw', 'UPDATE transactions SET created_id = $1 WHERE hash = $2', [
        create!.created_id,
        create!.hash,
      ]);
      await pool.end();
    }
  });

  it('are compared by mdw -v --full', async () => {
    const [claim] = (await stored('mdw')).filter((r) => r.type === 'NameClaimTx');
    const verify = async (): Promise<string[]> => {
      const lines: string[] = [];
      await verifyChain({ cfg: h.config(FULL_VERIFY_BATCH), log: silent, out: (l) => lines.push(l) }, { full: true });
      return lines;
    };
    await h.query('mdw', 'UPDATE transactions SET created_id = $1 WHERE hash = $2', [
      produceNameId('x.chain'),
      claim!.hash,
    ]);
    try {
      const lines = await verify();
      expect(
        lines.some((l) => l.includes('transactions') && l.includes(claim!.hash)),
        lines.join('\n'),
      ).to.equal(true);
    } finally {
      await h.query('mdw', 'UPDATE transactions SET created_id = $1 WHERE hash = $2', [claim!.created_id, claim!.hash]);
    }
    expect(await verify()).to.deep.equal([]);
  });

  it('are derived from the stored bytes for a database stored before them, equal to a fresh load', async () => {
    await populateToTop(h.config({ DATABASE_SCHEMA: 'before' }));
    // as migration 1013 leaves a stored chain: no created ids, every height with a creating transaction to derive
    await h.query('before', 'UPDATE transactions SET created_id = NULL');
    await h.query('before', 'DELETE FROM derive_backfill');
    await h.query(
      'before',
      `INSERT INTO derive_backfill (area, next_height, to_height) SELECT 'created', 0, max(height) FROM key_blocks`,
    );
    const populator = await startPopulator({
      cfg: h.config({ DATABASE_SCHEMA: 'before' }),
      log: silent,
      registry: new prom.Registry(),
    });
    try {
      await waitFor(
        'the created area to be derived',
        async () => (await h.query('before', 'SELECT 1 FROM derive_backfill')).length === 0,
        60_000,
      );
    } finally {
      await populator.stop();
    }
    expect(await rowsApart(h.db.url, 'mdw', 'before')).to.deep.equal([]);
    const [n] = await h.query<{ n: string }>(
      'before',
      'SELECT count(*) AS n FROM transactions WHERE created_id IS NOT NULL',
    );
    expect(Number(n!.n)).to.be.greaterThan(0);
  });
});
