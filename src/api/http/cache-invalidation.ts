/** @module Keeps the response cache true to the database: drops rolled-back heights on the populator's NOTIFY, and keeps nothing while the LISTEN connection is lost. */
import type { NotificationListener } from '../../events/listener.ts';
import { decodeNotification, type ChainNotification } from '../../db/connection/notification.ts';
import type { Logger } from '../../base/log.ts';
import type { Role } from '../../base/roles.ts';
import type { ResponseCache } from './response-cache.ts';

/** invalidatedFrom is the lowest height a notification may have rewritten: its rollback, else its first written height. */
export function invalidatedFrom(n: ChainNotification): number {
  return Math.min(n.from, n.rollbackFrom ?? n.from);
}

/**
 * startCacheInvalidation subscribes the cache to the process's shared listener, which must have
 * been started (LISTEN active) before the first request, so nothing is cached unguarded. While
 * the connection is lost a rollback could go unheard: the cache is suspended (emptied, storing
 * nothing) until LISTEN is active again.
 */
export function startCacheInvalidation(opts: {
  listener: NotificationListener;
  log: Logger;
  cache: ResponseCache;
}): Role {
  const { cache } = opts;
  const log = opts.log.child({ component: 'response-cache' });
  const unsubscribe = opts.listener.subscribe({
    onNotification: (payload) => {
      const notification = decodeNotification(payload);
      if (!notification) return;
      // A plain commit writes above the top, where nothing is cached; this only costs a scan on rollbacks.
      cache.invalidateFrom(invalidatedFrom(notification));
      if (notification.rollbackFrom !== undefined)
        log.info({ rollbackFrom: notification.rollbackFrom }, 'response cache invalidated by a rollback');
    },
    onLost: () => {
      cache.suspend();
      log.warn('response cache suspended while the listen connection is lost');
    },
    onReconnected: () => {
      cache.resume();
      log.info('response cache resumed after the listen connection came back');
    },
  });
  return {
    name: 'response-cache-invalidation',
    stop: () => {
      unsubscribe();
      return Promise.resolve();
    },
  };
}
