/**
 * @module The populator's NOTIFY payload: which heights were committed and what they hold. Pure. It lives beside
 * db/connection/notify.ts, which sends it, so that the servers' side (events/, api/) imports it downwards.
 */

/** NOTIFY channel; one per schema, so servers of one data generation hear only their populator. */
export function notifyChannel(schema: string): string {
  return `mdw_chain_${schema}`;
}

/**
 * ChainNotification is sent after a batch commits. `from..to` are the heights written (inclusive);
 * `rollbackFrom` is set when heights from there up were deleted first (a fork or a reload).
 * `derived` marks a backfill's commit: only rows derived from the stored heights `from..to` were
 * written (statistics, transfers, tokens), no block changed, so there is no chain event to push.
 * Servers read the committed rows themselves: the payload stays far below NOTIFY's 8000 bytes.
 */
export interface ChainNotification {
  readonly from: number;
  readonly to: number;
  readonly rollbackFrom?: number;
  readonly derived?: true;
}

export function encodeNotification(n: ChainNotification): string {
  return JSON.stringify(n);
}

/** decodeNotification returns undefined for a payload that is not ours (never throws). */
export function decodeNotification(payload: string): ChainNotification | undefined {
  try {
    const value: unknown = JSON.parse(payload);
    if (typeof value !== 'object' || value === null) return undefined;
    const { from, to, rollbackFrom, derived } = value as Record<string, unknown>;
    if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to)) return undefined;
    if (rollbackFrom !== undefined && !Number.isSafeInteger(rollbackFrom)) return undefined;
    if (derived !== undefined && derived !== true) return undefined;
    return {
      from: from as number,
      to: to as number,
      ...(rollbackFrom === undefined ? {} : { rollbackFrom: rollbackFrom as number }),
      ...(derived ? { derived } : {}),
    };
  } catch {
    return undefined;
  }
}
