/**
 * @module The counts a server holds of every subject's (a key's, an address's) use in the running windows: what all
 * servers had counted at the last flush, and what this one let in since. A request is let in while the two and its
 * cost stay within the tier's quota. No I/O: QuotaLedger flushes it to PostgreSQL (quota-ledger.ts).
 */
import type { UsageDelta } from '../../db/writes/api-keys.ts';
import type { Tier } from './tiers.ts';

/** QuotaWindow is one quota of a tier: its name in the RateLimit fields, length and limit. */
export interface QuotaWindow {
  readonly policy: string;
  readonly seconds: number;
  readonly quota: (tier: Tier) => number;
}

/** WINDOWS: the per-second and the per-day quota, fixed windows aligned on the epoch (a day is a UTC day). */
export const WINDOWS: readonly QuotaWindow[] = [
  { policy: 'second', seconds: 1, quota: (t) => t.requestsPerSecond },
  { policy: 'day', seconds: 86_400, quota: (t) => t.requestsPerDay },
];

/** WindowState is one window's reading for the RateLimit field: what is left and in how many seconds it resets. */
export interface WindowState {
  readonly window: QuotaWindow;
  readonly quota: number;
  readonly remaining: number;
  readonly resetSeconds: number;
}

/** Decision is whether a request was let in, and every window's state after it; `retryAfter` when it was not. */
export interface Decision {
  readonly allowed: boolean;
  readonly windows: readonly WindowState[];
  /** seconds until the refusing window resets (Retry-After) */
  readonly retryAfter: number;
}

interface Count {
  /** every server's count at the last flush (this one's flushed requests with them) */
  known: number;
  /** this server's requests since its last flush */
  pending: number;
  /** what the flush under way took from pending, given back if it fails */
  flushing: number;
}

/**
 * QuotaBook counts per subject and window. A window's count is keyed by its start, so a window that ended is left to
 * the next drain to forget, and a request in a new window starts from zero.
 */
export class QuotaBook {
  readonly #counts = new Map<string, Count>();

  /** size is the windows held (a metric; bounded by the subjects seen in a day). */
  get size(): number {
    return this.#counts.size;
  }

  /**
   * take lets a request of `cost` in if every window has room for it, and counts it in each; else it counts nothing.
   * A window that nothing else used lets in one request however costly, so a cost above a per-second quota is slow,
   * not refused for ever: `own` is what the same request took already (an export's or a GraphQL document's cost is
   * charged after its request's first unit).
   */
  take(subject: string, tier: Tier, cost: number, nowMs: number, own = 0): Decision {
    const counts = WINDOWS.map((w) => this.#count(subject, w, nowMs));
    let refusing: number | undefined;
    WINDOWS.forEach((w, i) => {
      const c = counts[i]!;
      const used = usedOf(c);
      const quota = w.quota(tier);
      if (used - own > 0 && used + cost > quota) refusing ??= i;
    });
    if (refusing === undefined) for (const c of counts) c.pending += cost;
    const windows = WINDOWS.map((w, i) => {
      const quota = w.quota(tier);
      const c = counts[i]!;
      return {
        window: w,
        quota,
        remaining: Math.max(0, quota - usedOf(c)),
        resetSeconds: resetSeconds(w, nowMs),
      };
    });
    return {
      allowed: refusing === undefined,
      windows,
      retryAfter: refusing === undefined ? 0 : windows[refusing]!.resetSeconds,
    };
  }

  /**
   * drain hands over what this server let in since the last drain, as the flush adds it to the database, and forgets
   * the windows that ended before `nowMs`; `subjects` are those whose counts the flush should read back.
   */
  drain(nowMs: number): { deltas: UsageDelta[]; subjects: string[] } {
    const deltas: UsageDelta[] = [];
    const subjects = new Set<string>();
    const nowSeconds = Math.floor(nowMs / 1000);
    for (const [key, c] of this.#counts) {
      const { subject, windowSeconds, windowStart } = parseKey(key);
      if (c.pending > 0) {
        deltas.push({ subject, windowSeconds, windowStart, used: c.pending });
        c.flushing = c.pending;
        c.pending = 0;
      }
      if (windowStart + windowSeconds <= nowSeconds && c.flushing === 0) this.#counts.delete(key);
      else subjects.add(subject);
    }
    return { deltas, subjects: [...subjects] };
  }

  /** learn takes the database's counts after a flush: they hold what the flush added. */
  learn(totals: readonly UsageDelta[]): void {
    for (const c of this.#counts.values()) c.flushing = 0;
    for (const t of totals) {
      const c = this.#counts.get(countKey(t.subject, t.windowSeconds, t.windowStart));
      if (c) c.known = t.used;
    }
  }

  /** failed gives back what a flush took, which the next flush adds again. */
  failed(): void {
    for (const c of this.#counts.values()) {
      c.pending += c.flushing;
      c.flushing = 0;
    }
  }

  #count(subject: string, w: QuotaWindow, nowMs: number): Count {
    const start = Math.floor(nowMs / 1000 / w.seconds) * w.seconds;
    const key = countKey(subject, w.seconds, start);
    let c = this.#counts.get(key);
    if (!c) this.#counts.set(key, (c = { known: 0, pending: 0, flushing: 0 }));
    return c;
  }
}

/** usedOf is a window's count as this server knows it: the shared one, what a flush under way carries, and its own since. */
const usedOf = (c: Count): number => c.known + c.flushing + c.pending;

/** resetSeconds is how long until the window running at `nowMs` ends, whole seconds rounded up (at least 1). */
function resetSeconds(w: QuotaWindow, nowMs: number): number {
  const end = (Math.floor(nowMs / 1000 / w.seconds) + 1) * w.seconds * 1000;
  return Math.max(1, Math.ceil((end - nowMs) / 1000));
}

// a subject is a key id or `addr:<address>`: neither holds the separator
const countKey = (subject: string, seconds: number, start: number): string => `${subject}\n${seconds}\n${start}`;

function parseKey(key: string): { subject: string; windowSeconds: number; windowStart: number } {
  const [subject, seconds, start] = key.split('\n') as [string, string, string];
  return { subject, windowSeconds: Number(seconds), windowStart: Number(start) };
}
