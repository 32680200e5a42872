/**
 * @module The activities' cursor reads back every key it writes: an AEX-9 transfer's tag (`aex9:<log index>`) has a
 * colon, which the cursor refused (`invalid cursor`, a 400 on the next page) when a page ended on one.
 */
import { expect } from 'chai';
import { ACTIVITY_CURSOR } from '../../../../src/api/mdw/resources/activities.ts';

describe('ACTIVITY_CURSOR', () => {
  it('reads back the key of a transaction, an AEX-9 transfer and a key-block activity', () => {
    const keys = [
      { height: 23, microIndex: 1, txIndex: 2, tag: '', ref: '' },
      { height: 23, microIndex: 1, txIndex: 2, tag: 'aex9:0000000000', ref: 'received' },
      { height: 42, microIndex: -1, txIndex: -1, tag: 'reward_block', ref: '' },
    ];
    for (const key of keys) expect(ACTIVITY_CURSOR.decode(ACTIVITY_CURSOR.encode(key))).to.deep.equal(key);
  });

  it('refuses a cursor of another shape with a 400', () => {
    for (const text of ['23-1', '23-1-2-AEX9-x', '23-1-2-a-b-c d'])
      expect(() => ACTIVITY_CURSOR.decode(text), text)
        .to.throw()
        .with.property('status', 400);
  });
});
