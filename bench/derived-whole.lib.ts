/**
 * @module Whether a populator that stopped synced left a derived area pending (bench/populator-ab.ts,
 * bench/own-instructions-ab.ts): its cost would then leave that area's work out, as the balances' failing stretch
 * once did. Read with the working tree's query, which an older commit's schema (0.2.0 on) answers too.
 */
import pino from 'pino';
import { createPool } from '../src/db/connection/pool.ts';
import { pendingBackfills } from '../src/db/queries/pending-backfills.ts';

/** the application name of derivedWhole's connection (bench/own-instructions-ab.ts leaves its backend out) */
export const DERIVED_CHECK_APPLICATION = 'mdw-bench-check';

/** derivedWhole throws when `schema` has a derived area still pending (one that fails does not hold it). */
export async function derivedWhole(databaseUrl: string, schema: string): Promise<void> {
  const pool = createPool(
    { databaseUrl, schema, max: 1, applicationName: DERIVED_CHECK_APPLICATION },
    pino({ level: 'warn' }),
  );
  try {
    const pending = await pendingBackfills(pool);
    if (pending.length > 0)
      throw new Error(
        `${schema}: synced with derived areas pending: ${pending.map((p) => `${p.area} ${p.next}-${p.to} ${p.error ?? ''}`).join('; ')}`,
      );
  } finally {
    await pool.end();
  }
}
