/**
 * @module The parties ae_mdw adds to the channel transactions whose node shape lacks them (format.ex
 * put_channel_participants): a close, a solo close, a force progress, a slash, a solo snapshot and a settle get the
 * channel's `initiator_id` and `responder_id`, inside a GAMetaTx or PayingForTx too. Pure.
 */
import { isJsonObject, type Json } from './json.ts';
import { innerTx } from './tx-fields.ts';

type TxObject = { [key: string]: Json };

/** ChannelParties: a channel's initiator and responder, as its ChannelCreateTx names them. */
export interface ChannelParties {
  readonly initiator_id: Json;
  readonly responder_id: Json;
}

/** PARTY_TX_TYPES: the channel transactions ae_mdw shows with the parties. */
export const PARTY_TX_TYPES: ReadonlySet<string> = new Set([
  'ChannelCloseMutualTx',
  'ChannelCloseSoloTx',
  'ChannelForceProgressTx',
  'ChannelSlashTx',
  'ChannelSnapshotSoloTx',
  'ChannelSettleTx',
]);

/** partiesChannel is the channel whose parties the tx (or the tx it wraps) is shown with; undefined for other txs. */
export function partiesChannel(tx: TxObject): string | undefined {
  const own = innerTx(tx) ?? tx;
  return PARTY_TX_TYPES.has(String(own.type)) && typeof own.channel_id === 'string' ? own.channel_id : undefined;
}

/** partiesOf reads the parties from a channel's creating tx (or the ChannelCreateTx it wraps). */
export function partiesOf(createTx: TxObject): ChannelParties | undefined {
  const own = innerTx(createTx) ?? createTx;
  if (own.type !== 'ChannelCreateTx') return undefined;
  return { initiator_id: own.initiator_id ?? null, responder_id: own.responder_id ?? null };
}

/** withParties is the tx with the parties added where ae_mdw adds them: to it, or to the tx it wraps. */
export function withParties(tx: TxObject, parties: ChannelParties): TxObject {
  if (innerTx(tx) === undefined) return { ...tx, ...parties };
  const signed = tx.tx;
  if (!isJsonObject(signed) || !isJsonObject(signed.tx)) return tx;
  return { ...tx, tx: { ...signed, tx: { ...signed.tx, ...parties } } };
}
