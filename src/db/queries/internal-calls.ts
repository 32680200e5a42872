/**
 * @module Read-side SQL for contract_internal_calls (migration 1097): ae_mdw's /v3/contracts/calls, the internal calls
 * contracts made, in chain order, each with its call's transaction, contract and block.
 */
import { parseJson, type Json } from '../../chain/json.ts';
import { creationTxHashSql, type LogKey } from './contracts.ts';
import { equalityFilters } from './equality-filters.ts';
import { keyset, type TxPosition, type PageReader } from './positions.ts';
import { microBlockHashSql } from './transactions.ts';

/** An internal call: its call's position, its index among the call's (`logIdx`: the cursor's fourth number). */
export interface InternalCallRow extends LogKey {
  readonly callTxHash: string;
  readonly blockHash: string;
  readonly contractId: string;
  readonly contractTxHash: string | null;
  readonly function: string;
  readonly internalTx: { [key: string]: Json };
}

/** The filters of /v3/contracts/calls, ANDed. */
export interface InternalCallFilter {
  /** the contract whose call made them (the called contract of a ContractCallTx, the created one of a create) */
  readonly contractId: string | undefined;
  readonly function: string | undefined;
  /** the first and last call position listed (inclusive) */
  readonly from: TxPosition;
  readonly to: TxPosition;
}

const COLUMNS = ['i.height', 'i.micro_index', 'i.tx_index', 'i.local_idx'];

/**
 * internalCallsPage reads up to n internal calls matching the filter walking from a key (inclusive). A contract's walk
 * follows its own index (migration 1135: a busy contract whose calls make none reads no call of its), a function's
 * its own index; no filter the position order.
 */
export const internalCallsPage: PageReader<InternalCallFilter, LogKey, InternalCallRow> = async (
  db,
  filter,
  { walk, from, n },
) => {
  const { from: lo, to: hi } = filter;
  const values: unknown[] = [n, lo.height, lo.microIndex, lo.txIndex, hi.height, hi.microIndex, hi.txIndex];
  const where = [
    '(i.height, i.micro_index, i.tx_index) >= ($2, $3, $4)',
    '(i.height, i.micro_index, i.tx_index) <= ($5, $6, $7)',
  ];
  if (from) {
    values.push(from.height, from.microIndex, from.txIndex, from.logIdx);
    const at = values.length - 3;
    where.push(keyset(COLUMNS, walk, `$${at}::int, $${at + 1}::int, $${at + 2}::int, $${at + 3}::int`).where);
  }
  const filters = equalityFilters(values, where, [
    ['i.contract_id', filter.contractId],
    ['i.function', filter.function],
  ]);
  const { order } = keyset(COLUMNS, walk, undefined);
  const shape = `${from === undefined ? '0' : '1'}${filters}`;
  const { rows } = await db.query<Omit<InternalCallRow, 'internalTx'> & { internalTx: string }>({
    name: `mdw_v3_internal_calls_${walk}_${shape}`,
    text: `SELECT i.height, i.micro_index AS "microIndex", i.tx_index AS "txIndex", i.local_idx AS "logIdx",
                  c.tx_hash AS "callTxHash", ${microBlockHashSql('i')} AS "blockHash", i.contract_id AS "contractId",
                  ${creationTxHashSql('i.contract_id')} AS "contractTxHash", i.function, i.internal_tx::text AS "internalTx"
             FROM contract_internal_calls i
             JOIN contract_calls c ON c.height = i.height AND c.micro_index = i.micro_index AND c.tx_index = i.tx_index
            WHERE ${where.join(' AND ')}
            ORDER BY ${order} LIMIT $1`,
    values,
  });
  // exact integers: the stored JSON's text read by the chain's own parser, never JSON.parse
  return rows.map((r) => ({ ...r, internalTx: parseJson(r.internalTx) as { [key: string]: Json } }));
};
