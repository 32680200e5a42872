import { expect } from 'chai';
import { decodeCursor, encodeCursor, listTag } from '../../../../src/api/mdw/graphql/cursor.ts';

describe('GraphQL cursors (cursor.ts)', () => {
  it('carries the REST cursor and its walk back and forth, whatever its characters', () => {
    const tag = listTag('transactions', { account: 'ak_x', limit: 5 });
    for (const position of [
      { cursor: '12-3-0', rev: false },
      { cursor: '7', rev: true },
      { cursor: '100|ak_2x', rev: false },
      { cursor: 'näme.chain', rev: true },
    ])
      expect(decodeCursor(tag, encodeCursor(tag, position))).to.deep.equal(position);
  });

  it('names a list by its field and filters, not by its page size or direction', () => {
    const tag = listTag('transactions', { account: 'ak_x', limit: 5, direction: 'forward' });
    expect(listTag('transactions', { limit: 100, account: 'ak_x', cursor: 'c' })).to.equal(tag);
    expect(listTag('transactions', { account: 'ak_y' })).to.not.equal(tag);
    expect(listTag('names', { account: 'ak_x' })).to.not.equal(tag);
    expect(listTag('keyBlocks', { fromHeight: 1 })).to.not.equal(listTag('keyBlocks', {}));
  });

  it('refuses a cursor of another list and any text that is no cursor of ours', () => {
    const names = listTag('names', {});
    const cursor = encodeCursor(listTag('keyBlocks', {}), { cursor: '10', rev: false });
    expect(() => decodeCursor(names, cursor)).to.throw(/^invalid cursor: .* \(not a cursor of this list\)$/);
    for (const text of [
      '',
      '10',
      '@@@',
      Buffer.from(`${names}x10`).toString('base64url'),
      Buffer.from(`${names}f`).toString('base64url'),
    ])
      expect(() => decodeCursor(names, text), text).to.throw(/^invalid cursor/);
  });
});
