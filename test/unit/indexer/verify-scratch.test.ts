/**
 * @module `-v --full`'s scratch schema, left by a run stopped before it compared: the plan goes on from what it holds
 * when it is the verified chain's, and drops it when it is not.
 */
import { expect } from 'chai';
import { scratchPlan, scratchSchemaOf } from '../../../src/indexer/maintenance/verify-scratch.ts';
import { runsText } from '../../../src/indexer/sync/heights.ts';
import type { ReloadedSchema } from '../../../src/db/writes/reload-progress.ts';

const held = (top: [number, string] | undefined, interrupted?: string): ReloadedSchema => ({
  top: top && { height: top[0], hash: top[1] },
  interrupted:
    interrupted === undefined
      ? undefined
      : { heights: interrupted, phase: 'listed', doneThrough: 0, lowestReplaced: undefined },
});
/** the lists of a plan as the runs text reloadHeights compares with an interrupted reload's */
const lists = (plan: ReturnType<typeof scratchPlan>): string[] => plan.lists.map((l) => runsText(l));

describe('-v --full: the scratch schema an earlier run left', () => {
  it('loads the whole chain into a new one', () => {
    expect(scratchPlan(undefined, 99, undefined)).to.deep.equal({
      drop: false,
      lists: [Array.from({ length: 100 }, (_, i) => i)],
    });
  });

  it('goes on with an interrupted load of the same chain, then loads the heights stored since', () => {
    const plan = scratchPlan(held([40, 'kh_a'], '0-80'), 99, 'kh_a');
    expect([plan.drop, lists(plan), plan.heldThrough]).to.deep.equal([false, ['0-80', '81-99'], 80]);
    // the verified top not moved since: the same list alone, which reloadHeights resumes
    expect(lists(scratchPlan(held([40, 'kh_a'], '0-99'), 99, 'kh_a'))).to.deep.equal(['0-99']);
  });

  it('loads only the heights above a completed load, and none when it holds the verified top', () => {
    expect(lists(scratchPlan(held([80, 'kh_a']), 99, 'kh_a'))).to.deep.equal(['81-99']);
    const complete = scratchPlan(held([99, 'kh_a']), 99, 'kh_a');
    expect([complete.drop, complete.lists, complete.heldThrough]).to.deep.equal([false, [], 99]);
    // an empty one: migrated, nothing loaded yet, or emptied by a run that compared
    expect(lists(scratchPlan(held(undefined), 99, undefined))).to.deep.equal(['0-99']);
  });

  it('drops one of another chain, above the verified top or left by a reload of another list', () => {
    for (const [left, verified] of [
      [held([80, 'kh_old']), 'kh_new'], // a fork replaced the block at its top since
      [held([80, 'kh_a']), undefined], // the verified schema lacks that height
      [held([120, 'kh_a']), 'kh_a'], // above the verified top
      [held([40, 'kh_a'], '0-120'), 'kh_a'], // an interrupted list beyond the verified top
      [held([40, 'kh_a'], '5-80'), 'kh_a'], // a list that is not the chain from 0
    ] as const) {
      expect(scratchPlan(left, 99, verified)).to.deep.equal({
        drop: true,
        lists: [Array.from({ length: 100 }, (_, i) => i)],
      });
    }
  });

  it('names the scratch after the verified schema, within PostgreSQL’s 63 bytes', () => {
    expect(scratchSchemaOf('mdw_g2')).to.equal('mdw_g2_verify');
    expect(scratchSchemaOf('x'.repeat(63))).to.have.length.at.most(63);
  });
});
