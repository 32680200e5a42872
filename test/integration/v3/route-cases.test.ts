/**
 * @module The cases' chain (route-cases.ts: every transaction type, tokens, NFTs and swaps over 300 generations) made
 * and loaded once for the two suites that ask every /v3 operation over it: conformance (conformance-suite.ts, the
 * answers against ae_mdw's schemas) and route plans (route-plans-suite.ts, the statements' plans). Both only read it;
 * the chain and its load were most of either file's time when each made its own.
 */
import { describeConformance } from './conformance-suite.ts';
import { findIds, startCasesChain, type CasesChain } from './route-cases.ts';
import { describeRoutePlans, Recorder } from './route-plans-suite.ts';

describe('/v3 over the cases chain', function () {
  this.timeout(600_000);
  const chain = {} as CasesChain;
  const recorder = new Recorder();

  before(async () => {
    recorder.install(); // before the chain's pool makes its clients, which bind pg.Client's query
    chain.v3 = await startCasesChain('v3-conformance');
    chain.ids = await findIds(chain.v3);
  });
  after(async () => {
    await chain.v3?.close();
    recorder.uninstall();
  });

  describeConformance(chain);
  describeRoutePlans(chain, recorder);
});
