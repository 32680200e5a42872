/** @module contractsOfAnswer and hyperchainConfig: what the node's answers make of a hyperchain. */
import { expect } from 'chai';
import { hyperchainConfig } from '../../../../src/api/mdw/resources/hyperchain-config.ts';
import { contractsOfAnswer } from '../../../../src/api/mdw/resources/hyperchain-source.ts';
import { NodeError } from '../../../../src/node/errors.ts';

const STAKING = 'ct_KJgjAXMtRF68AbT5A2aC9fTk8PA4WFv26cFSY27fXs6FtYQHK';
const ELECTION = 'ct_LRbi65kmLtE7YMkG6mvG5TxAXTsPJDZjAtsPuaXtRyPA7gnfJ';

describe('contractsOfAnswer', () => {
  it('reads the contracts of a hyperchain node, the optional ones when present', () => {
    const text = JSON.stringify({ staking: STAKING, election: ELECTION, rewards: STAKING });
    expect(contractsOfAnswer({ status: 200, text })).to.deep.equal({
      staking: STAKING,
      election: ELECTION,
      rewards: STAKING,
    });
    expect(contractsOfAnswer({ status: 200, text: JSON.stringify({ staking: STAKING }) })).to.deep.equal({
      staking: STAKING,
      election: null,
      rewards: null,
    });
  });

  it("reads the node's 404 as a chain that is not a hyperchain", () => {
    expect(contractsOfAnswer({ status: 404, text: '{"reason":"not found"}' })).to.equal(undefined);
  });

  it('decides nothing on another answer: a NodeError', () => {
    for (const answer of [
      { status: 503, text: 'busy' },
      { status: 200, text: '{"election":"ct_x"}' },
    ])
      expect(() => contractsOfAnswer(answer), answer.text).to.throw(NodeError);
  });
});

describe('hyperchainConfig', () => {
  it("is ae_mdw's config shape made of the node's answers alone", () => {
    const config = hyperchainConfig({
      contracts: { staking: STAKING, election: ELECTION, rewards: STAKING },
      status: {
        network_id: 'hc_devnet',
        protocols: [
          { version: 6, effective_at_height: 0 },
          { version: 7, effective_at_height: 100 },
        ],
      },
      pin: { epoch: 3, parent_type: 'AE2AE', parent_network_id: 'ae_devnet' },
      epochLength: 10,
    });
    expect(config).to.deep.equal({
      consensus: [
        {
          consensus_key: '0',
          type: 'hyperchain',
          child_epoch_length: 10,
          staking_contract: STAKING,
          election_contract: ELECTION,
          rewards_contract: STAKING,
          parent_chain: { consensus: { type: 'AE2AE', network_id: 'ae_devnet' } },
        },
      ],
      hard_forks: { '6': 0, '7': 100 },
      fork_management: { network_id: 'hc_devnet' },
    });
  });

  it('leaves out what the node did not state (no pin yet, no epoch stored)', () => {
    const config = hyperchainConfig({
      contracts: { staking: STAKING, election: null, rewards: null },
      status: null,
      pin: undefined,
    });
    expect(config).to.deep.equal({
      consensus: [{ consensus_key: '0', type: 'hyperchain', staking_contract: STAKING }],
      hard_forks: {},
      fork_management: { network_id: null },
    });
  });
});
