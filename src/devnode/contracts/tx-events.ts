/**
 * @module A dry-run's `tx_events` as the node serialises them (aehttp_helpers serialize_event): each AE transfer
 * inside a call is an `internal_call_tx` event carrying the SpendTx it amounts to, each name operation the
 * NameClaimTx, NameUpdateTx… (aefa_chain_api tx_event_data), filed under the transaction the dry-run ran (a `call_req`
 * runs as a ContractCallTx too). Pure.
 */
import { encode } from '../../chain/encoding.ts';
import type { Json } from '../../chain/json.ts';
import { encodeSignedTx, jsonInt, txHash } from '../tx-codec.ts';
import type { AeTransfer, ToldEvent } from './frame.ts';

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

/** transferTx is the SpendTx a transfer's event carries: fee, ttl and nonce 0 and the event's name as payload. */
function transferTx(transfer: AeTransfer): Json {
  return {
    sender_id: transfer.from,
    recipient_id: transfer.to,
    amount: jsonInt(transfer.amount),
    fee: 0,
    ttl: 0,
    nonce: 0,
    payload: encode('ba', Buffer.from(transfer.type, 'utf8')),
  };
}

/** internalCallEvent is one internal call's event, filed under the dry-run's item. */
export function internalCallEvent(event: ToldEvent, source: EventSource): Json {
  return {
    kind: 'internal_call_tx',
    key: event.type,
    type: source.type,
    tx_hash: source.hash,
    info: 'info' in event ? event.info : transferTx(event),
  };
}
