import { expect } from 'chai';
import { decode } from '../../src/chain/encoding.ts';
import { generateChain, scaleChain } from '../../src/devnode/index.ts';
import { hotSpotKeys, hotSpotSizes, share } from '../../src/devnode/traffic/hot-spots.ts';
import { MAINNET } from '../../src/devnode/traffic/mainnet-like.ts';
import { decodeSignedTx, decodeTx } from '../../src/devnode/tx-codec.ts';

describe('devnode --scale: a mainnet-like chain with hot spots', () => {
  it('sizes the chain and its hot spots in proportion to mainnet, a tenth holding those of issue 57', () => {
    const tenth = scaleChain(10);
    expect(tenth.generations).to.be.at.least(114_000);
    expect(tenth.hotSpots.contractCalls + tenth.hotSpots.tokenTransfers, 'the hot account').to.be.at.least(1_000_000);
    expect(tenth.hotSpots.tokenHolders).to.be.at.least(100_000);
    expect(tenth.hotSpots.names).to.be.at.least(500_000);
    expect(tenth.hotSpots.channelUpdates).to.be.at.least(50_000);
    expect(tenth.hotSpots.oracleQueries).to.be.at.least(50_000);
    expect(scaleChain(1).generations).to.equal(Math.ceil(MAINNET.generations / 10_000) * 100);
    expect(hotSpotSizes(0.001).names).to.equal(tenth.hotSpots.names / 100);
    expect(() => scaleChain(0)).to.throw(RangeError);
    expect(() => scaleChain(101)).to.throw(RangeError);
  });

  it('spreads a total evenly over the generations, none lost', () => {
    for (const [total, generations] of [
      [5000, 1139],
      [7, 100],
      [100, 7],
    ] as const) {
      const shares = Array.from({ length: generations }, (_, i) => share(total, i + 1, generations));
      expect(shares.reduce((a, b) => a + b, 0)).to.equal(total);
      expect(Math.max(...shares) - Math.min(...shares)).to.be.at.most(Math.ceil(total / generations));
    }
  });

  it('generates every hot spot valid, from the seed alone, and keeps each transaction readable by its hash', function () {
    this.timeout(300_000);
    const { generations, hotSpots } = scaleChain(0.01);
    const { chain, rejected, txTypes } = generateChain({
      generations,
      hotSpots,
      seed: 'scale-test',
      profile: 'mainnet-like',
    });
    expect(rejected).to.equal(0);
    const [account, oracle, initiator] = hotSpotKeys('scale-test');
    // the hot account signs the contract's calls and the token's transfers, after deploying both
    const nonce = chain.state.accounts.get(account!.address)!.nonce;
    expect(nonce).to.equal(hotSpots.contractCalls + hotSpots.tokenTransfers + 2);
    const token = [...chain.state.contracts.entries()].filter(([, c]) => c.ownerId === account!.address);
    expect(token.length).to.equal(2);
    const holders = token.map(([id]) => Number(chain.state.contractStore.get(`${id}/holders`)));
    // the owner and its recipients: 64 for the contract, the token's new holders
    expect(holders.sort((a, b) => a - b)).to.deep.equal([65, hotSpots.tokenHolders + 1].sort((a, b) => a - b));
    const channel = [...chain.state.channels.entries()]
      .map(([, c]) => c)
      .find((c) => c.initiatorId === initiator!.address)!;
    expect(channel.round).to.equal(1 + hotSpots.channelUpdates);
    expect(chain.state.oracles.get(oracle!.address.replace('ak_', 'ok_'))).to.not.equal(undefined);
    expect(txTypes.NamePreclaimTx).to.be.at.least(hotSpots.names);
    expect(txTypes.OracleQueryTx).to.be.at.least(hotSpots.oracleQueries);
    const auctions = [...chain.state.auctions.entries()].filter(([, a]) => /^h[0-9a-z]{8}\.chain$/.test(a.name));
    expect(auctions.length, 'short names in auction').to.be.greaterThan(0);
    expect(auctions.some(([, a]) => a.bidder !== account!.address && a.bid > 0n)).to.equal(true);
    // the store gives back each transaction's bytes by its hash, and the fields they decode to
    let checked = 0;
    for (const kb of chain.keyBlocks)
      for (const mb of kb.micro)
        for (const r of mb.txs) {
          const found = chain.txs.get(r.hash)!;
          expect(Buffer.from(found.signedBytes).equals(Buffer.from(r.signedBytes))).to.equal(true);
          expect(found.blockHash).to.equal(mb.hash);
          expect(found.tx).to.deep.equal(decodeTx(decodeSignedTx(r.signedBytes).txBytes));
          expect(decode(found.hash).bytes.length).to.equal(32);
          checked++;
        }
    expect(checked).to.equal(chain.txs.size);
    expect(chain.txs.get(`th_${'1'.repeat(49)}`)).to.equal(undefined);
    // the same seed makes the same chain: asked of a chain a tenth as long with a tenth of each hot spot, generated
    // twice (the same code draws every hot spot at any size, at a fifth of the work of this one's again)
    const few = hotSpotSizes(0.00001);
    const small = () => generateChain({ generations: 20, hotSpots: few, seed: 'scale-test', profile: 'mainnet-like' });
    const once = small();
    const hot = once.chain.state.accounts.get(account!.address)!.nonce;
    expect(hot, 'the hot spots are drawn').to.equal(few.contractCalls + few.tokenTransfers + 2);
    expect(small().chain.topHash, 'the same seed makes the same chain').to.equal(once.chain.topHash);
  });
});
