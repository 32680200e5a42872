/**
 * @module A delivery's signatures (docs/webhooks.md, "Signatures"). Standard Webhooks (standardwebhooks.com):
 * `webhook-id`, `webhook-timestamp` (unix seconds) and `webhook-signature: v1,<base64>`, the HMAC-SHA256 of
 * `<id>.<timestamp>.<body>` keyed with the base64-decoded part of the secret after `whsec_`, one `v1,…` per secret in
 * force (space separated, during a rotation), so the standard's libraries verify them as they are. Beside them, until
 * the next minor release, the headers of 0.3: `Mdw-Delivery-Id` and `Mdw-Signature: t=<unix seconds>,v1=<hex>`, the
 * HMAC-SHA256 of `<t>.<body>` keyed with the whole secret text (Stripe's convention). Pure.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const PREFIX = 'whsec_';

/**
 * newSecret is a hook's secret: `whsec_` and the base64 of 32 random bytes, shown to its creator once. Secrets made
 * before 0.4 are `whsec_` and 64 hex digits: those are base64 too (48 bytes once decoded), so they need no rotation.
 */
export function newSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`;
}

/** signingKey is the HMAC key of a secret's Standard Webhooks signature: the base64 after `whsec_`, decoded. */
export function signingKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

/**
 * deliveryHeaders are the signature headers of `body` sent as delivery `id` at `unixSeconds`, signed by each of
 * `secrets` (the current one first, then the one a rotation replaced while it still signs).
 */
export function deliveryHeaders(
  secrets: readonly string[],
  id: string,
  unixSeconds: number,
  body: string,
): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(unixSeconds),
    'webhook-signature': secrets
      .map((s) => `v1,${createHmac('sha256', signingKey(s)).update(`${id}.${unixSeconds}.${body}`).digest('base64')}`)
      .join(' '),
    'mdw-delivery-id': id,
    'mdw-signature': [`t=${unixSeconds}`, ...secrets.map((s) => `v1=${hmacHex(s, `${unixSeconds}.${body}`)}`)].join(
      ',',
    ),
  };
}

/**
 * isSignedBy tells whether an `Mdw-Signature` header signs `body` with `secret` (any of its `v1` entries), within
 * `toleranceSeconds` of `nowSeconds`: what a receiver of the 0.3 headers checks.
 */
export function isSignedBy(
  secret: string,
  header: string,
  body: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const parts = header.split(',').map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)] as const);
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isSafeInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(hmacHex(secret, `${t}.${body}`));
  return parts.some(([k, v]) => {
    const given = Buffer.from(v);
    return k === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

function hmacHex(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text).digest('hex');
}
