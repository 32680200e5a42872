/**
 * @module AEX-9 balances that the events cannot explain, read from the contracts' state (issue 58). After a batch's
 * AEX-9 events are written, a token they took below zero (a balance, or its supply: a mint without an event, a wrapped
 * AE whose deposits are not counted, a token that breaks the standard) is marked invalid and its balances are read by
 * a dry-run of `balances()` after its last touch; a token so marked is read again after every batch that touches it.
 * The reads go with their heights, so forks and reloads leave them exact (db/writes/aex9-state.ts).
 */
import type { Queryable } from '../../db/connection/pool.ts';
import { aex9Unsettled, writeAex9State, type Aex9StateRead } from '../../db/writes/aex9-state.ts';
import type { Logger } from '../../base/log.ts';
import { mapLimit } from '../../base/workers.ts';
import type { IndexerMetrics } from '../metrics.ts';

/** Aex9StateReader reads a token's balances after a block (undefined: the node keeps no state there, or no time). */
export interface Aex9StateReader {
  aex9Balances(contractId: string, blockHash: string): Promise<ReadonlyMap<string, bigint> | undefined>;
}

/** Aex9Settling is how a derivation reads tokens' state and who hears of the reads (the populator's log and metric). */
export interface Aex9Settling {
  readonly reader: Aex9StateReader;
  readonly onRead?: (reads: readonly Aex9StateRead[]) => void;
}

/** STATE_READS: dry-runs of one batch in flight at once (tokens read are few: those whose events fail them). */
const STATE_READS = 8;

/**
 * settleAex9 reads the state of the tokens heights from..to leave unexplained and writes it, in the caller's transaction;
 * `called` are the contracts the calls of these heights call (a token read before is read again after a call).
 */
export async function settleAex9(
  db: Queryable,
  settling: Aex9Settling | undefined,
  heights: { readonly from: number; readonly to: number },
  called: readonly string[],
): Promise<void> {
  const { from, to } = heights;
  const tokens = await aex9Unsettled(db, from, to, called);
  if (tokens.length === 0) return;
  if (!settling)
    throw new Error(`${tokens.length} AEX-9 token(s) need their state read and no node is given to read it`);
  const reads = await mapLimit(tokens, STATE_READS, async (token) => ({
    token,
    balances: await settling.reader.aex9Balances(token.contractId, token.blockHash),
  }));
  await writeAex9State(db, reads, to);
  settling.onRead?.(reads);
}

/**
 * aex9StateReport logs each token when it is first read from its state (why, and where: from then on it is read at
 * each touch, and marked invalid unless its unread creation balances explain it) and counts it by reason; later reads
 * of such a token are its rule, not news.
 */
export function aex9StateReport(
  log: Logger,
  metrics: Pick<IndexerMetrics, 'aex9StateTokens'> | undefined,
): NonNullable<Aex9Settling['onRead']> {
  return (reads) => {
    for (const { token, balances } of reads) {
      if (!token.first) continue;
      log.warn(
        { contract: token.contractId, reason: token.reason, height: token.height, txHash: token.txHash },
        balances === undefined
          ? "an AEX-9 token's events take it below zero and the node keeps no state there (or gives its balances() up at its dry-run time limit): its negative balances set to zero, its balances read from the contract's state from now on"
          : "an AEX-9 token's events take it below zero: its balances read from the contract's state from now on",
      );
      metrics?.aex9StateTokens.inc({ reason: token.reason });
    }
  };
}
