/** @module Validly signed transactions with one field replaced by an odd value: accepted or refused, never a crash or a broken JSON number. */
import { expect } from 'chai';
import { DecodeError, encode } from '../../src/chain/encoding.ts';
import { generateChain, signBuilt } from '../../src/devnode/generator.ts';
import { RlpError } from '../../src/chain/rlp.ts';
import { TxRejected } from '../../src/devnode/rules/apply.ts';
import { TxCodecError, type TxFields } from '../../src/devnode/tx-codec.ts';
import { generationBody, microTxsBody } from '../../src/devnode/api/views.ts';

const ODD_VALUES = [
  0,
  1,
  2 ** 53 - 1,
  2n ** 64n,
  2n ** 300n,
  'x',
  '',
  encode('ak', Buffer.alloc(32)),
  encode('nm', Buffer.alloc(32)),
  { type: 'block', value: 0 },
  { type: 'delta', value: 2n ** 80n },
  [],
  [{ key: 'account_pubkey', id: encode('ct', Buffer.alloc(32)) }],
];

describe('devnode with mutated transactions', () => {
  it('accepts or refuses each one with a known error, and keeps every JSON integer an integer', () => {
    const g = generateChain({ generations: 40, seed: 'mutations' });
    const { chain } = g;
    const keys = new Map(g.accounts.map((k) => [k.address, k]));
    const records = [...chain.txs.values()];
    const outcomes = new Map<string, number>();
    for (let i = 0; i < 3000; i++) {
      const record = records[i % records.length]!;
      const fields = Object.keys(record.tx).filter((k) => k !== 'type' && k !== 'version');
      const field = fields[(i * 7) % fields.length]!;
      const tx: TxFields = { ...record.tx, [field]: ODD_VALUES[(i * 13) % ODD_VALUES.length] as TxFields[string] };
      const signerId = String(
        tx.sender_id ?? tx.account_id ?? tx.owner_id ?? tx.caller_id ?? tx.initiator_id ?? tx.from_id ?? tx.oracle_id,
      ).replace('ok_', 'ak_');
      const signer = keys.get(signerId) ?? g.accounts[0]!;
      if (field !== 'nonce') tx.nonce = (chain.pending.accounts.get(signer.address)?.nonce ?? 0) + 1;
      let outcome = 'accepted';
      try {
        chain.submit(signBuilt('ae_devnet', { tx, signers: [signer, g.accounts[1]!] }));
        if (i % 50 === 0) chain.mineKeyBlock();
      } catch (err) {
        if (!(
          err instanceof TxRejected ||
          err instanceof TxCodecError ||
          err instanceof DecodeError ||
          err instanceof RlpError
        ))
          throw err;
        outcome = (err as Error).name;
      }
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    }
    chain.mineKeyBlock();
    expect(outcomes.get('accepted')).to.be.greaterThan(100);
    expect(outcomes.get('TxRejected')).to.be.greaterThan(100);
    for (const kb of chain.keyBlocks) {
      const bodies = [generationBody(kb), ...kb.micro.map(microTxsBody)];
      for (const body of bodies) expect(body).to.not.match(/[:,[]-?\d+(\.\d+)?e[+-]?\d|:NaN|:Infinity/);
    }
  });
});
