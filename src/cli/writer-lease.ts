/**
 * @module The populator's writer Lease on Kubernetes: a populator writes its schema only while it
 * holds `WRITER_LEASE_NAME`, so a rollout's old and new pod never write together. The PostgreSQL
 * advisory lock the populator takes guards the same thing inside the database; the Lease makes the
 * hand-over visible to the cluster and bounded in time.
 */
import type { Logger } from '../base/log.ts';
import type { Role } from '../base/roles.ts';
import type { LeaseKube } from '../operator/kube/client.ts';
import { LeaderElector } from '../operator/runtime/leader.ts';

export interface WriterLeaseOptions {
  readonly kube: LeaseKube;
  readonly namespace: string;
  readonly name: string;
  readonly identity: string;
  readonly log: Logger;
  /** Starts the role that may write once the Lease is held. */
  readonly start: () => Promise<Role>;
  /** Called when the Lease is lost while writing (the role is already stopped). */
  readonly onLost: () => void;
  readonly timings?: { leaseDurationMs?: number; renewDeadlineMs?: number; retryPeriodMs?: number };
}

/** holdWriterLease resolves once the Lease is held and the role started; stop() stops it and releases the Lease. */
export function holdWriterLease(opts: WriterLeaseOptions): Promise<Role> {
  let role: Role | undefined;
  let stopping = false;
  return new Promise((resolve, reject) => {
    const elector = new LeaderElector({
      kube: opts.kube,
      namespace: opts.namespace,
      name: opts.name,
      identity: opts.identity,
      log: opts.log,
      ...opts.timings,
      onStartedLeading: async () => {
        try {
          role = await opts.start();
          resolve({ name: `${role.name} (lease ${opts.name})`, stop });
        } catch (err) {
          reject(err as Error);
        }
      },
      onStoppedLeading: async () => {
        const running = role;
        role = undefined;
        await running?.stop();
        if (!stopping) {
          opts.log.error({ lease: opts.name }, 'writer lease lost, stopped writing');
          opts.onLost();
        }
      },
    });
    async function stop(): Promise<void> {
      stopping = true;
      await elector.stop();
    }
    opts.log.info({ lease: `${opts.namespace}/${opts.name}` }, 'waiting for the writer lease');
    elector.start();
  });
}
