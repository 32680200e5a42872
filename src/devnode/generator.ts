/** @module Deterministic chains for tests and benchmarks: N generations × M micro blocks of mixed, valid, signed transactions. */
import { PROTOCOL_VERSION } from './store/blocks.ts';
import { Chain, type Checkpoints } from './chain.ts';
import type { DevnodeHardFork } from './rules/hard-forks.ts';
import { deriveKey, signBytes, type KeyPair } from './keys.ts';
import { mainnetLike, type GenerationShape } from './traffic/mainnet-like.ts';
import { Random } from './random.ts';
import { TxRejected } from './rules/apply.ts';
import { TOKEN_WEIGHT, TokenTraffic } from './traffic/contracts.ts';
import { Traffic } from './traffic/mix.ts';
import { TrafficKit, type WeightedMaker } from './traffic/kit.ts';
import { decodeTx, encodeSignedTx, encodeTx, type BuiltTx, type TxFields } from './tx-codec.ts';
import { madeUpMakers } from './traffic/made-up.ts';
import { epochEndVotes, hcVoteMakers } from './traffic/hc-votes.ts';
import type { DevnodeHyperchain } from './hyperchain/setup.ts';
import { hyperchainStakingMakers } from './traffic/hc-stakes.ts';
import { HotSpots, hotSpotKeys, type HotSpotSizes } from './traffic/hot-spots.ts';

/** GenerateOptions shapes a generated chain; the same options give the same chain, hash for hash. */
export interface GenerateOptions {
  readonly generations: number;
  readonly microBlocksPerGeneration?: number;
  readonly txsPerMicroBlock?: number;
  /**
   * how far apart the key blocks' times are (default the node's target, 3 minutes): wider, a chain of few generations
   * spans days (a test of per-day statistics)
   */
  readonly keyBlockSpacingMs?: number;
  readonly seed: string;
  readonly networkId?: string;
  /** how many funded accounts the traffic uses (default 64) */
  readonly accountCount?: number;
  /** more genesis accounts (e.g. the CLI's --account) */
  readonly extraAccounts?: readonly { readonly address: string; readonly balance: bigint }[];
  /** the miner/beneficiary key; derived from the seed when absent */
  readonly miner?: KeyPair;
  /** `mainnet-like`: mainnet's shape (mainnet-like.ts) instead of the uniform micro blocks and transactions above */
  readonly profile?: 'mainnet-like';
  /**
   * the share (0–1) of transactions drawn from the token traffic (AEX-9, AEX-141 and DEX deployments and calls),
   * e.g. 0 for a chain without tokens; absent: the token traffic is one maker of the mix (about one in ten)
   */
  readonly tokenShare?: number;
  /** the token traffic includes a names registrar contract's AENS calls (claims, updates, transfers, revokes) */
  readonly registrar?: boolean;
  /**
   * with `registrar`: it bids in the accounts' running auctions too, which their bids may outbid in turn (a contract's
   * bids returned when outbid, locked when they win)
   */
  readonly registrarBids?: boolean;
  /** more transaction makers for the mix (weight, maker), built over the traffic's shared context */
  readonly extraMakers?: (kit: TrafficKit) => readonly WeightedMaker[];
  /**
   * tests only: the mix also emits a type no node has (made-up-tx.ts), as a later protocol's type reaches a middleware
   * that does not know it
   */
  readonly madeUpTxs?: boolean;
  /** a hyperchain's epoch votes (HCVoteTx) in the mix too (traffic/hc-votes.ts); a main chain has none */
  readonly hcVotes?: boolean;
  /**
   * a hyperchain (hyperchain/setup.ts): its leaders make the key blocks, one slot in twenty is a hole, validators
   * register, stake, delegate and withdraw in the mix, and those whose keys are known vote at each epoch's end
   */
  readonly hyperchain?: DevnodeHyperchain;
  /** how many epoch ends a hyperchain's chain keeps the state of (ChainOptions.epochEndsKept) */
  readonly epochEndsKept?: number;
  /** the committed states the chain keeps as it grows (ChainOptions.checkpoints) */
  readonly checkpoints?: Checkpoints;
  /** how many key blocks apart a replay to a past block keeps waypoints (ChainOptions.waypointSpacing) */
  readonly waypointSpacing?: number;
  /** actions run after each generation's key block, before its transactions (e.g. deployments) */
  readonly perGeneration?: readonly ((chain: Chain, height: number) => void)[];
  /**
   * the protocol schedule (Ceres from genesis when absent), e.g. Ceres then Arcus from a height on; every generation
   * holds transactions, so from height 1 on it must run Ceres or a later protocol
   */
  readonly hardForks?: readonly DevnodeHardFork[];
  /** objects far busier than the mix makes them (hot-spots.ts), each spread over the generations; none when absent */
  readonly hotSpots?: HotSpotSizes;
}

/** GeneratedChain is the chain and the keys that can sign for it. */
export interface GeneratedChain {
  readonly chain: Chain;
  readonly accounts: readonly KeyPair[];
  readonly miner: KeyPair;
  /** transactions the traffic built but the rules refused (0 unless the mix has a bug) */
  readonly rejected: number;
  /** transactions on chain that the token traffic built (token, NFT and DEX deployments and calls) */
  readonly tokenTxs: number;
  /** how many transactions of each type the chain holds (an inner tx counted under its own type too) */
  readonly txTypes: Readonly<Record<string, number>>;
}

/** GENESIS_TIME of generated chains; key blocks follow every 3 minutes, micro blocks every 3 seconds. */
export const GENESIS_TIME = Date.UTC(2026, 0, 1);
/** HOLE_SHARE: the share of a hyperchain's slots whose leader misses them (the block is a hole). */
const HOLE_SHARE = 0.05;
/** GENERATED_BALANCE funds each generated account (beyond 2^53, like real balances). */
export const GENERATED_BALANCE = 10n ** 30n;

/** signBuilt serialises a built transaction and signs it (`networkId ++ txBytes`) by each signer. */
export function signBuilt(networkId: string, built: BuiltTx): Uint8Array {
  const txBytes = built.bytes ?? encodeTx(built.tx);
  const message = Buffer.concat([Buffer.from(networkId, 'utf8'), txBytes]);
  return encodeSignedTx(
    built.signers.map((k) => signBytes(k, message)),
    txBytes,
  );
}

/**
 * shownTx is a built transaction as the node shows it: an HCVoteTx's vote type is serialised but not shown (its JSON's
 * `type` overwrites it), so its JSON is what its bytes parse to.
 */
function shownTx(built: BuiltTx): TxFields {
  return built.tx.type === 'HCVoteTx' ? decodeTx(encodeTx(built.tx)) : built.tx;
}

function countTypes(counts: Record<string, number>, tx: TxFields): void {
  const type = String(tx.type);
  counts[type] = (counts[type] ?? 0) + 1;
  const inner = tx.tx;
  if (inner !== null && typeof inner === 'object' && !Array.isArray(inner) && typeof inner.tx === 'object')
    countTypes(counts, inner.tx as TxFields);
}

/**
 * endOfEpochVotes are the votes cast in the micro blocks of an epoch's last height (the next one: they come before
 * its key block), by the epoch's validators whose keys the generator holds; none at other heights.
 */
function endOfEpochVotes(chain: Chain, hc: DevnodeHyperchain, kit: TrafficKit): BuiltTx[] {
  const epoch = hc.hyperchain.currentEpoch(chain.state);
  const last = chain.height + 1;
  if (last !== epoch.last) return [];
  const keys = [...hc.validators, ...kit.accounts];
  const voters = epoch.validators.flatMap(([v]) => keys.find((k) => k.address === v) ?? []);
  const end = { epoch: epoch.epoch, height: last, blockHash: chain.top.hash, leader: epoch.schedule.at(-1)! };
  return epochEndVotes(end, voters);
}

/** generateChain builds the chain in memory; key block nonces are full 64-bit values. */
export function generateChain(opts: GenerateOptions): GeneratedChain {
  const rng = new Random(opts.seed);
  const micro = opts.microBlocksPerGeneration ?? 2;
  const perMicro = opts.txsPerMicroBlock ?? 5;
  const spacing = opts.keyBlockSpacingMs ?? 180_000;
  const accounts = Array.from({ length: opts.accountCount ?? 64 }, (_, i) => deriveKey(opts.seed, `account${i}`));
  const miner = opts.miner ?? deriveKey(opts.seed, 'miner');
  const chain = new Chain({
    networkId: opts.networkId ?? 'ae_devnet',
    miner,
    beneficiary: miner.address,
    genesisTime: GENESIS_TIME,
    genesisAccounts: [
      ...accounts.map((k) => ({ address: k.address, balance: GENERATED_BALANCE })),
      ...(opts.extraAccounts ?? []),
      ...(opts.hotSpots ? hotSpotKeys(opts.seed) : []).map((k) => ({ address: k.address, balance: GENERATED_BALANCE })),
      // a hyperchain's validators have accounts: they vote, and sign what they produce
      ...(opts.hyperchain?.validators ?? []).map((k) => ({ address: k.address, balance: GENERATED_BALANCE })),
    ],
    ...(opts.hardForks ? { hardForks: opts.hardForks } : {}),
    ...(opts.hyperchain ? { hyperchain: opts.hyperchain.hyperchain } : {}),
    ...(opts.epochEndsKept !== undefined ? { epochEndsKept: opts.epochEndsKept } : {}),
    ...(opts.checkpoints ? { checkpoints: opts.checkpoints } : {}),
    ...(opts.waypointSpacing !== undefined ? { waypointSpacing: opts.waypointSpacing } : {}),
  });
  if (chain.schedule.protocolAt(1) < PROTOCOL_VERSION)
    throw new RangeError(
      `a generated chain has transactions from its first generation on: its protocol at height 1 must be ${PROTOCOL_VERSION} or later`,
    );
  const kit = new TrafficKit(chain, rng, accounts);
  const share = opts.tokenShare;
  if (share !== undefined && !(share >= 0 && share <= 1)) throw new RangeError(`tokenShare ${share} is not in 0–1`);
  const tokenBuilt = new WeakSet<BuiltTx>();
  const tokens = new TokenTraffic(chain, rng, accounts, opts.registrar === true, opts.registrarBids === true);
  const counted = (built: BuiltTx | undefined): BuiltTx | undefined => {
    if (built) tokenBuilt.add(built);
    return built;
  };
  const tokenTx = (): BuiltTx | undefined => counted(tokens.next());
  // with a share, token transactions are drawn only by it (the mix has no token maker)
  const tokenMaker: WeightedMaker[] = share === undefined ? [[TOKEN_WEIGHT, tokenTx]] : [];
  const traffic = new Traffic(kit, [
    ...tokenMaker,
    ...(opts.madeUpTxs ? madeUpMakers(kit) : []),
    ...(opts.hcVotes ? hcVoteMakers(kit) : []),
    ...(opts.hyperchain ? hyperchainStakingMakers(kit, opts.hyperchain.hyperchain) : []),
    ...(opts.extraMakers?.(kit) ?? []),
  ]);
  const txTypes: Record<string, number> = {};
  const base: GenerationShape =
    opts.profile === 'mainnet-like'
      ? mainnetLike(opts.generations, rng, () => counted(tokens.aeMovingCall()))
      : { microBlocks: () => micro, transactions: () => perMicro, next: (tr, h) => tr.next(h) };
  // the token traffic has nothing to act on now and then (e.g. no NFT to transfer yet): a few more tries
  const shareNext = (tr: Traffic, h: number): BuiltTx =>
    (rng.chance(share!) ? (tokenTx() ?? tokenTx() ?? tokenTx()) : undefined) ?? base.next(tr, h);
  const shape: GenerationShape =
    share === undefined || share === 0
      ? base
      : { microBlocks: (h) => base.microBlocks(h), transactions: (h) => base.transactions(h), next: shareNext };
  let rejected = 0;
  let tokenTxs = 0;
  let hole = false;
  const hotSpots = opts.hotSpots && new HotSpots(chain, opts.seed, opts.hotSpots, opts.generations);
  const admit = (built: BuiltTx): boolean => {
    try {
      chain.admit(signBuilt(chain.options.networkId, built), shownTx(built));
      countTypes(txTypes, built.tx);
      return true;
    } catch (err) {
      if (!(err instanceof TxRejected)) throw err;
      rejected++;
      return false;
    }
  };
  for (let h = 1; h <= opts.generations; h++) {
    const keyTime = GENESIS_TIME + h * spacing;
    const pow = Array.from({ length: 42 }, () => rng.uint32());
    chain.mineKeyBlock({ nonce: rng.bigint(64), pow, time: keyTime, hole });
    for (const action of opts.perGeneration ?? []) action(chain, h);
    // on a hyperchain these micro blocks belong to the next height: a leader that will miss its slot makes none
    hole = opts.hyperchain !== undefined && rng.chance(HOLE_SHARE);
    if (opts.hyperchain) {
      for (const vote of endOfEpochVotes(chain, opts.hyperchain, kit)) {
        chain.admit(signBuilt(chain.options.networkId, vote), shownTx(vote));
        countTypes(txTypes, vote.tx);
      }
    }
    for (let m = 0, micros = hole ? 0 : shape.microBlocks(h); m < micros; m++) {
      for (let t = 0, txs = shape.transactions(h); t < txs; t++) {
        const built = shape.next(traffic, h);
        if (admit(built) && tokenBuilt.has(built)) tokenTxs++;
      }
      chain.mineMicroBlock(keyTime + (m + 1) * 3000);
    }
    // the hot spots' share of the generation, in a micro block of its own after the mix's (none in a hole)
    if (hotSpots && !hole) {
      for (const make of hotSpots.at(h)) admit(make());
      chain.mineMicroBlock(keyTime + spacing - 1000);
    }
    // votes before a leader that was to miss its slot: they cancel the hole, sealed at a time of the seed's (not now)
    if (hole) chain.mineMicroBlock(keyTime + 3000);
  }
  return { chain, accounts, miner, rejected, tokenTxs, txTypes };
}
