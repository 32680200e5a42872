/**
 * @module The tiers of API keys: what each may do per second, per day and at once. The defaults below, or a JSON file
 * (API_TIERS_FILE) read at start. Pure.
 */

/** Tier is one tier's limits; requests count in cost units (route-cost.ts: a plain request is 1). */
export interface Tier {
  readonly name: string;
  readonly requestsPerSecond: number;
  readonly requestsPerDay: number;
  /** websocket connections open at once */
  readonly websocketConnections: number;
  /** subscriptions of all the websocket connections together */
  readonly subscriptions: number;
  /** exports streaming at once */
  readonly exports: number;
}

/** ANONYMOUS is the tier of a request without a key, counted per client address. */
export const ANONYMOUS = 'anonymous';

/**
 * DEFAULT_TIERS: a public instance's shape, an anonymous user as a browser page, `free` as a small backend, `pro` as
 * an exchange's (the peers' public tiers are of these sizes: docs/operations.md, "API keys and quotas").
 */
export const DEFAULT_TIERS: readonly Tier[] = [
  {
    name: ANONYMOUS,
    requestsPerSecond: 10,
    requestsPerDay: 10_000,
    websocketConnections: 2,
    subscriptions: 20,
    exports: 1,
  },
  {
    name: 'free',
    requestsPerSecond: 25,
    requestsPerDay: 100_000,
    websocketConnections: 5,
    subscriptions: 100,
    exports: 2,
  },
  {
    name: 'pro',
    requestsPerSecond: 200,
    requestsPerDay: 5_000_000,
    websocketConnections: 50,
    subscriptions: 2000,
    exports: 10,
  },
];

const LIMITS = ['requestsPerSecond', 'requestsPerDay', 'websocketConnections', 'subscriptions', 'exports'] as const;

/** TIER_NAME: a tier's name, as `mdw keys create --tier` and metrics' labels take it. */
const TIER_NAME = /^[a-z][a-z0-9_-]{0,31}$/;

/**
 * parseTiers reads a tiers file: `{"<name>": {"requestsPerSecond": n, "requestsPerDay": n, "websocketConnections": n,
 * "subscriptions": n, "exports": n}, …}`, every limit a whole number ≥ 0 (0: none allowed), `anonymous` among them.
 * It returns the problems instead when there are any, each naming its place.
 */
export function parseTiers(text: string): readonly Tier[] | { readonly problems: readonly string[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return { problems: [`not JSON: ${(err as Error).message}`] };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return { problems: ['expected an object of tiers by name'] };
  const problems: string[] = [];
  const tiers: Tier[] = [];
  for (const [name, limits] of Object.entries(parsed)) {
    if (!TIER_NAME.test(name)) problems.push(`${JSON.stringify(name)}: a tier's name is a-z, 0-9, _ or -, 32 at most`);
    if (typeof limits !== 'object' || limits === null) {
      problems.push(`${name}: expected an object of limits`);
      continue;
    }
    const given = limits as Record<string, unknown>;
    for (const key of Object.keys(given))
      if (!(LIMITS as readonly string[]).includes(key)) problems.push(`${name}.${key}: unknown (${LIMITS.join(', ')})`);
    for (const key of LIMITS) {
      const value = given[key];
      if (!Number.isSafeInteger(value) || (value as number) < 0)
        problems.push(`${name}.${key}: expected a whole number ≥ 0, got ${JSON.stringify(value)}`);
    }
    tiers.push({ name, ...(given as Omit<Tier, 'name'>) });
  }
  if (!tiers.some((t) => t.name === ANONYMOUS)) problems.push(`the tier ${ANONYMOUS} is missing`);
  return problems.length > 0 ? { problems } : tiers;
}
