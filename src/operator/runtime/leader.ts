/** @module Lease-based leader election (coordination.k8s.io/v1), client-go compatible: 15 s / 10 s / 2 s, release on stop. */
import type { V1LeaseSpec } from '@kubernetes/client-node';
import { isKubeError } from '../kube/client.ts';
import type { KubeClient, KubeObject, ObjectRef } from '../kube/client.ts';
import type { Logger } from '../../log.ts';

/** LeaderElectorOptions: the Lease to contend for, who we are, the timings and the callbacks. */
export interface LeaderElectorOptions {
  kube: KubeClient;
  namespace: string;
  name: string;
  identity: string;
  log: Logger;
  /** how long a Lease stays valid after its holder's last renewal, as seen by the others. Default 15 s. */
  leaseDurationMs?: number;
  /** a leader that could not renew for this long steps down. Default 10 s. */
  renewDeadlineMs?: number;
  /** pause between attempts to acquire or renew. Default 2 s. */
  retryPeriodMs?: number;
  /** callbacks run one after the other, never overlapping. */
  onStartedLeading: () => void | Promise<void>;
  onStoppedLeading: () => void | Promise<void>;
  /** told whenever the observed holder changes (for logs and tests). */
  onNewLeader?: (identity: string) => void;
}

/** LeaderElector contends for the Lease from start() until stop(). */
export interface LeaderElector {
  start(): void;
  /** stop ends leadership (onStoppedLeading finishes first), then releases the Lease so a standby takes over at once. */
  stop(): Promise<void>;
  isLeader(): boolean;
}

type LeaseObject = KubeObject & { spec?: V1LeaseSpec };
type Attempt = 'acquired' | 'held-by-other' | 'failed';

/** createLeaderElector builds an elector; nothing happens before start(). */
export function createLeaderElector(opts: LeaderElectorOptions): LeaderElector {
  const leaseDurationMs = opts.leaseDurationMs ?? 15_000;
  const renewDeadlineMs = opts.renewDeadlineMs ?? 10_000;
  const retryPeriodMs = opts.retryPeriodMs ?? 2_000;
  const log = opts.log.child({ component: 'leader-election', lease: `${opts.namespace}/${opts.name}` });
  const ref: ObjectRef = {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    namespace: opts.namespace,
    name: opts.name,
  };
  let leading = false;
  let stopped = true;
  let lastRenewMs = 0;
  let observedRv: string | undefined;
  let observedAtMs = 0;
  let observedHolder = '';
  let timer: NodeJS.Timeout | undefined;
  let tickRunning: Promise<void> = Promise.resolve();
  let transitions: Promise<void> = Promise.resolve();

  const runCallback = (cb: () => void | Promise<void>, what: string): Promise<void> => {
    transitions = transitions.then(cb).catch((err: unknown) => log.error({ err }, `${what} callback failed`));
    return transitions;
  };

  async function tryAcquireOrRenew(): Promise<Attempt> {
    const now = new Date();
    const lease = await opts.kube.get<LeaseObject>(ref);
    if (lease === undefined) {
      await opts.kube.create<LeaseObject>({
        apiVersion: ref.apiVersion,
        kind: ref.kind,
        metadata: { name: opts.name, namespace: opts.namespace },
        spec: leaseSpec(now, undefined),
      });
      return 'acquired';
    }
    const spec = lease.spec ?? {};
    const holder = spec.holderIdentity ?? '';
    if (lease.metadata.resourceVersion !== observedRv) {
      // clocks differ between replicas: expiry is judged by when *we* saw the record change (as client-go does)
      observedRv = lease.metadata.resourceVersion;
      observedAtMs = Date.now();
    }
    if (holder !== observedHolder) {
      observedHolder = holder;
      if (holder !== '') opts.onNewLeader?.(holder);
    }
    if (holder !== '' && holder !== opts.identity && observedAtMs + leaseDurationMs > Date.now())
      return 'held-by-other';
    await opts.kube.replace<LeaseObject>({ ...lease, spec: leaseSpec(now, spec) });
    return 'acquired';
  }

  function leaseSpec(now: Date, previous: V1LeaseSpec | undefined): V1LeaseSpec {
    const ours = previous?.holderIdentity === opts.identity;
    return {
      holderIdentity: opts.identity,
      leaseDurationSeconds: Math.max(1, Math.ceil(leaseDurationMs / 1000)),
      acquireTime: ours && previous?.acquireTime !== undefined ? previous.acquireTime : now,
      renewTime: now,
      leaseTransitions: previous === undefined ? 0 : (previous.leaseTransitions ?? 0) + (ours ? 0 : 1),
    };
  }

  async function tick(): Promise<void> {
    let attempt: Attempt;
    try {
      attempt = await tryAcquireOrRenew();
    } catch (err) {
      if (!isKubeError(err, 409)) log.warn({ err }, 'lease update failed');
      attempt = 'failed';
    }
    if (stopped) return;
    if (attempt === 'acquired') {
      lastRenewMs = Date.now();
      if (!leading) {
        leading = true;
        log.info({ identity: opts.identity }, 'became leader');
        void runCallback(opts.onStartedLeading, 'started leading');
      }
    } else if (leading && (attempt === 'held-by-other' || Date.now() - lastRenewMs >= renewDeadlineMs)) {
      leading = false;
      log.warn({ attempt }, 'lost leadership');
      void runCallback(opts.onStoppedLeading, 'stopped leading');
    }
  }

  function schedule(delayMs: number): void {
    timer = setTimeout(() => {
      timer = undefined;
      tickRunning = tick().finally(() => {
        if (!stopped) schedule(leading ? retryPeriodMs : retryPeriodMs * (1 + Math.random() * 0.2));
      });
    }, delayMs);
  }

  async function release(): Promise<void> {
    try {
      const lease = await opts.kube.get<LeaseObject>(ref);
      if (lease?.spec?.holderIdentity !== opts.identity) return;
      const now = new Date();
      await opts.kube.replace<LeaseObject>({
        ...lease,
        spec: { ...lease.spec, holderIdentity: '', leaseDurationSeconds: 1, renewTime: now, acquireTime: now },
      });
      log.info({}, 'released lease');
    } catch (err) {
      log.warn({ err }, 'lease release failed');
    }
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      schedule(0);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      await tickRunning;
      if (leading) {
        leading = false;
        await runCallback(opts.onStoppedLeading, 'stopped leading');
      }
      await transitions;
      // also when an acquisition raced with stop: release() only clears a Lease we hold
      await release();
    },
    isLeader: () => leading,
  };
}
