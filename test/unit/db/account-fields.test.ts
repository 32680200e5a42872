import { expect } from 'chai';
import { fieldsPattern } from '../../../src/db/queries/account-fields.ts';

describe('db/queries/account-fields fieldsPattern', () => {
  // PostgreSQL's regular expressions read this pattern as JavaScript's do (groups, alternation, anchors, escapes)
  const matches = (fields: string[], stored: string): boolean => new RegExp(fieldsPattern(fields)).test(stored);

  it('matches a stored fields text that names any of the fields, in any place', () => {
    expect(matches(['recipient_id'], 'recipient_id')).to.equal(true);
    expect(matches(['recipient_id', 'tx.recipient_id'], 'sender_id tx.recipient_id')).to.equal(true);
    expect(matches(['pointers'], 'recipient_id pointers sender_id')).to.equal(true);
  });

  it('matches whole names only, a dot as a dot', () => {
    expect(matches(['recipient_id'], 'tx.recipient_id')).to.equal(false);
    expect(matches(['tx.recipient_id'], 'txxrecipient_id')).to.equal(false);
    expect(matches(['id'], 'sender_id')).to.equal(false);
    expect(matches(['sender_id'], 'sender_ids')).to.equal(false);
  });
});
