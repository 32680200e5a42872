/** @module mapLimit: the rooms' bounded concurrency over node requests (fetches, fork checks, AEX-N look-ups, checks). */

/**
 * mapLimit runs fn over items with at most `limit` in flight and returns results in input order.
 * Once `more()` turns false no further item is started: the results are those of the leading
 * items started. Once a call fails none is started either, and the first failure rejects the whole: the caller
 * redoes its work, and items started after it would only load the node.
 */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
  more = (): boolean => true,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length && more()) {
      const i = next++;
      try {
        results[i] = await fn(items[i]!, i);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  results.length = next;
  return results;
}
