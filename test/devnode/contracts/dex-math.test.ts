/** @module The DEX's pure parts: a pair's output for an input (0.3 % fee) and the factory's token order. */
import { expect } from 'chai';
import { amountOut, sortTokens } from '../../../src/devnode/contracts/dex.ts';
import { Revert } from '../../../src/devnode/contracts/frame.ts';
import { idBytes } from '../../../src/chain/id-cache.ts';

describe('devnode DEX arithmetic', () => {
  it('pays out what the constant product allows after the 0.3 % fee, rounding down', () => {
    // 1000 in against 10^6 : 10^6 → 997·10^9 / (10^9 + 997) = 996.006… → 996
    expect(amountOut(1000n, 10n ** 6n, 10n ** 6n)).to.equal(996n);
    const [reserveIn, reserveOut, amountIn] = [10n ** 30n, 3n * 10n ** 20n, 7n * 10n ** 25n];
    const out = amountOut(amountIn, reserveIn, reserveOut);
    // the pair's check: (reserveIn·1000 + in·997)·(reserveOut − out) ≥ reserveIn·reserveOut·1000
    const holds = (o: bigint): boolean =>
      (reserveIn * 1000n + amountIn * 997n) * (reserveOut - o) >= reserveIn * reserveOut * 1000n;
    expect(holds(out), 'the pair accepts the swap').to.equal(true);
    expect(holds(out + 1n), 'one more would break it').to.equal(false);
  });

  it('reverts for an empty input or an empty pair', () => {
    expect(() => amountOut(0n, 1n, 1n)).to.throw(Revert, /INSUFFICIENT_INPUT_AMOUNT/);
    expect(() => amountOut(1n, 0n, 1n)).to.throw(Revert, /INSUFFICIENT_LIQUIDITY/);
  });

  it('orders a pair’s tokens by their 32 address bytes, whichever comes first', () => {
    const a = 'ct_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi';
    const b = 'ct_11111111111111111111111111111111273Yts';
    expect(Buffer.compare(Buffer.from(idBytes(b)), Buffer.from(idBytes(a)))).to.equal(-1);
    expect(sortTokens(a, b)).to.deep.equal([b, a]);
    expect(sortTokens(b, a)).to.deep.equal([b, a]);
  });
});
