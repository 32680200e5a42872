/**
 * @module Every channel's `round`, `solo_round`, `state_hash` and `locked_until` (REST and GraphQL) against the
 * devnode's /v3/channels/{id}, which keeps them by the node's rules (aesc_channels): on a generated chain (snapshots,
 * force progresses, solo closes, slashes, delegates changes) with scripted channels on top whose transactions are
 * wrapped (PayingForTx, GAMetaTx), closed solo on a payload and on none, slashed, and forced in chains, a co-signed
 * state replacing the forced ones; on a main chain and a hyperchain.
 */
import { expect } from 'chai';
import pino from 'pino';
import { encode } from '../../../src/chain/encoding.ts';
import { parseJson, type Json } from '../../../src/chain/json.ts';
import { deriveKey, signBuilt, startDevnode, type Devnode, type KeyPair } from '../../../src/devnode/index.ts';
import {
  FATE_ABI_VERSION,
  FATE_VM_VERSION,
  GA_AUTH_FUN,
  GA_CONTRACT_BYTECODE,
  contractCallData,
  gaAuthData,
} from '../../../src/devnode/contracts/fate-contract.ts';
import { channelId } from '../../../src/devnode/ids.ts';
import { signBytes } from '../../../src/devnode/keys.ts';
import { encodeTx, type TxFields } from '../../../src/devnode/tx-codec.ts';
import { EMPTY_POI, forcedCall, offChainPayload, stateHash } from '../../support/channel-txs.ts';
import { loadAndServe, type Served } from '../../support/served.ts';
import { populateToTop } from '../../support/populate.ts';

type Obj = { [key: string]: Json };
type Built = { tx: TxFields; signers: KeyPair[] };

const FEE = 10n ** 15n;
const initiator = deriveKey('channel-states', 'initiator');
const responder = deriveKey('channel-states', 'responder');
const payer = deriveKey('channel-states', 'payer');
/** ga is a channel's responder that becomes a generalized account and then acts through GAMetaTx */
const ga = deriveKey('channel-states', 'ga');
/** EMPTY_PAYLOAD names no off-chain state: the last on-chain one (the node's `tx_` of no bytes) */
const EMPTY_PAYLOAD = encode('tx', Buffer.alloc(0));
/** SCRIPTED: the scripted channels, in the order of their creation by the initiator */
const SCRIPTED = ['wrapped', 'closed', 'emptyClose', 'slashed', 'forced', 'replaced', 'ga', 'delegates'] as const;
type Scripted = Record<(typeof SCRIPTED)[number], string>;

/** Script walks the scripted channels, one generation per step, on top of the generated chain. */
class Script {
  readonly #devnode: Devnode;
  readonly #nonces = new Map<string, number>();
  #auth = 0n;

  constructor(devnode: Devnode) {
    this.#devnode = devnode;
  }

  async run(): Promise<Scripted> {
    const first = this.#chainNonce(initiator) + 1;
    const ids = Object.fromEntries(
      SCRIPTED.map((name, i) => [
        name,
        channelId(initiator.address, first + i, (name === 'ga' ? ga : responder).address),
      ]),
    ) as Scripted;
    const { wrapped, closed, emptyClose, slashed, forced, replaced, delegates } = ids;
    await this.#step(SCRIPTED.map((name) => this.#create(name === 'ga' ? ga : responder)));
    await this.#step([
      this.#payingFor(initiator, this.#coSigned('ChannelDepositTx', wrapped, 2)),
      this.#by(initiator, this.#solo('ChannelCloseSoloTx', closed, initiator, 2)),
      this.#by(initiator, this.#coSigned('ChannelDepositTx', emptyClose, 2)),
      this.#by(initiator, this.#solo('ChannelCloseSoloTx', slashed, initiator, 2)),
      this.#by(responder, this.#forceProgress(forced, 2)),
      this.#by(responder, this.#forceProgress(replaced, 2)),
      this.#by(ga, this.#attach()),
      this.#payingFor(initiator, this.#setDelegates(delegates, 2)),
    ]);
    await this.#step([
      this.#payingFor(initiator, this.#solo('ChannelSnapshotSoloTx', wrapped, initiator, 3)),
      this.#by(initiator, this.#solo('ChannelCloseSoloTx', emptyClose, initiator)),
      this.#by(responder, this.#solo('ChannelSlashTx', slashed, responder, 3)),
      this.#by(responder, this.#forceProgress(forced, 3)),
      this.#by(responder, this.#forceProgress(replaced, 3)),
      this.#meta(this.#solo('ChannelSnapshotSoloTx', ids.ga, ga, 2)),
    ]);
    await this.#step([
      this.#by(initiator, this.#solo('ChannelCloseSoloTx', forced, initiator, 4)),
      // a co-signed state below the forced ones replaces them (aesc_utils:check_round_greater_than_last)
      this.#payingFor(initiator, this.#coSigned('ChannelDepositTx', replaced, 2)),
      this.#meta(this.#solo('ChannelCloseSoloTx', ids.ga, ga, 3)),
    ]);
    await this.#step([this.#by(responder, this.#forceProgress(forced, 5))]);
    return ids;
  }

  #chainNonce(k: KeyPair): number {
    return this.#devnode.chain.pending.accounts.get(k.address)?.nonce ?? 0;
  }

  /** #nonce hands out an account's next nonce, in the order the transactions are built (and submitted). */
  #nonce(k: KeyPair): number {
    const nonce = (this.#nonces.get(k.address) ?? this.#chainNonce(k)) + 1;
    this.#nonces.set(k.address, nonce);
    return nonce;
  }

  /** #step submits signed transactions (through the node's checks) and mines them into the next generation. */
  async #step(txs: Built[]): Promise<void> {
    const chain = this.#devnode.chain;
    for (const built of txs) chain.submit(signBuilt(chain.options.networkId, built));
    await this.#devnode.mineKeyBlock();
  }

  /** #by is a transaction that `from` sends and signs. */
  #by(from: KeyPair, tx: TxFields): Built {
    return { tx: { ...tx, fee: FEE, nonce: this.#nonce(from) }, signers: [from] };
  }

  /** #payingFor has the payer pay for a transaction its sender signs over `network-inner_tx`. */
  #payingFor(sender: KeyPair, inner: TxFields): Built {
    const tx = { ...inner, fee: FEE, nonce: this.#nonce(sender) };
    const message = Buffer.concat([Buffer.from(`${this.#devnode.chain.options.networkId}-inner_tx`), encodeTx(tx)]);
    const signatures = [encode('sg', signBytes(sender, message))];
    return this.#by(payer, { type: 'PayingForTx', version: 1, payer_id: payer.address, tx: { tx, signatures } });
  }

  /** #meta has the generalized account `ga` send a transaction (nonce 0, authorised by its contract). */
  #meta(inner: TxFields): Built {
    const tx: TxFields = {
      type: 'GAMetaTx',
      version: 2,
      ga_id: ga.address,
      auth_data: gaAuthData(this.#auth++),
      abi_version: FATE_ABI_VERSION,
      fee: FEE,
      gas: 5000,
      gas_price: 1_000_000_000,
      tx: { tx: { ...inner, fee: FEE, nonce: 0 }, signatures: [] },
    };
    return { tx, signers: [] };
  }

  #create(other: KeyPair): Built {
    const tx: TxFields = {
      type: 'ChannelCreateTx',
      version: 2,
      initiator_id: initiator.address,
      initiator_amount: 1_000_000,
      responder_id: other.address,
      responder_amount: 1_000_000,
      channel_reserve: 500,
      lock_period: 5,
      delegate_ids: { initiator: [], responder: [] },
      state_hash: stateHash(1),
    };
    return { ...this.#by(initiator, tx), signers: [initiator, other] };
  }

  /** #offChain is a co-signed off-chain state of `round` of a channel, as solo transactions carry. */
  #coSigned(type: string, channel: string, round: number): TxFields {
    return {
      type,
      version: 1,
      channel_id: channel,
      from_id: initiator.address,
      amount: 1000,
      round,
      state_hash: stateHash(round),
    };
  }

  /** #solo is a snapshot, solo close or slash on the state of `round`, on the last on-chain state without one. */
  #solo(type: string, channel: string, from: KeyPair, round?: number): TxFields {
    const payload = round === undefined ? EMPTY_PAYLOAD : offChainPayload(channel, round);
    const poi: TxFields = type === 'ChannelSnapshotSoloTx' ? {} : { poi: EMPTY_POI };
    return { type, version: 1, channel_id: channel, from_id: from.address, payload, ...poi };
  }

  #setDelegates(channel: string, round: number): TxFields {
    return {
      type: 'ChannelSetDelegatesTx',
      version: 1,
      channel_id: channel,
      from_id: initiator.address,
      initiator_delegate_ids: [payer.address],
      responder_delegate_ids: [],
      payload: offChainPayload(channel, round),
      state_hash: stateHash(round),
      round,
    };
  }

  /** #forceProgress forces a contract call on the last on-chain state (the devnode runs no off-chain code). */
  #forceProgress(channel: string, round: number): TxFields {
    const update = forcedCall(responder.address);
    return {
      type: 'ChannelForceProgressTx',
      version: 1,
      channel_id: channel,
      from_id: responder.address,
      payload: EMPTY_PAYLOAD,
      round,
      update,
      state_hash: stateHash(round),
      offchain_trees: encode('ss', Buffer.alloc(16, 3)),
    };
  }

  #attach(): TxFields {
    return {
      type: 'GAAttachTx',
      version: 1,
      owner_id: ga.address,
      code: GA_CONTRACT_BYTECODE,
      auth_fun: GA_AUTH_FUN,
      vm_version: FATE_VM_VERSION,
      abi_version: FATE_ABI_VERSION,
      gas: 10_000,
      gas_price: 1_000_000_000,
      call_data: contractCallData('init', []),
    };
  }
}

/** FIELDS: the channel fields compared, as REST names them, and GraphQL's names of them. */
const FIELDS = {
  round: 'round',
  solo_round: 'soloRound',
  state_hash: 'stateHash',
  locked_until: 'lockedUntil',
} as const;
type State = Record<keyof typeof FIELDS, Json>;

for (const kind of ['main chain', 'hyperchain'] as const) {
  describe(`channels' round, solo_round, state_hash and locked_until against the devnode's, on a ${kind}`, function () {
    this.timeout(300_000);
    let devnode: Devnode;
    let served: Served;
    let ids: Scripted;

    before(async () => {
      devnode = await startDevnode(
        {
          port: 0,
          internalPort: 0,
          mine: false,
          microBlockIntervalMs: 0,
          generate: { generations: 120, seed: `channel-states ${kind}` },
          accounts: [initiator, responder, payer, ga].map((k) => ({ secretKey: k.secretKey, balance: 10n ** 21n })),
          ...(kind === 'hyperchain' ? { hyperchain: { epochLength: 10 } } : {}),
        },
        pino({ level: 'silent' }),
      );
      ids = await new Script(devnode).run();
      served = await loadAndServe(devnode.externalUrl);
    });
    after(async () => {
      await served?.close();
      await devnode?.stop();
    });

    /** node is the devnode's state of a channel, undefined for one it no longer has (closed mutually or settled). */
    const node = async (id: string): Promise<State | undefined> => {
      const res = await fetch(`${devnode.externalUrl}/v3/channels/${id}`);
      if (res.status === 404) return undefined;
      const c = parseJson(await res.text()) as Obj;
      return { round: c.round!, solo_round: c.solo_round!, state_hash: c.state_hash!, locked_until: c.locked_until! };
    };

    /** channels is every channel the middleware lists, as REST renders it. */
    const channels = async (): Promise<Obj[]> => {
      const all: Obj[] = [];
      for (let path: Json | undefined = '/mdw/v3/channels?limit=100'; typeof path === 'string';) {
        const page = parseJson((await served.request.get(path).expect(200)).text) as { data: Obj[]; next: Json };
        all.push(...page.data);
        path = page.next === null ? undefined : `/mdw${String(page.next).replace(/^\/mdw/, '')}`;
      }
      return all;
    };

    const graphql = async (id: string): Promise<State> => {
      const query = `query($id: String!) { channel(id: $id) { ${Object.values(FIELDS).join(' ')} } }`;
      const res = await served.request.post('/mdw/graphql').send({ query, variables: { id } }).expect(200);
      const c = (parseJson(res.text) as { data: { channel: Obj } }).data.channel;
      return Object.fromEntries(Object.entries(FIELDS).map(([rest, gql]) => [rest, c[gql]!])) as State;
    };

    it('keeps the scripted channels as the node does (the oracle checked)', async () => {
      const st = (r: number): string => stateHash(r);
      const expected: Record<keyof Scripted, Partial<State>> = {
        wrapped: { round: 3, solo_round: 0, state_hash: st(3) },
        closed: { round: 2, solo_round: 0, state_hash: st(2) },
        emptyClose: { round: 2, solo_round: 0, state_hash: st(2) },
        slashed: { round: 3, solo_round: 0, state_hash: st(3) },
        // below the switch height a solo close on a payload keeps solo_round; the first forced state's round stays
        forced: { round: 5, solo_round: 2, state_hash: st(5) },
        replaced: { round: 2, solo_round: 0, state_hash: st(2) },
        ga: { round: 3, solo_round: 0, state_hash: st(3) },
        delegates: { round: 2, solo_round: 0, state_hash: st(2) },
      };
      for (const name of SCRIPTED) expect(await node(ids[name]), name).to.include(expected[name]);
    });

    /** expectAsTheNode compares every channel the node has with the middleware's, in REST and GraphQL. */
    const expectAsTheNode = async (): Promise<void> => {
      const all = await channels();
      const differences: string[] = [];
      let compared = 0;
      let forcedOnes = 0;
      for (const c of all) {
        const id = String(c.channel);
        const want = await node(id);
        if (!want) continue;
        compared++;
        if (want.solo_round !== 0) forcedOnes++;
        const rest = Object.fromEntries(Object.keys(FIELDS).map((k) => [k, c[k]!]));
        for (const [how, got] of [
          ['REST', rest],
          ['GraphQL', await graphql(id)],
        ] as const) {
          for (const k of Object.keys(FIELDS) as (keyof State)[])
            if (got[k] !== want[k]) differences.push(`${how} ${id} ${k}: ${String(got[k])}, node ${String(want[k])}`);
        }
      }
      expect(compared, 'channels compared').to.be.greaterThan(SCRIPTED.length);
      expect(forcedOnes, 'channels with a solo_round').to.be.at.least(1);
      const differing = new Set(differences.map((d) => d.split(' ')[1])).size;
      expect(differences, `${differences.length} differences in ${differing} of ${compared} channels`).to.deep.equal(
        [],
      );
    };

    it('answers every channel the node has as the node does, in REST and GraphQL', expectAsTheNode);

    it('answers as the node does after a fork that replaces the scripted channels’ last generations', async () => {
      // the kept states and totals (migration 1051) of the replaced heights go with their rows; the new ones follow
      await devnode.fork(3);
      await devnode.mineKeyBlock();
      await devnode.mineKeyBlock();
      await populateToTop(served.cfg);
      await expectAsTheNode();
    });
  });
}
