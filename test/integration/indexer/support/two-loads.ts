/**
 * @module The two loads of one chain, schemas of the harness's database: with the internal calls derived in their
 * batch (`mdw`, which `mdw -v --full` verifies) and after the batches (`behind`: the backfill's path), whose tables are
 * compared with the first's, as `-v --full` compares its scratch load (a fresh load) with the verified schema: one
 * `-v --full` a chain. The behind load's comparison reads the in-batch load: its suite runs after that one's.
 */
import { expect } from 'chai';
import type { Pool } from '../../../../src/db/connection/pool.ts';
import { aeBalancesApart, unexplainedChanges } from '../../../support/ae-balances-truth.ts';
import { populatedWithNodeSettings, verifyClean, type Harness } from './harness.ts';
import { populatedInternalCallsBehind } from './internal-calls-behind.ts';
import { rowsApart } from './schema-rows.ts';

/** A load: whether its internal calls are derived after the batches, its schema, its suite's title. */
export interface Load {
  readonly behind: boolean;
  readonly schema: string;
  readonly title: string;
}

/** LOADS: the in-batch load first (the behind one is compared with it). */
export const LOADS: readonly Load[] = [
  { behind: false, schema: 'mdw', title: 'internal calls in their batch' },
  { behind: true, schema: 'behind', title: 'internal calls derived after the batches' },
];

/**
 * populatedAs populates `load`'s schema (populatedWithNodeSettings, populatedInternalCallsBehind: the backfill
 * `stepHeights` a step), and opens a pool on it (the caller ends it).
 */
export async function populatedAs(
  h: Harness,
  load: Load,
  stepHeights?: number,
): Promise<{ env: Record<string, string>; pool: Pool; pendingFrom?: number | undefined }> {
  return load.behind
    ? populatedInternalCallsBehind(h, load.schema, stepHeights)
    : populatedWithNodeSettings(h, load.schema);
}

/**
 * itChecksTheLoad is a load's last cases: every account's balance after every height the devnode's, no change
 * 'unexplained'; `-v --full` of the in-batch load, the behind one's tables equal to it.
 */
export function itChecksTheLoad(
  load: Load,
  harness: () => Harness,
  loaded: () => { env: Record<string, string>; pool: Pool },
): void {
  it("serves every account after every height as the devnode's state, with no 'unexplained' change", async () => {
    const { devnode } = harness();
    const all = Array.from({ length: devnode.height() + 1 }, (_, i) => i);
    expect(await aeBalancesApart(loaded().pool, devnode.chain, all)).to.deep.equal([]);
    expect(await unexplainedChanges(loaded().pool)).to.deep.equal([]);
  });

  if (!load.behind)
    it('verifies clean against the devnode (mdw -v --full)', async () => {
      // its scratch load in batches of 100 heights (verifyClean's), not the load's 10: the derived rows compared come
      // from two batchings, and the scratch of a chain of ~490 heights (an auction's 480) pays a batch's steps 5
      // times, not 49
      await verifyClean(harness(), loaded().env);
    });
  else
    it('derives every table as the load with the internal calls in their batch (which -v --full verified)', async () => {
      expect(await rowsApart(harness().db.url, LOADS[0]!.schema, load.schema)).to.deep.equal([]);
    });
}
