import { expect } from 'chai';
import { chooseWalk } from '../../../src/db/queries/transactions-from-to.ts';

describe('db/queries/transactions-from-to chooseWalk', () => {
  const [sender, recipient] = ['ak_sender', 'ak_receiver'];

  it('walks the side whose rows cost less to read, and checks the other', () => {
    expect(chooseWalk(sender, recipient, { sender: 5n, recipient: 500_000n })).to.include({
      walked: sender,
      other: recipient,
    });
    expect(chooseWalk(sender, recipient, { sender: 500_000n, recipient: 5n })).to.include({
      walked: recipient,
      other: sender,
    });
  });

  it('walks a side with no such rows at all (the page is empty), and the receiver when both cost alike', () => {
    expect(chooseWalk(sender, recipient, { sender: 0n, recipient: 3n }).walked).to.equal(sender);
    expect(chooseWalk(sender, recipient, { sender: 3n, recipient: 0n }).walked).to.equal(recipient);
    expect(chooseWalk(sender, recipient, { sender: 7n, recipient: 7n }).walked).to.equal(recipient);
  });

  it("matches the walked side's field and the other's", () => {
    const bySender = chooseWalk(sender, recipient, { sender: 1n, recipient: 2n });
    expect(new RegExp(bySender.walkedFields).test('tx.sender_id')).to.equal(true);
    expect(new RegExp(bySender.otherFields).test('recipient_id')).to.equal(true);
    expect(new RegExp(bySender.otherFields).test('sender_id')).to.equal(false);
    const byRecipient = chooseWalk(sender, recipient, { sender: 2n, recipient: 1n });
    expect(new RegExp(byRecipient.walkedFields).test('recipient_id')).to.equal(true);
    expect(new RegExp(byRecipient.otherFields).test('sender_id payer_id')).to.equal(true);
  });
});
