import { expect } from 'chai';
import { generateChain } from '../../src/devnode/index.ts';
import { BUSY, expectedShape, isBusy, QUIET } from '../../src/devnode/traffic/mainnet-like.ts';
import { functionId } from '../../src/devnode/contracts/bytecode.ts';
import { decodeCallData } from '../../src/chain/fate.ts';

describe('devnode --mainnet-like profile', () => {
  // one chain for the cases that read one: 200 generations, two busy eras among quiet ones, the DEX set up by 100
  const generations = 200;
  let chain: ReturnType<typeof generateChain>['chain'];
  let rejected: number;
  before(() => ({ chain, rejected } = generateChain({ generations, seed: 'mainnet-like', profile: 'mainnet-like' })));

  it('makes two eras in ten busy, spread over the chain', () => {
    const busy = Array.from({ length: 1000 }, (_, i) => isBusy(i + 1, 1000));
    expect(busy.filter(Boolean).length).to.equal(200);
    expect(busy.slice(300, 400).every(Boolean)).to.equal(true);
    expect(busy.slice(700, 800).every(Boolean)).to.equal(true);
    expect(isBusy(1, 5)).to.equal(false);
  });

  it("expects mainnet's 39.7 transactions per generation on average, in several times more micro blocks", () => {
    const shape = expectedShape();
    expect(shape.transactions).to.be.within(35, 45);
    expect(shape.microBlocks).to.be.within(5, 12);
  });

  it('generates quiet generations of a few small micro blocks, busy ones of many, mostly spends and calls', () => {
    expect(rejected).to.equal(0);
    const quiet = chain.keyBlocks.slice(1).filter((kb) => !isBusy(kb.header.height, generations));
    const busy = chain.keyBlocks.slice(1).filter((kb) => isBusy(kb.header.height, generations));
    for (const kb of quiet) {
      expect(kb.micro.length).to.be.at.most(QUIET.microBlocks[1]);
      for (const mb of kb.micro) expect(mb.txs.length).to.be.within(...QUIET.transactions);
    }
    for (const kb of busy) {
      expect(kb.micro.length).to.be.within(...BUSY.microBlocks);
      for (const mb of kb.micro) expect(mb.txs.length).to.be.within(...BUSY.transactions);
    }
    expect(
      quiet.some((kb) => kb.micro.length === 0),
      'generations without micro blocks',
    ).to.equal(true);
    const types = chain.keyBlocks.flatMap((kb) => kb.micro.flatMap((mb) => mb.txs.map((t) => String(t.tx.type))));
    const share = (type: string): number => types.filter((t) => t === type).length / types.length;
    expect(share('SpendTx')).to.be.within(0.5, 0.67);
    expect(share('ContractCallTx')).to.be.within(0.2, 0.34);
    expect(new Set(types).size, 'the rest of the mix is there too').to.be.greaterThan(8);
  });

  it('makes one transaction in twenty a call that moves AE inside the contracts once the DEX is set up', () => {
    // the DEX's AE legs: a swap from AE (the router's Call.amount to wrapped AE), a withdrawal (wrapped AE's Chain.spend)
    const moving = new Set(['withdraw', 'swap_exact_ae_for_tokens'].map(functionId));
    const late = chain.keyBlocks.slice(101).flatMap((kb) => kb.micro.flatMap((mb) => mb.txs));
    const paid = late.filter(
      (t) =>
        t.tx.type === 'ContractCallTx' &&
        moving.has(decodeCallData(String(t.tx.call_data)).functionId) &&
        t.callInfo?.return_type === 'ok',
    );
    expect(paid.length / late.length).to.be.within(0.035, 0.07);
  });
});
