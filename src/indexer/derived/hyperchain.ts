/**
 * @module The hyperchain derived area: each key block's producer and flags, and at each epoch boundary the epoch, its
 * schedule, validators, delegates and pin, as the node's election and staking contracts answer (hyperchain/reader.ts).
 * A batch writes what its reads gave; when they failed (an answer of a shape this version does not read, a failed
 * dry-run, a node that kept no state at the boundary) the batch is written without them and the backfill reads the
 * boundaries of the stored key blocks again, through the same reader, until it can.
 */
import type { Queryable } from '../../db/connection/pool.ts';
import { storedKeyBlocks } from '../../db/queries/stored-key-blocks.ts';
import { deleteHyperchainLoads, writeHyperchain } from '../../db/writes/hyperchain.ts';
import type { HyperchainBatch } from '../../db/writes/hyperchain-rows.ts';
import type { HyperchainReader } from '../hyperchain/reader.ts';

/** writeBatchHyperchain writes a batch's rows once its reads answered (none when no reader asked them). */
export async function writeBatchHyperchain(db: Queryable, rows: Promise<HyperchainBatch> | undefined): Promise<void> {
  if (rows) await writeHyperchain(db, await rows);
}

/** deriveStoredHyperchain replaces the rows of stored heights from..to with what the reader reads of their key blocks. */
export async function deriveStoredHyperchain(
  db: Queryable,
  reader: Pick<HyperchainReader, 'read'>,
  from: number,
  to: number,
): Promise<void> {
  const rows = await reader.read(await storedKeyBlocks(db, from, to));
  await deleteHyperchainLoads(db, from, to);
  await writeHyperchain(db, rows);
}
