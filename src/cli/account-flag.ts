/** @module Parses `--account SECRET:BALANCE`. Pure. */

/** parseAccountFlag splits at the last colon; the balance is a non-negative integer of any size. */
export function parseAccountFlag(value: string): { secretKey: string; balance: bigint } {
  const at = value.lastIndexOf(':');
  const secretKey = value.slice(0, at);
  const balance = value.slice(at + 1);
  if (at <= 0 || !/^\d+$/.test(balance)) {
    throw new Error(`--account expects SECRET:BALANCE (balance a non-negative integer), got ${JSON.stringify(value)}`);
  }
  return { secretKey, balance: BigInt(balance) };
}
