/** @module The shape tables of ae_mdw's transactions, activities and internal transfers (render-tx.ts). */
import { big, id, int, list, nullable, obj, object, only, shape, str } from '../shape-table.ts';

export const TRANSACTION = shape(
  { openapi: 'Transaction', graphql: ['Transaction'] },
  {
    block_hash: id('mh'),
    block_height: int,
    encoded_tx: nullable(str),
    hash: id('th'),
    micro_index: int,
    micro_time: int,
    signatures: list(str),
    tx: object({ type: str }),
    tx_index: only('graphql', int),
  },
);

export const PENDING_TRANSACTION = shape({ openapi: 'PendingTransaction' }, { hash: str, tx: obj, failures: int });

export const ACTIVITY = shape(
  { openapi: 'Activity', graphql: ['AccountActivity'] },
  { block_hash: str, block_time: int, height: int, type: str, payload: obj },
);

export const TRANSFER = shape(
  { openapi: 'Transfer', graphql: ['Transfer'] },
  {
    account_id: str,
    amount: big,
    height: int,
    kind: str,
    ref_block_hash: nullable(str),
    ref_tx_hash: nullable(str),
    ref_tx_type: nullable(str),
  },
);

/** ae_mdw's /wealth answers a plain array of these, the richest accounts first */
export const WEALTH_ENTRY = shape({ graphql: ['WealthEntry'] }, { account: id('ak'), balance: big });
