/** @module Kubernetes-style durations ("1h30m") and byte quantities ("500Gi") of the Middleware spec, as numbers. Pure. */
import { PATTERNS } from './patterns.ts';

/** parseDurationSeconds turns "1h30m" into 5400; undefined when the text is not a duration. */
export function parseDurationSeconds(text: string): number | undefined {
  if (!new RegExp(PATTERNS.duration).test(text)) return undefined;
  const unit: Record<string, number> = { s: 1, m: 60, h: 3600 };
  let total = 0;
  for (const [, amount, u] of text.matchAll(/([0-9]+)([smh])/g)) total += Number(amount) * (unit[u ?? 's'] ?? 1);
  return total;
}

const QUANTITY_UNITS: Record<string, number> = {
  '': 1,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};

/** parseByteQuantity turns a Kubernetes byte quantity ("500Gi", "1.5T") into bytes, rounded down; undefined when it is not one. */
export function parseByteQuantity(text: string): number | undefined {
  if (!new RegExp(PATTERNS.byteQuantity).test(text)) return undefined;
  const [, amount = '0', unit = ''] = /^([0-9.]+)(.*)$/.exec(text) ?? [];
  return Math.floor(Number(amount) * (QUANTITY_UNITS[unit] ?? 1));
}
