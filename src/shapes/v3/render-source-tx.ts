/** @module The source transaction of an object or event as ae_mdw renders it (field-groups.ts's SOURCE_TX). Pure. */
import type { Json } from '../../chain/json.ts';

/** where a stored row's transaction stands: its block and its own hash and type */
export interface SourceTxPlace {
  readonly blockHash: string;
  readonly txHash: string;
  readonly txType: string;
}

/** sourceTxFields are ae_mdw's `block_hash`, `source_tx_hash` and `source_tx_type` of a row. */
export function sourceTxFields(r: SourceTxPlace): {
  block_hash: string;
  source_tx_hash: string;
  source_tx_type: string;
} {
  return { block_hash: r.blockHash, source_tx_hash: r.txHash, source_tx_type: r.txType };
}

/** txBody is a transaction's fields without `type` and `version`, as ae_mdw's events carry it. */
export function txBody(tx: { readonly [key: string]: Json }): { [key: string]: Json } {
  const { type: _type, version: _version, ...body } = tx;
  return body;
}
