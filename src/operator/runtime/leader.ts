/**
 * @module Lease-based leader election (coordination.k8s.io/v1), client-go compatible: 15 s / 10 s / 2 s, release on
 * stop, and each attempt cancelled at the renew deadline, so a leader whose requests hang steps down in time.
 *
 * A Lease's times are MicroTime: the API server parses them with exactly six fractional digits and refuses a plain
 * Date's three (400), so every time written here is microTime's. (client-node's V1MicroTime did the same, but a value
 * import of the package loads its ~870 modules, which the populator's writer Lease does without: lease-client.ts.)
 */
import { isKubeError } from '../kube/client.ts';
import type { KubeObject, LeaseKube, ObjectRef } from '../kube/client.ts';
import type { Logger } from '../../base/log.ts';
import { backoffDelay } from '../../base/retry.ts';

/** LeaderElectorOptions: the Lease to contend for, who we are, the timings and the callbacks. */
export interface LeaderElectorOptions {
  kube: LeaseKube;
  namespace: string;
  name: string;
  identity: string;
  log: Logger;
  /** how long a Lease stays valid after its holder's last renewal, as seen by the others. Default 15 s. */
  leaseDurationMs?: number;
  /**
   * a leader that could not renew for this long steps down; an attempt still unanswered then is cancelled (the
   * client aborts its request), as client-go bounds each renew by its renewDeadline. Default 10 s.
   */
  renewDeadlineMs?: number;
  /** pause between attempts to acquire or renew. Default 2 s. */
  retryPeriodMs?: number;
  /** callbacks run one after the other, never overlapping. */
  onStartedLeading: () => void | Promise<void>;
  onStoppedLeading: () => void | Promise<void>;
  /** told whenever the observed holder changes (for logs and tests). */
  onNewLeader?: (identity: string) => void;
}

/** LeaseSpec is a coordination.k8s.io/v1 Lease's spec; its times are MicroTime strings as written (a client may read them as Dates). */
interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string | Date;
  renewTime?: string | Date;
  leaseTransitions?: number;
}
type LeaseObject = KubeObject & { spec?: LeaseSpec };

/** microTime is a time as the API server's MicroTime: RFC 3339 with six fractional digits (a Date has milliseconds). */
function microTime(at: Date | string = new Date()): string {
  return new Date(at).toISOString().slice(0, -1) + '000Z';
}
type Attempt = 'acquired' | 'held-by-other' | 'failed';

/** LeaderElector contends for the Lease from start() until stop(); nothing happens before start(). */
export class LeaderElector {
  readonly #opts: LeaderElectorOptions;
  readonly #leaseDurationMs: number;
  readonly #renewDeadlineMs: number;
  readonly #retryPeriodMs: number;
  readonly #log: Logger;
  readonly #ref: ObjectRef;
  #leading = false;
  #stopped = true;
  #lastRenewMs = 0;
  #observedRv: string | undefined;
  #observedAtMs = 0;
  #observedHolder = '';
  #timer: NodeJS.Timeout | undefined;
  #tickRunning: Promise<void> = Promise.resolve();
  #transitions: Promise<void> = Promise.resolve();

  constructor(opts: LeaderElectorOptions) {
    this.#opts = opts;
    this.#leaseDurationMs = opts.leaseDurationMs ?? 15_000;
    this.#renewDeadlineMs = opts.renewDeadlineMs ?? 10_000;
    this.#retryPeriodMs = opts.retryPeriodMs ?? 2_000;
    this.#log = opts.log.child({ component: 'leader-election', lease: `${opts.namespace}/${opts.name}` });
    this.#ref = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', namespace: opts.namespace, name: opts.name };
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#schedule(0);
  }

  /** stop ends leadership (onStoppedLeading finishes first), then releases the Lease so a standby takes over at once. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#tickRunning;
    if (this.#leading) {
      this.#leading = false;
      await this.#runCallback(this.#opts.onStoppedLeading, 'stopped leading');
    }
    await this.#transitions;
    // also when an acquisition raced with stop: release() only clears a Lease we hold
    await this.#release();
  }

  isLeader(): boolean {
    return this.#leading;
  }

  #runCallback(cb: () => void | Promise<void>, what: string): Promise<void> {
    this.#transitions = this.#transitions
      .then(cb)
      .catch((err: unknown) => this.#log.error({ err }, `${what} callback failed`));
    return this.#transitions;
  }

  /**
   * attemptDeadlineMs: a leader's attempt may run until its renew deadline (its last renewal + renewDeadlineMs), so
   * it has stepped down before a standby may take the Lease (leaseDurationMs after the last renewal it saw); a
   * standby's attempt may run renewDeadlineMs.
   */
  #attemptDeadlineMs(): number {
    if (!this.#leading) return this.#renewDeadlineMs;
    return Math.max(1, this.#lastRenewMs + this.#renewDeadlineMs - Date.now());
  }

  async #tryAcquireOrRenew(signal: AbortSignal): Promise<Attempt> {
    const { kube, identity } = this.#opts;
    const call = { signal };
    const now = microTime();
    const lease = await kube.get<LeaseObject>(this.#ref, call);
    if (lease === undefined) {
      await kube.create<LeaseObject>(
        {
          apiVersion: this.#ref.apiVersion,
          kind: this.#ref.kind,
          metadata: { name: this.#opts.name, namespace: this.#opts.namespace },
          spec: this.#leaseSpec(now, undefined),
        },
        call,
      );
      return 'acquired';
    }
    const spec = lease.spec ?? {};
    const holder = spec.holderIdentity ?? '';
    if (lease.metadata.resourceVersion !== this.#observedRv) {
      // clocks differ between replicas: expiry is judged by when *we* saw the record change (as client-go does)
      this.#observedRv = lease.metadata.resourceVersion;
      this.#observedAtMs = Date.now();
    }
    if (holder !== this.#observedHolder) {
      this.#observedHolder = holder;
      if (holder !== '') this.#opts.onNewLeader?.(holder);
    }
    if (holder !== '' && holder !== identity && this.#observedAtMs + this.#leaseDurationMs > Date.now())
      return 'held-by-other';
    await kube.replace<LeaseObject>({ ...lease, spec: this.#leaseSpec(now, spec) }, call);
    return 'acquired';
  }

  #leaseSpec(now: string, previous: LeaseSpec | undefined): LeaseSpec {
    const ours = previous?.holderIdentity === this.#opts.identity;
    return {
      holderIdentity: this.#opts.identity,
      leaseDurationSeconds: Math.max(1, Math.ceil(this.#leaseDurationMs / 1000)),
      acquireTime: ours && previous?.acquireTime !== undefined ? microTime(previous.acquireTime) : now,
      renewTime: now,
      leaseTransitions: previous === undefined ? 0 : (previous.leaseTransitions ?? 0) + (ours ? 0 : 1),
    };
  }

  async #tick(): Promise<void> {
    let attempt: Attempt;
    try {
      attempt = await this.#tryAcquireOrRenew(AbortSignal.timeout(this.#attemptDeadlineMs()));
    } catch (err) {
      if (!isKubeError(err, 409)) this.#log.warn({ err }, 'lease update failed');
      attempt = 'failed';
    }
    if (this.#stopped) return;
    if (attempt === 'acquired') {
      this.#lastRenewMs = Date.now();
      if (!this.#leading) {
        this.#leading = true;
        this.#log.info({ identity: this.#opts.identity }, 'became leader');
        void this.#runCallback(this.#opts.onStartedLeading, 'started leading');
      }
    } else if (
      this.#leading &&
      (attempt === 'held-by-other' || Date.now() - this.#lastRenewMs >= this.#renewDeadlineMs)
    ) {
      this.#leading = false;
      this.#log.warn({ attempt }, 'lost leadership');
      void this.#runCallback(this.#opts.onStoppedLeading, 'stopped leading');
    }
  }

  /** schedule runs the next tick; a standby waits the retry period plus up to 20 % jitter, so candidates spread out. */
  #schedule(delayMs: number): void {
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#tickRunning = this.#tick().finally(() => {
        if (this.#stopped) return;
        const period = this.#retryPeriodMs;
        this.#schedule(
          this.#leading ? period : backoffDelay(1, { initialMs: period * 1.1, maxMs: period * 1.2, jitter: 0.1 }),
        );
      });
    }, delayMs);
  }

  async #release(): Promise<void> {
    try {
      // bounded like an attempt: a stop must not wait on a hung request (the Lease then expires on its own)
      const call = { signal: AbortSignal.timeout(this.#renewDeadlineMs) };
      const lease = await this.#opts.kube.get<LeaseObject>(this.#ref, call);
      if (lease?.spec?.holderIdentity !== this.#opts.identity) return;
      const now = microTime();
      await this.#opts.kube.replace<LeaseObject>(
        {
          ...lease,
          spec: { ...lease.spec, holderIdentity: '', leaseDurationSeconds: 1, renewTime: now, acquireTime: now },
        },
        call,
      );
      this.#log.info({}, 'released lease');
    } catch (err) {
      this.#log.warn({ err }, 'lease release failed');
    }
  }
}
