/**
 * @module An LRU cache bounded by its number of entries, its storage grown as it fills: lru-cache's `max` allocates
 * storage for all of them when the cache is made (a cache of 100,000 cost 10 ms of CPU before it held anything), and
 * the caches made with each populator, `mdw -v` and API server mostly keep a few hundred entries.
 */
import { LRUCache } from 'lru-cache';

/** countedCache is an LRU cache of at most `entries` entries that allocates only for those it holds. */
export function countedCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(
  entries: number,
): LRUCache<K, V> {
  return new LRUCache<K, V>({ maxSize: entries, sizeCalculation: () => 1 });
}
