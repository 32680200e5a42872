/**
 * @module API keys as text: a new key, its SHA-256 (all a database keeps of it), its public id, and the key a request
 * presents. Pure but for newKey's randomness.
 */
import { createHash, randomBytes } from 'node:crypto';

/** KEY_PREFIX starts every key `mdw keys create` makes, so a key pasted somewhere it should not be is recognisable. */
export const KEY_PREFIX = 'mdw_';

/** MAX_KEY_LENGTH bounds what a request may present: a longer text is refused without being hashed. */
export const MAX_KEY_LENGTH = 256;

/** newKey is a fresh key: 256 random bits, base64url, after KEY_PREFIX. */
export function newKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * keySha256 is what is stored of a key. A plain SHA-256 suffices, where passwords need a slow, salted hash: a key is
 * 256 random bits, so no guess list exists to try against a leaked hash, and the server finds a key by its hash with
 * one map lookup per request, which a salted hash would make impossible and a slow one would make cost milliseconds.
 */
export function keySha256(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/**
 * keyIdOf is a key's public id (`key_` and 16 hex digits), shown in lists, logs and metrics: a hash of the stored hash,
 * so a keys file may give either the key or its hash and every server names it alike. It tells nothing of the key.
 */
export function keyIdOf(sha256: Buffer): string {
  return `key_${createHash('sha256').update('mdw-api-key-id\0').update(sha256).digest('hex').slice(0, 16)}`;
}

/**
 * presentedKey is the key a request presents: its `X-API-Key` header, else its `apikey` query parameter; undefined
 * when it presents none (an empty value is none). A header sent twice is the first.
 */
export function presentedKey(header: string | string[] | undefined, query: string | undefined): string | undefined {
  const fromHeader = Array.isArray(header) ? header[0] : header;
  const text = fromHeader?.trim() || query?.trim();
  return text === '' ? undefined : text;
}

/** apikeyParameter reads `apikey` from a request URL's query without parsing the rest (undefined: none). */
export function apikeyParameter(url: string | undefined): string | undefined {
  const q = url?.indexOf('?') ?? -1;
  if (q < 0) return undefined;
  const value = new URLSearchParams(url!.slice(q + 1)).get('apikey');
  return value ?? undefined;
}
