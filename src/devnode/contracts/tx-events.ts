/**
 * @module A dry-run's `tx_events` as the node serialises them (aehttp_helpers serialize_event): each AE transfer
 * inside a call is an `internal_call_tx` event carrying the SpendTx it amounts to, filed under the transaction the
 * dry-run ran (a `call_req` runs as a ContractCallTx too). Pure.
 */
import { encode } from '../../chain/encoding.ts';
import type { Json } from '../../chain/json.ts';
import { encodeSignedTx, jsonInt, txHash } from '../tx-codec.ts';
import type { AeTransfer } from './frame.ts';

/**
 * EventSource is what the node files a dry-run item's events under: its transaction's type atom (`contract_call_tx`,
 * `contract_create_tx`…) and hash.
 */
export interface EventSource {
  readonly type: string;
  readonly hash: string;
}

/** DUMMY_SIGNATURE is the one the node's dry-run signs each transaction with (aec_dry_run: 64 zero bytes). */
const DUMMY_SIGNATURE = new Uint8Array(64);

/** dryRunTxHash is the hash of a transaction as the node's dry-run runs it: signed with the dummy signature. */
export function dryRunTxHash(txBytes: Uint8Array): string {
  return txHash(encodeSignedTx([DUMMY_SIGNATURE], txBytes));
}

/** transferEvent is one transfer's event: a SpendTx with fee, ttl and nonce 0 and the event's name as payload. */
export function transferEvent(transfer: AeTransfer, source: EventSource): Json {
  return {
    kind: 'internal_call_tx',
    key: transfer.type,
    type: source.type,
    tx_hash: source.hash,
    info: {
      sender_id: transfer.from,
      recipient_id: transfer.to,
      amount: jsonInt(transfer.amount),
      fee: 0,
      ttl: 0,
      nonce: 0,
      payload: encode('ba', Buffer.from(transfer.type, 'utf8')),
    },
  };
}
