import { expect } from 'chai';
import { collectedState, badResponse, unlessGone, unreachable } from '../../../src/node/errors.ts';

describe('unlessGone (a read whose state a pruning node no longer holds)', () => {
  it('answers what the read answers', async () => {
    expect(await unlessGone(Promise.resolve({ info: 1 }))).to.deep.equal({ info: 1 });
  });

  it("answers undefined for the node's 410 and for its dry-run's garbage-collected state", async () => {
    expect(await unlessGone(Promise.reject(badResponse('/v3/transactions/th_x/info', 'gone', 410)))).to.equal(
      undefined,
    );
    expect(await unlessGone(Promise.reject(collectedState('/v3/dry-run', 'garbage collected')))).to.equal(undefined);
  });

  it('throws every other failure: a 404, an unreachable node, a bug', async () => {
    const notFound = badResponse('/v3/transactions/th_x/info', 'not found', 404);
    await unlessGone(Promise.reject(notFound)).then(
      () => expect.fail('a 404 is no gone state'),
      (err: unknown) => expect(err).to.equal(notFound),
    );
    const down = unreachable('/v3/status', new Error('ECONNREFUSED'));
    await unlessGone(Promise.reject(down)).then(
      () => expect.fail('an unreachable node is no gone state'),
      (err: unknown) => expect(err).to.equal(down),
    );
    const bug = new TypeError('not a node error');
    await unlessGone(Promise.reject(bug)).then(
      () => expect.fail('a bug is no gone state'),
      (err: unknown) => expect(err).to.equal(bug),
    );
  });
});
