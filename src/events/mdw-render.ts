/** @module The mdw-source payloads of ae_mdw's websocket, read from the database in /v3's shapes, a batch at a time. */
import { stringifyJson } from '../chain/json.ts';
import { signedTx } from '../chain/signed-tx.ts';
import type { Queryable } from '../db/pool.ts';
import { keyBlocksCountedAt, microBlocksCounted } from '../db/queries/blocks.ts';
import { transactionsByHashes, type TxRow } from '../db/queries/transactions.ts';
import { txisBeforeBlocks } from '../db/queries/txis.ts';
import { keyBlockJson, microBlockJson } from '../shapes/v3/render-blocks.ts';
import { transactionJson } from '../shapes/v3/render-tx.ts';
import { epochsFixedAt, schedulePage } from '../db/queries/hyperchain.ts';
import { epochObject, scheduleObject } from '../shapes/v3/render-hyperchain.ts';
import type { ChainEvent } from './events-source.ts';

/** A stored transaction as ae_mdw's sockets send it: the v3 Transaction and the v2 shape. */
export interface MdwTxPayloads {
  readonly v3: string;
  readonly v2: string;
}

/**
 * MdwRenderer reads the mdw-source payloads of a batch of events from the database, one query per kind, each keyed by
 * hash; a block or transaction a fork removed (or moved to another block) since the event was read is left out.
 */
export interface MdwRenderer {
  keyBlocks(heights: readonly number[]): Promise<Map<string, string>>;
  microBlocks(hashes: readonly string[]): Promise<Map<string, string>>;
  /** the transactions as stored in the given micro blocks */
  transactions(refs: readonly { hash: string; microBlock: string }[]): Promise<Map<string, MdwTxPayloads>>;
  /** a hyperchain's epochs fixed by the key blocks at these heights (first - 1), with their schedules, by that height */
  epochs(heights: readonly number[]): Promise<Map<number, string>>;
}

/** v2TransactionJson is ae_mdw's v2 socket shape: the node's signed tx plus its tx index, micro index and time. */
export function v2TransactionJson(
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

/** txPayloads renders a stored transaction in both socket shapes; `before` counts the transactions of earlier micro blocks. */
function txPayloads(t: TxRow, before: number): MdwTxPayloads {
  return {
    v3: transactionJson(t),
    v2: v2TransactionJson(signedTx(t), {
      txIndex: before + t.txIndex,
      microIndex: t.microIndex,
      microTime: Number(t.microTimeMs),
    }),
  };
}

/** mdwRenderer reads KeyBlocks, MicroBlocks and Transactions payloads as /v3 answers them (v2 adds the tx index). */
export function mdwRenderer(db: Queryable): MdwRenderer {
  return {
    async keyBlocks(heights) {
      const rows = await keyBlocksCountedAt(db, heights);
      return new Map(rows.map((k) => [String(k.data.hash), keyBlockJson(k)]));
    },
    async microBlocks(hashes) {
      const rows = await microBlocksCounted(db, hashes);
      return new Map(rows.map((m) => [String(m.header.hash), microBlockJson(m)]));
    },
    async transactions(refs) {
      const rows = await transactionsByHashes(
        db,
        refs.map((r) => r.hash),
      );
      const stored = refs.flatMap(({ hash, microBlock }) => {
        const t = rows.get(hash);
        return t && t.microBlockHash === microBlock ? [t] : [];
      });
      const before = await txisBeforeBlocks(db, stored);
      return new Map(stored.map((t) => [t.hash, txPayloads(t, before.get(`${t.height}:${t.microIndex}`) ?? 0)]));
    },
    async epochs(heights) {
      const epochs = await epochsFixedAt(db, heights);
      const payloads = new Map<number, string>();
      for (const e of epochs) {
        const leaders = await schedulePage(db, e, 'forward', undefined, e.length);
        payloads.set(e.first - 1, stringifyJson({ ...epochObject(e), schedule: leaders.map(scheduleObject) }));
      }
      return payloads;
    },
  };
}

/**
 * renderEpochs reads the Epochs payloads of a batch's key blocks (one read): the epoch each fixed, if any, with its
 * leader schedule; a key block that fixed none has none.
 */
export async function renderEpochs(
  render: MdwRenderer,
  events: readonly ChainEvent[],
): Promise<(event: ChainEvent) => string | undefined> {
  const heights = events.flatMap((e) => (e.type === 'key_block' ? [e.height] : []));
  const epochs = heights.length > 0 ? await render.epochs(heights) : new Map<number, string>();
  return (event) => (event.type === 'key_block' ? epochs.get(event.height) : undefined);
}

/** An event's mdw-source payload: a block's text, a transaction's two shapes; undefined when a fork removed it. */
export type MdwPayload = string | MdwTxPayloads | undefined;

/**
 * renderEvents reads the mdw-source payloads of a batch of events (a feed's chunk, a replay's batch) with one read per
 * kind of event present, and returns each event's: what a batch costs the database does not grow with its events.
 */
export async function renderEvents(
  render: MdwRenderer,
  events: readonly ChainEvent[],
): Promise<(event: ChainEvent) => MdwPayload> {
  const keyHeights = events.flatMap((e) => (e.type === 'key_block' ? [e.height] : []));
  const microHashes = events.flatMap((e) => (e.type === 'micro_block' ? [e.block] : []));
  const txRefs = events.flatMap((e) => (e.type === 'transaction' ? [{ hash: e.hash, microBlock: e.block }] : []));
  const keyBlocks = keyHeights.length > 0 ? await render.keyBlocks(keyHeights) : new Map<string, string>();
  const microBlocks = microHashes.length > 0 ? await render.microBlocks(microHashes) : new Map<string, string>();
  const txs = txRefs.length > 0 ? await render.transactions(txRefs) : new Map<string, MdwTxPayloads>();
  return (event) =>
    event.type === 'transaction'
      ? txs.get(event.hash)
      : (event.type === 'key_block' ? keyBlocks : microBlocks).get(event.block);
}
