/**
 * @module Read-side SQL for contract_calls: the calls the chain holds as transactions (ae_mdw's /v3/contracts/calls, in
 * chain order), a contract's decoded calls (the original's), and the call infos verify compares with the node's.
 */
import type { Json } from '../../chain/json.ts';
import { callInfoSql } from './call-info.ts';
import { creationTxHashSql } from './contracts.ts';
import type { Queryable } from '../connection/pool.ts';
import { equalityFilters } from './equality-filters.ts';
import { keyset, tighterStart, type TxPosition, type PageReader } from './positions.ts';
import { withTxObjects } from './stored-tx-json.ts';
import { microBlockHashSql, type Window } from './transactions.ts';

/** A decoded call or constructor run. */
export interface ContractCallRow {
  readonly txHash: string;
  readonly contractId: string;
  readonly callerId: string;
  readonly function: string | null;
  readonly arguments: Json;
  readonly callInfo: Json;
  /** true when every node had garbage-collected the call info (410): `callInfo` is null */
  readonly callInfoPruned: boolean;
  readonly result: Json;
  readonly decodeError: string | null;
}

/** contractCalls pages a contract's calls (the constructor run included), oldest first. */
export async function contractCalls(db: Queryable, contractId: string, w: Window): Promise<ContractCallRow[]> {
  const { rows } = await db.query(
    `SELECT tx_hash, contract_id, caller_id, function, arguments, ${callInfoSql('c')} AS call_info, call_info_pruned,
            result, decode_error
       FROM contract_calls c WHERE contract_id = $1
      ORDER BY height, micro_index, tx_index LIMIT $2 OFFSET $3`,
    [contractId, w.limit, w.offset],
  );
  return rows.map((r) => ({
    txHash: r.tx_hash,
    contractId: r.contract_id,
    callerId: r.caller_id,
    function: r.function,
    arguments: r.arguments,
    callInfo: r.call_info,
    callInfoPruned: r.call_info_pruned,
    result: r.result,
    decodeError: r.decode_error,
  }));
}

/** A stored call's info as verify compares it with the node's. */
export interface StoredCallInfo {
  readonly txHash: string;
  readonly callInfo: Json;
  readonly pruned: boolean;
  /** why the call is stored undecoded (null when decoded) */
  readonly decodeError: string | null;
}

/** storedCallInfos lists the call info (and decode error) stored for the contract calls at one height. */
export async function storedCallInfos(db: Queryable, height: number): Promise<StoredCallInfo[]> {
  const { rows } = await db.query(
    `SELECT tx_hash, ${callInfoSql('c')} AS call_info, call_info_pruned, decode_error FROM contract_calls c
      WHERE height = $1 ORDER BY tx_hash`,
    [height],
  );
  return rows.map((r) => ({
    txHash: r.tx_hash,
    callInfo: r.call_info,
    pruned: r.call_info_pruned,
    decodeError: r.decode_error,
  }));
}

/** A stored call (a ContractCallTx, or a ContractCreateTx's constructor; inner ones of GAMetaTx/PayingForTx too). */
export interface CallRow extends TxPosition {
  readonly txHash: string;
  readonly blockHash: string;
  readonly contractId: string;
  readonly contractTxHash: string | null;
  readonly callerId: string;
  readonly function: string | null;
  readonly arguments: Json;
  readonly result: Json;
  readonly callInfo: { [key: string]: Json } | null;
  /** the outer transaction as the node serves it */
  readonly tx: { [key: string]: Json };
}

/** The filters of /v3/contracts/calls, ANDed. */
export interface CallFilter {
  readonly contractId: string | undefined;
  readonly callerId: string | undefined;
  readonly function: string | undefined;
  /** the first and last position listed (inclusive) */
  readonly from: TxPosition;
  readonly to: TxPosition;
}

/** callsPage reads up to n calls matching the filter walking from a position (inclusive). */
export const callsPage: PageReader<CallFilter, TxPosition, CallRow> = async (db, filter, { walk, from, n }) => {
  // a cursor moves the range's bound on the walk's side (tighterStart): one comparison of the position on each side
  const lo = from && walk === 'forward' ? tighterStart(walk, from, filter.from) : filter.from;
  const hi = from && walk === 'backward' ? tighterStart(walk, from, filter.to) : filter.to;
  const values: unknown[] = [n, lo.height, lo.microIndex, lo.txIndex, hi.height, hi.microIndex, hi.txIndex];
  // only the filters given are in the statement (one prepared plan per combination, each with its index)
  const where = [
    '(c.height, c.micro_index, c.tx_index) >= ($2, $3, $4)',
    '(c.height, c.micro_index, c.tx_index) <= ($5, $6, $7)',
  ];
  const shape = equalityFilters(values, where, [
    ['c.contract_id', filter.contractId],
    ['c.caller_id', filter.callerId],
    ['c.function', filter.function],
  ]);
  const { order } = keyset(['c.height', 'c.micro_index', 'c.tx_index'], walk, undefined);
  const { rows } = await db.query({
    name: `mdw_v3_contract_calls_${walk}_${shape}`,
    text: `SELECT c.height, c.micro_index AS "microIndex", c.tx_index AS "txIndex", c.tx_hash AS "txHash",
                  ${microBlockHashSql('t')} AS "blockHash", c.contract_id AS "contractId",
                  ${creationTxHashSql('c.contract_id')} AS "contractTxHash",
                  c.caller_id AS "callerId", c.function, c.arguments, c.result, ${callInfoSql('c')} AS "callInfo", t.signed AS tx
             FROM contract_calls c JOIN transactions t ON t.hash = c.tx_hash
            WHERE ${where.join(' AND ')}
            ORDER BY ${order} LIMIT $1`,
    values,
  });
  return withTxObjects<CallRow>(rows, 'tx');
};
