/** @module The node's height as this server reads it now, kept for a moment so that status polls do not each ask the node. */
import type { Logger } from '../../base/log.ts';
import { NodeClient } from '../../node/client.ts';
import type { OutboundMetrics } from '../../node/outbound-metrics.ts';
import type { DependencyOutage } from './outage.ts';
import { BriefValue } from './brief-value.ts';

/** NODE_HEIGHT_TTL_MS: how long one reading of the node's height answers status requests (a second at most: issue 44). */
export const NODE_HEIGHT_TTL_MS = 1000;
/** Upper bound on one reading of the node for a status: a status answer never waits long for a silent node. */
export const STATUS_READ_MAX_MS = 2000;

/** What a NodeHeight reads from. */
export interface NodeHeightOptions {
  /** the node URLs, failover order */
  readonly urls: readonly string[];
  readonly timeoutMs: number;
  readonly log: Logger;
  /** told when no node answers, so that the node's loss and return are logged once with the forwarded requests' */
  readonly outage?: DependencyOutage;
  readonly ttlMs?: number;
  /** counts the readings among the server's requests to the node */
  readonly metrics?: OutboundMetrics;
}

/**
 * NodeHeight reads `/v2/key-blocks/current/height` at most once per TTL; concurrent callers share
 * one reading. `null` means no node answered; the outage tracker hears of it.
 */
export class NodeHeight {
  readonly #client: NodeClient;
  readonly #outage: DependencyOutage | undefined;
  readonly #reading: BriefValue<number | null>;

  constructor(opts: NodeHeightOptions) {
    this.#client = new NodeClient(
      { url: opts.urls, timeoutMs: Math.min(opts.timeoutMs, STATUS_READ_MAX_MS), attempts: 1, metrics: opts.metrics },
      opts.log,
    );
    this.#outage = opts.outage;
    this.#reading = new BriefValue(() => this.#read(), opts.ttlMs ?? NODE_HEIGHT_TTL_MS);
  }

  /** current is the node's height, read within the last TTL, or null when the node cannot be reached. */
  current(): Promise<number | null> {
    return this.#reading.get();
  }

  async #read(): Promise<number | null> {
    try {
      return await this.#client.topHeight();
    } catch (err) {
      this.#outage?.unavailable(err);
      return null;
    }
  }
}
