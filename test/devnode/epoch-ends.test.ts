/**
 * @module A hyperchain devnode keeps the state at the key blocks that end an epoch (where a middleware reads each
 * epoch's consensus), thinned out past its bound: every read at a past block, and the election and staking contracts'
 * dry-runs at each old epoch end, answer as a devnode that keeps none and rebuilds every state.
 */
import { AciContractCallEncoder } from '@aeternity/aepp-calldata';
import { expect } from 'chai';
import {
  EOE_FLAG,
  HC_ELECTION_ACI,
  HC_STAKING_ACI,
  devnodeHyperchain,
  generateChain,
  type Chain,
} from '../../src/devnode/index.ts';
import { dryRun } from '../../src/devnode/api/dry-run.ts';
import type { WorldState } from '../../src/devnode/store/state.ts';

const EPOCH_LENGTH = 5;
const EPOCHS = 12;

/** contents is a state's every live entry, map by map, in a stable order */
const contents = (state: WorldState): Record<string, [string, unknown][]> =>
  Object.fromEntries(
    Object.entries(state).map(([name, map]) => [
      name,
      [...(map as WorldState['accounts']).entries()].sort(([a], [b]) => a.localeCompare(b)),
    ]),
  );

/** generate makes the same hyperchain each time, keeping the state of `kept` epoch ends */
const generate = (kept: number): Chain =>
  generateChain({
    generations: EPOCHS * EPOCH_LENGTH,
    seed: 'epoch-ends',
    networkId: 'hc_devnet',
    hyperchain: devnodeHyperchain({ epochLength: EPOCH_LENGTH }, 'hc_devnet', 'epoch-ends'),
    microBlocksPerGeneration: 1,
    txsPerMicroBlock: 3,
    epochEndsKept: kept,
  }).chain;

const election = new AciContractCallEncoder(HC_ELECTION_ACI as never);
const staking = new AciContractCallEncoder(HC_STAKING_ACI as never);

/** consensusReads is the body of the dry-runs a middleware asks at an epoch end, and the node's answer as text */
function consensusReads(chain: Chain, top: string): string {
  const hc = chain.options.hyperchain!;
  const call = (
    contract: string,
    calldata: string,
  ): { call_req: { contract: string; calldata: string; abi_version: number } } => ({
    call_req: { contract, calldata, abi_version: 3 },
  });
  const validators = hcValidators(chain);
  const txs = [
    call(hc.election, election.encodeCall('HCElection', 'epoch_info', [])),
    call(hc.election, election.encodeCall('HCElection', 'pin_reward_info', [])),
    call(hc.staking, staking.encodeCall('MainStaking', 'sorted_validators', [])),
    ...validators.map((v) => call(hc.staking, staking.encodeCall('MainStaking', 'get_validator_state', [v]))),
  ];
  const reply = dryRun(chain, { top, txs });
  expect(reply.status).to.equal(200);
  return reply.body;
}

/** hcValidators are the validators the top's epoch names (some of them registered later than an old epoch end) */
const hcValidators = (chain: Chain): string[] =>
  chain.options.hyperchain!.currentEpoch(chain.state).validators.map(([v]) => v);

describe('devnode --hyperchain: the state kept at epoch ends', function () {
  this.timeout(120_000);
  let kept: Chain;
  let rebuilt: Chain;

  before(() => {
    kept = generate(4);
    rebuilt = generate(0);
    expect(rebuilt.topHash).to.equal(kept.topHash);
  });

  it('answers the consensus dry-runs at every old epoch end as a devnode that rebuilds each state', () => {
    const ends = kept.keyBlocks.filter((kb) => ((kb.header.hcFlags ?? 0) & EOE_FLAG) !== 0);
    expect(ends.length).to.be.greaterThan(EPOCHS - 3);
    // oldest first, then newest first: a kept state above a block is of no use, one below is continued
    for (const kb of [...ends, ...ends.toReversed()])
      expect(consensusReads(kept, kb.hash), `at ${kb.header.height}`).to.equal(consensusReads(rebuilt, kb.hash));
  });

  it('gives every past block the state a rebuild from genesis gives, in any order', () => {
    const hashes = kept.keyBlocks.flatMap((kb) => [kb.hash, ...kb.micro.map((m) => m.hash)]);
    const order = [...hashes.filter((_, i) => i % 4 === 3), ...hashes.filter((_, i) => i % 4 !== 3).toReversed()];
    for (const h of order) expect(contents(kept.stateAfter(h)!), h).to.deep.equal(contents(rebuilt.stateAfter(h)!));
  });

  it('keeps them across a fork that replaces epoch ends, as the rebuilding devnode', () => {
    kept.fork(2 * EPOCH_LENGTH + 1);
    rebuilt.fork(2 * EPOCH_LENGTH + 1);
    expect(kept.topHash).to.equal(rebuilt.topHash);
    for (const kb of kept.keyBlocks.slice(-4 * EPOCH_LENGTH))
      expect(consensusReads(kept, kb.hash), `at ${kb.header.height}`).to.equal(consensusReads(rebuilt, kb.hash));
  });
});
