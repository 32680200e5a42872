/**
 * @module Read-side SQL of the original's `/transactions/account/{sender}/to/{receiver}`: the transactions where the
 * sender stands in `sender_id` (or an inner transaction's, `tx.sender_id`) and the receiver in `recipient_id` (or
 * `tx.recipient_id`), newest first, a page by limit and offset. A page walks only the rows of one side's kept
 * (type, fields) combinations that name it in its field (migration 1015), never its other transactions.
 */
import { idKey } from '../../chain/id-key.ts';
import type { Queryable } from '../pool.ts';
import { fieldsPattern } from './account-fields.ts';
import { accountNumberSql } from './account-ids.ts';
import { NEWEST_FIRST, renderedTxJson, SIGNED_TX_JSON_COLUMNS, type TxJson, type Window } from './transactions.ts';

const SENDER_FIELDS = fieldsPattern(['sender_id', 'tx.sender_id']);
const RECIPIENT_FIELDS = fieldsPattern(['recipient_id', 'tx.recipient_id']);
const DESC = 's.height DESC, s.micro_index DESC, s.tx_index DESC';

/**
 * walkCosts reads, for the sender's rows that name it a sender and the receiver's that name it a recipient, how many
 * rows a walk of them reads: a (type, fields) of two fields walks its own rows on index 1047, one of a single field its
 * id's rows of that type (account_transactions_type) and skips the others. From the kept counts: a few rows each.
 */
async function walkCosts(
  db: Queryable,
  sender: string,
  recipient: string,
): Promise<{ sender: bigint; recipient: bigint }> {
  const { rows } = await db.query<{ sender: string; recipient: string }>({
    name: 'mdw_from_to_walk_costs',
    text: `SELECT coalesce(sum(w.n) FILTER (WHERE w.sender), 0)::text AS sender,
            coalesce(sum(w.n) FILTER (WHERE NOT w.sender), 0)::text AS recipient
       FROM (SELECT k.account = ${accountNumberSql('$1')} AS sender,
                    CASE WHEN k.fields LIKE '% %' THEN k.n
                         ELSE (SELECT sum(a.n) FROM account_tx_counts a WHERE a.account = k.account AND a.tx_type = k.tx_type) END AS n
               FROM account_tx_counts k
              WHERE (k.account = ${accountNumberSql('$1')} AND k.fields ~ $3)
                 OR (k.account = ${accountNumberSql('$2')} AND k.fields ~ $4)) w`,
    values: [idKey(sender), idKey(recipient), SENDER_FIELDS, RECIPIENT_FIELDS],
  });
  const row = rows[0]!;
  return { sender: BigInt(row.sender), recipient: BigInt(row.recipient) };
}

/**
 * A walk of one id's rows: `walked` names it in `walkedFields`; `other` must name `otherFields` at the same position
 * (the same row when the two ids are one: then only its kept (type, fields) that name both are walked).
 */
interface Walk {
  readonly walked: string;
  readonly walkedFields: string;
  readonly other: string;
  readonly otherFields: string;
}

/**
 * chooseWalk walks the side whose rows cost less to walk (walkCosts), so that a hot account at one end and a quiet one
 * at the other walks the quiet one's. Pure.
 */
export function chooseWalk(
  sender: string,
  recipient: string,
  costs: { readonly sender: bigint; readonly recipient: bigint },
): Walk {
  return costs.sender < costs.recipient
    ? { walked: sender, walkedFields: SENDER_FIELDS, other: recipient, otherFields: RECIPIENT_FIELDS }
    : { walked: recipient, walkedFields: RECIPIENT_FIELDS, other: sender, otherFields: SENDER_FIELDS };
}

/**
 * transactionsFromTo pages the transactions from `sender` to `recipient`, newest first. Each kept (type, fields) of
 * the walked side is walked newest first for at most offset + limit rows (its own rows on index 1047 when it names
 * two fields, else its id's rows of that type), each checked for the other side's row at the same position by its
 * primary key; the page is the merge of those walks. For one id at both ends only the (type, fields) naming it in both
 * fields are walked (index 1047: nothing read when it never pays itself); for two, the side with fewer such rows.
 */
export async function transactionsFromTo(
  db: Queryable,
  sender: string,
  recipient: string,
  w: Window,
): Promise<TxJson[]> {
  const walk =
    sender === recipient
      ? { walked: sender, walkedFields: SENDER_FIELDS, other: sender, otherFields: RECIPIENT_FIELDS }
      : chooseWalk(sender, recipient, await walkCosts(db, sender, recipient));
  // One id at both ends: the row walked is the row checked, so its kept (type, fields) name the other field too. Two:
  // the other's row at the position, by its primary key, a sub-plan per row walked (as a join, the planner could walk
  // the other's rows instead and sort them all).
  const kept = sender === recipient ? ' AND k.fields ~ $5' : '';
  const checked =
    sender === recipient
      ? ''
      : `AND (SELECT o.fields FROM account_transactions o WHERE o.account = ${accountNumberSql('$6')}
               AND o.height = s.height AND o.micro_index = s.micro_index AND o.tx_index = s.tx_index) ~ $5`;
  const { rows } = await db.query<TxJson>(
    `WITH page AS (
       SELECT s.height, s.micro_index, s.tx_index
         FROM account_tx_counts k CROSS JOIN LATERAL (
           (SELECT s.height, s.micro_index, s.tx_index FROM account_transactions s
             WHERE k.fields LIKE '% %' AND s.account = k.account AND s.tx_type = k.tx_type AND s.fields = k.fields
               AND s.fields LIKE '% %' ${checked}
             ORDER BY ${DESC} LIMIT $2::bigint + $3::bigint)
           UNION ALL
           (SELECT s.height, s.micro_index, s.tx_index FROM account_transactions s
             WHERE k.fields NOT LIKE '% %' AND s.account = k.account AND s.tx_type = k.tx_type AND s.fields = k.fields
               ${checked}
             ORDER BY ${DESC} LIMIT $2::bigint + $3::bigint)) s
        WHERE k.account = ${accountNumberSql('$1')} AND k.fields ~ $4${kept}
        ORDER BY ${DESC} LIMIT $2 OFFSET $3)
     SELECT ${SIGNED_TX_JSON_COLUMNS} FROM page p
       JOIN transactions t ON t.height = p.height AND t.micro_index = p.micro_index AND t.tx_index = p.tx_index
     ${NEWEST_FIRST}`,
    [
      idKey(walk.walked),
      w.limit,
      w.offset,
      walk.walkedFields,
      walk.otherFields,
      ...(sender === recipient ? [] : [idKey(walk.other)]),
    ],
  );
  return renderedTxJson(rows);
}
