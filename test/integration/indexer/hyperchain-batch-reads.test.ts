/**
 * @module A hyperchain batch's epoch-boundary dry-runs are asked as the batch is prepared and waited for in its
 * transaction once its rows are written, as its balances are (issue 45): a batch is prepared, and can be handed on,
 * while the node has not answered them yet, and its epoch rows are written all the same.
 */
import { expect } from 'chai';
import pino from 'pino';
import { migrate } from '../../../src/db/schema/migrator.ts';
import { createWritePool, type Pool } from '../../../src/db/connection/pool.ts';
import { contractReaders } from '../../../src/indexer/contracts/aexn-detector.ts';
import { HyperchainReader } from '../../../src/indexer/hyperchain/reader.ts';
import { detectHyperchain } from '../../../src/indexer/hyperchain/detect.ts';
import { heightRange } from '../../../src/indexer/sync/heights.ts';
import { loadBatch, prepareBatch, type LoaderDeps } from '../../../src/indexer/sync/loader.ts';
import { NodeClient } from '../../../src/node/client.ts';
import { startHyperchain, type TestHyperchain } from '../../support/hyperchain.ts';

const silent = pino({ level: 'silent' });

describe("a hyperchain batch's epoch dry-runs", function () {
  this.timeout(120_000);
  let hc: TestHyperchain;
  let pool: Pool;

  before(async () => {
    hc = await startHyperchain({ epochs: 2, seed: 'batch-dry-runs' });
    const cfg = hc.config();
    await migrate({ databaseUrl: cfg.databaseUrl, schema: cfg.databaseSchema }, silent);
    pool = createWritePool(cfg, 'hyperchain-batch-reads', silent, 2);
  });
  after(async () => {
    await pool?.end();
    await hc?.close();
  });

  it('are not waited for before the batch is prepared, and their rows are written in its transaction', async () => {
    const cfg = hc.config();
    const node = new NodeClient({ url: cfg.nodeUrls[0]!, timeoutMs: 30_000 }, silent);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked = 0;
    const readers = contractReaders(cfg, pool, node);
    const deps: LoaderDeps = {
      pool,
      node,
      ...readers,
      schema: cfg.databaseSchema,
      concurrency: 4,
      log: silent,
      hyperchain: new HyperchainReader({
        // the node's own answers, held until the batch is prepared
        node: {
          dryRun: async (...args: Parameters<NodeClient['dryRun']>) => {
            asked++;
            await held;
            return node.dryRun(...args);
          },
          contractCode: (id: string) => node.contractCode(id),
        },
        decoder: readers.decoder,
        detect: () => detectHyperchain({ urls: cfg.nodeUrls, timeoutMs: 30_000 }),
      }),
    };
    // genesis and the first epoch's end: two boundaries
    const heights = heightRange(0, hc.epochLength + 1);
    const prepared = await prepareBatch(deps, heights, true);
    expect(asked, 'dry-runs asked as the batch was prepared').to.be.greaterThan(0);
    release();
    const result = await loadBatch(deps, heights, { prepared: Promise.resolve(prepared) });
    expect(result.kind).to.equal('written');
    const epochs = await hc.query<{ epoch: number }>(cfg.databaseSchema, 'SELECT epoch FROM hc_epochs ORDER BY epoch');
    expect(epochs.map((e) => e.epoch)).to.deep.equal([1, 2]);
  });
});
