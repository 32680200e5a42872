/** @module Fetch: whole generations from the node, concurrently but delivered in height order. */
import { isJsonObject } from '../chain/json.ts';
import type { NodeClient } from '../node/client.ts';
import { badResponse } from '../node/errors.ts';
import { contractTx } from './contract-decoder.ts';
import type { FetchedGeneration, FetchedMicroBlock, JsonObject } from './rows.ts';

/**
 * mapLimit runs fn over items with at most `limit` in flight and returns results in input order.
 * Once `more()` turns false no further item is started: the results are those of the leading
 * items started.
 */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
  more = (): boolean => true,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && more()) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  results.length = next;
  return results;
}

/** microBlockHashes reads the `micro_blocks` list of a generation, checking its shape. */
export function microBlockHashes(generation: JsonObject, height: number): string[] {
  const list = generation.micro_blocks;
  if (!Array.isArray(list) || !list.every((h) => typeof h === 'string')) {
    throw badResponse(`/generations/height/${height}`, 'generation has no micro_blocks list');
  }
  return list as string[];
}

/**
 * fetchGeneration loads the key block, each micro block's header and txs (with `continuesAt`,
 * only those from that index on), and the call info of contract txs.
 */
export async function fetchGeneration(
  node: NodeClient,
  height: number,
  withCallInfo = true,
  continuesAt?: number,
): Promise<FetchedGeneration> {
  const generation = await node.generation(height);
  const keyBlock = generation.key_block;
  if (!isJsonObject(keyBlock) || keyBlock.height !== height) {
    throw badResponse(`/generations/height/${height}`, `generation at ${height} has no key block of that height`);
  }
  const microBlocks: FetchedMicroBlock[] = await mapLimit(
    microBlockHashes(generation, height).slice(continuesAt ?? 0),
    4,
    async (hash) => {
      const [header, transactions] = await Promise.all([
        node.microBlockHeader(hash),
        node.microBlockTransactions(hash),
      ]);
      return { header, transactions };
    },
  );
  const callInfos = new Map<string, JsonObject>();
  const contractTxs = withCallInfo
    ? microBlocks.flatMap((mb) => mb.transactions).filter((s) => isJsonObject(s.tx) && contractTx(s.tx))
    : [];
  await mapLimit(contractTxs, 4, async (signed) => {
    const info = await node.transactionInfo(String(signed.hash));
    const callInfo = isJsonObject(info.call_info)
      ? info.call_info
      : isJsonObject(info.ga_info)
        ? info.ga_info
        : undefined;
    if (callInfo) callInfos.set(String(signed.hash), callInfo);
  });
  return { height, keyBlock, continuesAt, microBlocks, callInfos, decodedCalls: new Map() };
}

/**
 * fetchGenerations loads heights with bounded concurrency, in order. With `maxTransactions` it
 * starts no further height once the generations fetched hold that many transactions, and returns
 * the leading heights it fetched (at least one): a batch's memory follows its transactions.
 */
export function fetchGenerations(
  node: NodeClient,
  heights: readonly number[],
  concurrency: number,
  maxTransactions = Infinity,
): Promise<FetchedGeneration[]> {
  let transactions = 0;
  return mapLimit(
    heights,
    concurrency,
    async (h) => {
      const gen = await fetchGeneration(node, h);
      for (const mb of gen.microBlocks) transactions += mb.transactions.length;
      return gen;
    },
    () => transactions < maxTransactions,
  );
}
