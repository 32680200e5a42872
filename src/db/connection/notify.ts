/**
 * @module The chain notification over PostgreSQL: the populator's NOTIFY inside its write
 * transaction (delivered at COMMIT, never after a rollback) and a server's LISTEN/UNLISTEN on one
 * dedicated connection.
 */
import { encodeNotification, notifyChannel, type ChainNotification } from './notification.ts';
import { quoteIdent, type Queryable } from './pool.ts';

/** notifyCommitted queues the schema's chain notification; PostgreSQL sends it when the caller's transaction commits. */
export async function notifyCommitted(db: Queryable, schema: string, notification: ChainNotification): Promise<void> {
  await db.query({
    name: 'mdw_notify',
    text: 'SELECT pg_notify($1, $2)',
    values: [notifyChannel(schema), encodeNotification(notification)],
  });
}

/** listen subscribes the connection to a channel; its notifications arrive as the client's 'notification' events. */
export async function listen(db: Queryable, channel: string): Promise<void> {
  await db.query(`LISTEN ${quoteIdent(channel)}`);
}

/** unlisten ends the connection's subscription to a channel. */
export async function unlisten(db: Queryable, channel: string): Promise<void> {
  await db.query(`UNLISTEN ${quoteIdent(channel)}`);
}
