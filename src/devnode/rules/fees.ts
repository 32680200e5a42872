/** @module The seed's minimum fee rules and the devnode's constants of consensus. Pure. */

/** NAME_REVOKE_PROTECTION: a revoked (or expired) name stays reserved this many blocks (node: 2016). */
export const NAME_REVOKE_PROTECTION = 2016;
/** COMMITMENT_EXPIRATION: a preclaim must be claimed within this many blocks (node: 300). */
export const COMMITMENT_EXPIRATION = 300;
/** NAME_BID_INCREMENT_PERCENT: a bid must exceed the last one by this many percent (node: 5). */
export const NAME_BID_INCREMENT_PERCENT = 5n;
/** KEY_BLOCK_REWARD: what the beneficiary gets per key block (the devnode pays it at once, no delay). */
export const KEY_BLOCK_REWARD = 100_000_000_000_000_000_000n;
/** MIN_FEE is the minimum fee of any transaction (seed). */
export const MIN_FEE = 1n;

/** ttlFee is the seed's oracle fee: 1 plus 1 per started 1000 blocks of TTL (50 → 2, 4500 → 6). */
export function ttlFee(ttlBlocks: number): bigint {
  return MIN_FEE + BigInt(Math.ceil(Math.max(0, ttlBlocks) / 1000));
}
