/**
 * @module Name auctions added to the API fixture as the indexer records them: a claim opening an
 * auction (kind claim, auction_end set), bids (kind bid) with the bidder as owner and the bid as
 * name_fee, each with its NameClaimTx row; all at heights below 40.
 */
import { nameId } from '../../../src/chain/derived-ids.ts';
import { stringifyJson, type Json } from '../../../src/chain/json.ts';
import type { Queryable } from '../../../src/db/connection/pool.ts';
import { addTxTypeTotals } from '../../../src/db/writes/tx-type-totals.ts';
import { ALICE, BOB, CAROL, DAVE, id } from './fixture.ts';
import { STORED_TX_COLUMNS, storedTxValues } from '../../support/stored-tx.ts';
import { txTypeCode } from '../../../src/chain/id-key.ts';

export const ZZ = 'zz.chain';
export const LONGER = 'abcdefgh.chain';
export const ENDED = 'ended.chain';

/** One claim or bid. */
export interface AuctionBid {
  readonly name: string;
  readonly height: number;
  readonly account: string;
  readonly fee: bigint;
  /** the auction end after this bid */
  readonly end: number;
  readonly kind: 'claim' | 'bid';
}

/** AUCTION_BIDS: `ended.chain` (over by height 32), `zz.chain` (two bids), `abcdefgh.chain` (no bid). */
export const AUCTION_BIDS: readonly AuctionBid[] = [
  { name: ENDED, height: 11, account: ALICE, fee: 10n ** 21n, end: 30, kind: 'claim' },
  { name: ENDED, height: 12, account: DAVE, fee: 2n * 10n ** 21n, end: 32, kind: 'bid' },
  { name: ZZ, height: 30, account: ALICE, fee: 10n ** 21n + 1n, end: 29790, kind: 'claim' },
  { name: ZZ, height: 33, account: BOB, fee: 2n * 10n ** 21n, end: 29793, kind: 'bid' },
  { name: ZZ, height: 36, account: CAROL, fee: 3n * 10n ** 21n + 7n, end: 29796, kind: 'bid' },
  { name: LONGER, height: 31, account: BOB, fee: 5n * 10n ** 20n, end: 14911, kind: 'claim' },
];

/** auctionTx is the transaction of a bid. */
export function auctionTx(b: AuctionBid): {
  height: number;
  hash: string;
  tx: { [key: string]: Json };
  signatures: string[];
} {
  return {
    height: b.height,
    hash: id('th', `auction-${b.name}-${b.height}`),
    signatures: [id('sg', `a${b.height}`), id('sg', `b${b.height}`)],
    tx: {
      type: 'NameClaimTx',
      version: 2,
      account_id: b.account,
      nonce: 500 + b.height,
      name: b.name,
      name_salt: b.kind === 'claim' ? 77 : 0,
      name_fee: b.fee,
      fee: 16000 + b.height,
    },
  };
}

/** addAuctions writes AUCTION_BIDS into a database holding the API fixture. */
export async function addAuctions(db: Queryable): Promise<void> {
  for (const b of AUCTION_BIDS) {
    const t = auctionTx(b);
    const { rows } = await db.query<{ hash: string; time_ms: string }>(
      'SELECT hash, time_ms FROM micro_blocks WHERE height = $1 AND micro_index = 0',
      [b.height],
    );
    const size = stringifyJson(t.tx).length;
    await db.query(
      `INSERT INTO transactions (hash, height, micro_index, tx_index, micro_time_ms, tx_type, fee, ${STORED_TX_COLUMNS})
       VALUES ($1, $2, 0, 50, $3, ${txTypeCode('NameClaimTx')}, $4, $5, $6, $7, $8, $9)`,
      [t.hash, b.height, rows[0]!.time_ms, String(t.tx.fee), ...storedTxValues(t.tx, t.signatures, size)],
    );
    // as the writer adds its transactions to their type's totals (migration 1154)
    await addTxTypeTotals(db, [{ code: txTypeCode('NameClaimTx'), n: 1, size }]);
    await db.query(
      `INSERT INTO name_events (name_hash, name, height, micro_index, tx_index, tx_hash, kind, owner, expires_at, auction_end, name_fee)
       VALUES ($1, $2, $3, 0, 50, $4, $5, $6, $7, $7, $8)`,
      [nameId(b.name), b.name, b.height, t.hash, b.kind, b.account, b.end, String(b.fee)],
    );
  }
}
