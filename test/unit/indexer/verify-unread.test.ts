/**
 * @module How `mdw -v --full` reports a contract it could not read: a pruned state or the nodes' time limit is a note,
 * every other reason a difference named as what it was (issue 87: a refused read passed as "garbage-collected state"). Pure.
 */
import { expect } from 'chai';
import { notRead, oneLine, type Unread } from '../../../src/indexer/maintenance/verify-state.ts';

describe('verify-state: a contract it could not read', () => {
  it("puts the node's per-call reason on one line", () => {
    expect(oneLine('Internal error:\n  wrong_abi_version\n')).to.equal('Internal error: wrong_abi_version');
  });

  it('notes a pruned state and the time limit, and counts each other reason as a difference naming it', () => {
    const line = (why: Unread): ReturnType<typeof notRead> => notRead('aex9', 'ct_t', why);
    expect(line({ kind: 'PRUNED', why: 'every node had garbage-collected the state at mh_b' })).to.deep.equal({
      unverifiable: true,
      line: 'aex9 ct_t: unverifiable: PRUNED: every node had garbage-collected the state at mh_b',
    });
    // the nodes' dry-run time limit is their configuration too (http.dry_run.timeout_ms): a note, not a difference
    expect(line({ kind: 'TIME LIMIT', why: 'every node gave a dry-run at mh_b up at its time limit' })).to.deep.equal({
      unverifiable: true,
      line: 'aex9 ct_t: unverifiable: TIME LIMIT: every node gave a dry-run at mh_b up at its time limit',
    });
    for (const kind of ['REFUSED', 'CALL FAILED', 'CRASHED', 'UNREADABLE'] as const)
      expect(line({ kind, why: 'because' }), kind).to.deep.equal({
        unverifiable: false,
        line: `aex9 ct_t: not read: ${kind}: because`,
      });
  });
});
