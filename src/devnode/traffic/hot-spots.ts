/**
 * @module The hot spots of a scale chain (`mdw devnode --scale P`): objects far busier than the mix makes them, the
 * places where a middleware's routes stop being flat (a count over an account's transactions, a scan of a contract's
 * logs). One account signs a million transactions at a tenth of mainnet: the calls of a contract (an AEX-9 token that
 * logs each call) and the transfers of a token to a hundred thousand holders; half a million names are preclaimed and
 * claimed (one in ten in an auction, one in five given pointers); one channel has fifty thousand updates and one
 * oracle fifty thousand queries, each answered. Each spreads evenly over the chain's generations, in a micro block of
 * its own after the mix's, drawn from a random source of its own (the mix stays the chain the seed made before).
 */
import { auctionTimeout, minimumNameFee } from '../../chain/aens.ts';
import { address, some } from '../../chain/fate.ts';
import { encode, hash, reprefix } from '../../chain/encoding.ts';
import { PROTOCOL_VERSION } from '../store/blocks.ts';
import type { Chain } from '../chain.ts';
import { callTx, createTx } from '../contracts/txs.ts';
import { ttlFee } from '../rules/fees.ts';
import { channelId, commitmentId, contractId, nameHash, oracleQueryId } from '../ids.ts';
import { deriveKey, type KeyPair } from '../keys.ts';
import { MAINNET } from './mainnet-like.ts';
import { Random } from '../random.ts';
import { jsonInt, type BuiltTx, type TxFields } from '../tx-codec.ts';
import { oracleQueryTx } from './kit.ts';

/** HotSpotSizes: how busy each hot spot is over the whole chain. */
export interface HotSpotSizes {
  /** calls of the hot contract (an AEX-9 token; each call a transfer and its log), signed by the hot account */
  readonly contractCalls: number;
  /** transfers of the hot token, signed by the hot account */
  readonly tokenTransfers: number;
  /** accounts the hot token's transfers reach (new holders) */
  readonly tokenHolders: number;
  /** names preclaimed and claimed */
  readonly names: number;
  /** deposits and withdrawals of the hot channel */
  readonly channelUpdates: number;
  /** queries of the hot oracle (each answered) */
  readonly oracleQueries: number;
}

/**
 * AT_TENTH: the hot spots of a chain of a tenth of mainnet (issue 57): an account of a million transactions (the
 * contract's calls and the token's transfers), a contract of half a million calls and logs, a token of a hundred
 * thousand holders and half a million transfers, half a million names, a channel of fifty thousand updates, an oracle
 * of fifty thousand queries.
 */
const AT_TENTH: HotSpotSizes = {
  contractCalls: 500_000,
  tokenTransfers: 500_000,
  tokenHolders: 100_000,
  names: 500_000,
  channelUpdates: 50_000,
  oracleQueries: 50_000,
};

/** hotSpotSizes are the hot spots of a chain of `fraction` of mainnet (0.1: a tenth), scaled from AT_TENTH. Pure. */
export function hotSpotSizes(fraction: number): HotSpotSizes {
  const scaled = (n: number): number => Math.max(1, Math.round((n * fraction) / 0.1));
  return {
    contractCalls: scaled(AT_TENTH.contractCalls),
    tokenTransfers: scaled(AT_TENTH.tokenTransfers),
    tokenHolders: scaled(AT_TENTH.tokenHolders),
    names: scaled(AT_TENTH.names),
    channelUpdates: scaled(AT_TENTH.channelUpdates),
    oracleQueries: scaled(AT_TENTH.oracleQueries),
  };
}

/**
 * scaleChain is the chain `mdw devnode --scale P` generates: `percent` % of mainnet's generations (mainnet-like.ts,
 * rounded up to a hundred), with the hot spots of that size. Pure.
 */
export function scaleChain(percent: number): { generations: number; hotSpots: HotSpotSizes } {
  if (!(percent > 0 && percent <= 100))
    throw new RangeError(`a scale is a percentage of mainnet (0–100], got ${percent}`);
  const fraction = percent / 100;
  // rounded up to a hundred: a tenth is 114,000 generations, as issue 57 counts mainnet's 1.14 M
  return { generations: Math.ceil((MAINNET.generations * fraction) / 100) * 100, hotSpots: hotSpotSizes(fraction) };
}

/** share is how many of `total` fall in generation `height` of `generations`, spread evenly. Pure. */
export function share(total: number, height: number, generations: number): number {
  return Math.floor((total * height) / generations) - Math.floor((total * (height - 1)) / generations);
}

/** hotSpotKeys are the accounts the hot spots sign with, derived from the seed (the generator funds them at genesis). */
export function hotSpotKeys(seed: string): readonly KeyPair[] {
  return [
    'account',
    'oracle',
    'channel-initiator',
    'channel-responder',
    'names-0',
    'names-1',
    'names-2',
    'names-3',
  ].map((label) => deriveKey(seed, `hot-${label}`));
}

const FEE = 20_000;
const SUPPLY = 10n ** 30n;
/** each side's deposit when the channel opens (the hot keys are funded with GENERATED_BALANCE) */
const CHANNEL_AMOUNT = 10n ** 27n;
const QUERY_TTL = 50;
const AUCTION_SHARE = 0.1;
const POINTER_SHARE = 0.2;

interface Preclaimed {
  readonly name: string;
  readonly salt: bigint;
  readonly owner: KeyPair;
}

/** HotSpots builds each generation's hot-spot transactions, reading the chain's pending state for nonces and rounds. */
export class HotSpots {
  readonly #chain: Chain;
  readonly #sizes: HotSpotSizes;
  readonly #generations: number;
  readonly #rng: Random;
  readonly #account: KeyPair;
  readonly #oracle: KeyPair;
  readonly #initiator: KeyPair;
  readonly #responder: KeyPair;
  readonly #nameOwners: readonly KeyPair[];
  #contract = '';
  #token = '';
  #channel = '';
  #transfers = 0;
  #names = 0;
  #preclaimed: Preclaimed[] = [];
  #claimed: { readonly name: string; readonly owner: KeyPair }[] = [];
  #queries: { readonly id: string }[] = [];
  readonly #holderSeed: Uint8Array;

  constructor(chain: Chain, seed: string, sizes: HotSpotSizes, generations: number) {
    this.#chain = chain;
    this.#sizes = sizes;
    this.#generations = generations;
    this.#rng = new Random(`${seed}:hot-spots`);
    [this.#account, this.#oracle, this.#initiator, this.#responder, ...this.#nameOwners] = hotSpotKeys(seed) as [
      KeyPair,
      KeyPair,
      KeyPair,
      KeyPair,
      ...KeyPair[],
    ];
    this.#holderSeed = hash(Buffer.from(`${seed}:hot-holders`));
  }

  /**
   * at is the hot-spot transactions of generation `height`, each built when called (after the ones before it are
   * admitted: it reads their nonces and rounds from the pending state): the objects' creation first, then each one's
   * share.
   */
  at(height: number): (() => BuiltTx)[] {
    const made: (() => BuiltTx)[] = height === 1 ? this.#create() : [];
    const repeat = (total: number, make: () => BuiltTx): void => {
      for (let i = share(total, height, this.#generations); i > 0; i--) made.push(make);
    };
    repeat(this.#sizes.contractCalls, () => this.#contractCall());
    repeat(this.#sizes.tokenTransfers, () => this.#tokenTransfer());
    made.push(...this.#claims(), ...this.#updates());
    repeat(this.#sizes.names, () => this.#preclaim());
    repeat(this.#sizes.channelUpdates, () => this.#channelUpdate());
    made.push(...this.#responses());
    repeat(this.#sizes.oracleQueries, () => this.#query());
    return made;
  }

  #nonce(k: KeyPair): number {
    return (this.#chain.pending.accounts.get(k.address)?.nonce ?? 0) + 1;
  }

  #fee(): number {
    return FEE + this.#rng.int(0, 5000);
  }

  /** #create deploys the contract and the token, registers the oracle and opens the channel. */
  #create(): (() => BuiltTx)[] {
    const a = this.#account;
    const ttl = this.#generations + 1000;
    const token = (name: string, symbol: string, remember: (id: string) => void) => (): BuiltTx => {
      const nonce = this.#nonce(a);
      remember(contractId(a.address, nonce));
      return createTx(a, nonce, 'aex9', [name, 18n, symbol, some(SUPPLY)]);
    };
    return [
      token('Hot Contract', 'HOTC', (id) => (this.#contract = id)),
      token('Hot Token', 'HOT', (id) => (this.#token = id)),
      () => ({
        tx: {
          type: 'OracleRegisterTx',
          version: 1,
          account_id: this.#oracle.address,
          nonce: this.#nonce(this.#oracle),
          query_format: 'string',
          response_format: 'string',
          query_fee: 10,
          oracle_ttl: { type: 'delta', value: ttl },
          fee: Number(ttlFee(ttl)) + this.#fee(),
          abi_version: 0,
        },
        signers: [this.#oracle],
      }),
      () => {
        const nonce = this.#nonce(this.#initiator);
        this.#channel = channelId(this.#initiator.address, nonce, this.#responder.address);
        return {
          tx: {
            type: 'ChannelCreateTx',
            version: 2,
            initiator_id: this.#initiator.address,
            initiator_amount: jsonInt(CHANNEL_AMOUNT),
            responder_id: this.#responder.address,
            responder_amount: jsonInt(CHANNEL_AMOUNT),
            channel_reserve: 500,
            lock_period: 10,
            fee: this.#fee(),
            delegate_ids: { initiator: [], responder: [] },
            state_hash: this.#stateHash(),
            nonce,
          },
          signers: [this.#initiator, this.#responder],
        };
      },
    ];
  }

  #stateHash(): string {
    return encode('st', this.#rng.bytes(32));
  }

  /** #contractCall: the hot account moves the hot contract's tokens to one of the 64 recipients it keeps using. */
  #contractCall(): BuiltTx {
    const to = this.#holder(this.#rng.int(0, 63), 'c');
    return callTx(this.#account, this.#nonce(this.#account), this.#contract, 'transfer', [
      address(to),
      BigInt(this.#rng.int(1, 1_000_000)),
    ]);
  }

  /** #tokenTransfer: a new holder while the token has fewer than its share of the chain so far, else a known one. */
  #tokenTransfer(): BuiltTx {
    const { tokenHolders, tokenTransfers } = this.#sizes;
    const j = this.#transfers++;
    const fresh =
      Math.floor(((j + 1) * tokenHolders) / tokenTransfers) > Math.floor((j * tokenHolders) / tokenTransfers);
    const reached = Math.floor((j * tokenHolders) / tokenTransfers);
    const index = fresh || reached === 0 ? reached : this.#rng.int(0, reached - 1);
    return callTx(this.#account, this.#nonce(this.#account), this.#token, 'transfer', [
      address(this.#holder(index, 't')),
      BigInt(this.#rng.int(1, 1_000_000)),
    ]);
  }

  /** #holder is the address of recipient `i` (no key: it only receives). */
  #holder(i: number, kind: string): string {
    return encode('ak', hash(Buffer.concat([this.#holderSeed, Buffer.from(`${kind}${i}`)])));
  }

  #nameOwner(): KeyPair {
    return this.#rng.pick(this.#nameOwners);
  }

  #named(owner: KeyPair, type: string, version: number, fields: TxFields): BuiltTx {
    return {
      tx: { type, version, account_id: owner.address, nonce: this.#nonce(owner), ...fields, fee: this.#fee() },
      signers: [owner],
    };
  }

  /** #preclaim commits to a new name: one in ten short enough for an auction. */
  #preclaim(): BuiltTx {
    const n = (this.#names++).toString(36);
    const name = this.#rng.chance(AUCTION_SHARE) ? `h${n.padStart(8, '0')}.chain` : `hot-spot-name-${n}.chain`;
    const salt = this.#rng.bigint(128) + 1n;
    const owner = this.#nameOwner();
    this.#preclaimed.push({ name, salt, owner });
    return this.#named(owner, 'NamePreclaimTx', 1, { commitment_id: commitmentId(name, salt) });
  }

  /** #claims claims the names preclaimed a generation before; half the auctions get a second bid. */
  #claims(): (() => BuiltTx)[] {
    const made = this.#preclaimed.flatMap((p): (() => BuiltTx)[] => {
      const fee = minimumNameFee(p.name);
      const claim = (owner: KeyPair, salt: bigint, nameFee: bigint) => (): BuiltTx =>
        this.#named(owner, 'NameClaimTx', 2, { name: p.name, name_salt: jsonInt(salt), name_fee: jsonInt(nameFee) });
      if (auctionTimeout(p.name, PROTOCOL_VERSION) === 0) {
        this.#claimed.push(p);
        return [claim(p.owner, p.salt, fee)];
      }
      if (!this.#rng.chance(0.5)) return [claim(p.owner, p.salt, fee)];
      const bidder = this.#nameOwners.find((k) => k !== p.owner)!;
      return [claim(p.owner, p.salt, fee), claim(bidder, 0n, (fee * 11n) / 10n)];
    });
    this.#preclaimed = [];
    return made;
  }

  /** #updates points one in five names just claimed (long names: no auction) at their owner and the hot oracle. */
  #updates(): (() => BuiltTx)[] {
    const made = this.#claimed
      .filter(() => this.#rng.chance(POINTER_SHARE))
      .map(
        ({ name, owner }) =>
          (): BuiltTx =>
            this.#named(owner, 'NameUpdateTx', 1, {
              name_id: nameHash(name),
              name_ttl: 180_000,
              pointers: [
                { key: 'account_pubkey', id: owner.address },
                { key: 'oracle_pubkey', id: reprefix(this.#oracle.address, 'ok') },
              ],
              client_ttl: 3600,
            }),
      );
    this.#claimed = [];
    return made;
  }

  /** #channelUpdate alternates a deposit by the initiator and a withdrawal to the responder. */
  #channelUpdate(): BuiltTx {
    const round = this.#chain.pending.channels.get(this.#channel)!.round + 1;
    const deposit = round % 2 === 0;
    const party = deposit ? this.#initiator : this.#responder;
    return {
      tx: {
        type: deposit ? 'ChannelDepositTx' : 'ChannelWithdrawTx',
        version: 1,
        channel_id: this.#channel,
        [deposit ? 'from_id' : 'to_id']: party.address,
        amount: this.#rng.int(1, 1_000_000),
        fee: this.#fee(),
        nonce: this.#nonce(party),
        state_hash: this.#stateHash(),
        round,
      },
      signers: [party],
    };
  }

  /** #query asks the hot oracle from one of the name owners. */
  #query(): BuiltTx {
    const sender = this.#nameOwner();
    const nonce = this.#nonce(sender);
    const oracleId = reprefix(this.#oracle.address, 'ok');
    this.#queries.push({ id: oracleQueryId(sender.address, nonce, oracleId) });
    return oracleQueryTx({
      sender,
      nonce,
      oracleId,
      query: `hot question ${this.#rng.uint32()}`,
      queryFee: 10,
      queryTtl: QUERY_TTL,
      responseTtl: QUERY_TTL,
      fee: Number(ttlFee(QUERY_TTL)) + this.#fee(),
    });
  }

  /** #responses answer the queries asked a generation before. */
  #responses(): (() => BuiltTx)[] {
    const made = this.#queries.map(({ id }) => (): BuiltTx => ({
      tx: {
        type: 'OracleRespondTx',
        version: 1,
        oracle_id: reprefix(this.#oracle.address, 'ok'),
        nonce: this.#nonce(this.#oracle),
        query_id: id,
        response: `hot answer ${this.#rng.uint32()}`,
        response_ttl: { type: 'delta', value: QUERY_TTL },
        fee: Number(ttlFee(QUERY_TTL)) + this.#fee(),
      },
      signers: [this.#oracle],
    }));
    this.#queries = [];
    return made;
  }
}
