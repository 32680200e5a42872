/** @module The byte size of a signed transaction as the node serialises it. Pure, except for counting fallbacks. */
import { decode } from './encoding.ts';
import type { Json } from './json.ts';
import { signedTxLength } from './tx-serialize.ts';

/** SizeFallbackListener hears of the first signed tx of a type whose size had to come from its JSON. */
export type SizeFallbackListener = (txType: string, reason: string) => void;

const fallbacks = new Map<string, number>();
let listener: SizeFallbackListener | undefined;

/**
 * onSizeFallback sets who hears of fallbacks (the indexer's logger; each type is told once per process) until the
 * function it returns is called: a stopped populator's logger, and all its closure holds (the populator, its chain),
 * is let go, where a process that starts many (the tests' workers) kept the last one's for good.
 */
export function onSizeFallback(fn: SizeFallbackListener): () => void {
  listener = fn;
  return () => {
    if (listener === fn) listener = undefined;
  };
}

/** sizeFallbackCounts is how many signed txs of each type were measured by their JSON so far. */
export function sizeFallbackCounts(): ReadonlyMap<string, number> {
  return fallbacks;
}

function fellBack(signed: { [key: string]: Json }, reason: string): void {
  const tx = signed.tx;
  const type = tx !== null && typeof tx === 'object' && !Array.isArray(tx) ? String(tx.type) : 'unknown';
  const seen = fallbacks.get(type) ?? 0;
  fallbacks.set(type, seen + 1);
  if (seen === 0) listener?.(type, reason);
}

/**
 * signedTxSize is the length of the signed tx binary: the node's `encoded_tx` when sent (newer
 * nodes), else the RLP serialisation of the JSON. Only for a layout the serialiser does not know
 * (or a malformed tx) does the size of the compact JSON `txJson` of `signed.tx` stand in; those
 * are counted (sizeFallbackCounts).
 */
export function signedTxSize(signed: { [key: string]: Json }, txJson: string): number {
  if (typeof signed.encoded_tx === 'string') {
    try {
      return decode(signed.encoded_tx, ['tx']).bytes.length;
    } catch {
      // fall through: a malformed encoding is measured like a missing one
    }
  }
  try {
    return signedTxLength(signed);
  } catch (err) {
    fellBack(signed, err instanceof Error ? err.message : String(err));
    return Buffer.byteLength(txJson);
  }
}
