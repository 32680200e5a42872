/**
 * @module workers: items run on a set of workers, each running one at a time and taking the next left whenever it is
 * free. The one loop behind the rooms' bounded concurrency over node requests (mapLimit: the workers are slots) and a
 * snapshot's tables over its connections (largestFirst: the workers are the connections, the items largest first).
 */

/**
 * onWorkers runs `fn` over `items`, in their order, on `workers` and returns the results in input order. Once an item
 * fails no worker starts another (those running finish theirs), and the first failure rejects the whole once every
 * worker has stopped: the caller redoes or undoes its work knowing none of it still runs (no request of a failed batch
 * loading the node beside the retry, no COPY writing into a schema being dropped).
 */
async function onWorkers<W, T, R>(
  workers: readonly W[],
  items: readonly T[],
  fn: (worker: W, item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { readonly reason: unknown } | undefined;
  const run = async (worker: W): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const i = next++;
      try {
        results[i] = await fn(worker, items[i]!, i);
      } catch (reason) {
        failure ??= { reason };
      }
    }
  };
  await Promise.all(workers.map(run));
  if (failure !== undefined) throw failure.reason;
  return results;
}

/** mapLimit runs `fn` over `items` with at most `limit` in flight (onWorkers over that many slots). */
export function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const slots = Array.from({ length: Math.min(limit, items.length) }, (_, i) => i);
  return onWorkers(slots, items, (_slot, item, i) => fn(item, i));
}

/**
 * largestFirst runs `fn` over items of uneven sizes, largest `bytes` first, on a fixed set of workers (onWorkers): the
 * largest start at once and the small ones fill the ends, so the whole takes about the largest item's time or the
 * total ÷ the workers, whichever is more.
 */
export async function largestFirst<W, T extends { readonly bytes: number }>(
  workers: readonly W[],
  items: readonly T[],
  fn: (worker: W, item: T) => Promise<void>,
): Promise<void> {
  await onWorkers(
    workers,
    [...items].sort((a, b) => b.bytes - a.bytes),
    fn,
  );
}
