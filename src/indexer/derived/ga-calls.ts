/**
 * @module The `ga` area (migration 1008): the outcome of each generalized account's own call, which ae_mdw adds to
 * its transactions (format.ex: a GAAttachTx's `gas_used`/`return_type` from its init call, a GAMetaTx's from its
 * authentication call). The node keeps them in the transaction's info only (`call_info`, `ga_info`), which a sync does
 * not otherwise ask for a GA transaction that wraps no contract call; this area asks it once per such transaction.
 */
import { isJsonObject, toBigInt } from '../../chain/json.ts';
import { renderStoredTx } from '../../chain/stored-tx.ts';
import { innerTx } from '../../chain/tx-fields.ts';
import type { Queryable } from '../../db/connection/pool.ts';
import { gaTransactions, replaceGaCalls, type GaCallRow } from '../../db/writes/ga-calls.ts';
import type { HeightRange } from '../../db/queries/height-range.ts';
import type { NodeClient } from '../../node/client.ts';
import { unlessGone } from '../../node/errors.ts';
import { attachDetails } from '../contracts/ga-attach.ts';
import { mapLimit } from '../../base/workers.ts';
import type { GenerationRows, JsonObject } from '../rows/rows.ts';
import { batchRange } from './batch-range.ts';

/** What the area asks the node: a transaction's info. */
export type GaInfoReader = Pick<NodeClient, 'transactionInfo'>;

/** The transactions whose GA call the area stores (db/writes/ga-calls.ts reads the same types). */
export const GA_TX_TYPES: ReadonlySet<string> = new Set(['GAAttachTx', 'GAMetaTx']);

/**
 * hasGaCall: whether a transaction is a GA's own or a PayingForTx paying for one, whose info tells the GA's call as its
 * own (the node's info of a PayingForTx is its inner transaction's), which its payer's balance and the generation's
 * fees need. Pure.
 */
export const hasGaCall = (tx: JsonObject): boolean =>
  GA_TX_TYPES.has(String(tx.type)) || (tx.type === 'PayingForTx' && GA_TX_TYPES.has(String(innerTx(tx)?.type)));

/** Infos asked at once: the node set bounds the requests in flight; this bounds the promises waiting for it. */
const IN_FLIGHT = 64;

/** gaCallOutcome is the GA call's gas and return type in a transaction's info; undefined when it has none. */
export function gaCallOutcome(info: JsonObject): { gasUsed: bigint; returnType: string } | undefined {
  const call = isJsonObject(info.ga_info) ? info.ga_info : isJsonObject(info.call_info) ? info.call_info : undefined;
  if (!call || call.gas_used === undefined || typeof call.return_type !== 'string') return undefined;
  return { gasUsed: toBigInt(call.gas_used), returnType: call.return_type };
}

/** A GA transaction the area stores a call of: its position and the node's tx object. */
type GaTx = Omit<GaCallRow, 'gasUsed' | 'returnType' | 'authFunName' | 'args'> & {
  readonly hash: string;
  readonly tx: JsonObject;
};

/**
 * deriveGaCalls stores the GA calls of a range of stored heights, asking the node for each transaction's info and
 * reading a GAAttachTx's function name and arguments from its code. An info the node no longer holds (410 from every
 * node, garbage-collected) leaves gas and return type null, as a pruned call info does.
 */
export async function deriveGaCalls(db: Queryable, node: GaInfoReader, range: HeightRange): Promise<void> {
  const txs = (await gaTransactions(db, range)).map(({ signed, ...at }) => ({ ...at, tx: renderStoredTx(signed).tx }));
  await replaceGaCalls(db, range, await gaCallRows(node, txs));
}

/** gaCallRows asks each transaction's info and makes the rows of those with a GA call. */
async function gaCallRows(node: GaInfoReader, txs: readonly GaTx[]): Promise<GaCallRow[]> {
  const outcomes = await mapLimit(txs, IN_FLIGHT, async (t) => {
    const read = await unlessGone(node.transactionInfo(t.hash, t.height));
    return read && gaCallOutcome(read.info);
  });
  return txs.flatMap(({ hash: _hash, tx, ...at }, i) => {
    const outcome = outcomes[i];
    const attach = tx.type === 'GAAttachTx' ? attachDetails(tx) : undefined;
    if (!outcome && !attach) return [];
    return [
      {
        ...at,
        gasUsed: outcome?.gasUsed ?? null,
        returnType: outcome?.returnType ?? null,
        authFunName: attach?.authFunName ?? null,
        args: attach?.args ?? null,
      },
    ];
  });
}

/**
 * deriveBatchGaCalls is deriveGaCalls for a batch just written, from the transactions its rows hold: it reads no
 * stored transaction back and renders none from its stored bytes (issue 40), and one without a GA transaction (most
 * of them) writes nothing.
 */
export async function deriveBatchGaCalls(
  db: Queryable,
  node: GaInfoReader,
  gens: readonly GenerationRows[],
): Promise<void> {
  const txs = gens.flatMap((g) =>
    g.transactions.flatMap((t) =>
      hasGaCall(t.tx)
        ? [{ height: t.height, microIndex: t.microIndex, txIndex: t.txIndex, hash: t.txHash, tx: t.tx }]
        : [],
    ),
  );
  if (txs.length > 0) await replaceGaCalls(db, batchRange(gens), await gaCallRows(node, txs));
}
