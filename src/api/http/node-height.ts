/** @module The node's height as this server reads it now, kept for a moment so that status polls do not each ask the node. */
import type { Logger } from '../../base/log.ts';
import { NodeClient } from '../../node/client.ts';
import type { OutboundMetrics } from '../../node/outbound-metrics.ts';
import type { DependencyOutage } from './outage.ts';
import { PromptReading } from './prompt-reading.ts';

/** NODE_HEIGHT_TTL_MS: how long one reading of the node's height answers status requests (a second at most: issue 44). */
export const NODE_HEIGHT_TTL_MS = 1000;
/** Upper bound on one reading of the node for a status: a reading of a silent node ends, and says so, by then. */
export const STATUS_READ_MAX_MS = 2000;
/**
 * How long a status waits for the node's answer (from the reading's start) before it answers without, saying the node
 * is unreachable: well under Kubernetes' default probe timeout of 1 s (issue 79). The reading goes on behind.
 */
export const STATUS_NODE_WAIT_MS = 300;

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
 * one reading, and wait for it STATUS_NODE_WAIT_MS at most. `null` means no node answered (in that time); the outage
 * tracker hears of a reading that failed, and while it knows the node away the node is not asked.
 */
export class NodeHeight {
  readonly #client: NodeClient;
  readonly #outage: DependencyOutage | undefined;
  readonly #reading: PromptReading<number | null>;

  constructor(opts: NodeHeightOptions) {
    this.#client = new NodeClient(
      { url: opts.urls, timeoutMs: Math.min(opts.timeoutMs, STATUS_READ_MAX_MS), attempts: 1, metrics: opts.metrics },
      opts.log,
    );
    this.#outage = opts.outage;
    this.#reading = new PromptReading({
      read: () => this.#read(),
      ttlMs: opts.ttlMs ?? NODE_HEIGHT_TTL_MS,
      waitMs: STATUS_NODE_WAIT_MS,
      late: () => null,
    });
  }

  /** current is the node's height, read within the last TTL, or null when the node cannot be reached (now). */
  current(): Promise<number | null> {
    return this.#reading.get();
  }

  async #read(): Promise<number | null> {
    // known away (a reading or a forwarded request found it so, and its probe has not found it back)
    if (this.#outage?.down) return null;
    try {
      return await this.#client.topHeight();
    } catch (err) {
      this.#outage?.unavailable(err);
      return null;
    }
  }
}
