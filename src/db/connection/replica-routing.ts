/**
 * @module Where a server's replica reads go: one pool over the replicas that takes turns among those at the floor, on a
 * connection whose own standby has replayed the floor (a URL may spread its connections over several standbys).
 */
import { ReplicaUnavailableError } from './errors.ts';
import { formatLsn } from './lsn.ts';
import { createRoutingPool, type Pool, type PoolClient } from './pool.ts';
import { sleep } from '../../base/retry.ts';
import type { TurnQueue } from '../../base/turns.ts';
import { replayPosition } from './replication.ts';
import type { ReplayFloor } from './replay-floor.ts';
import { atFloor, type Replica, type ReplicaWatch } from './replica-watch.ts';

/**
 * How long a read waits for its connection's standby to reach the floor before it is refused (503): a URL that
 * spreads its connections over several standbys (CloudNativePG's `-ro`) may hand out one behind the one followed.
 */
const CONNECTION_CATCH_UP_MS = 2000;

/** noReplicaReason says why no read can go to any of `replicas` at `floor`. Pure. */
export function noReplicaReason(replicas: readonly Replica[], floor: bigint): string {
  if (!replicas.some((r) => r.reachable)) return 'no read replica reachable';
  if (!replicas.some((r) => r.reachable && r.standby)) return 'no read replica is a standby (promoted?)';
  return `no read replica has replayed ${formatLsn(floor)} yet`;
}

/**
 * routeReads is the pool of the replicas `watch` follows, which sends each use to one at `floor`'s floor (turn by
 * turn, passing over one whose connection failed) and checks that its connection's standby is there, waiting
 * `waitPollMs` between looks. No replica at the floor: the use fails with a ReplicaUnavailableError. Its queries hand
 * their results over in turns of `turns`, when given.
 */
export function routeReads(watch: ReplicaWatch, floor: ReplayFloor, waitPollMs: number, turns?: TurnQueue): Pool {
  let turn = 0;
  /** what each pooled connection's standby was last seen to have replayed (replay only moves on per standby) */
  const known = new WeakMap<PoolClient, bigint>();
  return createRoutingPool(
    watch.replicas.map((r) => r.pool),
    {
      pick(avoid) {
        const current = watch.replicas.filter((r) => atFloor(r, floor.floor) && !avoid.has(r.pool));
        if (current.length === 0) throw new ReplicaUnavailableError(noReplicaReason(watch.replicas, floor.floor));
        turn = (turn + 1) % current.length;
        return current[turn]!.pool;
      },
      // asked only when the floor moved on since the connection was last seen there (once per connection each time
      // the floor moves, not per read), waiting briefly
      async ready(client) {
        const deadline = Date.now() + CONNECTION_CATCH_UP_MS;
        for (;;) {
          const target = floor.floor;
          if ((known.get(client) ?? -1n) >= target) return;
          const { replayed, inRecovery } = await replayPosition(client);
          if (!inRecovery) throw new ReplicaUnavailableError('the read connection is on no standby (promoted?)');
          if (replayed !== undefined) known.set(client, replayed);
          if (replayed !== undefined && replayed >= target) return;
          if (Date.now() >= deadline)
            throw new ReplicaUnavailableError(
              `the read connection's standby has not replayed ${formatLsn(target)} yet`,
            );
          await sleep(waitPollMs);
        }
      },
      // the next look finds it back when it answers
      unreachable: (pool) => watch.unreachable(pool),
    },
    turns,
  );
}
