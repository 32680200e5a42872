import { expect } from 'chai';
import { gaCallOutcome } from '../../../src/indexer/derived/ga-calls.ts';

describe('gaCallOutcome (the ga area)', () => {
  it("reads a GAMetaTx's authentication call (ga_info) and a GAAttachTx's init call (call_info)", () => {
    const inner = { call_info: { gas_used: 99, return_type: 'ok' } };
    expect(
      gaCallOutcome({
        ga_info: { gas_used: 412, return_type: 'ok', return_value: 'cb_/8CwV/U=', inner_object: inner },
      }),
    ).to.deep.equal({ gasUsed: 412n, returnType: 'ok' });
    expect(gaCallOutcome({ call_info: { gas_used: 188, return_type: 'revert' } })).to.deep.equal({
      gasUsed: 188n,
      returnType: 'revert',
    });
    // exact beyond 2^53 (the node's big integers are parsed as bigint)
    expect(gaCallOutcome({ call_info: { gas_used: 2n ** 60n, return_type: 'ok' } })?.gasUsed).to.equal(2n ** 60n);
  });

  it('has none for an info without a call', () => {
    expect(gaCallOutcome({ tx_info: 'ok' })).to.equal(undefined);
    expect(gaCallOutcome({ call_info: { return_type: 'ok' } })).to.equal(undefined);
  });
});
