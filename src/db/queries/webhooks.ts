/**
 * @module The webhooks API's statements (`/mdw/v3/webhooks`, docs/webhooks.md): its hooks listed and read, and their
 * deliveries paged newest first by their place in its order.
 */
import type { Queryable } from '../connection/pool.ts';
import type { PageReader } from './positions.ts';

/** WebhookRow is a hook as the API shows it (never its secret). */
export interface WebhookRow {
  readonly id: string;
  /** the API key's id that created it (null: none, WEBHOOKS_ANONYMOUS) */
  readonly owner: string | null;
  readonly url: string;
  readonly filters: unknown;
  readonly confirmations: number;
  readonly createdHeight: number;
  readonly createdAt: Date;
  readonly disabledReason: string | null;
  readonly nextAttemptAt: Date;
  readonly pending: number;
  /** until when the secret a rotation replaced still signs (null: none does) */
  readonly previousSecretUntil: Date | null;
}

/** NewWebhook is what a create writes; `keys` are its filters' match keys in their order. */
export interface NewWebhook {
  readonly id: string;
  readonly owner: string | null;
  readonly url: string;
  readonly filters: unknown;
  readonly confirmations: number;
  readonly secret: string;
  readonly keys: readonly {
    idKey: Buffer;
    txTypes: readonly number[] | null;
    fieldsRe: string | null;
    logContract: string | null;
    logTopic: string | null;
    logAccount: string | null;
    logAccountTopics: readonly number[] | null;
    logDelivery: string | null;
  }[];
}

/** DeliveryCursor is a delivery's place in its hook's order. */
export interface DeliveryCursor {
  readonly height: number;
  readonly rank: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly seq: string;
}

/** DeliveryRow is a delivery as `GET …/deliveries` shows it. */
export interface DeliveryRow extends DeliveryCursor {
  readonly deliveryId: string;
  readonly type: string;
  readonly blockHash: string | null;
  readonly txHash: string | null;
  readonly invalidated: string[] | null;
  readonly status: string;
  readonly attempts: number;
  readonly lastError: string | null;
  readonly lastAttemptAt: Date | null;
  readonly sentAt: Date | null;
}

const HOOK = `w.id, w.owner, w.url, w.filters, w.confirmations, w.created_height AS "createdHeight", w.created_at AS "createdAt",
  w.disabled_reason AS "disabledReason", w.next_attempt_at AS "nextAttemptAt",
  CASE WHEN w.previous_secret_until > now() THEN w.previous_secret_until END AS "previousSecretUntil",
  (SELECT count(*)::int FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.status = 'pending') AS pending`;

/** listWebhooks reads an owner's hooks (null: the hooks of no key), oldest first. */
export async function listWebhooks(db: Queryable, owner: string | null): Promise<WebhookRow[]> {
  const { rows } = await db.query<WebhookRow>(
    `SELECT ${HOOK} FROM webhooks w WHERE w.owner IS NOT DISTINCT FROM $1 ORDER BY w.created_at, w.id`,
    [owner],
  );
  return rows;
}

/** webhookOf reads one hook of an owner; undefined for another owner's or none. */
export async function webhookOf(db: Queryable, id: string, owner: string | null): Promise<WebhookRow | undefined> {
  const { rows } = await db.query<WebhookRow>(
    `SELECT ${HOOK} FROM webhooks w WHERE w.id = $1 AND w.owner IS NOT DISTINCT FROM $2`,
    [id, owner],
  );
  return rows[0];
}

/** everyWebhook reads every hook, or those of one owner's key, oldest first: `mdw webhooks list`. */
export async function everyWebhook(db: Queryable, owner: string | undefined): Promise<WebhookRow[]> {
  const { rows } = await db.query<WebhookRow>(
    `SELECT ${HOOK} FROM webhooks w WHERE $1::text IS NULL OR w.owner = $1 ORDER BY w.created_at, w.id`,
    [owner ?? null],
  );
  return rows;
}

/** webhookById reads one hook whoever owns it: `mdw webhooks show|disable|delete`. */
export async function webhookById(db: Queryable, id: string): Promise<WebhookRow | undefined> {
  const { rows } = await db.query<WebhookRow>(`SELECT ${HOOK} FROM webhooks w WHERE w.id = $1`, [id]);
  return rows[0];
}

/** signingSecrets are one owner's hook's secrets in force, the current one first; undefined for no such hook. */
export async function signingSecrets(db: Queryable, id: string, owner: string | null): Promise<string[] | undefined> {
  const { rows } = await db.query<{ secret: string; previous: string | null }>(
    `SELECT secret, CASE WHEN previous_secret_until > now() THEN previous_secret END AS previous
       FROM webhooks WHERE id = $1 AND owner IS NOT DISTINCT FROM $2`,
    [id, owner],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  return row.previous === null ? [row.secret] : [row.secret, row.previous];
}

/**
 * deliveriesPage reads up to `limit` deliveries of a hook in their order (`forward`: oldest first; `backward`: newest
 * first), from `from` (inclusive) or from that end of the list.
 */
export const deliveriesPage: PageReader<string, DeliveryCursor, DeliveryRow> = async (
  db,
  webhookId,
  { walk, from, n: limit },
) => {
  const [compare, order] = walk === 'forward' ? ['>=', 'ASC'] : ['<=', 'DESC'];
  const { rows } = await db.query<DeliveryRow>(
    `SELECT delivery_id AS "deliveryId", type, height, rank, micro_index AS "microIndex", tx_index AS "txIndex",
            seq::text, block_hash AS "blockHash", tx_hash AS "txHash", invalidated, status, attempts,
            last_error AS "lastError", last_attempt_at AS "lastAttemptAt", sent_at AS "sentAt"
       FROM webhook_deliveries
      WHERE webhook_id = $1
        AND ($2::int IS NULL OR (height, rank, micro_index, tx_index, seq) ${compare} ($2, $3, $4, $5, $6::bigint))
      ORDER BY height ${order}, rank ${order}, micro_index ${order}, tx_index ${order}, seq ${order} LIMIT $7`,
    [
      webhookId,
      from?.height ?? null,
      from?.rank ?? null,
      from?.microIndex ?? null,
      from?.txIndex ?? null,
      from?.seq ?? null,
      limit,
    ],
  );
  return rows;
};

/** storedTop is the highest stored height (−1: none). */
export async function storedTop(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ top: number }>('SELECT coalesce(max(height), -1) AS top FROM key_blocks');
  return rows[0]!.top;
}
