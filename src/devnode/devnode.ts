/** @module Devnode: the chain, its two HTTP listeners and the mining timers, as one Role (startDevnode starts one). */
import type { HotSpotSizes } from './traffic/hot-spots.ts';
import { stringifyJson } from '../chain/json.ts';
import type { Logger } from '../base/log.ts';
import type { Role } from '../base/roles.ts';
import { Chain } from './chain.ts';
import { dryRunRoute, EXTERNAL_GAS_LIMIT } from './api/dry-run.ts';
import { apiDoc, externalRoutes, type DevnodeInfo } from './api/external.ts';
import { generateChain } from './generator.ts';
import { pruneBelow } from './api/gc.ts';
import { DEFAULT_DRY_RUN_TIMEOUT_MS, forbidDebug, HeavyItems, timeLimited } from './api/endpoint-gates.ts';
import { alsoUnderV3, close, createJsonServer, listen, type Route } from './api/http.ts';
import { internalRoutes } from './api/internal.ts';
import { withIntAsString } from './api/int-as-string.ts';
import { deriveKey, parseSecretKey, randomKeyPair, type KeyPair } from './keys.ts';
import type { DevnodeHardFork } from './rules/hard-forks.ts';
import { Pacer, type PacingOptions } from './api/pacing.ts';
import { pacingRoute } from './api/pacing-route.ts';
import { Overload, overloadRoutes } from './api/overload.ts';
import { StopList } from '../base/stop-list.ts';
import { encode } from '../chain/encoding.ts';
import { decodeSignedTx } from '../chain/tx-parse.ts';
import { hyperchainRoutes } from './api/hyperchain-routes.ts';
import {
  devnodeHyperchain,
  HYPERCHAIN_NETWORK_ID,
  type DevnodeHyperchain,
  type HyperchainOptions,
} from './hyperchain/setup.ts';

/** DevnodeOptions configures a devnode (every CLI flag of `mdw devnode` maps to one field). */
export interface DevnodeOptions extends Omit<PacingOptions, 'random'> {
  /**
   * the external dry-run's endpoint group (`http.endpoints.dry-run`): default true, where a node's is off; false: no
   * `/v2|v3/dry-run` route, 404 as on such a node
   */
  dryRunEndpoint?: boolean;
  /** the internal debug endpoints (`http.internal.debug_endpoints`): default true; false: 403 with no body */
  debugEndpoints?: boolean;
  /**
   * both dry-runs' time limit (`http.dry_run.timeout_ms`): default 3000, as a node's; 0: unbounded. With `nodeProfile`
   * a dry-run's time is its items' at the recorded node's pace, else the devnode's own
   */
  dryRunTimeoutMs?: number;
  /** a pruning node: state reads below this height answer 410 (see gc.ts) */
  gcHeight?: number;
  /** listen address; default 127.0.0.1 */
  host?: string;
  /** external API port; default 3013; 0 = any free port */
  port?: number;
  /** internal API port; default 3113; 0 = any free port */
  internalPort?: number;
  /** network id signatures must be made for; default ae_devnet */
  networkId?: string;
  /** mine a key block this often; 0/undefined = only on demand */
  keyBlockIntervalMs?: number;
  /** put pending transactions in a micro block this often; default 1000; 0 = on demand */
  microBlockIntervalMs?: number;
  /** default true; false = pool-manager mode (GET /v2/key-blocks/pending + POST /v2/key-blocks) */
  mine?: boolean;
  /** sk_… or hex secret of the beneficiary (also the miner key); generated (derived from the seed with `generate`) when absent */
  beneficiarySecret?: string;
  /** accounts prefunded at genesis; three are generated when absent */
  accounts?: { secretKey: string; balance: bigint }[];
  /**
   * the protocol schedule and its hard forks' accounts and contracts (Ceres from genesis when absent); with
   * `generate`, Ceres or a later protocol from height 1 on (its transactions start there), e.g. Ceres → Arcus
   */
  hardForks?: readonly DevnodeHardFork[];
  /** a hyperchain (hyperchain/setup.ts): proof-of-stake epochs, leaders, holes, the staking and election contracts */
  hyperchain?: HyperchainOptions;
  /** start from a generated chain (see generateChain) */
  generate?: {
    generations: number;
    microBlocksPerGeneration?: number;
    txsPerMicroBlock?: number;
    seed: string;
    profile?: 'mainnet-like';
    /** the share of token, NFT and DEX transactions (GenerateOptions.tokenShare) */
    tokenShare?: number;
    /** tests only: a type no node has in the mix (GenerateOptions.madeUpTxs) */
    madeUpTxs?: boolean;
    /** a hyperchain's epoch votes in the mix (GenerateOptions.hcVotes) */
    hcVotes?: boolean;
    /** objects far busier than the mix makes them (GenerateOptions.hotSpots) */
    hotSpots?: HotSpotSizes;
  };
}

/** DEFAULT_ACCOUNT_BALANCE funds each generated developer account (10^24 aettos = one million AE). */
export const DEFAULT_ACCOUNT_BALANCE = 10n ** 24n;
const VERSION = '0.1.0';

/**
 * genesisAccountsJson is the chain's genesis accounts as the node's accounts file has them
 * (`{"ak_…": balance}`): what the middleware's GENESIS_ACCOUNTS_FILE reads.
 */
export function genesisAccountsJson(chain: Chain): string {
  return stringifyJson(Object.fromEntries(chain.options.genesisAccounts.map((a) => [a.address, a.balance])));
}

/** makeChain builds the chain: generated (its transaction count per type logged, as its stats) or from genesis. */
function makeChain(
  opts: DevnodeOptions,
  miner: KeyPair,
  accounts: readonly { pair: KeyPair; balance: bigint }[],
  log: Logger,
  hyperchain: DevnodeHyperchain | undefined,
): Chain {
  const networkId = hyperchain?.hyperchain.networkId ?? opts.networkId ?? 'ae_devnet';
  const genesisAccounts = accounts.map((a) => ({ address: a.pair.address, balance: a.balance }));
  if (opts.generate) {
    const generated = generateChain({
      ...opts.generate,
      networkId,
      miner,
      extraAccounts: genesisAccounts,
      ...(opts.hardForks ? { hardForks: opts.hardForks } : {}),
      ...(hyperchain ? { hyperchain } : {}),
    });
    const txs = generated.chain.txs.size;
    log.info(
      { generations: generated.chain.height, txs, tokenTxs: generated.tokenTxs, txTypes: generated.txTypes },
      'devnode chain generated',
    );
    return generated.chain;
  }
  return new Chain({
    networkId,
    miner,
    beneficiary: miner.address,
    genesisAccounts,
    genesisTime: Date.now(),
    ...(opts.hardForks ? { hardForks: opts.hardForks } : {}),
    ...(hyperchain ? { hyperchain: hyperchain.hyperchain } : {}),
  });
}

/** startDevnode builds the chain (generated or from genesis), listens on both ports and starts the timers. */
export async function startDevnode(opts: DevnodeOptions, log: Logger): Promise<Devnode> {
  const devnode = new Devnode(opts, log);
  await devnode.start();
  return devnode;
}

/**
 * Devnode is a development node. Its chain is built when it is made (generated or from genesis: memory, no I/O);
 * start() opens its two HTTP listeners and starts its mining timers, each pushing its stop on one list that a failed
 * start and stop() run last first.
 */
export class Devnode implements Role {
  readonly name = 'devnode';
  /** the chain itself, for tests that need to look inside */
  readonly chain: Chain;
  /** the prefunded accounts a developer can sign with */
  readonly accounts: readonly { publicKey: string; secretKey: string }[];
  readonly #opts: DevnodeOptions;
  readonly #log: Logger;
  readonly #hyperchain: DevnodeHyperchain | undefined;
  readonly #info: DevnodeInfo;
  /** the node's regulators and service times, which both listeners share as a node's do */
  readonly #pacer: Pacer;
  readonly #overload: Overload;
  /** the items no dry-run runs within the time limit (overTimeLimit, overTimeLimitCall) */
  readonly #heavy = new HeavyItems();
  readonly #stops = new StopList();
  #externalUrl = '';
  #internalUrl = '';

  constructor(opts: DevnodeOptions, log: Logger) {
    this.#opts = opts;
    this.#log = log;
    const miner = opts.beneficiarySecret
      ? parseSecretKey(opts.beneficiarySecret)
      : opts.generate
        ? deriveKey(opts.generate.seed, 'miner')
        : randomKeyPair();
    const accounts = opts.accounts
      ? opts.accounts.map((a) => ({ pair: parseSecretKey(a.secretKey), balance: a.balance }))
      : Array.from({ length: 3 }, () => ({ pair: randomKeyPair(), balance: DEFAULT_ACCOUNT_BALANCE }));
    const startedAt = Date.now();
    this.#hyperchain = opts.hyperchain
      ? devnodeHyperchain(opts.hyperchain, opts.networkId ?? HYPERCHAIN_NETWORK_ID, opts.generate?.seed ?? 'devnode')
      : undefined;
    this.chain = makeChain(opts, miner, accounts, log, this.#hyperchain);
    this.accounts = accounts.map((a) => ({ publicKey: a.pair.address, secretKey: a.pair.secretKey }));
    this.#info = { mine: opts.mine ?? true, startedAt, version: VERSION };
    this.#pacer = new Pacer(opts);
    this.#overload = new Overload(this.#pacer.retryAfter);
  }

  /** the external API's URL, once started */
  get externalUrl(): string {
    return this.#externalUrl;
  }

  /** the internal API's URL, once started */
  get internalUrl(): string {
    return this.#internalUrl;
  }

  /** start listens on both ports, then starts the timers; a listener that fails closes the one opened before it. */
  start(): Promise<void> {
    return this.#stops.starting(() => this.#start());
  }

  async stop(): Promise<void> {
    await this.#stops.unwind();
    this.#log.debug('devnode stopped');
  }

  /** mineKeyBlock mines one generation's key block now (pending transactions go in a micro block first). */
  async mineKeyBlock(): Promise<void> {
    this.chain.mineKeyBlock();
  }

  /** mineMicroBlock puts the pending transactions in a micro block now. */
  async mineMicroBlock(): Promise<void> {
    this.chain.mineMicroBlock();
  }

  /** fork replaces the top `depth` generations with different ones at the same heights. */
  async fork(depth: number): Promise<void> {
    this.chain.fork(depth);
    this.#log.info({ depth, height: this.chain.height, top: this.chain.top.hash }, 'devnode fork');
  }

  /**
   * overload has the next `requests` routed requests of the external API refused as a full regulator refuses them
   * (503), with `Retry-After: retryAfter` when given, else the node's own (none on 7.2.2).
   */
  overload(requests: number, retryAfter?: string): void {
    this.#overload.refuse(requests, retryAfter);
  }

  /**
   * overTimeLimit makes the mined transaction `txHash` (`th_…`) as heavy as a call a real node runs for longer than
   * its dry-run time limit: every dry-run that runs it again (its micro block's replay up to it or past it) is given
   * up at the limit, 400 `Bad request: dry-run exceeded time limit`, as the node gives it up (endpoint-gates.ts
   * HeavyItems; no effect without a limit, `dryRunTimeoutMs` 0). For tests: no devnode contract is that slow.
   */
  overTimeLimit(txHash: string): void {
    const record = this.chain.txs.get(txHash);
    if (!record) throw new Error(`no mined transaction ${txHash}`);
    this.#heavy.addTx(encode('tx', decodeSignedTx(record.signedBytes).txBytes));
  }

  /**
   * overTimeLimitCall makes every `call_req` of `contract` with `calldata` as heavy (overTimeLimit): a token's
   * `balances()` over more holders than a node walks within its limit.
   */
  overTimeLimitCall(contract: string, calldata: string): void {
    this.#heavy.addCall(contract, calldata);
  }

  /** overloadStats are the external API's requests refused so far by overload, and those still to refuse. */
  overloadStats(): { refused: number; remaining: number } {
    return this.#overload.stats();
  }

  /** height is the chain's top height. */
  height(): number {
    return this.chain.height;
  }

  async #start(): Promise<void> {
    const { chain } = this;
    const opts = this.#opts;
    const log = this.#log;
    const info = this.#info;
    const hyperchain = this.#hyperchain;
    // the node's configuration: its dry-runs' time limit (the paced node's items' time counted), its dry-run endpoint
    // group, its debug endpoints
    const timeoutMs = opts.dryRunTimeoutMs ?? DEFAULT_DRY_RUN_TIMEOUT_MS;
    const itemMs = this.#pacer.dryRunItemMs;
    const external = (['v2', 'v3'] as const).flatMap((v) => [
      ...externalRoutes(chain, info, v),
      ...(opts.dryRunEndpoint === false
        ? []
        : [
            timeLimited(
              dryRunRoute(chain, `/${v}/dry-run`, { gasLimit: EXTERNAL_GAS_LIMIT }),
              timeoutMs,
              itemMs,
              this.#heavy,
            ),
          ]),
      ...(hyperchain ? hyperchainRoutes(chain, hyperchain.hyperchain, v) : []),
    ]);
    const internalAll = alsoUnderV3([
      ...internalRoutes(chain),
      timeLimited(dryRunRoute(chain, '/v2/debug/transactions/dry-run'), timeoutMs, itemMs, this.#heavy),
      pacingRoute(this.#pacer),
      ...overloadRoutes(this.#overload),
    ]);
    const internal = opts.debugEndpoints === false ? forbidDebug(internalAll) : internalAll;
    const withApi = (routes: Route[]): Route[] => [
      ...withIntAsString(opts.gcHeight === undefined ? routes : pruneBelow(routes, chain, opts.gcHeight)),
      { method: 'GET', path: '/api', handler: () => apiDoc(routes, info) },
    ];
    const height = (): number => chain.height;
    const externalServer = createJsonServer(withApi(external), log, {
      regulate: this.#pacer.regulate(() => this.#overload.take()),
      height,
    });
    const internalServer = createJsonServer(withApi(internal), log, { regulate: this.#pacer.regulate(), height });
    const host = opts.host ?? '127.0.0.1';
    this.#externalUrl = await listen(externalServer, host, opts.port ?? 3013);
    this.#stops.push(() => close(externalServer));
    this.#internalUrl = await listen(internalServer, host, opts.internalPort ?? 3113);
    this.#stops.push(() => close(internalServer));
    this.#every(opts.microBlockIntervalMs ?? 1000, () => {
      const block = chain.mineMicroBlock();
      if (block) log.debug({ hash: block.hash, height: block.header.height, txs: block.txs.length }, 'micro block');
    });
    if (info.mine) {
      this.#every(opts.keyBlockIntervalMs, () => {
        const block = chain.mineKeyBlock();
        log.debug({ hash: block.hash, height: block.header.height }, 'key block');
      });
    }
    log.info(
      {
        externalUrl: this.#externalUrl,
        internalUrl: this.#internalUrl,
        height: chain.height,
        mine: info.mine,
        networkId: chain.options.networkId,
      },
      'devnode started',
    );
  }

  /** #every runs `fn` every `ms` (never when 0 or unset), a failure logged rather than ending the timer. */
  #every(ms: number | undefined, fn: () => void): void {
    if (!ms || ms <= 0) return;
    const timer = setInterval(() => {
      try {
        fn();
      } catch (err) {
        this.#log.error({ err }, 'devnode mining failed');
      }
    }, ms);
    this.#stops.push(() => clearInterval(timer));
  }
}
