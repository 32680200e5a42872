/**
 * @module The chain each node of NODE_URLS serves, asked before a role writes (issue 38): a node that is away is left
 * unchecked rather than holding the start, and with no node at all a writer waits for the first one back.
 */
import { expect } from 'chai';
import { startDevnode, type Devnode } from '../../../src/devnode/index.ts';
import { nodeChains } from '../../../src/node/chain-identity.ts';
import { startFaultProxy, type FaultProxy } from '../indexer/support/fault-proxy.ts';
import { capturedLog } from '../../support/captured-log.ts';
import { waitFor } from '../../support/wait.ts';

describe('node/chain-identity: which chain the nodes serve', function () {
  this.timeout(60_000);
  let devnode: Devnode;
  let away: FaultProxy;

  before(async () => {
    devnode = await startDevnode(
      {
        port: 0,
        internalPort: 0,
        mine: false,
        accounts: [],
        generate: { generations: 3, microBlocksPerGeneration: 1, txsPerMicroBlock: 1, seed: 'chain-identity' },
      },
      capturedLog().log,
    );
    away = await startFaultProxy(devnode.externalUrl);
  });
  afterEach(() => away.set('none'));
  after(async () => {
    await away.close();
    await devnode.stop();
  });

  const genesis = () => ({ networkId: 'ae_devnet', genesisHash: devnode.chain.keyBlocks[0]!.hash });

  it('tells each node its network id and genesis hash', async () => {
    const { log } = capturedLog();
    const chains = await nodeChains([devnode.externalUrl, away.url], { timeoutMs: 2000, wait: true }, log);
    expect(chains).to.deep.equal([
      { url: devnode.externalUrl, ...genesis() },
      { url: away.url, ...genesis() },
    ]);
  });

  it('leaves a node that is away unchecked, saying so once, instead of waiting for it', async () => {
    away.set('down');
    const { log, lines } = capturedLog();
    const chains = await nodeChains([devnode.externalUrl, away.url], { timeoutMs: 2000, wait: true }, log);
    expect(chains).to.deep.equal([{ url: devnode.externalUrl, ...genesis() }]);
    expect(
      lines.filter((l) => l.msg.startsWith('node unavailable')).map((l) => [l.msg, (l as { node?: string }).node]),
    ).to.deep.equal([['node unavailable: its chain identity is not checked', away.url]]);
  });

  it('waits for the first node to answer when none does, logging the wait and its end once each', async () => {
    away.set('down');
    const { log, lines } = capturedLog();
    const asked = nodeChains([away.url], { timeoutMs: 2000, wait: true }, log);
    const waiting = (): number => lines.filter((l) => l.msg.startsWith('node unavailable: waiting')).length;
    await waitFor('the wait to be logged', () => waiting() > 0);
    away.set('none');
    expect(await asked).to.deep.equal([{ url: away.url, ...genesis() }]);
    expect(waiting()).to.equal(1);
    expect(lines.filter((l) => l.msg === 'node available again').length).to.equal(1);
  });

  it('without waiting, answers what the nodes that answer serve, none when none does', async () => {
    away.set('down');
    const { log } = capturedLog();
    expect(await nodeChains([away.url], { timeoutMs: 2000, wait: false }, log)).to.deep.equal([]);
  });
});
