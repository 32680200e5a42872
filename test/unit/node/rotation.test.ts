import { expect } from 'chai';
import { failsOver } from '../../../src/node/rotation.ts';
import { badResponse, unreachable } from '../../../src/node/errors.ts';

describe('failsOver', () => {
  const answered = (path: string, status: number, reason: string) =>
    badResponse(path, `node answered ${path}: ${status} ${reason}`, status);

  it('passes on what another node may answer: no connection, 5xx, 410, a 404 of a node that may be behind', () => {
    expect(failsOver(unreachable('/key-blocks/current/height', new Error('other side closed')))).to.equal(true);
    expect(failsOver(answered('/generations/height/9', 503, 'busy'))).to.equal(true);
    expect(failsOver(answered('/transactions/th_x/info', 410, 'Tx info garbage collected'))).to.equal(true);
    expect(failsOver(answered('/generations/height/9', 404, 'Chain too short'))).to.equal(true);
    expect(failsOver(answered('/accounts/ak_x/hash/mh_y', 404, 'Block not found'))).to.equal(true);
    // at the node's top, a node behind may not have the account yet
    expect(failsOver(answered('/accounts/ak_x', 404, 'Account not found'))).to.equal(true);
  });

  it('keeps what every node answers alike: a 4xx, and an account absent after a block the node holds', () => {
    expect(failsOver(answered('/generations/height/x', 400, 'validation_error'))).to.equal(false);
    expect(failsOver(answered('/accounts/ak_x/hash/mh_y', 404, 'Account not found'))).to.equal(false);
  });
});
