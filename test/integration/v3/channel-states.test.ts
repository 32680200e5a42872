/**
 * @module Every channel's `round`, `solo_round`, `state_hash`, `locked_until`, `amount` and parties' amounts (REST and
 * GraphQL) against the devnode's /v3/channels/{id}, which keeps them by the node's rules (aesc_channels): on a
 * generated chain (deposits, withdrawals, snapshots, force progresses, solo closes, slashes, delegates changes, their
 * proofs and off-chain trees) with scripted channels on top whose transactions are wrapped (PayingForTx, GAMetaTx),
 * closed solo on a payload and on none, with a proof of the parties' balances and an empty one, slashed, and forced in
 * chains on off-chain trees, a co-signed state replacing the forced ones; after each scripted generation, on a main
 * chain and a hyperchain.
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
import {
  EMPTY_POI,
  forcedCall,
  offChainPayload,
  poiOfBalances,
  stateHash,
  treesOfBalances,
} from '../../support/channel-txs.ts';
import { loadAndServe, type Served } from '../../support/served.ts';
import { migrationSql } from '../../support/migration-sql.ts';
import { verifyChain } from '../../../src/indexer/maintenance/verify.ts';
import { deriveBackfills, populateToTop } from '../../support/populate.ts';

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
  #after: () => Promise<void> = async () => {};

  constructor(devnode: Devnode) {
    this.#devnode = devnode;
  }

  /** run scripts the channels, `after` each generation mined */
  async run(after: () => Promise<void>): Promise<Scripted> {
    this.#after = after;
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
      this.#by(initiator, this.#solo('ChannelCloseSoloTx', closed, initiator, 2, [700_000n, 1_300_000n])),
      this.#by(initiator, this.#coSigned('ChannelDepositTx', emptyClose, 2)),
      this.#by(initiator, this.#solo('ChannelCloseSoloTx', slashed, initiator, 2, [1_500_000n, 500_000n])),
      this.#by(responder, this.#forceProgress(forced, 2)),
      this.#by(responder, this.#forceProgress(replaced, 2)),
      this.#by(ga, this.#attach()),
      this.#payingFor(initiator, this.#setDelegates(delegates, 2)),
    ]);
    await this.#step([
      this.#payingFor(initiator, this.#solo('ChannelSnapshotSoloTx', wrapped, initiator, 3)),
      this.#by(initiator, this.#solo('ChannelCloseSoloTx', emptyClose, initiator)),
      this.#by(responder, this.#solo('ChannelSlashTx', slashed, responder, 3, [600_000n, 1_300_000n])),
      this.#by(responder, this.#forceProgress(forced, 3, [900_000n, 1_100_000n])),
      this.#by(responder, this.#forceProgress(replaced, 3)),
      this.#meta(this.#solo('ChannelSnapshotSoloTx', ids.ga, ga, 2)),
    ]);
    await this.#step([
      this.#by(initiator, this.#solo('ChannelCloseSoloTx', forced, initiator, 4, [1_000_000n, 1_000_000n])),
      // a co-signed state below the forced ones replaces them (aesc_utils:check_round_greater_than_last)
      this.#payingFor(initiator, this.#coSigned('ChannelDepositTx', replaced, 2)),
      this.#meta(this.#solo('ChannelCloseSoloTx', ids.ga, ga, 3)),
    ]);
    // on the closing channel: off-chain trees within its amount (the node takes no more then)
    await this.#step([this.#by(responder, this.#forceProgress(forced, 5, [1_200_000n, 700_000n]))]);
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
    await this.#after();
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

  /**
   * #solo is a snapshot, solo close or slash on the state of `round`, on the last on-chain state without one; a close
   * or slash proves the parties' `balances` there (the initiator's, the responder's), or nothing (an empty proof).
   */
  #solo(type: string, channel: string, from: KeyPair, round?: number, balances?: [bigint, bigint]): TxFields {
    const payload = round === undefined ? EMPTY_PAYLOAD : offChainPayload(channel, round);
    const proof = balances ? poiOfBalances(this.#parties(channel, balances)) : EMPTY_POI;
    const poi: TxFields = type === 'ChannelSnapshotSoloTx' ? {} : { poi: proof };
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

  /** #parties pairs the parties of a channel of the responder with their balances. */
  #parties(channel: string, [i, r]: [bigint, bigint]): [string, bigint][] {
    const other = this.#devnode.chain.pending.channels.get(channel)!.responderId;
    return [
      [initiator.address, i],
      [other, r],
    ];
  }

  /**
   * #forceProgress forces a contract call paying 1000 on the last on-chain state (the devnode runs no off-chain code),
   * its off-chain trees holding the parties' `balances` before the call, or none of them.
   */
  #forceProgress(channel: string, round: number, balances?: [bigint, bigint]): TxFields {
    const update = { ...forcedCall(responder.address), amount: 1000 };
    return {
      type: 'ChannelForceProgressTx',
      version: 1,
      channel_id: channel,
      from_id: responder.address,
      payload: EMPTY_PAYLOAD,
      round,
      update,
      state_hash: stateHash(round),
      offchain_trees: balances ? treesOfBalances(this.#parties(channel, balances)) : encode('ss', Buffer.alloc(16, 3)),
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
  amount: 'amount',
  initiator_amount: 'initiatorAmount',
  responder_amount: 'responderAmount',
} as const;
type State = Record<keyof typeof FIELDS, Json>;
/** Comparison: the middleware's channels against the node's, and how many were compared, how many forced */
interface Comparison {
  readonly differences: string[];
  readonly compared: number;
  readonly forcedOnes: number;
}

for (const kind of ['main chain', 'hyperchain'] as const) {
  describe(`channels' round, solo_round, state_hash, locked_until and amounts against the devnode's, on a ${kind}`, function () {
    this.timeout(300_000);
    let devnode: Devnode;
    let served: Served;
    let ids: Scripted;
    /** the comparison after each scripted generation, the middleware following the devnode */
    const steps: Comparison[] = [];

    before(async () => {
      // the generated chain's own channels take every channel transaction type by these heights (the last: a main
      // chain's ChannelSlashTx at 66, a hyperchain's ChannelSnapshotSoloTx at 78); 120 generations loaded half again
      // as many blocks for no type more
      const generations = kind === 'main chain' ? 70 : 80;
      devnode = await startDevnode(
        {
          port: 0,
          internalPort: 0,
          mine: false,
          microBlockIntervalMs: 0,
          generate: { generations, seed: `channel-states ${kind}` },
          accounts: [initiator, responder, payer, ga].map((k) => ({ secretKey: k.secretKey, balance: 10n ** 21n })),
          ...(kind === 'hyperchain' ? { hyperchain: { epochLength: 10 } } : {}),
        },
        pino({ level: 'silent' }),
      );
      served = await loadAndServe(devnode.externalUrl);
      ids = await new Script(devnode).run(async () => {
        await populateToTop(served.cfg);
        steps.push(await compare());
      });
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
      return {
        round: c.round!,
        solo_round: c.solo_round!,
        state_hash: c.state_hash!,
        locked_until: c.locked_until!,
        amount: c.channel_amount!,
        initiator_amount: c.initiator_amount!,
        responder_amount: c.responder_amount!,
      };
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
        // a deposit moves the channel's amount, not the parties'
        wrapped: { round: 3, solo_round: 0, state_hash: st(3), amount: 2_001_000, initiator_amount: 1_000_000 },
        closed: { round: 2, solo_round: 0, state_hash: st(2), initiator_amount: 700_000, responder_amount: 1_300_000 },
        // an empty proof keeps them (a devnode's leniency: the node refuses it)
        emptyClose: { round: 2, solo_round: 0, state_hash: st(2), initiator_amount: 1_000_000 },
        slashed: { round: 3, solo_round: 0, state_hash: st(3), initiator_amount: 600_000, responder_amount: 1_300_000 },
        // below the switch height a solo close on a payload keeps solo_round; the first forced state's round stays; the
        // last forced call took 1000 of the caller's (the responder's) balance in its trees
        forced: { round: 5, solo_round: 2, state_hash: st(5), initiator_amount: 1_200_000, responder_amount: 699_000 },
        replaced: { round: 2, solo_round: 0, state_hash: st(2), amount: 2_001_000, responder_amount: 1_000_000 },
        ga: { round: 3, solo_round: 0, state_hash: st(3) },
        delegates: { round: 2, solo_round: 0, state_hash: st(2) },
      };
      for (const name of SCRIPTED) expect(await node(ids[name]), name).to.include(expected[name]);
    });

    /** compare compares every channel the node has with the middleware's, in REST and GraphQL. */
    const compare = async (): Promise<Comparison> => {
      const differences: string[] = [];
      let compared = 0;
      let forcedOnes = 0;
      for (const c of await channels()) {
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
          // amounts may come as JSON numbers or GraphQL's decimal strings: compared as decimals
          for (const k of Object.keys(FIELDS) as (keyof State)[])
            if (String(got[k]) !== String(want[k]))
              differences.push(`${how} ${id} ${k}: ${String(got[k])}, node ${String(want[k])}`);
        }
      }
      return { differences, compared, forcedOnes };
    };

    const expectAsTheNode = ({ differences, compared }: Comparison): void => {
      expect(compared, 'channels compared').to.be.greaterThan(SCRIPTED.length);
      const differing = new Set(differences.map((d) => d.split(' ')[1])).size;
      expect(differences, `${differences.length} differences in ${differing} of ${compared} channels`).to.deep.equal(
        [],
      );
    };

    it('answers every channel the node has as the node does after each scripted generation, in REST and GraphQL', () => {
      expect(steps).to.have.length(5);
      steps.forEach(expectAsTheNode);
      expect(steps.at(-1)!.forcedOnes, 'channels with a solo_round').to.be.at.least(1);
    });

    it('answers as the node does after a fork that replaces the scripted channels’ last generations', async () => {
      // the kept states and totals (migration 1051) of the replaced heights go with their rows; the new ones follow
      await devnode.fork(3);
      await devnode.mineKeyBlock();
      await devnode.mineKeyBlock();
      await populateToTop(served.cfg);
      expectAsTheNode(await compare());
    });

    it('verifies clean against the node (mdw -v --full): the channels and their totals', async () => {
      await expectVerifiedClean();
    });

    if (kind === 'main chain')
      it('derives the channels of a schema stored before migration 1147 again: parties’ amounts, wrapped deposits', async () => {
        const { pool } = served;
        // the schema before 1147: no parties' amounts; a wrapped deposit's amount neither stored nor counted
        const wrapped = `FROM transactions t WHERE t.height = e.height AND t.micro_index = e.micro_index
            AND t.tx_index = e.tx_index AND t.inner_type IS NOT NULL AND e.tx_type = 'ChannelDepositTx'`;
        const lost = await pool.query(
          `UPDATE channel_totals k SET deposited = k.deposited - w.amount
             FROM (SELECT e.channel_id, sum(e.amount) AS amount FROM channel_events e
                    WHERE EXISTS (SELECT 1 ${wrapped}) GROUP BY e.channel_id) w
            WHERE k.channel_id = w.channel_id`,
        );
        expect(lost.rowCount, 'channels with a wrapped deposit').to.be.at.least(2);
        await pool.query(`UPDATE channel_events e SET amount = NULL ${wrapped}`);
        await pool.query('ALTER TABLE channel_events DROP COLUMN initiator_amount, DROP COLUMN responder_amount');
        await pool.query(await migrationSql('1147_channel_party_amounts'));
        const queued = await pool.query("SELECT next_height FROM derive_backfill WHERE area = 'channels'");
        expect(queued.rows).to.have.length(1);
        await deriveBackfills(served.cfg, pool);
        expectAsTheNode(await compare());
        await expectVerifiedClean();
      });

    /** expectVerifiedClean runs `mdw -v --full` over the served schema: no difference. */
    const expectVerifiedClean = async (): Promise<void> => {
      const lines: string[] = [];
      const log = pino({ level: 'silent' });
      const report = await verifyChain({ cfg: served.cfg, log, out: (l) => lines.push(l) }, { full: true });
      expect(lines).to.deep.equal([]);
      expect(report.differences).to.equal(0);
    };
  });
}
