/**
 * @module tx_update's mempool half: polls the node's pending list (internal API) and reports
 * transactions that entered it. Their inclusion is reported by the hub when the populator commits
 * them. Without NODE_INTERNAL_URL there is no pending list to read, and tx_update reports inclusions only.
 */
import { isJsonObject, stringifyJson, type Json } from '../chain/json.ts';
import { PENDING_PATH, readMempool } from '../node/mempool.ts';
import type { Logger } from '../base/log.ts';
import type { WebsocketMetrics } from './metrics.ts';

export interface PendingPollerOptions {
  readonly nodeInternalUrl: string;
  readonly intervalMs: number;
  readonly timeoutMs: number;
  readonly log: Logger;
  readonly metrics: WebsocketMetrics;
  /** Polls only while this is true (someone subscribed to tx_update). */
  readonly isWanted: () => boolean;
  /** Receives the serialised GenericSignedTx of each transaction new in the mempool, in the node's order. */
  readonly publish: (payloads: readonly string[]) => void;
}

/**
 * diffPending returns the mempool transactions not in `known` and the hashes to remember next
 * time (the current list: a transaction that left and came back is reported again).
 */
export function diffPending(known: ReadonlySet<string>, body: Json): { fresh: string[]; known: Set<string> } {
  const list = isJsonObject(body) && Array.isArray(body.transactions) ? body.transactions : [];
  const fresh: string[] = [];
  const next = new Set<string>();
  for (const tx of list) {
    if (!isJsonObject(tx) || typeof tx.hash !== 'string') continue;
    next.add(tx.hash);
    if (!known.has(tx.hash)) fresh.push(stringifyJson(tx));
  }
  return { fresh, known: next };
}

/** PendingTxPoller polls the pending list every intervalMs while tx_update has subscribers. */
export class PendingTxPoller {
  readonly #options: PendingPollerOptions;
  #known = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #polling: Promise<void> | undefined;
  #stopped = false;
  #failing = false;

  constructor(options: PendingPollerOptions) {
    this.#options = options;
  }

  /** start schedules the first poll. */
  start(): void {
    this.#schedule();
  }

  /** remember marks a transaction as reported already (a client posted it through us), so no poll reports it again. */
  remember(hash: string): void {
    this.#known.add(hash);
  }

  /** stop cancels the next poll and waits for one in flight. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#polling;
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#polling = this.#tick().finally(() => {
        this.#polling = undefined;
        this.#schedule();
      });
    }, this.#options.intervalMs);
  }

  async #tick(): Promise<void> {
    if (!this.#options.isWanted()) {
      // Whoever subscribes next is new: the first poll then reports the whole mempool to them.
      this.#known.clear();
      return;
    }
    try {
      const body = await this.#fetchPending();
      const { fresh, known } = diffPending(this.#known, body);
      this.#known = known;
      if (this.#failing) this.#options.log.info('node pending list readable again');
      this.#failing = false;
      if (fresh.length > 0 && !this.#stopped) this.#options.publish(fresh);
    } catch (err) {
      // counted with every request to the node (mdw_outbound_request_duration_seconds{operation="mempool"})
      if (!this.#failing)
        this.#options.log.warn({ err: (err as Error).message }, 'polling the node pending list failed');
      this.#failing = true;
    }
  }

  async #fetchPending(): Promise<Json> {
    const { nodeInternalUrl, timeoutMs, metrics } = this.#options;
    const { status, body } = await readMempool(nodeInternalUrl, timeoutMs, metrics.outbound);
    if (body === undefined) throw new Error(`node answered ${status} for ${PENDING_PATH}`);
    return body;
  }
}
