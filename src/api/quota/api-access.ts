/**
 * @module API keys and quotas on a server (API_KEYS on): who a request is (its key, or its address in the anonymous
 * tier), whether its quota has room, and what it holds at once. The HTTP API's middleware (quota-middleware.ts), the
 * websocket's handshake and the exports ask it; it reads the keys into memory and flushes the counts in the
 * background, so no request waits for the database.
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type prom from 'prom-client';
import { AppError, ErrorCode } from '../../base/errors.ts';
import type { Logger } from '../../base/log.ts';
import { TrustedProxies } from '../../config/client-address.ts';
import type { Config } from '../../config/middleware.ts';
import type { Pool } from '../../db/connection/pool.ts';
import { KeyRing } from './key-ring.ts';
import type { ApiKeyState, SlotKind } from '../http/state.ts';
import { KeySlots } from './key-slots.ts';
import { MAX_KEY_LENGTH } from './key-text.ts';
import type { Decision } from './quota-book.ts';
import { QuotaLedger } from './quota-ledger.ts';
import { createQuotaMetrics, type QuotaMetrics } from './quota-metrics.ts';
import { policyField, rateLimitField } from './ratelimit-fields.ts';
import { ANONYMOUS, DEFAULT_TIERS, parseTiers, type Tier } from './tiers.ts';

/** Caller is who a request or a socket is, as quotas count it. */
export interface Caller {
  /** the key's id, or `addr:<address>` */
  readonly subject: string;
  /** the id metrics name it by: the key's, or `anonymous` */
  readonly label: string;
  readonly tier: Tier;
  /** the tier's RateLimit-Policy, made once */
  readonly policy: string;
  readonly apiKey: ApiKeyState | undefined;
}

/** Charge is a quota decision with the fields to answer it with. */
export interface Charge {
  readonly decision: Decision;
  readonly rateLimit: string;
}

/** loadTiers reads API_TIERS or API_TIERS_FILE, or gives the default tiers; bad tiers are a configuration error. */
export async function loadTiers(settings: Config['apiKeys']): Promise<readonly Tier[]> {
  const { tiersFile, tiersJson } = settings;
  if (tiersFile === undefined && tiersJson === undefined) return DEFAULT_TIERS;
  const tiers = parseTiers(tiersJson ?? (await readFile(tiersFile!, 'utf8')));
  const from = tiersJson === undefined ? `API_TIERS_FILE ${tiersFile}` : 'API_TIERS';
  if ('problems' in tiers) throw new AppError(ErrorCode.CONFIG_INVALID, 500, `${from}: ${tiers.problems.join('; ')}`);
  return tiers;
}

export interface ApiAccessOptions {
  readonly cfg: Config;
  /** a pool that writes (the counts, the keys file's keys) */
  readonly pool: Pool;
  readonly log: Logger;
  readonly registry: prom.Registry;
  readonly tiers: readonly Tier[];
}

/** ApiAccess decides for the server's requests and sockets; start reads the keys, stop flushes the last counts. */
export class ApiAccess {
  readonly #tiers: ReadonlyMap<string, { readonly tier: Tier; readonly policy: string }>;
  readonly #anonymous: { readonly tier: Tier; readonly policy: string };
  readonly #ring: KeyRing;
  readonly #ledger: QuotaLedger;
  readonly #slots = new KeySlots();
  readonly #proxies: TrustedProxies;
  readonly #metrics: QuotaMetrics;

  constructor({ cfg, pool, log, registry, tiers }: ApiAccessOptions) {
    this.#tiers = new Map(tiers.map((tier) => [tier.name, { tier, policy: policyField(tier) }]));
    this.#anonymous = this.#tiers.get(ANONYMOUS)!;
    const metrics = (this.#metrics = createQuotaMetrics(registry));
    const component = log.child({ component: 'api-keys' });
    this.#ring = new KeyRing({
      pool,
      refreshMs: cfg.apiKeys.refreshMs,
      keysFile: cfg.apiKeys.file,
      tiers: new Set(this.#tiers.keys()),
      log: component,
    });
    this.#ledger = new QuotaLedger({
      pool,
      flushMs: cfg.apiKeys.flushMs,
      log: component,
      slots: { slots: this.#slots, server: randomUUID() },
      flushed: (seconds) =>
        seconds === undefined ? metrics.flushFailures.inc() : metrics.flushDuration.observe(seconds),
    });
    this.#proxies = new TrustedProxies(cfg.trustedProxies);
  }

  async start(): Promise<void> {
    await this.#ring.start();
    this.#ledger.start();
  }

  async stop(): Promise<void> {
    this.#ring.stop();
    await this.#ledger.stop();
  }

  /** keys and ledger, for tests that must not wait for the timers */
  get ring(): KeyRing {
    return this.#ring;
  }

  get ledger(): QuotaLedger {
    return this.#ledger;
  }

  /**
   * caller is who presents `key` (or none) from `peer` (X-Forwarded-For believed from TRUSTED_PROXIES): its key's
   * tier, or the anonymous tier by address. A key unknown, revoked or of a tier not configured throws 401.
   */
  caller(key: string | undefined, peer: string | undefined, forwardedFor: string | string[] | undefined): Caller {
    if (key === undefined) {
      const address = this.#proxies.clientAddress(peer, forwardedFor);
      return { subject: `addr:${address}`, label: ANONYMOUS, ...this.#anonymous, apiKey: undefined };
    }
    const known = key.length <= MAX_KEY_LENGTH ? this.#ring.find(key) : undefined;
    if (known === undefined || known.revoked) {
      const result = known ? 'revoked' : 'unknown_key';
      this.#metrics.requests.labels(known?.id ?? '', known?.tier ?? '', result).inc();
      throw new AppError(
        ErrorCode.API_KEY_INVALID,
        401,
        known ? `API key ${known.id} was revoked` : 'unknown API key (X-API-Key or apikey=)',
      );
    }
    const tier = this.#tiers.get(known.tier);
    if (tier === undefined)
      throw new AppError(
        ErrorCode.API_KEY_INVALID,
        401,
        `API key ${known.id} has tier ${known.tier}, which this server does not configure`,
      );
    return { subject: known.id, label: known.id, ...tier, apiKey: { id: known.id, tier: known.tier } };
  }

  /**
   * charge counts `cost` units of a request against the caller's quotas (`own`: what the request took before),
   * answering with its RateLimit field.
   */
  charge(caller: Caller, cost: number, own = 0): Charge {
    const decision = this.#ledger.take(caller.subject, caller.tier, cost, own);
    const tier = caller.tier.name;
    this.#metrics.requests.labels(caller.label, tier, decision.allowed ? 'allowed' : 'over_quota').inc();
    if (decision.allowed) this.#metrics.units.labels(caller.label, tier).inc(cost);
    return { decision, rateLimit: rateLimitField(decision.windows) };
  }

  /**
   * hold takes `count` of `kind` for the caller within its tier's limit, answering the release (call it once); it
   * throws 429 MDW_API_LIMIT_REACHED when the caller holds its limit already.
   */
  hold(caller: Caller, kind: SlotKind, count = 1): () => void {
    const limit = caller.tier[kind];
    if (!this.#slots.hold(caller.subject, kind, limit, count))
      throw new AppError(
        ErrorCode.API_LIMIT_REACHED,
        429,
        `${caller.apiKey ? `API key ${caller.apiKey.id}` : 'your address'} holds its tier's ${limit} ${KIND_TEXT[kind]} already`,
      );
    const gauge = this.#metrics.held.labels(caller.label, caller.tier.name, kind);
    gauge.inc(count);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#slots.release(caller.subject, kind, count);
      gauge.dec(count);
    };
  }
}

const KIND_TEXT: Record<SlotKind, string> = {
  websocketConnections: 'websocket connections',
  subscriptions: 'subscriptions',
  exports: 'running exports',
};
