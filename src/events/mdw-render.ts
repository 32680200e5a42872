/**
 * @module The mdw-source payloads of ae_mdw's websocket that /v3's shapes do not render alone: a transaction in both
 * socket shapes and a hyperchain's epoch with its leaders. Pure: a chunk's read renders them from its rows
 * (events-source.ts), with /v3's KeyBlock and MicroBlock.
 */
import { stringifyJson } from '../chain/json.ts';
import { nodeSignedTx } from '../chain/signed-tx.ts';
import type { TxRow } from '../db/queries/transactions.ts';
import type { EpochRow, ScheduleRow } from '../db/queries/hyperchain.ts';
import { encodedTx, transactionJson } from '../shapes/v3/render-tx.ts';
import { epochObject, scheduleObject } from '../shapes/v3/render-hyperchain.ts';

/** A stored transaction as ae_mdw's sockets send it: the v3 Transaction and the v2 shape. */
export interface MdwTxPayloads {
  readonly v3: string;
  readonly v2: string;
}

/** v2TransactionJson is ae_mdw's v2 socket shape: the node's signed tx (`encoded_tx` included) plus its tx index, micro index and time. */
function v2TransactionJson(
  signed: Record<string, unknown>,
  place: { txIndex: number; microIndex: number; microTime: number },
): string {
  return stringifyJson({
    ...signed,
    tx_index: place.txIndex,
    micro_index: place.microIndex,
    micro_time: place.microTime,
  });
}

/** mdwTxPayloads renders a stored transaction in both socket shapes; `before` counts the transactions of earlier micro blocks. */
export function mdwTxPayloads(t: TxRow, before: number): MdwTxPayloads {
  return {
    v3: transactionJson(t),
    v2: v2TransactionJson(nodeSignedTx(t, encodedTx(t)), {
      txIndex: before + t.txIndex,
      microIndex: t.microIndex,
      microTime: Number(t.microTimeMs),
    }),
  };
}

/** epochJson is the Epochs channel's payload: /v3's epoch with its leader schedule. */
export function epochJson(e: EpochRow, leaders: readonly ScheduleRow[]): string {
  return stringifyJson({ ...epochObject(e), schedule: leaders.map(scheduleObject) });
}
