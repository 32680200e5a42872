/** @module Keeps the response cache true to the database: drops rolled-back heights on the populator's NOTIFY, everything after a lost LISTEN. */
import type { Pool } from '../db/pool.ts';
import { NotificationListener } from '../events/listener.ts';
import { decodeNotification, notifyChannel, type ChainNotification } from '../events/notification.ts';
import type { Logger } from '../log.ts';
import type { Role } from '../roles.ts';
import type { ResponseCache } from './response-cache.ts';

/** invalidatedFrom is the lowest height a notification may have rewritten: its rollback, else its first written height. */
export function invalidatedFrom(n: ChainNotification): number {
  return Math.min(n.from, n.rollbackFrom ?? n.from);
}

/**
 * startCacheInvalidation LISTENs on the schema's channel with its own connection (the websocket
 * server's listener feeds its chain feed; sharing it would tie the HTTP cache to the websocket
 * role's lifetime). It resolves once LISTEN is active, so nothing is cached unguarded.
 */
export async function startCacheInvalidation(opts: { pool: Pool; schema: string; log: Logger; cache: ResponseCache }): Promise<Role> {
  const { cache } = opts;
  const log = opts.log.child({ component: 'response-cache' });
  const listener = new NotificationListener({
    pool: opts.pool,
    channel: notifyChannel(opts.schema),
    log,
    onNotification: (payload) => {
      const notification = decodeNotification(payload);
      if (!notification) return;
      // A plain commit writes above the top, where nothing is cached; this only costs a scan on rollbacks.
      cache.invalidateFrom(invalidatedFrom(notification));
      if (notification.rollbackFrom !== undefined) log.info({ rollbackFrom: notification.rollbackFrom }, 'response cache invalidated by a rollback');
    },
    onReconnected: () => {
      cache.clear();
      log.info('response cache cleared after a lost listen connection');
    },
  });
  await listener.start();
  return { name: 'response-cache-invalidation', stop: () => listener.stop() };
}
