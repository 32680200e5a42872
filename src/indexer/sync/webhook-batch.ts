/**
 * @module The webhooks' share of a populator batch (docs/webhooks.md): before the batch deletes heights (a fork's
 * rollback, a reload), what a receiver may have seen there is read; once the batch wrote its blocks, the deliveries of
 * its heights are written and what the deletes dropped for good is told in a `reorg` delivery, all in the batch's
 * transaction.
 */
import type { Queryable } from '../../db/connection/pool.ts';
import {
  droppedDeliveries,
  hasWebhooks,
  settleDropped,
  writeDeliveries,
  type DroppedDeliveries,
} from '../../db/writes/webhook-deliveries.ts';

/** WebhookBatch is one batch transaction's deliveries: `before` its deletes, then `write` after its blocks. */
export class WebhookBatch {
  readonly #dropped: DroppedDeliveries | undefined;

  private constructor(dropped: DroppedDeliveries | undefined) {
    this.#dropped = dropped;
  }

  /** before reads what the deletes of `heights` (every one from `from` on, or those listed) would take, if any. */
  static async before(db: Queryable, heights?: { from: number } | readonly number[]): Promise<WebhookBatch> {
    if (heights === undefined || !(await hasWebhooks(db))) return new WebhookBatch(undefined);
    return new WebhookBatch(await droppedDeliveries(db, heights));
  }

  /** write writes the deliveries of heights from..to and settles what the deletes dropped. */
  async write(db: Queryable, from: number, to: number): Promise<void> {
    if (await hasWebhooks(db)) await writeDeliveries(db, from, to, this.#dropped?.blocks);
    if (this.#dropped) await settleDropped(db, this.#dropped);
  }
}
