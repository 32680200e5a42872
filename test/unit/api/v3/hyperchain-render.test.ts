/** @module The hyperchain items (render-hyperchain.ts) and the `<epoch>-<ak_…>` cursor: exact stakes, ae_mdw's fields. */
import { expect } from 'chai';
import { stringifyJson } from '../../../../src/chain/json.ts';
import { EPOCH_ACCOUNT_CURSOR } from '../../../../src/api/mdw/resources/cursors.ts';
import { epochObject, validatorObject } from '../../../../src/shapes/v3/render-hyperchain.ts';

const V = 'ak_2bMCPWriTf7HcJ2Py7SWuqG9CM3Z3Mux5AnuM4PQqaZ457FfWW';
const STAKE = 1_234_567_890_123_456_789_012_345n;

describe('render-hyperchain', () => {
  it("renders an epoch as ae_mdw's EpochInfo with its seed and parent block hash, stakes exact", () => {
    const json = stringifyJson(
      epochObject({
        epoch: 7,
        first: 61,
        last: 70,
        length: 10,
        seed: 'kh_seed',
        parentBlockHash: 'kh_parent',
        lastLeader: V,
        startTimeMs: 1_700_000_000_000,
        pinReward: 5n,
        validators: [{ validator: V, stake: STAKE }],
      }),
    );
    expect(json).to.equal(
      `{"epoch":7,"first":61,"last":70,"length":10,"seed":"kh_seed","last_pin_height":60,` +
        `"parent_block_hash":"kh_parent","last_leader":"${V}","epoch_start_time":1700000000000,` +
        `"validators":[{"validator":"${V}","stake":${STAKE}}]}`,
    );
  });

  it('renders a validator with rewards not paid yet as 0 and its pins by epoch, exact', () => {
    const v = validatorObject({
      epoch: 7,
      validator: V,
      stake: STAKE,
      delegates: 2,
      rewardsEarned: null,
      pinningHistory: new Map([[3, STAKE]]),
    });
    expect(stringifyJson(v)).to.equal(
      `{"epoch":7,"validator":"${V}","total_stakes":${STAKE},"delegates":2,"rewards_earned":0,` +
        `"pinning_history":{"3":${STAKE}}}`,
    );
  });
});

describe('EPOCH_ACCOUNT_CURSOR', () => {
  it('round-trips an epoch and an account', () => {
    const key = { epoch: 12, account: V };
    expect(EPOCH_ACCOUNT_CURSOR.decode(EPOCH_ACCOUNT_CURSOR.encode(key))).to.deep.equal(key);
    expect(EPOCH_ACCOUNT_CURSOR.decode(undefined)).to.equal(undefined);
  });

  it('refuses anything else with `invalid cursor`', () => {
    for (const text of ['12', `x-${V}`, '12-ak_x', `12-${V}-1`, `-${V}`])
      expect(() => EPOCH_ACCOUNT_CURSOR.decode(text), text).to.throw(`invalid cursor: ${text}`);
  });
});
