/**
 * @module A populator filling the gaps of a sparse database (heights loaded by -H) re-derives the
 * name and oracle state of the stored heights above, surviving a restart while it does.
 */
import { expect } from 'chai';
import prom from 'prom-client';
import { heightRange } from '../../../src/indexer/sync/heights.ts';
import { startPopulator } from '../../../src/indexer/sync/populator.ts';
import { reloadHeights } from '../../../src/indexer/maintenance/reload.ts';
import { startHarness, silent, type Harness } from './support/harness.ts';
import { ACCOUNT_ROWS_BY_KEY } from '../../support/account-numbers.ts';

// every row whose content derives from the state before its height
const DERIVED = [
  'SELECT * FROM name_events ORDER BY height, micro_index, tx_index, name_hash',
  'SELECT * FROM name_state ORDER BY name_hash',
  'SELECT * FROM oracle_events ORDER BY height, micro_index, tx_index',
  'SELECT * FROM oracle_queries ORDER BY height, micro_index, tx_index',
  // ids by their keys: each load numbers them in its own order (migration 1000)
  ACCOUNT_ROWS_BY_KEY,
];

describe('populator filling a sparse database (devnode + PostgreSQL)', function () {
  this.timeout(90_000);
  let h: Harness;
  before(async () => {
    h = await startHarness(40, 'sparse-fill-test');
  });
  after(() => h.close());

  const derived = async (schema: string): Promise<unknown[][]> => {
    const tables: unknown[][] = [];
    for (const q of DERIVED) tables.push(await h.query(schema, q));
    return tables;
  };
  const sync = async (schema: string): Promise<void> => {
    const populator = await startPopulator({
      cfg: h.config({ DATABASE_SCHEMA: schema }),
      log: silent,
      registry: new prom.Registry(),
    });
    await populator.synced();
    await populator.stop();
  };

  it('ends with the state a straight sync derives, whatever -H loaded first', async () => {
    await sync('mdw');
    const top = h.devnode.height();
    // the upper half first: its name and oracle events derive from an empty past
    await reloadHeights({ cfg: h.config({ DATABASE_SCHEMA: 'sparse' }), log: silent }, heightRange(20, top - 19));
    expect(await derived('sparse'), 'the sparse schema starts with other derived rows').to.not.deep.equal(
      await derived('mdw'),
    );
    await sync('sparse');
    const [rederive] = await h.query<{ rederive_from: number | null }>(
      'sparse',
      'SELECT rederive_from FROM sync_state',
    );
    expect(rederive).to.deep.equal({ rederive_from: null });
    expect(await derived('sparse')).to.deep.equal(await derived('mdw'));
  });

  it('goes on re-deriving after a restart from where the last committed batch left the mark', async () => {
    const top = h.devnode.height();
    await reloadHeights({ cfg: h.config({ DATABASE_SCHEMA: 'restarted' }), log: silent }, heightRange(10, top - 9));
    // a populator stopped after filling the gap and re-deriving up to 24 leaves this mark behind
    await reloadHeights({ cfg: h.config({ DATABASE_SCHEMA: 'restarted' }), log: silent }, heightRange(0, 25));
    await h.query('restarted', 'UPDATE sync_state SET rederive_from = 25');
    expect(await derived('restarted')).to.not.deep.equal(await derived('mdw'));
    await sync('restarted');
    expect(await derived('restarted')).to.deep.equal(await derived('mdw'));
  });
});
