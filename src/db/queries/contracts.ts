/** @module Read-side SQL for contracts and their decoded calls. */
import type { Json } from '../../chain/json.ts';
import { callInfoSql } from './call-info.ts';
import type { Queryable } from '../pool.ts';
import { renderStoredTx } from '../../chain/stored-tx.ts';
import { renderPlaceholders } from './stored-tx-json.ts';
import { RAW_TX_JSON, renderedRows, SIGNED_TX_JSON_COLUMNS, type TxJson, type Window } from './transactions.ts';

/** A contract with its creating transaction. */
export interface ContractRow {
  readonly contractId: string;
  readonly createTxHash: string;
  readonly height: number;
}

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

/** allContracts pages every contract, newest first. */
export async function allContracts(db: Queryable, w: Window): Promise<ContractRow[]> {
  const { rows } = await db.query(
    `SELECT contract_id, create_tx_hash, height FROM contracts ORDER BY height DESC, contract_id LIMIT $1 OFFSET $2`,
    [w.limit, w.offset],
  );
  return rows.map((r) => ({ contractId: r.contract_id, createTxHash: r.create_tx_hash, height: r.height }));
}

/** contractById returns one contract. */
export async function contractById(db: Queryable, contractId: string): Promise<ContractRow | undefined> {
  const { rows } = await db.query('SELECT contract_id, create_tx_hash, height FROM contracts WHERE contract_id = $1', [
    contractId,
  ]);
  const r = rows[0];
  return r && { contractId: r.contract_id, createTxHash: r.create_tx_hash, height: r.height };
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

/** contractTransactions pages the create transaction and every call of a contract, in chain order. */
export async function contractTransactions(db: Queryable, contractId: string, w: Window): Promise<TxJson[]> {
  const { rows } = await db.query<TxJson>(
    `SELECT ${SIGNED_TX_JSON_COLUMNS}
       FROM transactions t
      WHERE t.hash IN (SELECT create_tx_hash FROM contracts WHERE contract_id = $1
                       UNION SELECT tx_hash FROM contract_calls WHERE contract_id = $1)
      ORDER BY t.height, t.micro_index, t.tx_index LIMIT $2 OFFSET $3`,
    [contractId, w.limit, w.offset],
  );
  return renderedRows(rows);
}

/** creationTransactionJson is the transaction that created the contract, as the original's RawTx JSON text. */
export async function creationTransactionJson(
  db: Queryable,
  contractId: string,
): Promise<{ height: number; json: string } | undefined> {
  const { rows } = await db.query<{ height: number; json: string }>(
    `SELECT t.height, (${RAW_TX_JSON})::text AS json
       FROM contracts c JOIN transactions t ON t.hash = c.create_tx_hash WHERE c.contract_id = $1`,
    [contractId],
  );
  return rows[0] && { height: rows[0].height, json: renderPlaceholders(rows[0].json) };
}

/** A stored call's info as verify compares it with the node's. */
export interface StoredCallInfo {
  readonly txHash: string;
  readonly callInfo: Json;
  readonly pruned: boolean;
}

/** storedCallInfos lists the call info stored for the contract calls at one height. */
export async function storedCallInfos(db: Queryable, height: number): Promise<StoredCallInfo[]> {
  const { rows } = await db.query(
    `SELECT tx_hash, ${callInfoSql('c')} AS call_info, call_info_pruned FROM contract_calls c WHERE height = $1
      ORDER BY tx_hash`,
    [height],
  );
  return rows.map((r) => ({ txHash: r.tx_hash, callInfo: r.call_info, pruned: r.call_info_pruned }));
}

/** contractCreateTx is the stored transaction that created a contract (its `tx` object), undefined when not stored. */
export async function contractCreateTx(db: Queryable, contractId: string): Promise<Json | undefined> {
  // named: asked for every contract the decoder has not met yet (tens a batch on the bench chain): each
  // connection then parses it once and plans it once (a generic plan), not for every contract
  const { rows } = await db.query<{ signed: Buffer }>({
    name: 'mdw-contract-create-tx',
    text: 'SELECT t.signed FROM contracts c JOIN transactions t ON t.hash = c.create_tx_hash WHERE c.contract_id = $1',
    values: [contractId],
  });
  return rows[0] && renderStoredTx(rows[0].signed).tx;
}
