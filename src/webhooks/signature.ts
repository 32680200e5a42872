/**
 * @module A delivery's signature (docs/webhooks.md, "Signatures"): `Mdw-Signature: t=<unix seconds>,v1=<hex>`, the
 * HMAC-SHA256 of `<t>.<body>` with the hook's secret, as Stripe's convention has it, so a receiver checks the body and
 * refuses an old one replayed. Pure.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** signatureHeader is the Mdw-Signature value of `body` signed at `unixSeconds`. */
export function signatureHeader(secret: string, unixSeconds: number, body: string): string {
  return `t=${unixSeconds},v1=${hmacHex(secret, `${unixSeconds}.${body}`)}`;
}

/**
 * isSignedBy tells whether `header` signs `body` with `secret`, within `toleranceSeconds` of `nowSeconds`: what a
 * receiver checks (the tests' receiver does).
 */
export function isSignedBy(
  secret: string,
  header: string,
  body: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const parts = new Map(header.split(',').map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]));
  const t = Number(parts.get('t'));
  const v1 = parts.get('v1') ?? '';
  if (!Number.isSafeInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(hmacHex(secret, `${t}.${body}`));
  const given = Buffer.from(v1);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** newSecret is a hook's signing key: 32 random bytes, shown to its creator once. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('hex')}`;
}

function hmacHex(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text).digest('hex');
}
