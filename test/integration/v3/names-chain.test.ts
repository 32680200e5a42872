/**
 * @module The 60-generation chain of seed v3-names made and loaded once for the two suites that only read it: /v3/names
 * against the devnode's chain (names-suite.ts) and the statements a page costs (page-queries-suite.ts). The chain and
 * its load were most of either file's time when each made its own.
 */
import { startV3, type V3UnderTest } from './harness.ts';
import { describeNames } from './names-suite.ts';
import { describePageQueries } from './page-queries-suite.ts';

describe('/v3 over the v3-names chain', function () {
  this.timeout(180_000);
  const shared = {} as { v3: V3UnderTest };

  before(async () => {
    shared.v3 = await startV3(60, 'v3-names', () => ({}), { populatedOnce: true });
  });
  after(async () => {
    await shared.v3?.close();
  });

  describeNames(shared);
  describePageQueries(shared);
});
