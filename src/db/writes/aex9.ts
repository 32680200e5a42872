/**
 * @module AEX-9 balance moves (migration 1002): the populator's writes of a batch's balances at creation and
 * standard events. Events are kept for AEX-9 contracts only, emitted after the block whose state their creation
 * balances were read at (events of that block are in those balances already: no double counting), Deposit and
 * Withdrawal for wrapped AE only (aexn_contracts.wrapped_ae, migration 1020). The triggers of aex9_events keep the
 * balances and holders.
 */
import type { Queryable } from '../connection/pool.ts';
import { arrayParameter } from '../connection/array-text.ts';
import type { AexnRows } from './token-rows.ts';

/** writeAex9Rows writes a batch's AEX-9 seeds, events and transfers, after its aexn_contracts rows. */
export async function writeAex9Rows(db: Queryable, batch: readonly AexnRows[]): Promise<void> {
  const seeds = batch.flatMap((r) => r.seeds);
  if (seeds.length > 0)
    await db.query(
      `INSERT INTO aex9_events (contract_id, account, height, micro_index, tx_index, log_idx, side, tx_hash, kind, delta)
       SELECT s.contract_id, s.account, s.height, s.micro_index, s.tx_index, -1, 1, s.tx_hash, 'seed', s.amount
         FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::int[], $6::text[], $7::numeric[])
              AS s(contract_id, account, height, micro_index, tx_index, tx_hash, amount)
         -- only where the contract's stored creation is this one: a contract found again (a batch detected while
         -- the backfill had not yet reached its creation) keeps its first seeds, never doubled
         JOIN aexn_contracts c ON c.contract_id = s.contract_id
          AND (c.height, c.micro_index, c.tx_index) = (s.height, s.micro_index, s.tx_index)
       ON CONFLICT DO NOTHING`,
      [
        seeds.map((s) => s.contractId),
        seeds.map((s) => s.account),
        seeds.map((s) => s.height),
        seeds.map((s) => s.microIndex),
        seeds.map((s) => s.txIndex),
        seeds.map((s) => s.txHash),
        seeds.map((s) => s.amount),
      ].map(arrayParameter),
    );
  const logs = batch.flatMap((r) => r.aex9Logs);
  if (logs.length === 0) return;
  const params = [
    logs.map((l) => l.contractId),
    logs.map((l) => l.height),
    logs.map((l) => l.microIndex),
    logs.map((l) => l.txIndex),
    logs.map((l) => l.logIdx),
    logs.map((l) => l.txHash),
    logs.map((l) => l.kind),
    logs.map((l) => l.from),
    logs.map((l) => l.to),
    logs.map((l) => l.amount),
  ];
  // the events of AEX-9 contracts, after the block their balances at creation were read at; a wrapped AE's mints and
  // burns are its deposits and withdrawals
  const events = `
    SELECT l.* FROM unnest($1::text[], $2::int[], $3::int[], $4::int[], $5::int[], $6::text[], $7::text[],
                           $8::text[], $9::text[], $10::numeric[])
                    AS l(contract_id, height, micro_index, tx_index, log_idx, tx_hash, kind, sender, recipient, amount)
      JOIN aexn_contracts c ON c.contract_id = l.contract_id AND c.aexn_type = 'aex9'
     WHERE (l.height, l.micro_index) > (c.height, c.micro_index)
       AND (c.wrapped_ae OR l.kind NOT IN ('deposit', 'withdrawal'))`;
  // one statement reads the arrays once for both tables; the events' trigger runs at its end, as before
  await db.query({
    name: 'mdw_aex9_logs_insert',
    text: `WITH l AS (${events}),
     transfers AS (
       INSERT INTO aex9_transfers (contract_id, sender, recipient, amount, height, micro_index, tx_index, log_idx, tx_hash)
       SELECT contract_id, sender, recipient, amount, height, micro_index, tx_index, log_idx, tx_hash
         FROM l WHERE kind = 'transfer'
       ON CONFLICT DO NOTHING)
     INSERT INTO aex9_events (contract_id, account, height, micro_index, tx_index, log_idx, side, tx_hash, kind, delta)
     SELECT l.contract_id, m.account, l.height, l.micro_index, l.tx_index, l.log_idx, m.side, l.tx_hash, l.kind, m.delta
       FROM l
      CROSS JOIN LATERAL (VALUES (l.sender, 0, -l.amount), (l.recipient, 1, l.amount)) AS m(account, side, delta)
      WHERE m.account IS NOT NULL
     ON CONFLICT DO NOTHING`,
    values: params.map(arrayParameter),
  });
}
