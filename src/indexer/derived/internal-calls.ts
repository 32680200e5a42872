/**
 * @module The `int_calls` area (migration 1097): the internal calls of every contract call, ae_mdw's
 * /v3/contracts/calls. ae_mdw reads them inside the node (the events of a micro block's transactions applied again);
 * over HTTP the node's dry-run with `tx_events` tells them: the block's transactions, unsigned, in order, on top of the
 * block before it. The node answers the events of a request's last item only, so each contract call is one request,
 * the block's transactions up to it. What no request can tell is a gap, stored and served as one, never silently
 * missing: a call inside a GAMetaTx or PayingForTx, and every call after such a transaction in its block (the node
 * dry-runs neither); a block whose state every node had garbage-collected (the dry-run's 400 saying so); a call
 * whose request would pass the dry-run's gas cap; a call that creates a contract (the node's dry-run crashes on its
 * events: 500); a call whose replay every node gives up at its time limit, round after round. A call known to make
 * none is not asked (quietCalls): one that failed, one of code without an operation that makes one.
 */
import { encode } from '../../chain/encoding.ts';
import { jsonEqual, type Json } from '../../chain/json.ts';
import { decodeSignedTx } from '../../chain/tx-parse.ts';
import { isBinary } from '../../chain/stored-tx.ts';
import { mayMakeInternalCalls } from '../../chain/internal-call-ops.ts';
import type { Queryable } from '../../db/connection/pool.ts';
import type { HeightRange } from '../../db/queries/height-range.ts';
import {
  CONTRACT_TX_TYPES,
  replaceInternalCalls,
  replayableTransactions,
  type CallPosition,
  type InternalCallGap,
  type StoredInternalCall,
  type ReplayableTx,
} from '../../db/writes/internal-calls.ts';
import type { NodeClient } from '../../node/client.ts';
import { CRASHED, OVER_TIME_LIMIT, PRUNED, REFUSED, type Lasting } from '../../node/dry-run.ts';
import type { Replayed, TxEvent } from '../../node/dry-run-events.ts';
import { mapLimit } from '../../base/workers.ts';
import type { ContractCallRow, GenerationRows } from '../rows/rows.ts';
import { batchRange } from './batch-range.ts';
import {
  callPlaces,
  deleteContractNameEvents,
  deleteContractNamePointers,
  deleteNameEventsFrom,
  insertContractNameEvents,
  insertContractNamePointers,
  laterContractNameCalls,
  nameTxEventsFrom,
  rangeCallsOf,
  type ContractNameEventRow,
} from '../../db/writes/contract-name-events.ts';
import { priorNameStates } from '../../db/queries/state-events.ts';
import { topHeight } from '../../db/queries/blocks.ts';
import { recordBackfill } from '../../db/writes/derive-backfill.ts';
import { renderStoredTx } from '../../chain/stored-tx.ts';
import {
  AENS_FUNCTIONS,
  callKey,
  contractNameActions,
  contractPointerRows,
  foldNameEvents,
  storedNameTxAction,
  type FoldedNameEvent,
} from './contract-names.ts';

/** What the area asks the node: micro blocks' transactions run again. */
export type ReplayReader = Pick<NodeClient, 'replay'>;

/** CodeReader gives a deployed contract's code (ContractDecoder.code), undefined where no one knows it. */
export type CodeReader = (contractId: string) => Promise<string | undefined>;

/**
 * DRY_RUN_GAS_CAP: the gas one request may carry, the node's default cap on its external dry-run
 * (`http.external.gas_limit`, 6 000 000): a request over it is refused (403), so the area does not ask it.
 */
export const DRY_RUN_GAS_CAP = 6_000_000n;

/**
 * Requests asked at once: the node set bounds those in flight (its adaptive limit, up to the node's slots); this bounds
 * the promises waiting for it. 16 left half of a 32-slot node idle while a catch-up's backfill replayed its calls
 * (the follower waits for each step): 64 loaded 1.21 times as fast (docs/benchmarks.md, "Internal calls").
 */
const IN_FLIGHT = 64;

const WRAPPERS: ReadonlySet<string> = new Set(['GAMetaTx', 'PayingForTx']);
const CONTRACT: ReadonlySet<string> = new Set(CONTRACT_TX_TYPES);

/** GAP: why a call's internal calls are not known, as stored and served. */
export const GAP = {
  wrapped: 'wrapped: the node dry-runs no GAMetaTx or PayingForTx',
  afterWrapped: 'after a GAMetaTx or PayingForTx in its micro block, which the node cannot run again',
  unencoded: 'a transaction before it in its micro block is stored as JSON, not as the bytes a dry-run takes',
  gas: `its micro block's transactions up to it pass the dry-run's gas cap`,
  pruned:
    'every node had garbage-collected the state before its micro block (its dry-run: 400 Block state of given hash was garbage collected)',
  crashed:
    'the node failed to run it again (500): a call that creates a contract (Chain.create, Chain.clone), whose events its dry-run cannot serialise',
  timeLimit:
    "every node gave its replay up at the dry-run's time limit (400 dry-run exceeded time limit: http.dry_run.timeout_ms)",
} as const;

/**
 * nodeGasLimit is what the node counts of a transaction against the gas cap (aetx:gas_limit): its base and size gas,
 * and a contract transaction's gas; the base taken as its largest, a call's 12 × 15 000, so the count never falls
 * short. Pure.
 */
function nodeGasLimit(tx: Pick<ReplayableTx, 'txType' | 'gas' | 'size'>): bigint {
  const sizeGas = 20n * BigInt(tx.size);
  return CONTRACT.has(tx.txType) ? 180_000n + sizeGas + BigInt(tx.gas ?? 0) : 15_000n + sizeGas;
}

/** Replay is one request: the transactions of the call's micro block up to it, on top of the block before it. */
export interface Replay {
  readonly call: CallPosition;
  readonly top: string;
  readonly txs: readonly string[];
}

/**
 * planReplays makes the requests and the gaps of transactions in chain order (whole micro blocks); a `quiet` call
 * (quietCalls) has neither, its transaction still runs before the calls after it. Pure.
 */
export function planReplays(
  txs: readonly ReplayableTx[],
  quiet: ReadonlySet<ReplayableTx> = new Set(),
  gasCap = DRY_RUN_GAS_CAP,
): { replays: Replay[]; gaps: InternalCallGap[] } {
  const replays: Replay[] = [];
  const gaps: InternalCallGap[] = [];
  // the block's place (no key text per transaction: the fetch plans every block with a contract call in it, twice)
  let height = -1;
  let microIndex = -1;
  // the block's transactions so far, and the first of them encoded: only a replay needs them encoded, and most blocks
  // hold no call to replay
  let prefix: ReplayableTx[] = [];
  let encoded: string[] = [];
  let gas = 0n;
  let broken: string | undefined;
  const gap = (tx: ReplayableTx, reason: string): void =>
    void gaps.push({ height: tx.height, microIndex: tx.microIndex, txIndex: tx.txIndex, reason });
  for (const tx of txs) {
    if (tx.height !== height || tx.microIndex !== microIndex) {
      [height, microIndex, prefix, encoded, gas, broken] = [tx.height, tx.microIndex, [], [], 0n, undefined];
    }
    const isCall = CONTRACT.has(tx.txType) || (WRAPPERS.has(tx.txType) && CONTRACT.has(tx.innerType ?? ''));
    if (WRAPPERS.has(tx.txType)) {
      if (isCall) gap(tx, broken ?? GAP.wrapped);
      broken ??= GAP.afterWrapped;
      continue;
    }
    if (broken === undefined && !isBinary(tx.signed)) broken = GAP.unencoded;
    if (broken !== undefined) {
      if (isCall) gap(tx, broken);
      continue;
    }
    prefix.push(tx);
    gas += nodeGasLimit(tx);
    if (!isCall || quiet.has(tx)) continue;
    if (gas > gasCap) {
      gap(tx, GAP.gas);
      continue;
    }
    for (let i = encoded.length; i < prefix.length; i++) encoded.push(encodedTx(prefix[i]!.signed));
    const call = { height: tx.height, microIndex: tx.microIndex, txIndex: tx.txIndex };
    replays.push({ call, top: tx.prevHash, txs: encoded.slice() });
  }
  return { replays, gaps };
}

/**
 * The `tx_` text of each signed transaction's bytes planned so far: the fetch plans a micro block's replays twice
 * (fetch-replays.ts), each encoding the transactions up to its calls, their checksums two SHA-256 each.
 */
const encodedTxs = new WeakMap<Uint8Array, string>();

/** encodedTx is the `tx_` text of a signed transaction's own transaction (remembered while its bytes live). */
function encodedTx(signed: Uint8Array): string {
  let text = encodedTxs.get(signed);
  if (text === undefined) encodedTxs.set(signed, (text = encode('tx', decodeSignedTx(signed).txBytes)));
  return text;
}

/** The transaction type (and version) each operation amounts to, as ae_mdw's `internal_tx` names it. */
const TX_OF: Readonly<Record<string, { readonly type: string; readonly version: number }>> = {
  'Chain.spend': { type: 'SpendTx', version: 1 },
  'Call.amount': { type: 'SpendTx', version: 1 },
  'AENS.preclaim': { type: 'NamePreclaimTx', version: 1 },
  'AENS.claim': { type: 'NameClaimTx', version: 2 },
  'AENS.update': { type: 'NameUpdateTx', version: 1 },
  'AENS.transfer': { type: 'NameTransferTx', version: 1 },
  'AENS.revoke': { type: 'NameRevokeTx', version: 1 },
  'Oracle.register': { type: 'OracleRegisterTx', version: 1 },
  'Oracle.extend': { type: 'OracleExtendTx', version: 1 },
  'Oracle.query': { type: 'OracleQueryTx', version: 1 },
  'Oracle.respond': { type: 'OracleRespondTx', version: 1 },
};

/** internalCallRows are a call's events as rows, each with its place among them (`local_idx`). Pure. */
export function internalCallRows(call: CallPosition, events: readonly TxEvent[]): StoredInternalCall[] {
  return events.map((e, localIdx) => {
    const named = TX_OF[e.key];
    const internalTx: { [key: string]: Json } = named ? { ...e.info, ...named } : { ...e.info };
    return { ...call, localIdx, function: e.key, internalTx };
  });
}

/** InternalCalls are a range's internal calls and its calls' gaps. */
export interface InternalCalls {
  readonly calls: readonly StoredInternalCall[];
  readonly gaps: readonly InternalCallGap[];
}

/** Contracts whose code is read at once: a read is a cache hit, a stored row, or a node request at the most. */
const CODE_READS = 8;

/**
 * quietCalls are the contract transactions among `txs` known to make no internal call, which no request need tell: one
 * that failed (it moved nothing: its events are not kept) and one whose contract's code holds no operation that makes
 * one (chain/internal-call-ops.ts; on mainnet most calls are a token's). Without `codeOf`, or where no one knows the
 * code, a call that did not fail is asked.
 */
export async function quietCalls(txs: readonly ReplayableTx[], codeOf?: CodeReader): Promise<Set<ReplayableTx>> {
  const calls = txs.filter((t) => CONTRACT.has(t.txType));
  const failed = (t: ReplayableTx): boolean => t.returnType !== null && t.returnType !== 'ok';
  const ids = codeOf ? [...new Set(calls.flatMap((t) => (failed(t) || !t.contractId ? [] : [t.contractId])))] : [];
  const codes = await mapLimit(ids, CODE_READS, (id) => codeOf!(id));
  const silent = new Set(ids.filter((_, i) => codes[i] !== undefined && !mayMakeInternalCalls(codes[i]!)));
  return new Set(calls.filter((t) => failed(t) || (t.contractId !== null && silent.has(t.contractId))));
}

/**
 * readInternalCalls asks the node for the internal calls of the contract calls among `txs` (whole micro blocks, in
 * chain order) but the quiet ones (quietCalls, their code read through `codeOf`). A block every node garbage-collected
 * is a gap, and so is a call every node failed to run again, 500 in several rounds in a row (dry-run.ts CRASHED: one
 * that creates a contract), or gave up at its time limit in several rounds in a row (OVER_TIME_LIMIT: a replay too
 * heavy for the nodes); a request every node refuses (no dry-run endpoint, a lower gas cap than ours) fails the
 * whole, which the area reports and retries.
 */
export async function readInternalCalls(
  node: ReplayReader,
  txs: readonly ReplayableTx[],
  {
    codeOf,
    gasCap = DRY_RUN_GAS_CAP,
    answered,
  }: {
    readonly codeOf?: CodeReader;
    readonly gasCap?: bigint;
    /** a replay's outcome already at hand (the fetch asked it for the call infos: fetch-replays.ts), else undefined */
    readonly answered?: (replay: Replay) => Replayed | typeof PRUNED | Lasting | undefined;
  } = {},
): Promise<InternalCalls> {
  const { replays, gaps } = planReplays(txs, await quietCalls(txs, codeOf), gasCap);
  const outcomes = await mapLimit(replays, IN_FLIGHT, async (r) => answered?.(r) ?? node.replay(r.top, r.txs));
  const calls: StoredInternalCall[] = [];
  const untold: InternalCallGap[] = [];
  outcomes.forEach((outcome, i) => {
    const { call, top } = replays[i]!;
    if (outcome === PRUNED) untold.push({ ...call, reason: GAP.pruned });
    else if (outcome === CRASHED) untold.push({ ...call, reason: GAP.crashed });
    else if (outcome === OVER_TIME_LIMIT) untold.push({ ...call, reason: GAP.timeLimit });
    else if (outcome === REFUSED)
      throw new Error(`every node refused the dry-run on top of ${top} (its dry-run endpoint off, or a lower gas cap)`);
    // a call that fails moves nothing: its events (none) are not kept
    else if (outcome.ran) calls.push(...internalCallRows(call, outcome.events));
  });
  return { calls, gaps: [...gaps, ...untold] };
}

/**
 * writeContractNames writes the name events of a range's AENS calls (contract-names.ts) and the pointers their updates
 * set, and folds the names they act on again from the range's start to the stored top: the name transactions' events
 * after a contract's (the writer folded them without it: a NameClaimTx bidding in an auction a contract opened was a
 * claim of its own) and the contracts' events above the range (a range derived again). A range derived again (`again`)
 * first loses the events and pointers it had. Reads nothing when no call acted on a name. Its answer: the lowest height
 * from which the areas that read those events (NAME_READERS) must derive again: a name transaction's event it changed,
 * a contract's claim, update or revoke (its claim's fee, the statistics' names and auctions), the range's start where
 * a range derived again had contracts' events.
 */
async function writeContractNames(
  db: Queryable,
  range: HeightRange,
  calls: readonly StoredInternalCall[],
  again: boolean,
): Promise<number | undefined> {
  const had = again ? await deleteContractNameEvents(db, range) : [];
  if (had.length > 0) await deleteContractNamePointers(db, range);
  const aens = calls.filter((c) => AENS_FUNCTIONS.includes(c.function));
  if (aens.length === 0 && had.length === 0) return undefined;
  const places = new Map((await callPlaces(db, aens)).map((p) => [callKey(p), p]));
  const actions = contractNameActions(aens, places);
  const hashes = [...new Set([...had, ...actions.map((a) => a.nameHash)])];
  const start = { height: range.from, microIndex: range.fromMicro };
  const prior = await priorNameStates(db, hashes, start);
  const txEvents = await nameTxEventsFrom(db, hashes, start);
  const later = await laterContractNameCalls(db, hashes, range.to);
  const laterPlaces = new Map((await callPlaces(db, later)).map((p) => [callKey(p), p]));
  const folded = foldNameEvents(prior, [
    ...txEvents.map((e) => storedNameTxAction({ ...e, tx: renderStoredTx(e.signed).tx })),
    ...actions,
    ...contractNameActions(later, laterPlaces).filter((a) => hashes.includes(a.nameHash)),
  ]);
  await deleteNameEventsFrom(db, hashes, start);
  await insertContractNameEvents(db, folded);
  await insertContractNamePointers(db, contractPointerRows(actions));
  // the transfers and the statistics read the contracts' events too: their claims' fees (and an auction's refunds and
  // locks: auction-transfers.ts), their names, auctions, revokes and expiries (a transfer changes none of them)
  const heights = [
    changedFrom(txEvents, folded),
    ...actions.filter((a) => a.kind !== 'transfer').map((a) => a.height),
    ...(had.length > 0 ? [range.from] : []),
  ];
  const read = heights.filter((h) => h !== undefined);
  return read.length === 0 ? undefined : Math.min(...read);
}

/** changedFrom is the lowest height of a name transaction's event that `folded` changed, if any. Pure. */
function changedFrom(stored: readonly ContractNameEventRow[], folded: readonly FoldedNameEvent[]): number | undefined {
  const key = (e: ContractNameEventRow | FoldedNameEvent): string =>
    `${e.nameHash} ${e.height} ${e.microIndex} ${e.txIndex}`;
  const state = (e: ContractNameEventRow | FoldedNameEvent): Json =>
    [e.name, e.kind, e.owner, e.expiresAt, e.auctionEnd, e.nameFee, e.pointers] as Json;
  const now = new Map(folded.filter((e) => e.localIdx === null).map((e) => [key(e), state(e)]));
  const changed = stored.filter((e) => !jsonEqual(now.get(key(e)) ?? null, state(e))).map((e) => e.height);
  return changed.length === 0 ? undefined : Math.min(...changed);
}

/**
 * NAME_READERS are the areas before this one that read the names' events, the contracts' too: the transfers' name fees
 * and auctions' refunds and locks, the statistics' names and auctions.
 * Where writeContractNames changed what they read, they derive again from its height.
 */
export const NAME_READERS = ['transfers', 'stats'];

/**
 * nameReadersAgain has the populator's backfill derive NAME_READERS again, from the stored rows, from `from` (the lowest
 * height whose event writeContractNames changed) to the stored top.
 */
async function nameReadersAgain(db: Queryable, from: number | undefined): Promise<void> {
  const top = from === undefined ? undefined : await topHeight(db);
  if (from === undefined || top === undefined) return;
  for (const area of NAME_READERS) await recordBackfill(db, area, from, top);
}

/** deriveInternalCalls stores the internal calls of a range of stored heights, from their stored transactions. */
export async function deriveInternalCalls(
  db: Queryable,
  node: ReplayReader,
  range: HeightRange,
  codeOf?: CodeReader,
): Promise<void> {
  const found = await readInternalCalls(node, await replayableTransactions(db, range), codeOf ? { codeOf } : {});
  await replaceInternalCalls(db, range, found.calls, found.gaps);
  await nameReadersAgain(db, await writeContractNames(db, range, found.calls, true));
}

/**
 * foldStoredContractNames is the `names` area (migration 1164): the names a range's stored AENS calls act on folded
 * again from the range's start (writeContractNames), their events and pointers written anew, and the areas that read
 * them derived again from there: the repair of a schema whose int_calls area folded without the name transactions
 * after a contract's (a NameClaimTx bidding in an auction a contract opened stored as a claim of its own). The
 * calls are the stored ones: no node is asked, no call replayed.
 */
export async function foldStoredContractNames(db: Queryable, range: HeightRange): Promise<void> {
  const calls = await rangeCallsOf(db, range, AENS_FUNCTIONS);
  await nameReadersAgain(db, await writeContractNames(db, range, calls, true));
}

/**
 * batchReplayable is a batch's transactions of the micro blocks holding contract calls, from its rows in memory
 * (no stored transaction is read back). Pure.
 */
export function batchReplayable(gens: readonly GenerationRows[]): ReplayableTx[] {
  return gens.flatMap((g) => {
    const holding = new Set(
      g.transactions
        .filter((t) => CONTRACT.has(t.txType) || CONTRACT.has(t.stored.innerType ?? ''))
        .map((t) => t.microIndex),
    );
    if (holding.size === 0) return [];
    const prev = new Map(g.microBlocks.map((m) => [m.microIndex, String(m.header.prev_hash)]));
    const calls = new Map(g.contractCalls.map((c) => [`${c.microIndex}:${c.txIndex}`, c]));
    return g.transactions
      .filter((t) => holding.has(t.microIndex))
      .map((t) => ({
        height: t.height,
        microIndex: t.microIndex,
        txIndex: t.txIndex,
        txType: t.txType,
        innerType: t.stored.innerType,
        gas: t.stored.gas,
        size: t.stored.size,
        signed: t.stored.signed,
        prevHash: prev.get(t.microIndex)!,
        ...callOf(calls.get(`${t.microIndex}:${t.txIndex}`)),
      }));
  });
}

/** callOf is what ReplayableTx keeps of a transaction's contract call: its contract and outcome. Pure. */
function callOf(call: ContractCallRow | undefined): Pick<ReplayableTx, 'contractId' | 'returnType'> {
  const returnType = call?.callInfo?.return_type;
  return { contractId: call?.contractId ?? null, returnType: typeof returnType === 'string' ? returnType : null };
}

/**
 * writeBatchInternalCalls stores a batch's internal calls, read as it was prepared (node-reads.ts). Its answer: the
 * lowest height of the batch whose name transaction's event it changed (writeContractNames), where the areas before it
 * that read those events must derive again.
 */
export async function writeBatchInternalCalls(
  db: Queryable,
  gens: readonly GenerationRows[],
  found: Promise<InternalCalls> | undefined,
): Promise<number | undefined> {
  if (found === undefined) throw new Error('the batch asked no internal calls');
  const { calls, gaps } = await found;
  if (calls.length === 0 && gaps.length === 0) return undefined;
  const range = batchRange(gens);
  await replaceInternalCalls(db, range, calls, gaps);
  // a batch's heights are new: no name event of a contract is there yet
  return writeContractNames(db, range, calls, false);
}
