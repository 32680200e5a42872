/**
 * @module Every /mdw/v3 answer's shape table, from which the /v3/api document's components (rest/api-document.ts)
 * are generated; the GraphQL object types are generated from the same tables (graphql/types-*.ts). A new answer's
 * table is added here (docs/architecture.md, "Adding a shape").
 */
import type { Shape } from '../../../shapes/shape-table.ts';
import { STATUS, SYNC_STATUS } from './status-shape.ts';
import { KEY_BLOCK, MICRO_BLOCK } from '../../../shapes/v3/shapes-blocks.ts';
import { ACTIVITY, PENDING_TRANSACTION, TRANSACTION, TRANSFER, WEALTH_ENTRY } from '../../../shapes/v3/shapes-tx.ts';
import { ORACLE, ORACLE_EXTEND, ORACLE_QUERY, ORACLE_RESPONSE } from '../../../shapes/v3/shapes-oracles.ts';
import { CHANNEL, CHANNEL_UPDATE } from '../../../shapes/v3/shapes-channels.ts';
import { CONTRACT, CONTRACT_CALL, CONTRACT_LOG } from '../../../shapes/v3/shapes-contracts.ts';
import { AUCTION, NAME, NAME_EVENT, NAME_HISTORY, POINTEE } from '../../../shapes/v3/shapes-names.ts';
import { DEX_SWAP } from '../../../shapes/v3/shapes-dex.ts';
import {
  AEX9_ACCOUNT_BALANCE,
  AEX9_BALANCE,
  AEX9_BALANCE_HISTORY_ITEM,
  AEX9_CONTRACT_BALANCE,
  AEX9_COUNT,
  AEX9_TOKEN,
  AEX9_TRANSFER,
} from '../../../shapes/v3/shapes-aex9.ts';
import {
  AEX141_COLLECTION,
  AEX141_COUNT,
  AEX141_TEMPLATE,
  AEX141_TEMPLATE_TOKEN,
  AEX141_TOKEN,
  AEX141_TOKEN_DETAIL,
  AEX141_TRANSFER,
} from '../../../shapes/v3/shapes-aex141.ts';
import {
  DELTA_STAT,
  MINER,
  STAT,
  STATS,
  TOP_MINER_24H,
  TOP_MINER_STAT,
  TOTAL_STAT,
} from '../../../shapes/v3/shapes-stats.ts';

import { DELEGATE, EPOCH_INFO, HYPERCHAIN_CONFIG, SCHEDULE, VALIDATOR } from '../../../shapes/v3/shapes-hyperchain.ts';

/** V3_SHAPES: the answers' tables, in the order of the document's components. */
export const V3_SHAPES: readonly Shape[] = [
  STATUS,
  SYNC_STATUS,
  KEY_BLOCK,
  MICRO_BLOCK,
  TRANSACTION,
  PENDING_TRANSACTION,
  ACTIVITY,
  TRANSFER,
  WEALTH_ENTRY,
  ORACLE,
  ORACLE_QUERY,
  ORACLE_RESPONSE,
  ORACLE_EXTEND,
  CHANNEL,
  CHANNEL_UPDATE,
  CONTRACT,
  CONTRACT_CALL,
  CONTRACT_LOG,
  NAME,
  AUCTION,
  NAME_EVENT,
  NAME_HISTORY,
  POINTEE,
  DEX_SWAP,
  AEX9_COUNT,
  AEX9_TOKEN,
  AEX9_CONTRACT_BALANCE,
  AEX9_ACCOUNT_BALANCE,
  AEX9_BALANCE_HISTORY_ITEM,
  AEX9_BALANCE,
  AEX9_TRANSFER,
  AEX141_COUNT,
  AEX141_COLLECTION,
  AEX141_TOKEN,
  AEX141_TOKEN_DETAIL,
  AEX141_TEMPLATE,
  AEX141_TEMPLATE_TOKEN,
  AEX141_TRANSFER,
  STAT,
  DELTA_STAT,
  TOTAL_STAT,
  MINER,
  TOP_MINER_STAT,
  TOP_MINER_24H,
  STATS,
  HYPERCHAIN_CONFIG,
  EPOCH_INFO,
  SCHEDULE,
  VALIDATOR,
  DELEGATE,
];
