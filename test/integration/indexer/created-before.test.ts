/**
 * The follower prepares the next batch while it writes one (src/indexer/sync/follower.ts): the contracts the batch being
 * written creates are not stored yet, and their calls in the next batch decoded with the code that batch's creates
 * carry (`prepareBatch`'s createdBefore) instead of asking the node for it. The decoder learns nothing of a batch not
 * written (loader.ts remembers created code after the commit only).
 */
import { expect } from 'chai';
import type { Pool } from '../../../src/db/pool.ts';
import { heightRange } from '../../../src/indexer/sync/heights.ts';
import { loadBatch, prepareBatch } from '../../../src/indexer/sync/loader.ts';
import { NodeClient } from '../../../src/node/client.ts';
import { silent, startHarness, verifyClean, type Harness } from './support/harness.ts';
import { loaderDeps, migratedPool } from './support/loader-deps.ts';

const BATCH = 5;

describe('the next batch prepared while one is written', function () {
  this.timeout(120_000);
  let h: Harness;
  let pool: Pool;

  before(async () => {
    h = await startHarness(40, 'created-before');
    pool = await migratedPool(h.config(), 'created-before', 3);
  });
  after(async () => {
    await pool?.end();
    await h?.close();
  });

  it('decodes calls of the contracts the batch before creates without asking the node for their code', async () => {
    const cfg = h.config();
    const node = new NodeClient({ url: cfg.nodeUrls[0]!, timeoutMs: 30_000 }, silent);
    /** the contracts whose code the node was asked for */
    const asked: string[] = [];
    const counting = new Proxy(node, {
      get: (target, key) => {
        if (key === 'contractCode')
          return (id: string) => {
            asked.push(id);
            return target.contractCode(id);
          };
        const value: unknown = Reflect.get(target, key);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    const deps = await loaderDeps(cfg, pool, node, counting);
    const top = h.devnode.height();
    let prepared = await prepareBatch(deps, heightRange(0, BATCH), true);
    /** calls, in a batch, of contracts the batch before it created */
    let callsOfCreatedBefore = 0;
    for (let from = BATCH; from <= top; from += BATCH) {
      // as the follower does: the next batch is prepared before this one is written
      const next = await prepareBatch(
        deps,
        heightRange(from, Math.min(BATCH, top - from + 1)),
        true,
        false,
        prepared.createdCode,
      );
      const called = next.rows.flatMap((r) => r.contractCalls.map((c) => c.contractId));
      callsOfCreatedBefore += called.filter((id) => prepared.createdCode.has(id)).length;
      expect(asked.filter((id) => prepared.createdCode.has(id))).to.deep.equal([]);
      expect(
        (
          await loadBatch(
            deps,
            prepared.gens.map((g) => g.height),
            { prepared: Promise.resolve(prepared) },
          )
        ).kind,
      ).to.equal('written');
      prepared = next;
    }
    await loadBatch(
      deps,
      prepared.gens.map((g) => g.height),
      { prepared: Promise.resolve(prepared) },
    );
    expect(callsOfCreatedBefore, 'calls of contracts created in the batch before').to.be.greaterThan(0);
    await verifyClean(h);
  });
});
