/** @module The hyperchain devnode's consensus arithmetic (src/devnode/contracts/hc-schedule.ts), pure, table-driven. */
import { hash as sdkHash } from '@aeternity/aepp-sdk';
import { expect } from 'chai';
import { idBytes } from '../../src/chain/id-cache.ts';
import {
  entropyHeight,
  EOE_FLAG,
  hcFlags,
  HOLE_FLAG,
  keyTarget,
  sortValidators,
  validatorSchedule,
  type Stake,
} from '../../src/devnode/contracts/hc-schedule.ts';

const A = 'ak_2a1j2Mk9YSmC1gioUq4PWRm3bsv887MbuRVwyv4KaUGoR1eiKi';
const B = 'ak_11111111111111111111111111111111273Yts';
const C = 'ak_2p5878zbFhxnrm7meL7TmqwtvBaqcBddyp5eGzZbovZ5FeVfcw';

/** pickBySdk is HCElection's validator_schedule written again over the SDK's blake2b: the oracle. */
function pickBySdk(seed: Uint8Array, validators: readonly Stake[], length: number): string[] {
  const total = validators.reduce((s, [, v]) => s + v, 0n);
  const out: string[] = [];
  let h = Uint8Array.from(sdkHash(seed));
  for (let i = 0; i < length; i++) {
    h = Uint8Array.from(sdkHash(h));
    let n = BigInt(`0x${Buffer.from(h).toString('hex')}`) % total;
    for (const [v, s] of validators) {
      if (n < s) {
        out.push(v);
        break;
      }
      n -= s;
    }
  }
  return out;
}

describe('hyperchain schedule', () => {
  it('validatorSchedule picks by stake from the chained blake2b of the seed, as HCElection does', () => {
    const validators: Stake[] = [
      [A, 3n * 10n ** 24n],
      [B, 10n ** 24n + 7n],
      [C, 5n],
    ];
    for (const seed of [new Uint8Array(32), Uint8Array.from(Buffer.from('parent block hash')), new Uint8Array(0)]) {
      expect(validatorSchedule(seed, validators, 50)).to.deep.equal(pickBySdk(seed, validators, 50));
    }
    const counts = new Map<string, number>();
    for (const v of validatorSchedule(new Uint8Array(32), validators, 400)) counts.set(v, (counts.get(v) ?? 0) + 1);
    expect(counts.get(A)!).to.be.greaterThan(counts.get(B)!); // three times the stake, about three times the slots
    expect(() => validatorSchedule(new Uint8Array(32), [], 1)).to.throw(RangeError);
  });

  it('entropyHeight is the first parent block of parent epoch max(0, epoch − 3)', () => {
    const table: [number, number][] = [
      [1, 10],
      [3, 10],
      [4, 20],
      [10, 80],
    ];
    for (const [epoch, height] of table) expect(entropyHeight(epoch, 10, 10), String(epoch)).to.equal(height);
  });

  it('keyTarget counts produced blocks, keeps a hole’s and is the height at an end of epoch; hcFlags sets the bits', () => {
    expect(keyTarget(4, 5, { hole: false, eoe: false })).to.equal(5);
    expect(keyTarget(4, 6, { hole: true, eoe: false })).to.equal(4);
    expect(keyTarget(7, 10, { hole: false, eoe: true })).to.equal(10);
    expect(hcFlags({ hole: true, eoe: false })).to.equal(HOLE_FLAG);
    expect(hcFlags({ hole: false, eoe: true })).to.equal(EOE_FLAG);
    expect(hcFlags({ hole: false, eoe: false })).to.equal(0);
    expect(HOLE_FLAG).to.equal(1 << 29);
    expect(EOE_FLAG).to.equal(1 << 28);
  });

  it('sortValidators puts the largest stake first and breaks ties by the address bytes', () => {
    const sorted = sortValidators(
      [
        [A, 5n],
        [B, 9n],
        [C, 5n],
      ],
      idBytes,
    );
    expect(sorted[0]).to.deep.equal([B, 9n]);
    const tied = Buffer.compare(Buffer.from(idBytes(A)), Buffer.from(idBytes(C))) < 0 ? [A, C] : [C, A];
    expect(sorted.slice(1).map(([v]) => v)).to.deep.equal(tied);
  });
});
