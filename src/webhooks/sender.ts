/**
 * @module The webhook sender (`mdw --webhooks`, docs/webhooks.md): it leases hooks with a delivery ready, sends each
 * hook's deliveries one at a time in order, signed, and records what came of each; a failure holds that hook back by
 * the backoff (1 min doubling to 24 h, then the hook is disabled) while the others go on. Several senders share the
 * hooks through their leases in the database. The statements the hooks make in one turn of the event loop run as one
 * (a Coalescer): the 600 hooks one spend matches read their next rows, count their attempts and record their answers
 * in a few statements, not 3,000; a statement's round trip, not the work in it, was most of a delivery's cost.
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Logger } from '../base/log.ts';
import { backoffDelay, type BackoffOptions } from '../base/retry.ts';
import { Coalescer } from '../base/coalescer.ts';
import { errorMessage } from '../base/errors.ts';
import type { Pool } from '../db/connection/pool.ts';
import {
  beginAttempts,
  claimHooks,
  markDelivered,
  markFailed,
  markSentElsewhere,
  nextDeliveries,
  queueDepth,
  releaseHooks,
  type AttemptOf,
  type ClaimedHook,
  type Delivered,
  type NextDelivery,
  type QueuedDelivery,
} from '../db/writes/webhook-queue.ts';
import { reachedPosition, sentElsewhere } from './reached.ts';
import { deliveryBody } from './delivery-body.ts';
import { DataCache } from './data-cache.ts';
import { deliveryData } from './delivery-data.ts';
import type { WebhookMetrics } from './metrics.ts';
import { postDelivery, Receivers, type OutboundLimits } from './outbound.ts';
import { deliveryHeaders } from './signature.ts';
import { Wakeup } from './wakeup.ts';

/** SenderSettings are the sender's knobs (WEBHOOK_* variables, README). */
export interface SenderSettings extends OutboundLimits {
  /** hooks sent to at once */
  readonly concurrency: number;
  /** how long a sender's hold of a hook lasts unless renewed: a sender that died frees its hooks after it */
  readonly leaseMs: number;
  /** how often the sender looks for hooks with a delivery ready when no commit of the populator woke it earlier */
  readonly pollMs: number;
  /** the waits between a delivery's attempts: 1 min doubling to 24 h */
  readonly retry: BackoffOptions;
  /** attempts of one delivery before its hook is disabled */
  readonly maxAttempts: number;
}

/** The waits between attempts: 1 min, 2, 4 … doubling to 24 h; the attempt after a 24 h wait is the last. */
export const RETRY: BackoffOptions = { initialMs: 60_000, maxMs: 86_400_000 };

/** MAX_ATTEMPTS: 12 failures take the waits from 1 min to 24 h (2^11 min is past the cap); the 13th is the last. */
export const MAX_ATTEMPTS = 13;

export interface SenderDeps {
  readonly pool: Pool;
  /** the schema whose populator's commits wake the sender */
  readonly schema: string;
  readonly log: Logger;
  readonly metrics: WebhookMetrics;
  readonly settings: SenderSettings;
}

/** WebhookSender is the sender role: `start` runs its loop, `stop` finishes the attempts under way and frees its hooks. */
export class WebhookSender {
  readonly #deps: SenderDeps;
  readonly #owner = `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  readonly #working = new Map<string, Promise<void>>();
  readonly #stop = new AbortController();
  readonly #wakeup: Wakeup;
  // the hooks matching one event send it within moments of each other
  readonly #data = new DataCache(5000, 10_000);
  readonly #receivers: Receivers;
  readonly #next: Coalescer<string, NextDelivery | undefined>;
  readonly #begin: Coalescer<AttemptOf, number | 'lost' | 'gone'>;
  readonly #delivered: Coalescer<Delivered, undefined>;
  readonly #release: Coalescer<string, undefined>;
  #loop: Promise<void> | undefined;
  #depthReadAt = 0;

  constructor(deps: SenderDeps) {
    this.#deps = deps;
    this.#wakeup = new Wakeup(deps.pool, deps.schema, deps.log);
    // a hook is served by one attempt at a time: as many connections to one receiver as hooks sent to at once
    this.#receivers = new Receivers(deps.settings.concurrency);
    const { pool, settings } = deps;
    this.#next = new Coalescer((ids) => nextDeliveries(pool, ids));
    this.#begin = new Coalescer((attempts) => beginAttempts(pool, attempts, this.#owner, settings.leaseMs));
    this.#delivered = new Coalescer(async (sent) => {
      await markDelivered(pool, sent);
      return sent.map(() => undefined);
    });
    this.#release = new Coalescer(async (ids) => {
      await releaseHooks(pool, ids, this.#owner);
      return ids.map(() => undefined);
    });
  }

  readonly name = 'webhooks';

  start(): void {
    this.#loop ??= this.#run();
  }

  async stop(): Promise<void> {
    this.#stop.abort();
    await this.#loop;
    await Promise.allSettled(this.#working.values());
    this.#receivers.close();
    await this.#wakeup.close();
  }

  async #run(): Promise<void> {
    const { pool, log, settings } = this.#deps;
    while (!this.#stop.signal.aborted) {
      try {
        const free = settings.concurrency - this.#working.size;
        const hooks = free > 0 ? await claimHooks(pool, this.#owner, settings.leaseMs, free) : [];
        // every slot taken: more hooks may be ready, claimed as soon as one is given back
        const full = free === 0 || hooks.length === free;
        for (const hook of hooks) {
          const commits = this.#wakeup.commits;
          const work = this.#serve(hook).finally(() => {
            this.#working.delete(hook.id);
            // a commit heard while the hook was held found it leased: its rows wait for the next claim
            if ((full || this.#wakeup.commits !== commits) && this.#worthClaiming()) this.#wakeup.wake();
          });
          this.#working.set(hook.id, work);
        }
        await this.#readDepth();
      } catch (err) {
        log.warn({ err: errorMessage(err) }, 'webhook sender could not read its queue');
      }
      await this.#wakeup.wait(settings.pollMs, this.#stop.signal);
    }
  }

  /**
   * worthClaiming is true once a quarter of the slots are free, or none is busy: a claim reads every hook that waits
   * (600 at one busy account's spend), so claiming again for each slot given back cost more than the deliveries did.
   * The poll interval claims what a wake did not.
   */
  #worthClaiming(): boolean {
    const { concurrency } = this.#deps.settings;
    return this.#working.size === 0 || concurrency - this.#working.size >= Math.ceil(concurrency / 4);
  }

  /** serve sends a held hook's ready deliveries in order until none is ready, one fails, or the sender stops. */
  async #serve(hook: ClaimedHook): Promise<void> {
    const { pool, log } = this.#deps;
    let released = false;
    try {
      while (!this.#stop.signal.aborted) {
        const next = await this.#next.call(hook.id);
        if (next === undefined) break;
        const { delivery: d, top } = next;
        if (d.type !== 'reorg' && d.height > top - hook.confirmations) break;
        // a blue/green reload's other generation sent it: this one resumes after it
        if (sentElsewhere(d, hook, this.#deps.schema)) {
          await markSentElsewhere(pool, hook.id, d.deliveryId);
          continue;
        }
        const attempt = await this.#begin.call({ id: hook.id, deliveryId: d.deliveryId });
        // the lease ran out and another sender holds the hook now; or a fork took the row meanwhile: look again
        if (attempt === 'lost') return;
        if (attempt === 'gone') continue;
        const data = await this.#data.get(d, () => deliveryData(pool, d));
        if (d.type !== 'reorg' && data === undefined) continue; // a fork took it with its row
        const body = deliveryBody(d, top, data);
        const secrets = hook.previousSecret === null ? [hook.secret] : [hook.secret, hook.previousSecret];
        const headers = deliveryHeaders(secrets, d.deliveryId, Math.floor(Date.now() / 1000), body);
        const result = await postDelivery(new URL(hook.url), body, headers, this.#deps.settings, this.#receivers);
        if (result.ok) {
          await this.#delivered.call({ id: hook.id, deliveryId: d.deliveryId, position: reachedPosition(d) });
          this.#deps.metrics.deliveries.inc({ result: 'ok' });
          if (d.lastError !== null)
            log.info({ webhook: hook.id, delivery: d.deliveryId, attempt }, 'webhook delivered again after failures');
          if (hook.confirmations === 0) this.#deps.metrics.lag.observe((Date.now() - next.createdAt.getTime()) / 1000);
          continue;
        }
        await this.#failed(hook, d, attempt, result.error ?? 'failed');
        released = true;
        return;
      }
    } catch (err) {
      log.warn({ webhook: hook.id, err: errorMessage(err) }, 'webhook delivery interrupted');
    } finally {
      if (!released) await this.#release.call(hook.id).catch(() => undefined);
    }
  }

  /**
   * failed records a failed attempt. It is logged at info when the hook's state changes: its first failure since it
   * last delivered, or an error other than the last attempt's (a receiver down, then answering 500); the retries of
   * one failure stay quiet, so a hook failing for a day writes a few lines, not one per attempt. The state is the
   * delivery's row, so every sender of the hooks tells the same.
   */
  async #failed(hook: ClaimedHook, d: QueuedDelivery, attempt: number, error: string): Promise<void> {
    const { settings, metrics, log, pool } = this.#deps;
    const last = attempt >= settings.maxAttempts;
    const disable = last ? `delivery ${d.deliveryId} failed ${attempt} times, the last: ${error}` : undefined;
    const delayMs = backoffDelay(attempt, settings.retry);
    await markFailed(pool, {
      webhookId: hook.id,
      deliveryId: d.deliveryId,
      error,
      delayMs,
      ...(disable === undefined ? {} : { disable }),
    });
    metrics.deliveries.inc({ result: last ? 'disabled' : 'failed' });
    if (last) log.warn({ webhook: hook.id, reason: disable }, 'webhook disabled');
    else if (d.lastError !== error)
      log.info(
        { webhook: hook.id, url: hook.url, delivery: d.deliveryId, attempt, error, retryInMs: delayMs },
        'webhook delivery failed',
      );
  }

  async #readDepth(): Promise<void> {
    if (Date.now() - this.#depthReadAt < 5000) return;
    this.#depthReadAt = Date.now();
    this.#deps.metrics.queueDepth.set(await queueDepth(this.#deps.pool));
  }
}
