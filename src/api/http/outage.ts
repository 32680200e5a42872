/**
 * @module One dependency's outage as the logs and metrics show it: a line when it is lost, a line when it is back
 * (with how many requests were refused meanwhile), never one per request.
 */
import type prom from 'prom-client';
import { registerMetrics, type MetricsOf } from '../../base/metric-table.ts';
import type { Logger } from '../../base/log.ts';
import { Backoff, sleep, type BackoffOptions } from '../../base/retry.ts';
import { errorMessage } from '../../base/errors.ts';

const OUTAGE_METRICS = {
  outages: {
    type: 'counter',
    name: 'mdw_dependency_outages_total',
    help: 'Times a dependency (the database) was found unavailable after being available',
    labels: ['dependency'],
  },
  refused: {
    type: 'counter',
    name: 'mdw_dependency_refused_requests_total',
    help: 'Requests answered 503 because a dependency was unavailable',
    labels: ['dependency'],
  },
  up: {
    type: 'gauge',
    name: 'mdw_dependency_up',
    help: '1 while the dependency answers, 0 during an outage',
    labels: ['dependency'],
  },
} as const;

/** The outage metrics of every dependency, labelled by its name. */
export type OutageMetrics = MetricsOf<typeof OUTAGE_METRICS>;

/** createOutageMetrics registers the outage metrics once per registry. */
export function createOutageMetrics(registry: prom.Registry): OutageMetrics {
  return registerMetrics(registry, OUTAGE_METRICS);
}

export interface DependencyOutageOptions {
  /** the dependency's name in logs and metrics, e.g. `database` */
  readonly dependency: string;
  readonly log: Logger;
  readonly metrics: OutageMetrics;
  /** resolves when the dependency answers again; tried with backoff during an outage */
  readonly probe: () => Promise<unknown>;
  readonly backoff?: BackoffOptions;
  /** the lines of its loss and return (default: `<dependency> unavailable: …`, `<dependency> available again`) */
  readonly messages?: { readonly lost: string; readonly back: string };
}

const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 250, maxMs: 5000, jitter: 0.2 };

/**
 * DependencyOutage is told of each request refused because a dependency is away, and of every other failed use of it
 * (a status reading). The first failure logs the loss and starts probing the dependency; the probe that succeeds logs
 * its return with the count of refusals meanwhile. So each outage is two log lines, whoever noticed it.
 */
export class DependencyOutage {
  readonly #options: DependencyOutageOptions;
  readonly #stopped = new AbortController();
  #down: { since: number; refused: number } | undefined;
  #lastRefusedAt = -Infinity;

  constructor(options: DependencyOutageOptions) {
    this.#options = options;
    options.metrics.up.set({ dependency: options.dependency }, 1);
  }

  /** down is true from the first refusal until a probe succeeds. */
  get down(): boolean {
    return this.#down !== undefined;
  }

  /** downForMs is how long the dependency has been down (0 while it is not). */
  get downForMs(): number {
    return this.#down === undefined ? 0 : Date.now() - this.#down.since;
  }

  /** quietMs is how long ago the last request was refused (Infinity before any): a probe may wait for quiet. */
  get quietMs(): number {
    return Date.now() - this.#lastRefusedAt;
  }

  /** refused counts one request refused for `err`; the first failure of an outage logs it and starts probing. */
  refused(err: unknown): void {
    this.#lastRefusedAt = Date.now();
    this.#options.metrics.refused.inc({ dependency: this.#options.dependency });
    this.unavailable(err);
    this.#down!.refused++;
  }

  /** unavailable reports a failed use that refused no request; the first failure of an outage logs it. */
  unavailable(err: unknown): void {
    if (this.#down) return;
    const { dependency, log, metrics } = this.#options;
    this.#down = { since: Date.now(), refused: 0 };
    metrics.outages.inc({ dependency });
    metrics.up.set({ dependency }, 0);
    log.warn(
      { dependency, reason: errorMessage(err) },
      this.#options.messages?.lost ?? `${dependency} unavailable: refusing what needs it until it is back`,
    );
    void this.#probeUntilBack();
  }

  /** stop ends probing (the process is stopping). */
  stop(): void {
    this.#stopped.abort();
  }

  async #probeUntilBack(): Promise<void> {
    const { dependency, log, metrics, probe } = this.#options;
    const backoff = new Backoff(this.#options.backoff ?? DEFAULT_BACKOFF);
    const signal = this.#stopped.signal;
    while (!signal.aborted) {
      await sleep(backoff.next(), signal);
      if (signal.aborted) return;
      try {
        await probe();
      } catch {
        continue;
      }
      const down = this.#down!;
      this.#down = undefined;
      metrics.up.set({ dependency }, 1);
      log.info(
        { dependency, refused: down.refused, seconds: Math.round((Date.now() - down.since) / 1000) },
        this.#options.messages?.back ?? `${dependency} available again`,
      );
      return;
    }
  }
}
