/**
 * @module Read-side SQL of the original's `/transactions/account/{sender}/to/{receiver}`: the transactions where the
 * sender stands in `sender_id` (or an inner transaction's, `tx.sender_id`) and the receiver in `recipient_id` (or
 * `tx.recipient_id`), newest first, a page by limit and offset. A page reads offset + limit entries of the pair's
 * rows (migration 1077), never either side's other transactions.
 */
import { idKey } from '../../chain/id-key.ts';
import type { Queryable } from '../connection/pool.ts';
import { accountNumberSql } from './account-ids.ts';
import { NEWEST_FIRST, renderedTxJson, SIGNED_TX_JSON_COLUMNS, type TxJson, type Window } from './transactions.ts';

/** transactionsFromTo pages the transactions from `sender` to `recipient`, newest first. */
export async function transactionsFromTo(
  db: Queryable,
  sender: string,
  recipient: string,
  w: Window,
): Promise<TxJson[]> {
  const { rows } = await db.query<TxJson>({
    name: 'mdw_transactions_from_to',
    text: `WITH page AS (
       SELECT p.height, p.micro_index, p.tx_index FROM account_pairs p
        WHERE p.sender = ${accountNumberSql('$1')} AND p.recipient = ${accountNumberSql('$2')}
        ORDER BY p.height DESC, p.micro_index DESC, p.tx_index DESC LIMIT $3 OFFSET $4)
     SELECT ${SIGNED_TX_JSON_COLUMNS} FROM page p
       JOIN transactions t ON t.height = p.height AND t.micro_index = p.micro_index AND t.tx_index = p.tx_index
     ${NEWEST_FIRST}`,
    values: [idKey(sender), idKey(recipient), w.limit, w.offset],
  });
  return renderedTxJson(rows);
}
