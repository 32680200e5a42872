/**
 * @module The sources of /v3/accounts/{id}/activities. A source is a query (db/queries) and a pure
 * renderer; a token standard plugs in by adding one ActivityFeedSource to ACTIVITY_FEED, nothing else.
 * The transactions a page's items show are read for the whole page in one statement (activityItems).
 */
import { parseJson, type Json } from '../../../chain/json.ts';
import { innerTx } from '../../../chain/tx-fields.ts';
import type { Queryable } from '../../../db/connection/pool.ts';
import type { Item } from './resource.ts';
import {
  CLAIM_ACTIVITIES,
  INTERNAL_CALL_ACTIVITIES,
  REMOTE_CALL_ACTIVITIES,
  TRANSACTION_ACTIVITIES,
  TRANSFER_ACTIVITIES,
  type ActivityRow,
  type ActivitySql,
} from '../../../db/queries/activities.ts';
import { AEX141_ACTIVITIES } from '../../../db/queries/aex141-collections.ts';
import { DEX_ACTIVITIES } from '../../../db/queries/dex.ts';
import { transactionsByHashes, type TxRow } from '../../../db/queries/transactions.ts';
import { AEX9_RECEIVED_ACTIVITIES, AEX9_SENT_ACTIVITIES } from '../../../db/queries/aex9-activities.ts';
import { transactionObject } from '../../../shapes/v3/render-tx.ts';

/** An activity as ae_mdw renders it, less the block fields every item has. */
export interface RenderedActivity {
  readonly type: string;
  readonly payload: Json;
}

/** ActivityFeedSource: what a source lists, the `type` filter values that select it, and how its items look. */
export interface ActivityFeedSource {
  readonly sql: ActivitySql;
  /** values of the `type` parameter that include this source (every source is included without one) */
  readonly types: readonly string[];
  /** txHash is the hash of the transaction an item shows, if it shows one */
  txHash?(row: ActivityRow): string;
  /** render is the item, given the page's transactions by hash. Pure. */
  render(row: ActivityRow, txs: ReadonlyMap<string, TxRow>): RenderedActivity;
}

/** `<TxType>Event` with the whole Transaction. */
const transactions: ActivityFeedSource = {
  sql: TRANSACTION_ACTIVITIES,
  types: ['transactions'],
  txHash: (row) => row.data!,
  render(row, txs) {
    const tx = txs.get(row.data!);
    return { type: `${tx?.txType ?? 'Unknown'}Event`, payload: tx ? transactionObject(tx) : null };
  },
};

/**
 * `<TxType>Event` with the whole Transaction, for a call that reached the contract through another
 * contract (ae_mdw's ext calls: the contract emitted an event in another contract's call).
 */
const remoteCalls: ActivityFeedSource = { ...transactions, sql: REMOTE_CALL_ACTIVITIES, types: ['contract'] };

/** `InternalContractCallEvent`: ae_mdw's ContractCall (an internal call with its call's transaction and contract). */
const internalCalls: ActivityFeedSource = {
  sql: INTERNAL_CALL_ACTIVITIES,
  types: ['contract'],
  render: (row) => ({ type: 'InternalContractCallEvent', payload: parseJson(row.data!) }),
};

/** claimData splits a claim's data: the transaction's hash, and a contract's claim's transaction (CLAIM_ACTIVITIES). */
function claimData(data: string): { hash: string; internal?: { [key: string]: Json } } {
  const space = data.indexOf(' ');
  if (space < 0) return { hash: data };
  return { hash: data.slice(0, space), internal: parseJson(data.slice(space + 1)) as { [key: string]: Json } };
}

/**
 * `NameClaimEvent` `{micro_time, source_tx_hash, source_tx_type, tx}`: the claim (inside its wrapper, if any, or the
 * contract's AENS.claim in the call) without type and version; ae_mdw names the type NameClaimTx either way.
 */
const claims: ActivityFeedSource = {
  sql: CLAIM_ACTIVITIES,
  types: ['claims'],
  txHash: (row) => claimData(row.data!).hash,
  render(row, txs) {
    const { hash, internal } = claimData(row.data!);
    const found = txs.get(hash);
    let claim = internal ?? found?.tx;
    while (claim && claim.type !== 'NameClaimTx') claim = innerTx(claim);
    const { type: _type, version: _version, ...tx } = claim ?? {};
    return {
      type: 'NameClaimEvent',
      payload: {
        micro_time: found ? Number(found.microTimeMs) : null,
        source_tx_hash: hash,
        source_tx_type: 'NameClaimTx',
        tx,
      },
    };
  },
};

/** `InternalTransferEvent` `{amount, kind, ref_tx_hash}`. */
const transfers: ActivityFeedSource = {
  sql: TRANSFER_ACTIVITIES,
  types: ['transfers'],
  render(row) {
    const data = parseJson(row.data!) as { amount: Json; kind: Json };
    return {
      type: 'InternalTransferEvent',
      payload: { amount: data.amount, kind: data.kind, ref_tx_hash: row.ref === '' ? null : row.ref },
    };
  },
};

/** `Aex9TransferEvent`: a Transfer event of an AEX-9 token, with the token's meta info (ae_mdw's HEAD fields). */
const aex9Transfer = (sql: ActivitySql): ActivityFeedSource => ({
  sql,
  types: ['aex9', 'aexn'],
  render(row) {
    const { incomplete, ...data } = parseJson(row.data!) as { [key: string]: Json };
    return {
      type: 'Aex9TransferEvent',
      payload: {
        ...data,
        block_height: row.height,
        micro_index: row.microIndex,
        micro_time: Number(row.blockTime),
        // a token whose events may be missing (call infos a pruning node refused) says so
        ...(incomplete === true ? { incomplete } : {}),
      },
    };
  },
});

/** `Aex141TransferEvent`: its HEAD fields (`sender_id`, `recipient_id`, token name and symbol) and 1.97's (`sender`, `recipient`). */
const aex141: ActivityFeedSource = {
  sql: AEX141_ACTIVITIES,
  types: ['aex141', 'aexn'],
  render(row) {
    const data = parseJson(row.data!) as { [key: string]: Json };
    return {
      type: 'Aex141TransferEvent',
      payload: { ...data, sender_id: data.sender!, recipient_id: data.recipient! },
    };
  },
};

/** `DexSwapEvent` `{tx, token_name, amount}`: the swap's transaction, the pair's name and the amount it took in. */
const swaps: ActivityFeedSource = {
  sql: DEX_ACTIVITIES,
  types: ['swaps'],
  txHash: (row) => (parseJson(row.data!) as { tx_hash: string }).tx_hash,
  render(row, txs) {
    const data = parseJson(row.data!) as { tx_hash: string; token_name: Json; amount: Json };
    const tx = txs.get(data.tx_hash);
    return {
      type: 'DexSwapEvent',
      payload: { tx: tx ? transactionObject(tx) : null, token_name: data.token_name, amount: data.amount },
    };
  },
};

/** ACTIVITY_FEED: every source of the feed. */
export const ACTIVITY_FEED: readonly ActivityFeedSource[] = [
  transactions,
  transfers,
  aex9Transfer(AEX9_SENT_ACTIVITIES),
  aex9Transfer(AEX9_RECEIVED_ACTIVITIES),
  aex141,
  swaps,
  claims,
  remoteCalls,
  internalCalls,
];

/**
 * activityItems renders a page of the feed (rows of ACTIVITY_FEED's sources): the transactions its items show are
 * read in one statement for the page.
 */
export async function activityItems(db: Queryable, rows: readonly ActivityRow[]): Promise<Item[]> {
  const sourced = rows.map((row) => ({ row, source: ACTIVITY_FEED.find((s) => s.sql.source === row.source)! }));
  const txs = await transactionsByHashes(
    db,
    sourced.flatMap(({ row, source }) => (source.txHash ? [source.txHash(row)] : [])),
  );
  return sourced.map(({ row, source }) => {
    const { type, payload } = source.render(row, txs);
    return {
      block_hash: row.blockHash,
      block_time: Number(row.blockTime),
      height: row.height,
      type,
      payload,
    };
  });
}

/** ACTIVITY_TYPES: ae_mdw's values of `type`. */
export const ACTIVITY_TYPES: ReadonlySet<string> = new Set([
  'transactions',
  'transfers',
  'aexn',
  'aex9',
  'aex141',
  'contract',
  'claims',
  'swaps',
]);
