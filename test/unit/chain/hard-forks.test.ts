import { expect } from 'chai';
import { Protocol } from '../../../src/chain/aens.ts';
import { encode, reprefix } from '../../../src/chain/encoding.ts';
import { forkCredits, hardForkCreditsOf, parseHardForkFile } from '../../../src/chain/hard-forks.ts';

const key = (n: number): Uint8Array => new Uint8Array(32).fill(n);
const ak = (n: number): string => encode('ak', key(n));
const ct = (n: number): string => encode('ct', key(n));

describe('hard-fork credits (the node’s fork files)', () => {
  it('reads an accounts file exactly, amounts beyond 2^53 included', () => {
    expect(
      parseHardForkFile('minervaAccounts', `{"${ak(1)}": 123456789012345678901234567890, "${ak(2)}": 0}`),
    ).to.deep.equal([
      { kind: 'accounts_minerva', account: ak(1), amount: 123456789012345678901234567890n },
      { kind: 'accounts_minerva', account: ak(2), amount: 0n },
    ]);
  });

  it('reads a contracts file as credits to the contracts’ accounts (ak_, as ae_mdw names them)', () => {
    const spec = { amount: 42, vm_version: 5, abi_version: 3, nonce: 1, code: 'cb_AAAA', call_data: 'cb_AAAA' };
    expect(parseHardForkFile('limaContracts', JSON.stringify({ [ct(3)]: spec }))).to.deep.equal([
      { kind: 'contracts_lima', account: reprefix(ct(3), 'ak'), amount: 42n },
    ]);
  });

  it('refuses what is not the node’s format, naming the entry', () => {
    expect(() => parseHardForkFile('limaAccounts', '[]')).to.throw(/object/);
    expect(() => parseHardForkFile('limaAccounts', `{"${ct(1)}": 1}`)).to.throw(/ak_ id/);
    expect(() => parseHardForkFile('limaAccounts', `{"${ak(1)}": -1}`)).to.throw(new RegExp(ak(1)));
    expect(() => parseHardForkFile('limaAccounts', `{"${ak(1)}": 1.5}`)).to.throw(/non-negative integer/);
    expect(() => parseHardForkFile('limaContracts', `{"${ct(1)}": 5}`)).to.throw(/vm_version/);
    expect(() => parseHardForkFile('limaContracts', `{"${ct(1)}": {"amount": "x"}}`)).to.throw(/amount/);
  });

  it('a key block entering a protocol credits that protocol’s files only, and only once', () => {
    const credits = hardForkCreditsOf({
      minervaAccounts: parseHardForkFile('minervaAccounts', `{"${ak(1)}": 1}`),
      limaAccounts: parseHardForkFile('limaAccounts', `{"${ak(2)}": 2}`),
      limaExtraAccounts: parseHardForkFile('limaExtraAccounts', `{"${ak(3)}": 3}`),
    });
    expect(forkCredits(credits, Protocol.ROMA, Protocol.MINERVA).map((c) => c.amount)).to.deep.equal([1n]);
    expect(forkCredits(credits, Protocol.MINERVA, Protocol.MINERVA)).to.deep.equal([]);
    // a jump over Minerva and Fortuna (as local_lima_testnet has it) applies Lima's files alone
    expect(forkCredits(credits, Protocol.ROMA, Protocol.LIMA).map((c) => c.kind)).to.deep.equal([
      'accounts_lima',
      'accounts_extra_lima',
    ]);
    expect(forkCredits(credits, Protocol.LIMA, Protocol.IRIS)).to.deep.equal([]);
  });
});
