/**
 * @module The field groups that several of ae_mdw's answers share, declared once and spread into their shape tables
 * (the order a table lists its fields in has no meaning to either API).
 */
import { bool, id, int, list, obj, only, str } from '../shape-table.ts';

/** the transaction that made an object or event, and the block that holds it (ae_mdw's `source_tx_*`) */
export const SOURCE_TX = { block_hash: str, source_tx_hash: str, source_tx_type: str };

/** an event caused by a transaction that the answer carries whole */
export const SOURCE_TX_EVENT = { ...SOURCE_TX, tx: obj };

/** where a token transfer (AEX-9's or AEX-141's) was logged */
export const TRANSFER_PLACE = {
  log_idx: int,
  block_height: int,
  micro_index: int,
  micro_time: int,
  tx_hash: id('th'),
};

/** a token contract (AEX-9's or AEX-141's): its ids, its extensions and why the middleware holds it invalid */
export const TOKEN_CONTRACT = {
  contract_id: id('ct'),
  contract_tx_hash: id('th'),
  extensions: list(str),
  invalid: bool,
  invalid_reason: only('graphql', str),
  invalid_description: only('graphql', str),
};
