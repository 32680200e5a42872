/**
 * @module Issue 44: a status answer is never older than a second. After a quiet spell /mdw/v3/status answered the
 * reading of the previous request (height 37 with the chain at 69); a request finding it old now waits for a new one.
 */
import { expect } from 'chai';
import { STATUS_MAX_AGE_MS } from '../../../src/api/mdw/resources/status-source.ts';
import { startV3, type V3UnderTest } from './harness.ts';

/** quiet waits longer than the bound with no request to the server, as a monitor polling once a minute does. */
const quiet = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, STATUS_MAX_AGE_MS + 200));

describe('status answers after a quiet spell (issue 44)', function () {
  this.timeout(60_000);
  let t: V3UnderTest;

  before(async () => {
    t = await startV3(3, 'status-age');
  });
  after(() => t?.close());

  it('/mdw/v3/status, GraphQL status and /middleware/status answer the chain as stored now, not at the last request', async () => {
    const graphql = `/mdw/graphql?query=${encodeURIComponent('{ status { mdwHeight nodeHeight } }')}`;
    // each is read once at the old top: the readings a stale cache would answer with
    expect((await t.get('/mdw/v3/status')).body).to.include({ mdw_height: 3, node_height: 3 });
    expect((await t.get(graphql)).body).to.deep.equal({ data: { status: { mdwHeight: 3, nodeHeight: 3 } } });
    expect((await t.get('/middleware/status')).body).to.include({ height: 3 });
    for (const round of [1, 2]) {
      await t.devnode.mineKeyBlock();
      await t.devnode.mineKeyBlock();
      await t.synced();
      const top = 3 + 2 * round;
      await quiet();
      // the first request after the quiet spell, the one the old cache answered from its previous reading
      expect((await t.get('/mdw/v3/status')).body, `round ${round}`).to.include({ mdw_height: top, node_height: top });
      await quiet();
      expect((await t.get(graphql)).body, `round ${round}`).to.deep.equal({
        data: { status: { mdwHeight: top, nodeHeight: top } },
      });
      await quiet();
      expect((await t.get('/middleware/status')).body, `round ${round}`).to.include({ height: top, node_height: top });
    }
  });
});
