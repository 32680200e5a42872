/**
 * @module aepp-sdk's AeSdk on a live hyperchain with the middleware as the node URL (issue 45): a spend, a name claim
 * and a contract deployed and called through the gateway, each checked against the devnode's chain, then read back
 * through the SDK's Middleware at /mdw, the current epoch included.
 */
import { AeSdk, Contract, MemoryAccount, Middleware, Name, Node } from '@aeternity/aepp-sdk';
import { expect } from 'chai';
import { BYTECODE, startDevnode, TOKEN_ACI, type Devnode } from '../../../src/devnode/index.ts';
import { waitFor } from '../../support/wait.ts';
import { silentLog } from '../api/harness.ts';
import { quietSdkBigIntWarnings, startPipeline, type PipelineStack } from '../api/pipeline-stack.ts';

const AE = 10n ** 18n;
const EPOCH_LENGTH = 5;

describe('AeSdk on a hyperchain through the gateway', function () {
  this.timeout(120_000);
  let devnode: Devnode;
  let stack: PipelineStack;
  let aeSdk: AeSdk;
  let mdw: Middleware;
  let restoreWarn: () => void;
  const alice = MemoryAccount.generate();
  const bob = MemoryAccount.generate();

  before(async () => {
    restoreWarn = quietSdkBigIntWarnings();
    devnode = await startDevnode(
      {
        port: 0,
        internalPort: 0,
        hyperchain: { epochLength: EPOCH_LENGTH },
        microBlockIntervalMs: 10,
        keyBlockIntervalMs: 150,
        accounts: [{ secretKey: alice.secretKey, balance: 1000n * AE }],
      },
      silentLog,
    );
    stack = await startPipeline(devnode, 'mdw_hc_gateway');
    // the SDK finds the gateway a hyperchain (hc_devnet is no network it knows: it asks /v3/hyperchain/contracts)
    aeSdk = new AeSdk({
      nodes: [{ name: 'gateway', instance: new Node(stack.url) }],
      accounts: [alice],
      _expectedMineRate: 300,
      _microBlockCycle: 30,
    } as never);
    mdw = new Middleware(`${stack.url}/mdw`);
  });
  after(async () => {
    restoreWarn?.();
    await stack?.stop();
    await devnode?.stop();
  });

  it('spends, claims a name and deploys and calls a contract, as the hyperchain holds them', async () => {
    expect(await (aeSdk.api as unknown as { _isHyperchain: () => Promise<boolean> })._isHyperchain()).to.equal(true);
    const spent = await aeSdk.spend((3n * AE).toString(), bob.address);
    expect(devnode.chain.txs.get(spent.hash)?.blockHash).to.equal(spent.blockHash);
    expect(await aeSdk.getBalance(bob.address)).to.equal((3n * AE).toString());

    const name = new Name(`hyperchain${Date.now()}.chain`, aeSdk.getContext());
    const claimed = await name.claim();
    expect((await name.getState()).owner).to.equal(alice.address);
    expect(devnode.chain.txs.get(claimed.hash)?.blockHash).to.equal(claimed.blockHash);

    const token = await Contract.initialize<{
      init: (name: string, decimals: bigint, symbol: string, supply?: bigint) => void;
      transfer: (to: string, amount: bigint) => void;
      balance: (o: string) => bigint | undefined;
    }>({ ...aeSdk.getContext(), aci: TOKEN_ACI as never, bytecode: BYTECODE.aex9 as `cb_${string}` });
    await token.$deploy(['HC Token', 0n, 'HCT', 100n]);
    const call = await token.transfer(bob.address, 40n);
    expect((await token.balance(bob.address)).decodedResult).to.equal(40n);

    // read back through ae_mdw's API once the populator stored them
    const top = devnode.height();
    await waitFor('the populator to store the flows', async () => (await mdw.getStatus()).mdwHeight >= top, 30_000);
    for (const hash of [spent.hash, claimed.hash, call.hash!]) {
      const tx = await mdw.getTransaction(hash as `th_${string}`);
      expect(tx.blockHash, hash).to.equal(devnode.chain.txs.get(hash)!.blockHash);
    }
    // the chain goes on meanwhile: the current epoch is the top's or a later one
    const epoch = await mdw.getEpochTop();
    expect(epoch.epoch).to.be.at.least(Math.floor((top - 1) / EPOCH_LENGTH) + 1);
    expect(epoch).to.include({ length: EPOCH_LENGTH, first: (epoch.epoch - 1) * EPOCH_LENGTH + 1 });
  });
});
