/**
 * @module How the queries read contract_calls' `call_info` (migration 1000): a row marked `call_info_trimmed` keeps the
 * node's call info without caller_id, contract_id and height, which are the row's own columns.
 */

/**
 * callInfoSql is the SQL of the node's call info of the contract_calls row `c`: the trimmed members put back. jsonb
 * keeps an object's keys in one order whatever the order they were added in, so the object is the one stored before.
 */
export function callInfoSql(c: string): string {
  return `CASE WHEN ${c}.call_info_trimmed
    THEN jsonb_build_object('caller_id', ${c}.caller_id, 'contract_id', ${c}.contract_id, 'height', ${c}.height) || ${c}.call_info
    ELSE ${c}.call_info END`;
}
