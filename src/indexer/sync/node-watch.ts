/**
 * @module The node's top asked whenever the follower has not asked it for a poll interval, so the metrics say within a
 * request's timeout that the node went away (or moved on) whatever the populator is doing: a batch whose requests
 * retry a hung node for minutes, a wait for PostgreSQL to take the writer lock again. While the follower polls (each
 * step at the top) it asks nothing.
 */
import type { NodeClient } from '../../node/client.ts';
import { sleep } from '../../base/retry.ts';
import type { SyncGauges } from './sync-gauges.ts';

export interface NodeWatchDeps {
  /** a client whose requests are not retried (as the follower's poll) */
  readonly poll: Pick<NodeClient, 'topHeight'>;
  readonly gauges: SyncGauges;
  readonly intervalMs: number;
}

/** watchNode asks the node's top each interval nobody else did, until `signal` aborts. */
export async function watchNode({ poll, gauges, intervalMs }: NodeWatchDeps, signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    await sleep(intervalMs, signal);
    if (signal.aborted || Date.now() - gauges.heardAt < intervalMs) continue;
    const top = await poll.topHeight().catch(() => undefined);
    if (signal.aborted) return;
    if (top === undefined) gauges.pollFailed();
    else gauges.polled(top);
  }
}
