/**
 * @module The migrator's TypeScript data steps: conversions of stored rows that need the project's own code (the
 * transaction serialiser), which SQL cannot do. A step runs after the migration file of its name, on the migrator's
 * locked connection, in batches that each commit (a kill mid-way loses at most one batch and the next start goes on
 * from the rows not yet converted).
 */
import { parseJson, type Json } from '../chain/json.ts';
import { storedTxColumns } from '../chain/stored-tx.ts';
import type { Logger } from '../log.ts';
import { inTransaction, type PoolClient } from './pool.ts';

/** A data step: converts in batches on a client outside any transaction; each batch commits. */
export type DataStep = (client: PoolClient, log: Logger, batchSize?: number) => Promise<void>;

/** Rows per batch: a batch of transactions is a few MB of JSON in memory. */
const BATCH = 5000;

/**
 * fillSignedTransactions (0085) gives every transaction stored as JSON its stored form and extracted columns
 * (chain/stored-tx.ts, as the writer makes them), batch by batch in position order. The JSON stays until 0086, so
 * servers of the previous version answer from it meanwhile; 0087's rewrite gives its space back.
 */
export async function fillSignedTransactions(client: PoolClient, log: Logger, batchSize = BATCH): Promise<void> {
  let after = [-1, -1, -1];
  let done = 0;
  const started = Date.now();
  for (;;) {
    const last = await inTransaction(client, async () => {
      const { rows } = await client.query<{
        height: number;
        micro_index: number;
        tx_index: number;
        signatures: string[] | null;
        tx: string;
      }>(
        `SELECT height, micro_index, tx_index, signatures, tx::text AS tx FROM transactions
          WHERE signed IS NULL AND (height, micro_index, tx_index) > ($1, $2, $3)
          ORDER BY height, micro_index, tx_index LIMIT $4`,
        [...after, batchSize],
      );
      const columns = rows.map((r) => {
        const signed: { [key: string]: Json } = { tx: parseJson(r.tx) };
        if (r.signatures !== null) signed.signatures = r.signatures;
        return storedTxColumns(signed);
      });
      if (rows.length > 0)
        await client.query(
          `UPDATE transactions t
              SET signed = v.signed, gas = v.gas::numeric, inner_type = v.inner_type,
                  channel_amount = v.channel_amount::numeric
             FROM unnest($1::int[], $2::int[], $3::int[], $4::bytea[], $5::text[], $6::text[], $7::text[])
                  AS v(height, micro_index, tx_index, signed, gas, inner_type, channel_amount)
            WHERE t.height = v.height AND t.micro_index = v.micro_index AND t.tx_index = v.tx_index`,
          [
            rows.map((r) => r.height),
            rows.map((r) => r.micro_index),
            rows.map((r) => r.tx_index),
            columns.map((c) => Buffer.from(c.signed.buffer, c.signed.byteOffset, c.signed.length)),
            columns.map((c) => c.gas),
            columns.map((c) => c.innerType),
            columns.map((c) => c.channelAmount),
          ],
        );
      return rows.length === 0 ? undefined : { row: rows[rows.length - 1]!, count: rows.length };
    });
    if (last === undefined) break;
    after = [last.row.height, last.row.micro_index, last.row.tx_index];
    done += last.count;
    log.info({ step: '0085', transactions: done, height: last.row.height }, 'converting stored transactions');
  }
  log.info(
    { step: '0085', transactions: done, seconds: (Date.now() - started) / 1000 },
    'stored transactions converted',
  );
}

/** The data steps by the name of the migration file they follow. */
export const DATA_STEPS: Readonly<Record<string, DataStep>> = {
  '0085_transactions_signed_fill': fillSignedTransactions,
};
