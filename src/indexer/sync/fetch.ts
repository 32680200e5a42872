/** @module Fetch: whole generations from the node, concurrently but delivered in height order. */
import { isJsonObject } from '../../chain/json.ts';
import { ownTx } from '../../chain/tx-fields.ts';
import { holdsTransactions } from '../../chain/txs-hash.ts';
import type { NodeClient } from '../../node/client.ts';
import { badResponse, unlessGone } from '../../node/errors.ts';
import { contractTx } from '../contracts/contract-decoder.ts';
import { forceProgressGasUsed } from '../derived/force-progress-gas.ts';
import { GA_TX_TYPES } from '../derived/ga-calls.ts';
import type { FetchedGeneration, FetchedMicroBlock, FetchedReplay, JsonObject } from '../rows/rows.ts';
import type { Replayed } from '../../node/dry-run-events.ts';
import { REFUSED } from '../../node/dry-run.ts';
import type { Replay } from '../derived/internal-calls.ts';
import { blockReplays, isContractTx, replayedInfos, replayKey, type FetchReplays } from './fetch-replays.ts';
import type { RetryOptions } from '../../base/retry.ts';

/**
 * BATCH_REQUEST_RETRIES: a batch is redone whole when one of its requests gives up, so the populator's node requests
 * and its AEX-N dry-runs retry generously (8 rounds, 100 ms doubling to 2 s).
 */
export const BATCH_REQUEST_RETRIES: Pick<RetryOptions, 'attempts' | 'initialMs' | 'maxMs'> = {
  attempts: 8,
  initialMs: 100,
  maxMs: 2000,
};

/** microBlockHashes reads the `micro_blocks` list of a generation, checking its shape. */
export function microBlockHashes(generation: JsonObject, height: number): string[] {
  const list = generation.micro_blocks;
  if (!Array.isArray(list) || !list.every((h) => typeof h === 'string')) {
    throw badResponse(`/generations/height/${height}`, 'generation has no micro_blocks list');
  }
  return list as string[];
}

/** wrapsGaMeta: whether a signed transaction is or wraps a GAMetaTx (a PayingForTx may pay for one). */
const wrapsGaMeta = (signed: JsonObject): boolean =>
  isJsonObject(signed.tx) && ownTx(signed.tx, 'GAMetaTx') !== undefined;

/** wrapsForceProgress: whether a signed transaction is or wraps a ChannelForceProgressTx. */
const wrapsForceProgress = (signed: JsonObject): boolean =>
  isJsonObject(signed.tx) && ownTx(signed.tx, 'ChannelForceProgressTx') !== undefined;

/** FetchOptions says what a generation's fetch includes. */
export interface FetchOptions {
  /** fetch the call info of contract txs and force progresses (default true) */
  readonly callInfo?: boolean;
  /** the generation is stored up to this micro index: fetch only the micro blocks from here on */
  readonly continuesAt?: number;
  /**
   * generations fetched as far as they were stored, by height: only their first so many micro blocks (verify's
   * re-derivation of a top generation stored while open, which the node has more of now)
   */
  readonly upTo?: ReadonlyMap<number, number>;
  /** told of each contract tx whose call info no node holds any more (410 from every node) */
  readonly onCallInfoGone?: (txHash: string, height: number) => void;
  /** the contract calls whose replays the fetch asks for their call infos (fetch-replays.ts; none when absent) */
  readonly replays?: FetchReplays;
}

/**
 * fetchGeneration loads the key block, each micro block's header and txs (with `continuesAt`, only those from that
 * index on; none asked of a block whose header says it holds none), and the call info of contract txs. A call info
 * every node has garbage-collected (410) is left out and its tx listed in `prunedCallInfos`, a GAMetaTx's inner
 * transaction then taken as done (see gaInfoOf).
 */
export async function fetchGeneration(
  node: NodeClient,
  height: number,
  opts: FetchOptions = {},
): Promise<FetchedGeneration> {
  const { continuesAt } = opts;
  const generation = await node.generation(height);
  const keyBlock = generation.key_block;
  if (!isJsonObject(keyBlock) || keyBlock.height !== height) {
    throw badResponse(`/generations/height/${height}`, `generation at ${height} has no key block of that height`);
  }
  const callInfos = new Map<string, JsonObject>();
  const callInfoTexts = new Map<string, string>();
  const gaInfos = new Map<string, JsonObject>();
  const prunedCallInfos = new Set<string>();
  const callInfoOf = async (signed: JsonObject): Promise<void> => {
    const hash = String(signed.hash);
    const read = await unlessGone(node.transactionInfo(hash, height));
    if (read === undefined) {
      prunedCallInfos.add(hash);
      opts.onCallInfoGone?.(hash, height);
      return;
    }
    const { info, callInfoText: text } = read;
    // a GAMetaTx's info is its authentication call (ga_info); the contract tx it wraps has its call
    // info inside (inner_object.call_info), and that is the call the row describes. One whose inner transaction
    // failed made no call: its info says so, and it has no call info (ga-outcome.ts)
    const ga = isJsonObject(info.ga_info) ? info.ga_info : undefined;
    if (ga || wrapsGaMeta(signed)) gaInfos.set(hash, info);
    if (!contractTx(signed.tx as JsonObject, info)) return;
    const inner = ga && isJsonObject(ga.inner_object) ? ga.inner_object.call_info : undefined;
    const callInfo = isJsonObject(info.call_info) ? info.call_info : isJsonObject(inner) ? inner : ga;
    if (callInfo) callInfos.set(hash, callInfo);
    if (callInfo && text !== undefined && callInfo === info.call_info) callInfoTexts.set(hash, text);
  };
  // a GA transaction wrapping no contract call: its info holds only the GA's own call, which the ga area stores,
  // and whether a GAMetaTx's inner transaction took effect, which the transform needs (ga-outcome.ts). Asked with
  // the rest of the generation, not after the batch's transform: at the end of a catch-up that was one more round
  // trip before the last write. One no node holds any more (410 from every node: a pruning node's, below its GC
  // height) is left out: a GAMetaTx's inner transaction is then taken as done, as a pruned call info's contract call
  // is stored without it (docs/operations.md, "Pruning nodes"): waiting would stop the sync for good. The ga area
  // then stores no call of it, which the upgrade's repair reads as an unknown outcome
  const gaInfoOf = async (signed: JsonObject): Promise<void> => {
    const hash = String(signed.hash);
    const info = (await unlessGone(node.transactionInfo(hash, height)))?.info;
    if (info === undefined) return;
    gaInfos.set(hash, info);
    forceProgressGasOf(signed, info);
  };
  // a force progress's call: its gas, which its payer pays and its generation's fees count, is told by its info only.
  // One no node holds any more (410 from every node) is stored without (its payer's balance then the node's)
  const forceProgressGas = new Map<string, bigint>();
  const forceProgressGasOf = (signed: JsonObject, info: JsonObject): void => {
    const gas = wrapsForceProgress(signed) ? forceProgressGasUsed(info) : undefined;
    if (gas !== undefined) forceProgressGas.set(String(signed.hash), gas);
  };
  const forceProgressInfoOf = async (signed: JsonObject): Promise<void> => {
    const info = (await unlessGone(node.transactionInfo(String(signed.hash), height)))?.info;
    if (info !== undefined) forceProgressGasOf(signed, info);
  };
  const infosOf = (txs: readonly JsonObject[]): Promise<unknown> =>
    Promise.all(
      txs.map((s) => {
        if (!isJsonObject(s.tx)) return undefined;
        if (contractTx(s.tx)) return callInfoOf(s);
        // a GAMetaTx's is asked for its outcome (below), which tells its force progress's gas too
        if (wrapsForceProgress(s) && !wrapsGaMeta(s)) return forceProgressInfoOf(s);
        return GA_TX_TYPES.has(String(s.tx.type)) || wrapsGaMeta(s) ? gaInfoOf(s) : undefined;
      }),
    );
  const replays = new Map<string, FetchedReplay>();
  // a micro block's replays (fetch-replays.ts) beside the infos of the transactions they do not run; a contract
  // transaction they run has its info from their answers, or asked after them where none held it
  const blockInfosOf = async (microIndex: number, header: JsonObject, txs: readonly JsonObject[]): Promise<void> => {
    const place = { height, microIndex, prevHash: String(header.prev_hash) };
    const planned = opts.replays ? blockReplays(place, txs, opts.replays) : [];
    // no replay: every info asked at once (no answers to wait for, nothing to ask after them)
    if (planned.length === 0) {
      await infosOf(txs);
      return;
    }
    // the requests are the block's transactions up to each call: the last one runs every one the others run
    const lastRan = planned.at(-1)!.call.txIndex;
    const ran = (s: JsonObject, i: number): boolean => i <= lastRan && isContractTx(s);
    const replayed = (r: Replay): Promise<Replayed | undefined> =>
      node.replay(r.top, r.txs).then(
        (outcome) => {
          // the batch takes a lasting failure as its gap too, and asks one every node refused again
          if (outcome !== REFUSED)
            replays.set(replayKey(r.call.microIndex, r.call.txIndex), { top: r.top, txs: r.txs, outcome });
          return typeof outcome === 'object' ? outcome : undefined;
        },
        // the batch asks it again (askBatchReads), and the fetch the infos it would have held
        () => undefined,
      );
    const [answers] = await Promise.all([
      Promise.all(planned.map(replayed)),
      infosOf(txs.filter((s, i) => !ran(s, i))),
    ]);
    const held = replayedInfos(
      txs,
      answers.filter((a) => a !== undefined),
    );
    for (const [hash, info] of held) callInfos.set(hash, info);
    const unheld = txs.filter((s, i) => ran(s, i) && !held.has(String(s.hash)));
    if (unheld.length > 0) await infosOf(unheld);
  };
  // every micro block at once: the node set bounds how many requests are in flight, and serves lower heights first
  // (each request's priority is its height). A block's transactions are asked only when its header's txs_hash names
  // some (a node in dev mode emits empty blocks: half the recorded 7.2.2's), which costs a generation one round trip
  // more but no throughput, as the heights fetched at once keep the slots busy (fetchGenerations, FetchAhead). Its
  // call infos are asked as soon as its transactions arrive, not after the whole generation's
  const hashes = microBlockHashes(generation, height);
  const microBlocks: FetchedMicroBlock[] = await Promise.all(
    hashes.slice(continuesAt ?? 0, opts.upTo?.get(height)).map(async (hash, i) => {
      const header = await node.microBlockHeader(hash, height);
      const transactions = holdsTransactions(header) ? await node.microBlockTransactions(hash, height) : [];
      if (opts.callInfo ?? true) await blockInfosOf((continuesAt ?? 0) + i, header, transactions);
      return { header, transactions };
    }),
  );
  return {
    height,
    keyBlock,
    continuesAt,
    ...(continuesAt ? { previousMicroHash: hashes[continuesAt - 1] } : {}),
    microBlocks,
    callInfos,
    callInfoTexts,
    gaInfos,
    prunedCallInfos,
    forceProgressGas,
    ...(replays.size > 0 ? { replays } : {}),
    decodedCalls: new Map(),
  };
}

/**
 * fetchGenerations loads heights in order, several at once: at least `concurrency`, and as many more as keep
 * the node set's slots busy (one per slot: a generation of few transactions has a few requests in flight at
 * a time, its next ones waiting for the round trip that names them).
 * With `maxTransactions` it starts no further height once the generations fetched, and those in flight at the
 * average so far, hold that many transactions, and returns the leading heights it fetched (at least one): a
 * batch's memory follows its transactions.
 */
export function fetchGenerations(
  node: NodeClient,
  heights: readonly number[],
  concurrency: number,
  maxTransactions = Infinity,
  opts: FetchOptions = {},
): Promise<FetchedGeneration[]> {
  const results: FetchedGeneration[] = [];
  let transactions = 0;
  let done = 0;
  let next = 0;
  let active = 0;
  let failed = false;
  // until a generation arrives `concurrency` heights; then one per slot, as long as the transactions fetched
  // and those expected of the heights in flight (at the average so far) stay below maxTransactions
  const more = (): boolean => {
    if (done === 0) return active < concurrency;
    return (
      active < Math.max(concurrency, node.nodes.capacity) &&
      transactions + (active * transactions) / done < maxTransactions
    );
  };
  return new Promise((resolve, reject) => {
    const pump = (): void => {
      while (!failed && next < heights.length && transactions < maxTransactions && more()) {
        const index = next++;
        active++;
        fetchGeneration(node, heights[index]!, opts).then(
          (gen) => {
            results[index] = gen;
            for (const mb of gen.microBlocks) transactions += mb.transactions.length;
            done++;
            active--;
            pump();
          },
          (err: unknown) => {
            failed = true;
            reject(err);
          },
        );
      }
      if (active === 0 && !failed) resolve(results.slice(0, next));
    };
    pump();
  });
}
