/**
 * @module The genesis AE balance of an account no stored change tells (issue 88). Without GENESIS_ACCOUNTS_FILE the
 * balances area learns an account's genesis balance only when a transaction first touches it (its `accounts_roma`
 * change, balance-changes.ts); an account nothing touched has no change stored, and was served 0 at every height
 * where the node holds its genesis money. Nothing having changed it, its balance at any stored height is the one at
 * the genesis key block, which the node tells once (`/v3/accounts/{id}/hash/{genesis}`) and which never changes: kept.
 */
import { countedCache } from '../../../base/counted-cache.ts';
import type { Logger } from '../../../base/log.ts';
import type { Config } from '../../../config/middleware.ts';
import type { Queryable } from '../../../db/connection/pool.ts';
import { keyBlockAt } from '../../../db/queries/blocks.ts';
import { NodeClient } from '../../../node/client.ts';
import { NodeError } from '../../../node/errors.ts';
import type { OutboundMetrics } from '../../../node/outbound-metrics.ts';

/** The genesis balances kept: a genesis file's few hundred accounts and the ones asked most, an answer of 8 bytes each. */
const KEPT = 100_000;

/** An untouched account's balance as the node tells it. */
export interface UntouchedBalance {
  /** 0 for an account the state does not hold */
  readonly balance: bigint;
  /** read at the genesis key block (its time): the balance is the account's genesis balance, its one change */
  readonly genesisTimeMs?: number;
}

/**
 * GenesisBalances asks the node an untouched account's genesis balance where the genesis accounts are not configured
 * (GENESIS_ACCOUNTS_FILE: then the balances area stored every genesis account's balance, and an account without a
 * change held nothing), through the node client and its retries, and keeps each answer.
 */
export class GenesisBalances {
  readonly #db: Queryable;
  readonly #node: Pick<NodeClient, 'accountBalance'> | undefined;
  readonly #kept = countedCache<string, bigint>(KEPT);
  #genesis: { readonly hash: string; readonly timeMs: number } | undefined;

  constructor(db: Queryable, node: Pick<NodeClient, 'accountBalance'> | undefined) {
    this.#db = db;
    this.#node = node;
  }

  /** forConfig asks the configured nodes, unless the genesis accounts are configured (then it asks nothing). */
  static forConfig(db: Queryable, cfg: Config, log: Logger, metrics: OutboundMetrics): GenesisBalances {
    if (cfg.genesisAccountsFile !== undefined) return new GenesisBalances(db, undefined);
    // a client waits for it: one retry of a transient failure, and a node's refusal for load is the client's 503
    // with Retry-After (error-boundary.ts), not a wait at the node's pace
    const node = new NodeClient(
      { url: cfg.nodeUrls, timeoutMs: cfg.nodeTimeoutMs, attempts: 2, paced: false, metrics },
      log,
    );
    return new GenesisBalances(db, node);
  }

  /**
   * genesisBalance is `account`'s balance at the genesis key block, with that block's time: undefined where the
   * genesis accounts are configured (an account without a stored change held nothing) or no genesis key block is
   * stored yet. A node that no longer holds the genesis state (garbage-collected: 410) or cannot answer throws its
   * NodeError.
   */
  async genesisBalance(account: string): Promise<{ readonly balance: bigint; readonly timeMs: number } | undefined> {
    const node = this.#node;
    if (node === undefined) return undefined;
    const genesis = await this.#genesisBlock();
    if (genesis === undefined) return undefined;
    let balance = this.#kept.get(account);
    if (balance === undefined) {
      balance = (await node.accountBalance(account, genesis.hash)) ?? 0n;
      this.#kept.set(account, balance);
    }
    return { balance, timeMs: genesis.timeMs };
  }

  /**
   * untouched is the balance after the block `blockHash` of an account no stored change tells: its genesis balance
   * (genesisBalance), or, where the node no longer holds the genesis state, its balance after that block as the node
   * tells it. A node that holds neither, or cannot answer, throws its NodeError.
   */
  async untouched(account: string, blockHash: string): Promise<UntouchedBalance | undefined> {
    try {
      const genesis = await this.genesisBalance(account);
      return genesis && { balance: genesis.balance, genesisTimeMs: genesis.timeMs };
    } catch (err) {
      if (!(err instanceof NodeError && err.gone) || this.#node === undefined) throw err;
      return { balance: (await this.#node.accountBalance(account, blockHash)) ?? 0n };
    }
  }

  async #genesisBlock(): Promise<{ readonly hash: string; readonly timeMs: number } | undefined> {
    if (this.#genesis === undefined) {
      const kb = await keyBlockAt(this.#db, 0);
      if (kb !== undefined) this.#genesis = { hash: kb.hash, timeMs: kb.timeMs };
    }
    return this.#genesis;
  }
}
