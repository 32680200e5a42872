/**
 * @module aepp-sdk's AeSdk on a live hyperchain with the middleware as the node URL (issue 45): a spend, a name claim
 * and a contract deployed and called through the gateway, each checked against the devnode's chain, then read back
 * through the SDK's Middleware at /mdw, the current epoch included.
 */
import { AeSdk, Contract, MemoryAccount, Middleware, Name, Node } from '@aeternity/aepp-sdk';
import { expect } from 'chai';
import prom from 'prom-client';
import WebSocket from 'ws';
import { startWebsocketServer } from '../../../src/events/ws-server.ts';
import type { Role } from '../../../src/base/roles.ts';
import { BYTECODE, startDevnode, TOKEN_ACI, type Devnode } from '../../../src/devnode/index.ts';
import { waitFor } from '../../support/wait.ts';
import { silentLog } from '../api/harness.ts';
import { startPipeline, type PipelineStack } from '../api/pipeline-stack.ts';

const AE = 10n ** 18n;
const EPOCH_LENGTH = 5;

describe('AeSdk on a hyperchain through the gateway', function () {
  this.timeout(120_000);
  let devnode: Devnode;
  let stack: PipelineStack;
  let aeSdk: AeSdk;
  let mdw: Middleware;
  const alice = MemoryAccount.generate();
  const bob = MemoryAccount.generate();

  before(async () => {
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
    stack = await startPipeline(devnode, 'mdw');
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

  it('sends each new epoch with its leader schedule on the Epochs channel, as /hyperchain/epochs has them', async () => {
    const ws: Role & { url: string } = await startWebsocketServer({
      cfg: { ...stack.cfg, websocket: { host: '127.0.0.1', port: 0 } },
      log: silentLog,
      pool: stack.pool,
      registry: new prom.Registry(),
    });
    const socket = new WebSocket(`${ws.url}/mdw/v3/websocket`);
    try {
      const messages: { payload: unknown; source?: string; subscription?: string }[] = [];
      socket.on('message', (data) => messages.push(JSON.parse(String(data))));
      await new Promise((resolve) => socket.once('open', resolve));
      socket.send(JSON.stringify({ op: 'Subscribe', payload: 'Epochs', source: 'node' }));
      socket.send(JSON.stringify({ op: 'Subscribe', payload: 'Epochs' }));
      const epochs = () => messages.filter((m) => m.subscription === 'Epochs');
      await waitFor('two epochs on the Epochs channel', () => epochs().length >= 2, 30_000);
      // the node has no message of an epoch; the subscription list
      expect(messages.slice(0, 2).map((m) => m as unknown)).to.deep.equal(['invalid source: node', ['Epochs']]);
      for (const { payload, source } of epochs().slice(0, 2)) {
        const sent = payload as { epoch: number; schedule: { height: number; leader: string }[] };
        expect(source).to.equal('mdw');
        const { schedule, ...epoch } = sent;
        const rest = await fetch(`${stack.url}/mdw/v3/hyperchain/epochs?scope=epoch:${sent.epoch}-${sent.epoch}`);
        const [stored] = ((await rest.json()) as { data: { epoch: number }[] }).data;
        // the epoch as fixed when it began (its last leader then the leader of its first height, the top's)
        expect({ ...epoch, last_leader: null }).to.deep.equal({ ...stored, last_leader: null });
        const leaders = await fetch(
          `${stack.url}/mdw/v3/hyperchain/schedule?scope=epoch:${sent.epoch}-${sent.epoch}&direction=forward`,
        );
        expect(schedule).to.deep.equal(((await leaders.json()) as { data: unknown[] }).data);
        expect(schedule).to.have.length(EPOCH_LENGTH);
      }
      expect(epochs()[1]!.payload).to.have.property('epoch', (epochs()[0]!.payload as { epoch: number }).epoch + 1);
    } finally {
      socket.close();
      await ws.stop();
    }
  });
});
