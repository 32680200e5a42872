/**
 * @module AEX-9 transfers in an id's activity feed (/v3/accounts/{id}/activities, types `aex9` and `aexn`): the
 * Transfer events of AEX-9 tokens that the id sent or received (with whether the token's events may be incomplete), each side walked by its own index of
 * aex9_transfers. Items of one position order by log index (`tag`), then side (`ref`).
 */
import type { ActivitySql } from './activities.ts';

/** The item's data: the transfer and its token's meta info, as Aex9TransferEvent shows them. */
const DATA = `json_build_object(
  'amount', x.amount, 'contract_id', x.contract_id, 'log_idx', x.log_idx, 'sender_id', x.sender,
  'recipient_id', x.recipient, 'tx_hash', x.tx_hash,
  'token_name', c.name, 'token_symbol', c.symbol, 'decimals', c.decimals,
  'incomplete', c.balances_unknown
                OR coalesce(c.height <= (SELECT max(p.height) FROM contract_calls p WHERE p.call_info_pruned), false)
  )::text`;
const FROM = 'aex9_transfers x JOIN aexn_contracts c ON c.contract_id = x.contract_id';
const tag = `'aex9:' || lpad(x.log_idx::text, 10, '0')`;

/** transfers is one side of an id's transfers: `side` names its source and its ref, the id is `column`, `where` adds a condition. */
function transfers(side: 'sent' | 'received', column: string, where = ''): ActivitySql {
  return {
    source: `aex9_${side}`,
    from: FROM,
    keyColumns: ['x.height', 'x.micro_index', 'x.tx_index', tag, `'${side}'::text`],
    data: DATA,
    where: `${column} = $2 AND x.height BETWEEN $3 AND $4${where}`,
  };
}

/** The transfers an id sent (its own acts: kept with owned_only). */
export const AEX9_SENT_ACTIVITIES = transfers('sent', 'x.sender');

/** The transfers an id received (not its own acts: left out with owned_only). */
export const AEX9_RECEIVED_ACTIVITIES = transfers('received', 'x.recipient', ' AND NOT $5');
