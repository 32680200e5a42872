import { expect } from 'chai';
import { loadConfig } from '../../../src/config/middleware.ts';
import type { Queryable } from '../../../src/db/connection/pool.ts';
import type { Logger } from '../../../src/base/log.ts';
import { chainTransferRules } from '../../../src/indexer/derived/chain-transfer-rules.ts';

/** recorded is a schema whose hc_chain holds the populator's record of the chain (no node is asked). */
const recorded = (hyperchain: boolean): Queryable =>
  ({
    query: () =>
      Promise.resolve({
        rows: [{ hyperchain, staking: hyperchain ? 'ct_staking' : null, election: null, rewards: null }],
      }),
  }) as unknown as Queryable;

/** warnings collects what the rules say, as a logger's warn. */
function warnings(): { log: Pick<Logger, 'warn'>; said: string[] } {
  const said: string[] = [];
  const warn = (_obj: unknown, msg?: string): void => void said.push(msg ?? '');
  return { log: { warn: warn as Logger['warn'] }, said };
}

describe('chainTransferRules (issue 45: a hyperchain pays no block rewards, without a setting)', () => {
  it("takes a hyperchain's rewards on a recorded hyperchain, whatever REWARD_RULES says, and says it ignored one set", async () => {
    const quiet = warnings();
    expect((await chainTransferRules(loadConfig({}), recorded(true), quiet.log)).rewards.name).to.equal('hyperchain');
    expect(quiet.said).to.deep.equal([]);
    const set = warnings();
    const rules = await chainTransferRules(loadConfig({ REWARD_RULES: 'testnet' }), recorded(true), set.log);
    expect(rules.rewards.name).to.equal('hyperchain');
    expect(set.said).to.have.length(1);
    expect(set.said[0]).to.match(/REWARD_RULES is ignored on a hyperchain/);
    // mdw dev's default for its devnode is not the operator's choice: nothing to say
    const byDefault = warnings();
    await chainTransferRules(loadConfig({}, { REWARD_RULES: 'devnode' }), recorded(true), byDefault.log);
    expect(byDefault.said).to.deep.equal([]);
  });

  it('takes the configured rewards on a chain recorded as not a hyperchain', async () => {
    const { log, said } = warnings();
    expect((await chainTransferRules(loadConfig({}), recorded(false), log)).rewards.name).to.equal('mainnet');
    const testnet = await chainTransferRules(loadConfig({ REWARD_RULES: 'testnet' }), recorded(false), log);
    expect(testnet.rewards.name).to.equal('testnet');
    expect(said).to.deep.equal([]);
  });
});
