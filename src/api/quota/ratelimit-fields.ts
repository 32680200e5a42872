/**
 * @module The RateLimit-Policy and RateLimit fields of draft-ietf-httpapi-ratelimit-headers-10 (HTTP structured field
 * lists: a quoted policy name with parameters; `q` the quota and `w` the window in seconds, `r` what remains and `t`
 * the seconds until the window resets). Pure.
 */
import type { Tier } from './tiers.ts';
import { WINDOWS, type WindowState } from './quota-book.ts';

/** policyField is a tier's RateLimit-Policy: `"second";q=10;w=1, "day";q=10000;w=86400`. */
export function policyField(tier: Tier): string {
  return WINDOWS.map((w) => `"${w.policy}";q=${w.quota(tier)};w=${w.seconds}`).join(', ');
}

/** rateLimitField is the RateLimit of a request's windows: `"second";r=9;t=1, "day";r=9990;t=3600`. */
export function rateLimitField(windows: readonly WindowState[]): string {
  return windows.map((s) => `"${s.window.policy}";r=${s.remaining};t=${s.resetSeconds}`).join(', ');
}
