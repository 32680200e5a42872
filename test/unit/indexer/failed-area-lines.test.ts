/** @module failedAreaLines: `mdw -v` names a failing derived area as a difference (issue 39). Pure. */
import { expect } from 'chai';
import { failedAreaLines, pendingAreasText, pendingState } from '../../../src/indexer/maintenance/verify-derived.ts';

describe('failedAreaLines (mdw -v, issue 39)', () => {
  it('names each failing area with its height, since when and why, and leaves out the ones still deriving', () => {
    const since = new Date('2026-11-24T20:00:00.000Z');
    expect(
      failedAreaLines([
        { area: 'transfers', next: 3, to: 9 },
        { area: 'stats', next: 17, to: 40, failingSince: since, error: 'heights 17-40: boom' },
      ]),
    ).to.deep.equal([
      'derived area stats fails at height 17 (heights 17-40 underived) since 2026-11-24T20:00:00.000Z: heights 17-40: boom',
    ]);
    expect(failedAreaLines([{ area: 'transfers', next: 3, to: 9 }])).to.deep.equal([]);
  });

  it('says of a failing area that it fails, never that the populator is still deriving it', () => {
    const since = new Date('2026-11-24T20:00:00.000Z');
    const deriving = { area: 'transfers', next: 3, to: 9 };
    const failing = { area: 'stats', next: 17, to: 40, failingSince: since, error: 'boom' };
    expect(pendingAreasText([deriving, failing])).to.equal(
      'the populator is still deriving transfers (heights 3-9) from the stored rows; stats fails at height 17',
    );
    expect(pendingAreasText([failing])).to.equal('stats fails at height 17');
    expect(pendingState(deriving)).to.equal('the populator is still deriving heights 3-9');
    expect(pendingState(failing)).to.equal('the area fails at height 17 (heights 17-40 underived)');
  });
});
