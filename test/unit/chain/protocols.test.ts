import { expect } from 'chai';
import {
  auctionEndAfterBid,
  auctionTimeout,
  claimMaxExpiration,
  namePointersMaxCount,
  Protocol,
} from '../../../src/chain/aens.ts';
import { blockRewards, REWARD_RULES, type RewardedBlock } from '../../../src/chain/block-rewards.ts';
import { forkCredits, hardForkCreditsOf } from '../../../src/chain/hard-forks.ts';
import {
  isKnownProtocol,
  LATEST_KNOWN_PROTOCOL,
  PROTOCOL_NAMES,
  protocolReport,
  rulesProtocol,
} from '../../../src/chain/protocols.ts';

// names of every auctioned length class and one claimed at once
const NAMES = ['abcd.chain', 'abcdefgh.chain', 'abcdefghijkl.chain', 'abcdefghijklm.chain'];
const block = (height: number, beneficiary: string, version: number): RewardedBlock => ({
  height,
  beneficiary,
  version,
});

/** Every rule the middleware applies by protocol, as one value per protocol to compare across protocols. */
function rulesAt(protocol: number): unknown {
  return {
    auctionTimeouts: NAMES.map((n) => auctionTimeout(n, protocol)),
    bidEnds: NAMES.map((n) => auctionEndAfterBid(n, protocol, 1000, 1100)),
    claimMaxExpiration: claimMaxExpiration(protocol),
    namePointersMaxCount: namePointersMaxCount(protocol),
    rewards: (['mainnet', 'testnet', 'devnode'] as const).map((name) =>
      blockRewards(REWARD_RULES[name], block(999, 'ak_a', protocol), block(1000, 'ak_b', protocol), 12345n),
    ),
    // the node's fork files: none for a protocol past Lima (aec_block_fork)
    forkCredits: forkCredits(
      hardForkCreditsOf({ limaAccounts: [{ kind: 'accounts_lima', account: 'ak_x', amount: 1n }] }),
      protocol - 1,
      protocol,
    ),
  };
}

describe('consensus protocols (aec_hard_forks)', () => {
  it('knows Roma to Arcus by the node’s names, Arcus (7) the newest', () => {
    expect(PROTOCOL_NAMES).to.deep.equal({
      1: 'roma',
      2: 'minerva',
      3: 'fortuna',
      4: 'lima',
      5: 'iris',
      6: 'ceres',
      7: 'arcus',
    });
    expect(Protocol.ARCUS).to.equal(7);
    expect(LATEST_KNOWN_PROTOCOL).to.equal(Protocol.ARCUS);
    expect([0, 1, 7, 8, 9].map(isKnownProtocol)).to.deep.equal([false, true, true, false, false]);
  });

  it('reads Arcus blocks with every rule unchanged from Ceres (names, auctions, rewards, dev fund, fork credits)', () => {
    expect(rulesAt(Protocol.ARCUS)).to.deep.equal(rulesAt(Protocol.CERES));
    // and the table does tell protocols apart where the node does (Iris to Ceres changed the auctions)
    expect(rulesAt(Protocol.CERES)).to.not.deep.equal(rulesAt(Protocol.IRIS));
  });

  it('follows a protocol above the known ones with the last known rules', () => {
    expect(rulesProtocol(8)).to.equal(Protocol.ARCUS);
    expect(rulesProtocol(12)).to.equal(Protocol.ARCUS);
    expect(rulesProtocol(Protocol.CERES)).to.equal(Protocol.CERES);
    for (const future of [8, 9, 20]) expect(rulesAt(future)).to.deep.equal(rulesAt(LATEST_KNOWN_PROTOCOL));
  });

  it('reports a known protocol by name and an unknown one as such, with the rules it gets', () => {
    expect(protocolReport(7, 100)).to.deep.equal({
      version: 7,
      name: 'arcus',
      known: true,
      rules: 7,
      since_height: 100,
    });
    expect(protocolReport(8, 250)).to.deep.equal({
      version: 8,
      name: null,
      known: false,
      rules: 7,
      since_height: 250,
    });
  });
});
