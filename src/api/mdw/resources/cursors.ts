/** @module Cursor texts of the /v3 lists: positions in the list (never offsets), rejected as `invalid cursor` when malformed. Pure. */
import type { LogKey } from '../../../db/queries/contracts.ts';
import type { TxPosition } from '../../../db/queries/positions.ts';
import type { EpochAccountKey } from '../../../db/queries/hyperchain.ts';
import type { DeliveryCursor } from '../../../db/queries/webhooks.ts';
import { isEncoded } from '../../../chain/encoding.ts';
import { v3BadRequest } from './mdw-errors.ts';
import { parseNonNegative } from './mdw-params.ts';

/** A cursor codec: the list's key to text and back. */
export interface CursorCodec<K> {
  encode(key: K): string;
  decode(text: string | undefined): K | undefined;
}

/**
 * cursorCodec makes a codec strict. A cursor is a text this API wrote, so a text that does not read back to itself
 * is refused as `invalid cursor`, like a malformed one: a suffix a lenient reader skips (base64url's trailing bits),
 * leading zeros, another spelling of the same key. Without it such a text answered 200 with a page of its own.
 */
export function cursorCodec<K>(codec: CursorCodec<K>): CursorCodec<K> {
  return {
    encode: codec.encode,
    decode(text) {
      const key = codec.decode(text);
      if (key !== undefined && codec.encode(key) !== text) throw v3BadRequest(`invalid cursor: ${text}`);
      return key;
    },
  };
}

/** INDEX_CURSOR: a height or an index within a block. */
export const INDEX_CURSOR: CursorCodec<number> = cursorCodec({
  encode: (n) => String(n),
  decode(text) {
    if (text === undefined) return undefined;
    const n = parseNonNegative(text);
    if (n === undefined) throw v3BadRequest(`invalid cursor: ${text}`);
    return n;
  },
});

/** POSITION_CURSOR: a transaction's `<height>-<micro index>-<tx index>`. */
export const POSITION_CURSOR: CursorCodec<TxPosition> = cursorCodec({
  encode: (p) => `${p.height}-${p.microIndex}-${p.txIndex}`,
  decode(text) {
    if (text === undefined) return undefined;
    const parts = text.split('-').map(parseNonNegative);
    if (parts.length !== 3 || parts.some((n) => n === undefined)) throw v3BadRequest(`invalid cursor: ${text}`);
    return { height: parts[0]!, microIndex: parts[1]!, txIndex: parts[2]! };
  },
});

/**
 * positionMatched is the position a cursor's text holds in its pattern's first three groups (height, micro index,
 * tx index), for a cursor whose key goes on after its position.
 */
export function positionMatched(match: RegExpExecArray): TxPosition {
  return { height: Number(match[1]), microIndex: Number(match[2]), txIndex: Number(match[3]) };
}

/** LOG_CURSOR: an event's `<height>-<micro index>-<tx index>-<log index>`. */
export const LOG_CURSOR: CursorCodec<LogKey> = cursorCodec({
  encode: (k) => `${k.height}-${k.microIndex}-${k.txIndex}-${k.logIdx}`,
  decode(text) {
    if (text === undefined) return undefined;
    const parts = text.split('-').map(parseNonNegative);
    if (parts.length !== 4 || parts.some((p) => p === undefined)) throw v3BadRequest(`invalid cursor: ${text}`);
    return { height: parts[0]!, microIndex: parts[1]!, txIndex: parts[2]!, logIdx: parts[3]! };
  },
});

/** EPOCH_ACCOUNT_CURSOR: `<epoch>-<ak_…>`. */
export const EPOCH_ACCOUNT_CURSOR: CursorCodec<EpochAccountKey> = cursorCodec({
  encode: (k) => `${k.epoch}-${k.account}`,
  decode(text) {
    if (text === undefined) return undefined;
    const [epochText, account, ...rest] = text.split('-');
    const epoch = parseNonNegative(epochText);
    if (epoch === undefined || account === undefined || rest.length > 0 || !isEncoded(account, ['ak']))
      throw v3BadRequest(`invalid cursor: ${text}`);
    return { epoch, account };
  },
});

/** DELIVERY_CURSOR: a webhook delivery's `<height>-<rank>-<micro index>-<tx index>-<seq>` in its hook's order. */
export const DELIVERY_CURSOR: CursorCodec<DeliveryCursor> = cursorCodec({
  encode: (c) => [c.height, c.rank, c.microIndex, c.txIndex, c.seq].join('-'),
  decode(text) {
    if (text === undefined) return undefined;
    const parts = text.split('-');
    const [height, rank, microIndex, txIndex] = parts.slice(0, 4).map(parseNonNegative);
    const seq = parts[4];
    if (parts.length !== 5 || [height, rank, microIndex, txIndex].includes(undefined) || !/^\d{1,18}$/.test(seq!))
      throw v3BadRequest(`invalid cursor: ${text}`);
    return { height: height!, rank: rank!, microIndex: microIndex!, txIndex: txIndex!, seq: seq! };
  },
});
