/**
 * @module The keys file (API_KEYS_FILE, the operator's Secret): `[{"name": "…", "tier": "…", "key": "mdw_…"}, …]`, each
 * entry giving the key or its SHA-256 in hex (`"sha256": "…"`), so a Secret need not hold the keys themselves. Pure.
 */
import type { NewKey } from '../../db/queries/api-keys.ts';
import { keyIdOf, keySha256, MAX_KEY_LENGTH } from './key-text.ts';

/** parseKeysFile reads a keys file against the tiers configured; the problems instead when there are any. */
export function parseKeysFile(
  text: string,
  tiers: ReadonlySet<string>,
): readonly NewKey[] | { readonly problems: readonly string[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return { problems: [`not JSON: ${(err as Error).message}`] };
  }
  if (!Array.isArray(parsed)) return { problems: ['expected a list of keys'] };
  const problems: string[] = [];
  const keys = new Map<string, NewKey>();
  parsed.forEach((entry: unknown, i) => {
    const at = `[${i}]`;
    const e = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    const { name, tier, key, sha256 } = e;
    if (typeof name !== 'string' || name === '' || name.length > 200) problems.push(`${at}.name: expected a name`);
    if (typeof tier !== 'string' || !tiers.has(tier))
      problems.push(`${at}.tier: expected one of ${[...tiers].join(', ')}, got ${JSON.stringify(tier)}`);
    let hash: Buffer | undefined;
    if (typeof key === 'string' && key.length >= 16 && key.length <= MAX_KEY_LENGTH && sha256 === undefined)
      hash = keySha256(key);
    else if (typeof sha256 === 'string' && /^[0-9a-f]{64}$/i.test(sha256) && key === undefined)
      hash = Buffer.from(sha256, 'hex');
    else problems.push(`${at}: expected either "key" (16 to ${MAX_KEY_LENGTH} characters) or "sha256" (64 hex digits)`);
    if (hash === undefined || typeof name !== 'string' || typeof tier !== 'string') return;
    const id = keyIdOf(hash);
    if (keys.has(id)) problems.push(`${at}: the same key as an entry before it`);
    keys.set(id, { id, keySha256: hash, name, tier });
  });
  return problems.length > 0 ? { problems } : [...keys.values()];
}
