/**
 * @module A closing channel's lock, with the devnode's /v3/channels/{id} `locked_until` as the oracle: the node sets
 * it at a solo close and restarts it at a slash and at a force progress of the closing channel (aesc_channels
 * close_solo_int and force_progress: the transaction's height plus the lock period), and leaves it 0 while the channel
 * is open. GraphQL's `lockedUntil` (ae_mdw's REST Channel has none) must answer the same, on the main chain and on a
 * hyperchain, whose micro blocks carry the next height.
 */
import { expect } from 'chai';
import pino from 'pino';
import { encode } from '../../../src/chain/encoding.ts';
import { parseJson, type Json } from '../../../src/chain/json.ts';
import { deriveKey, signBuilt, startDevnode, type Devnode, type KeyPair } from '../../../src/devnode/index.ts';
import { channelId } from '../../../src/devnode/ids.ts';
import type { TxFields } from '../../../src/devnode/tx-codec.ts';
import { EMPTY_POI, forcedCall, offChainPayload, stateHash } from '../../support/channel-txs.ts';
import { loadAndServe, type Served } from '../../support/served.ts';

type Obj = { [key: string]: Json };

const LOCK_PERIOD = 5;
const initiator = deriveKey('channel-locks', 'initiator');
const responder = deriveKey('channel-locks', 'responder');

/** Channels walks four channels to the states whose locks are checked, each step in a generation of its own. */
class Channels {
  readonly #devnode: Devnode;
  readonly #nonces = new Map<string, number>();
  /** the height of the micro blocks of each step: the generation's, the next one on a hyperchain */
  readonly heights: number[] = [];

  constructor(devnode: Devnode) {
    this.#devnode = devnode;
  }

  async run(): Promise<{ closed: string; slashed: string; forced: string; open: string }> {
    const [closed, slashed, forced, open] = [1, 2, 3, 4].map((n) => channelId(initiator.address, n, responder.address));
    await this.#step([1, 2, 3, 4].map(() => this.#create()));
    await this.#step(
      [closed!, slashed!, forced!].map((id) => this.#closeSolo(id)).concat(this.#forceProgress(open!, 1)),
    );
    await this.#step([this.#slash(slashed!), this.#forceProgress(forced!, 2)]);
    return { closed: closed!, slashed: slashed!, forced: forced!, open: open! };
  }

  /** #step submits signed transactions (through the node's checks) and mines them into the next generation. */
  async #step(txs: { tx: TxFields; signers: KeyPair[] }[]): Promise<void> {
    const chain = this.#devnode.chain;
    for (const built of txs) {
      const from = built.signers[0]!.address;
      const nonce = (this.#nonces.get(from) ?? 0) + 1;
      this.#nonces.set(from, nonce);
      chain.submit(signBuilt(chain.options.networkId, { ...built, tx: { ...built.tx, nonce } }));
    }
    this.heights.push(chain.txHeight(chain.height));
    await this.#devnode.mineKeyBlock();
  }

  #create(): { tx: TxFields; signers: KeyPair[] } {
    const tx: TxFields = {
      type: 'ChannelCreateTx',
      version: 2,
      initiator_id: initiator.address,
      initiator_amount: 1_000_000,
      responder_id: responder.address,
      responder_amount: 1_000_000,
      channel_reserve: 500,
      lock_period: LOCK_PERIOD,
      fee: 100_000,
      delegate_ids: { initiator: [], responder: [] },
      state_hash: stateHash(1),
    };
    return { tx, signers: [initiator, responder] };
  }

  /** #offChain is a co-signed off-chain state of `round` of a channel, as solo transactions carry. */
  #closeSolo(channel: string): { tx: TxFields; signers: KeyPair[] } {
    const payload = offChainPayload(channel, 2);
    const tx = { type: 'ChannelCloseSoloTx', version: 1, channel_id: channel, from_id: initiator.address, payload };
    return { tx: { ...tx, poi: EMPTY_POI, fee: 100_000 }, signers: [initiator] };
  }

  #slash(channel: string): { tx: TxFields; signers: KeyPair[] } {
    const payload = offChainPayload(channel, 3);
    const tx = { type: 'ChannelSlashTx', version: 1, channel_id: channel, from_id: responder.address, payload };
    return { tx: { ...tx, poi: EMPTY_POI, fee: 100_000 }, signers: [responder] };
  }

  /** #forceProgress forces a contract call on the channel's state of `round` (the devnode runs no off-chain code). */
  #forceProgress(channel: string, round: number): { tx: TxFields; signers: KeyPair[] } {
    const update = forcedCall(responder.address);
    const tx: TxFields = {
      type: 'ChannelForceProgressTx',
      version: 1,
      channel_id: channel,
      from_id: responder.address,
      payload: offChainPayload(channel, round),
      round: round + 1,
      update,
      state_hash: stateHash(round + 1),
      offchain_trees: encode('ss', Buffer.alloc(16, 3)),
      fee: 100_000,
    };
    return { tx, signers: [responder] };
  }
}

for (const kind of ['main chain', 'hyperchain'] as const) {
  describe(`a closing channel's locked_until against the devnode's, on a ${kind}`, function () {
    this.timeout(120_000);
    let devnode: Devnode;
    let served: Served;
    let ids: Awaited<ReturnType<Channels['run']>>;
    let heights: number[];

    before(async () => {
      devnode = await startDevnode(
        {
          port: 0,
          internalPort: 0,
          mine: false,
          microBlockIntervalMs: 0,
          accounts: [initiator, responder].map((k) => ({ secretKey: k.secretKey, balance: 10n ** 21n })),
          ...(kind === 'hyperchain' ? { hyperchain: { epochLength: 10 } } : {}),
        },
        pino({ level: 'silent' }),
      );
      const channels = new Channels(devnode);
      ids = await channels.run();
      heights = channels.heights;
      served = await loadAndServe(devnode.externalUrl);
    });
    after(async () => {
      await served?.close();
      await devnode?.stop();
    });

    /** locks is [the node's locked_until, GraphQL's lockedUntil] of a channel. */
    const locks = async (id: string): Promise<[Json, Json]> => {
      const node = parseJson(await (await fetch(`${devnode.externalUrl}/v3/channels/${id}`)).text()) as Obj;
      const res = await served.request
        .post('/mdw/graphql')
        .send({ query: 'query($id: String!) { channel(id: $id) { lockedUntil } }', variables: { id } })
        .expect(200);
      return [node.locked_until!, (parseJson(res.text) as { data: { channel: Obj } }).data.channel.lockedUntil!];
    };

    it('counts a solo close’s lock from its height', async () => {
      expect(await locks(ids.closed)).to.deep.equal([heights[1]! + LOCK_PERIOD, heights[1]! + LOCK_PERIOD]);
    });

    it('restarts the lock at a slash', async () => {
      expect(await locks(ids.slashed)).to.deep.equal([heights[2]! + LOCK_PERIOD, heights[2]! + LOCK_PERIOD]);
    });

    it('restarts the lock at a force progress of the closing channel', async () => {
      expect(await locks(ids.forced)).to.deep.equal([heights[2]! + LOCK_PERIOD, heights[2]! + LOCK_PERIOD]);
    });

    it('leaves an open channel unlocked after a force progress', async () => {
      expect(await locks(ids.open)).to.deep.equal([0, 0]);
    });
  });
}
