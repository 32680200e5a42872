/**
 * @module largestFirst: work items of uneven sizes spread over a fixed set of workers (a snapshot's tables over its
 * connections). Each worker takes the largest item left whenever it is free, so the largest start at once and the
 * small ones fill the ends: the whole takes about the largest item's time or the total ÷ the workers, whichever is more.
 */

/**
 * largestFirst runs `fn` over `items`, largest `bytes` first, on `workers`, each running one item at a time. Once an
 * item fails no worker starts another (those running finish theirs), and the first failure rejects the whole once
 * every worker has stopped: the caller undoes the work knowing nothing still runs.
 */
export async function largestFirst<W, T extends { readonly bytes: number }>(
  workers: readonly W[],
  items: readonly T[],
  fn: (worker: W, item: T) => Promise<void>,
): Promise<void> {
  const left = [...items].sort((a, b) => b.bytes - a.bytes);
  let failed = false;
  const run = async (worker: W): Promise<void> => {
    while (!failed && left.length > 0) {
      try {
        await fn(worker, left.shift()!);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  const done = await Promise.allSettled(workers.map(run));
  const failure = done.find((d) => d.status === 'rejected');
  if (failure !== undefined) throw failure.reason;
}
