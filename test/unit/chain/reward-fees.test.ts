/**
 * @module What a transaction adds to its generation's fees (chain/reward-fees.ts), hand-checked against node 7.2.2's
 * source: aetx:deep_fee/2 (a wrapper's inner fee, a GAMetaTx's only when its inner transaction succeeded) and
 * aec_chain_state:calculate_gas_fee (gas used × gas price of each call object the generation left: a contract call's
 * or create's, a GAAttachTx's init, a GAMetaTx's authentication, a ChannelForceProgressTx's off-chain call).
 */
import { expect } from 'chai';
import { rewardFees } from '../../../src/chain/reward-fees.ts';

const spend = { type: 'SpendTx', fee: 20_000 };
const call = { type: 'ContractCallTx', fee: 100_000, gas_price: 1_000_000_000 };
const meta = (inner: typeof spend | typeof call) => ({
  type: 'GAMetaTx',
  fee: 50_000,
  gas_price: 2_000_000_000,
  tx: { signatures: [], tx: inner },
});

describe('rewardFees (chain/reward-fees.ts)', () => {
  it("counts a contract call's fee and its gas used times its price", () => {
    expect(rewardFees(call, { callGasUsed: 300n })).to.equal(100_000n + 300n * 1_000_000_000n);
    expect(rewardFees(spend, { callGasUsed: 300n })).to.equal(20_000n);
  });

  it("counts a GAAttachTx's init gas and a GAMetaTx's authentication gas", () => {
    const attach = { type: 'GAAttachTx', fee: 80_000, gas_price: 1_000_000_000 };
    expect(rewardFees(attach, { gaGasUsed: 700n })).to.equal(80_000n + 700n * 1_000_000_000n);
    expect(rewardFees(meta(spend), { gaGasUsed: 40n, gaOk: true })).to.equal(50_000n + 40n * 2_000_000_000n + 20_000n);
    // the inner call's gas beside the authentication's
    expect(rewardFees(meta(call), { gaGasUsed: 40n, gaOk: true, callGasUsed: 300n })).to.equal(
      50_000n + 40n * 2_000_000_000n + 100_000n + 300n * 1_000_000_000n,
    );
  });

  it("leaves out a failed inner transaction's fee and gas, never the authentication's", () => {
    expect(rewardFees(meta(spend), { gaGasUsed: 40n, gaOk: false })).to.equal(50_000n + 40n * 2_000_000_000n);
    expect(rewardFees(meta(call), { gaGasUsed: 40n, gaOk: false, callGasUsed: 40n })).to.equal(
      50_000n + 40n * 2_000_000_000n,
    );
  });

  it("counts a PayingForTx's inner fee and gas, and a force progress's call at its update's gas price", () => {
    const paid = { type: 'PayingForTx', fee: 5, tx: { signatures: [], tx: call } };
    expect(rewardFees(paid, { callGasUsed: 11n })).to.equal(5n + 100_000n + 11n * 1_000_000_000n);
    const force = { type: 'ChannelForceProgressTx', fee: 9, update: { op: 'OffChainCallContract', gas_price: 3 } };
    expect(rewardFees(force, { callGasUsed: 100n })).to.equal(9n + 300n);
  });

  it('keeps integers above 2^53 exact and counts gas no info told as 0', () => {
    const fee = 2n ** 60n + 1n;
    expect(rewardFees({ type: 'ContractCallTx', fee, gas_price: 1 }, {})).to.equal(fee);
  });
});
