import { expect } from 'chai';
import { BriefValue } from '../../../src/api/http/brief-value.ts';

describe('BriefValue', () => {
  it('reads once per period, shares a reading under way, and does not keep a failed one', async () => {
    let now = 0;
    let reads = 0;
    let fail = false;
    const v = new BriefValue(
      async () => {
        reads++;
        if (fail) throw new Error('down');
        return reads;
      },
      1000,
      () => now,
    );
    expect(await Promise.all([v.get(), v.get(), v.get()])).to.deep.equal([1, 1, 1]);
    now = 999;
    expect(await v.get()).to.equal(1);
    now = 1000;
    fail = true;
    let error: unknown;
    await v.get().catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(Error);
    fail = false;
    expect(await v.get()).to.equal(3);
    expect(reads).to.equal(3);
  });
});
