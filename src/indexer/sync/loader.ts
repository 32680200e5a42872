/**
 * @module Loader: one batch of whole heights (or the micro blocks the node added to the stored top
 * generation) from the node into the database, atomically.
 * Fetch and contract decoding happen first; then the loader owns every step of one transaction: it deletes what is
 * replaced, inserts the rows (rows/writer.ts), derives the areas beside the chain (derived/derive-batch.ts),
 * records the top and queues the NOTIFY, which PostgreSQL delivers only on commit.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { withTransaction, type Pool, type Queryable } from '../../db/connection/pool.ts';
import { notifyCommitted } from '../../db/connection/notify.ts';
import { storedBlockHashes, storedLink } from '../../db/queries/block-hashes.ts';
import { deleteFrom, deleteHeights } from '../../db/writes/heights.ts';
import { markStaleAbove, moveMark, recordTop } from '../../db/writes/sync-state.ts';
import type { Logger } from '../../base/log.ts';
import type { NodeClient } from '../../node/client.ts';
import { NodeError } from '../../node/errors.ts';
import { ErrorCode } from '../../base/errors.ts';
import { createdContractCode, type ContractDecoder } from '../contracts/contract-decoder.ts';
import { mayMakeInternalCalls } from '../../chain/internal-call-ops.ts';
import type { FetchReplays } from './fetch-replays.ts';
import { CodeUnknown, type AexnDetector } from '../contracts/aexn-detector.ts';
import { fetchGeneration, fetchGenerations } from './fetch.ts';
import type { FetchAhead } from './fetch-ahead.ts';
import { agreeingBelow, linkBreak } from './forks.ts';
import type { IndexerMetrics } from '../metrics.ts';
import type { FetchedGeneration, GenerationRows } from '../rows/rows.ts';
import { transformGeneration } from '../rows/transform.ts';
import { encodeRows, writeGenerations, type EncodedRows, type WrittenRows } from '../rows/writer.ts';
import { TxTypeCodes } from '../../db/writes/tx-type-codes.ts';
import { AccountNumbers } from '../../db/writes/account-numbers.ts';
import { DEFAULT_TRANSFER_RULES, type TransferRules } from '../derived/internal-transfers.ts';
import { deriveBatchAreas } from '../derived/derive-batch.ts';
import type { WrittenTransactions } from '../derived/written-transactions.ts';
import { WebhookBatch } from './webhook-batch.ts';
import { aex9StateReport } from '../derived/aex9-state.ts';
import { balanceDifferenceReport } from '../derived/balance-changes.ts';
import type { BalanceReport } from '../derived/account-balances.ts';
import { undecodedForNow } from '../derived/redecode-calls.ts';
import type { StoredProtocol } from './protocol-watch.ts';
import { keyBlockProtocol } from '../../chain/protocols.ts';
import { askBatchReads, type BatchNodeReads } from './node-reads.ts';
import type { HyperchainReader, HyperchainReads } from '../hyperchain/reader.ts';
import { recordHyperchain } from '../../db/writes/hyperchain.ts';
import { ReorgLog } from './reorg-log.ts';

export interface LoaderDeps {
  readonly pool: Pool;
  /**
   * where a batch's transaction takes its connection (`pool` when absent): the populator's pool of one, so that every
   * batch runs in the same session, whose caches (the triggers' compiled functions and plans, the tables' and
   * indexes' descriptions) its first batch filled. Taken from the shared pool, batches went to whichever connection a
   * read had just released: on the bench's chain 7 of 10 sessions wrote batches, each paying for the caches again.
   */
  readonly writer?: Pool;
  readonly node: NodeClient;
  readonly decoder: ContractDecoder;
  /** finds AEX-N contracts before the transaction (none found when absent) */
  readonly aexn?: AexnDetector;
  readonly schema: string;
  readonly concurrency: number;
  /** a batch takes no further generation once it holds this many transactions (no limit when absent) */
  readonly batchTransactions?: number;
  readonly log: Logger;
  readonly metrics?: IndexerMetrics;
  /** told of each contract call stored without its call info because every node had pruned it (410) */
  readonly onCallInfoGone?: (txHash: string, height: number) => void;
  /** fetches the heights after each batch while the batch is decoded, transformed and written (the populator) */
  readonly fetchAhead?: FetchAhead;
  /** the chain's reward rules and genesis accounts (internal transfers); the node's mainnet rules when absent */
  readonly transferRules?: TransferRules;
  /** the ids' numbers (account_transactions), remembered from batch to batch; looked up per batch when absent */
  readonly accountNumbers?: AccountNumbers;
  /** generations below a broken parent link searched for where the node agrees (no bound when absent) */
  readonly maxForkDepth?: number;
  /** the codes of transaction types the code does not know, remembered from batch to batch */
  readonly txTypeCodes?: TxTypeCodes;
  /** told of the protocols of the key blocks each batch stored, once committed (ProtocolWatch) */
  readonly onProtocols?: (blocks: readonly StoredProtocol[]) => void;
  /** reads a hyperchain's epochs, leaders, validators and pins for each batch (none read when absent) */
  readonly hyperchain?: HyperchainReader;
  /** generations loaded only up to so many micro blocks, by height (FetchOptions.upTo: verify's scratch load) */
  readonly upTo?: ReadonlyMap<number, number>;
  /** keeps the transactions of the batches that gather, committed, for the balances' stretch (the populator) */
  readonly written?: WrittenTransactions;
}

/** What a batch did: rows written, or a broken parent link that calls for a rollback first. */
export type BatchResult =
  | {
      readonly kind: 'written';
      readonly from: number;
      readonly to: number;
      readonly transactions: number;
      /** with `replace`: the heights stored before whose blocks the node has replaced */
      readonly replaced: readonly number[];
      /** sync_state.rederive_from after the batch when the batch set, moved or cleared (null) it */
      readonly rederiveFrom?: number | null;
    }
  | { readonly kind: 'relink'; readonly rollbackFrom: number };

export interface BatchOptions {
  /** Delete every height from here up in the same transaction (a fork). */
  readonly rollbackFrom?: number;
  /** Delete exactly the batch's heights first (a reload) and skip the parent-link checks. */
  readonly replace?: boolean;
  /**
   * The batch re-derives stored heights from sync_state.rederive_from on (with `replace`, but the
   * parent link below is checked): the mark moves above it, or is cleared when nothing is stored above.
   */
  readonly rederive?: boolean;
  /** The batch, already being prepared (the populator prepares ahead while it writes). */
  readonly prepared?: Promise<PreparedBatch>;
  /**
   * Written in the batch's transaction, last, given the heights whose stored blocks it replaced: a reload's progress,
   * which commits with the rows it counts or not at all.
   */
  readonly alsoWrite?: (client: Queryable, replaced: readonly number[]) => Promise<void>;
}

/**
 * storedBefore sorts the heights of `gens` by what was stored there: other blocks (key block or
 * micro blocks) than the node's (`replaced`), or nothing (`added`).
 */
async function storedBefore(
  db: Queryable,
  gens: readonly FetchedGeneration[],
): Promise<{ replaced: number[]; added: number[] }> {
  const stored = await storedBlockHashes(
    db,
    gens.map((g) => g.height),
  );
  const replaced = gens
    .filter((g) => {
      const before = stored.get(g.height);
      return before !== undefined && before !== [g.keyBlock.hash, ...g.microBlocks.map((m) => m.header.hash)].join(' ');
    })
    .map((g) => g.height);
  return { replaced, added: gens.filter((g) => !stored.has(g.height)).map((g) => g.height) };
}

/** changesState is true when generations hold name or oracle events: the derived rows of every later height depend on them. */
function changesState(rows: readonly GenerationRows[]): boolean {
  return rows.some((r) => r.nameActions.length > 0 || r.oracleActions.length > 0);
}

/**
 * rollbackOnly deletes heights from `height` up when the node has nothing to put there (its chain
 * became shorter). The notification's `to` is below its `from`: nothing was written.
 */
export async function rollbackOnly(
  deps: Pick<LoaderDeps, 'pool' | 'writer' | 'schema' | 'metrics' | 'decoder'>,
  height: number,
): Promise<void> {
  deps.decoder.forgetCode();
  await withTransaction(deps.writer ?? deps.pool, async (client) => {
    const log = await ReorgLog.before(client, { from: height });
    const webhooks = await WebhookBatch.before(client, { from: height });
    await deleteFrom(client, height);
    await recordTop(client);
    await log.record(client, []);
    await webhooks.write(client, height, height - 1);
    await notifyCommitted(client, deps.schema, { from: height, to: height - 1, rollbackFrom: height });
  });
  deps.metrics?.rollbacks.inc();
}

/** A batch ready to write: fetched, checked link by link among itself, decoded and transformed; its heights are `gens`'. */
export interface PreparedBatch {
  readonly gens: readonly FetchedGeneration[];
  readonly rows: readonly GenerationRows[];
  readonly encoded: EncodedRows;
  /** the code of the contracts the batch creates, by contract id */
  readonly createdCode: ReadonlyMap<string, string>;
  /**
   * the derived areas the batch cannot derive, with why (a contract's code no node gives, a call undecoded for now):
   * deferred to the backfill
   */
  readonly underived: ReadonlyMap<string, string>;
  /** what its derived areas ask the node (balances, GA infos), asked as it was prepared */
  readonly reads: BatchNodeReads;
  /** one of a catch-up: the areas that gather are left to the backfill, and their node reads are not asked */
  readonly gathering: boolean;
  /**
   * whether the chain is a hyperchain and the batch's hyperchain rows (hyperchain/reader.ts), asked as it was
   * prepared: its transaction waits for them once its rows are written
   */
  readonly hyperchain?: HyperchainReads;
}

/**
 * prepareBatch does everything before the database transaction, for the leading heights that fit
 * `batchTransactions` (at least one). It needs no earlier batch to be committed (a contract created
 * just before is found through the node), so the populator runs it for the next batch while the
 * current one is written. `gathering`: the batch is one of a catch-up (derived-areas.ts, `gathers`).
 */
export async function prepareBatch(
  deps: LoaderDeps,
  heights: readonly number[],
  checkLinks: boolean,
  gathering = false,
): Promise<PreparedBatch> {
  const fetchOptions = { onCallInfoGone: deps.onCallInfoGone, upTo: deps.upTo, replays: fetchReplays(deps.decoder) };
  const gens = deps.fetchAhead
    ? await deps.fetchAhead.fetch(heights, deps.concurrency, deps.batchTransactions ?? Infinity, fetchOptions)
    : await fetchGenerations(deps.node, heights, deps.concurrency, deps.batchTransactions, fetchOptions);
  for (let i = 1; checkLinks && i < gens.length; i++) {
    const prev = gens[i - 1]!;
    const lastMicro = prev.microBlocks.at(-1)?.header.hash;
    if (
      linkBreak(gens[i]!, {
        height: prev.height,
        keyHash: String(prev.keyBlock.hash),
        lastMicroHash: typeof lastMicro === 'string' ? lastMicro : null,
      }) !== undefined
    ) {
      throw new NodeError(
        ErrorCode.NODE_BAD_RESPONSE,
        `chain moved while fetching heights ${prev.height}-${gens[i]!.height}`,
        { path: '/generations', transient: true },
      );
    }
  }
  return decodeAndTransform(deps, gens, gathering);
}

/**
 * fetchReplays has the fetch replay the calls whose code the decoder remembers (a create's is its own) and may make
 * internal calls: the batch replays them anyway, and their answers hold their call infos (fetch-replays.ts).
 */
function fetchReplays(decoder: ContractDecoder): FetchReplays {
  return {
    mayCall: (tx) =>
      tx.type === 'ContractCreateTx' ? mayMakeInternalCalls(String(tx.code)) : decoder.mayCall(String(tx.contract_id)),
  };
}

/**
 * prepareAppend prepares the micro blocks the node added to the stored generation at `height`
 * after its first `stored` ones, for loadBatch to add without rewriting the generation. They must
 * follow the stored blocks; if not, the chain moved, and a transient error lets the next poll look again.
 */
export async function prepareAppend(deps: LoaderDeps, height: number, stored: number): Promise<PreparedBatch> {
  const link = await storedLink(deps.pool, height);
  const gen = await fetchGeneration(deps.node, height, { continuesAt: stored, onCallInfoGone: deps.onCallInfoGone });
  const first = gen.microBlocks[0]?.header;
  if (
    !link ||
    gen.keyBlock.hash !== link.keyHash ||
    first === undefined ||
    first.prev_hash !== (link.lastMicroHash ?? link.keyHash)
  ) {
    throw new NodeError(ErrorCode.NODE_BAD_RESPONSE, `chain moved while adding micro blocks at height ${height}`, {
      path: '/generations',
      transient: true,
    });
  }
  return decodeAndTransform(deps, [gen], false);
}

async function decodeAndTransform(
  deps: LoaderDeps,
  fetched: readonly FetchedGeneration[],
  gathering: boolean,
): Promise<PreparedBatch> {
  // once per epoch, beside the decoding and the write before this batch: its dry-runs need nothing the decoding gives
  const consensus = deps.hyperchain?.ask(fetched);
  const createdCode = createdContractCode(fetched.flatMap((g) => g.microBlocks.flatMap((m) => m.transactions)));
  const decoded = await deps.decoder.decodeCalls(fetched, createdCode);
  const { gens, underived } = await detectTokens(deps.aexn, decoded, createdCode);
  // a call whose decoding waits for its contract's code or the compiler: the call area decodes it again later
  const undecoded = undecodedForNow(decoded);
  if (undecoded !== undefined) underived.set('calls', undecoded);
  // a turn of the event loop after each generation: this runs while the previous batch is written,
  // whose next statement waits for the socket events a long synchronous stretch would hold back
  const rows: GenerationRows[] = [];
  for (const g of gens) {
    rows.push(transformGeneration(g));
    await nextTurn();
  }
  // the areas' node reads go out now, beside the encoding and the write before this batch: its transaction finds them
  // answered, or waits for them only after its rows are written, where it used to ask them one round trip after another
  const reads = askBatchReads(deps.node, gens, rows, {
    balances: !gathering,
    // the decoding read every called contract's code: a cache hit
    codeOf: (id) => deps.decoder.code(id, createdCode),
  });
  const encoded = await encodeRows(rows);
  const prepared = { gens, rows, encoded, createdCode, underived, reads, gathering };
  return { ...prepared, ...(consensus ? { hyperchain: consensus } : {}) };
}

/**
 * detectTokens adds the AEX-N findings to decoded generations. A contract whose code no node gives does not stop the
 * chain: the batch goes on without findings (its calls to it are stored undecoded) and its token area is deferred.
 */
async function detectTokens(
  aexn: AexnDetector | undefined,
  decoded: FetchedGeneration[],
  createdCode: ReadonlyMap<string, string>,
): Promise<{ gens: FetchedGeneration[]; underived: Map<string, string> }> {
  if (!aexn) return { gens: decoded, underived: new Map() };
  try {
    return { gens: await aexn.detect(decoded, createdCode), underived: new Map() };
  } catch (err) {
    if (!(err instanceof CodeUnknown)) throw err;
    return { gens: decoded, underived: new Map([['tokens', err.message]]) };
  }
}

/**
 * loadBatch loads the given ascending heights, or the leading ones that fit `batchTransactions`
 * (the result's from/to say which), in one transaction; or reports a broken link.
 */
export async function loadBatch(
  deps: LoaderDeps,
  heights: readonly number[],
  opts: BatchOptions = {},
): Promise<BatchResult> {
  const started = process.hrtime.bigint();
  const { gens, rows, encoded, createdCode, underived, reads, hyperchain, gathering } = await (opts.prepared ??
    prepareBatch(deps, heights, !opts.replace));
  if (!opts.replace || opts.rederive) {
    const relink = await relinkBelow(deps, gens[0]!);
    if (relink) return relink;
  }
  const loaded = gens.map((g) => g.height);
  const from = loaded[0]!;
  const to = loaded.at(-1)!;
  const rolledBack = opts.rollbackFrom !== undefined;
  if (rolledBack || opts.replace) deps.decoder.forgetCode();
  let replaced: number[] = [];
  let rederiveFrom: number | null | undefined;
  const numbers = deps.accountNumbers ?? new AccountNumbers();
  const types = deps.txTypeCodes ?? new TxTypeCodes();
  let unknownTypes: WrittenRows['unknownTypes'] | undefined;
  const transactions = await withTransaction(deps.writer ?? deps.pool, async (client) => {
    // what the deletes below drop for good is logged with the rows that replace it, for the websocket's reorg notices
    const reorgLog =
      opts.rollbackFrom !== undefined
        ? await ReorgLog.before(client, { from: opts.rollbackFrom })
        : opts.replace
          ? await ReorgLog.before(client, loaded)
          : undefined;
    const webhooks = await WebhookBatch.before(
      client,
      opts.rollbackFrom !== undefined ? { from: opts.rollbackFrom } : opts.replace ? loaded : undefined,
    );
    if (opts.rollbackFrom !== undefined) await deleteFrom(client, opts.rollbackFrom);
    // the heights this batch adds to the stored ones (a reload may also fill gaps)
    let added: readonly number[] = loaded;
    if (opts.replace) {
      ({ replaced, added } = await storedBefore(client, gens));
      await deleteHeights(client, loaded);
    }
    const written = await writeGenerations(client, rows, encoded, numbers, types);
    unknownTypes = written.unknownTypes;
    // whether the chain is a hyperchain (detected at the first batch) still fails the batch when no node can say: the
    // batch could not tell whether it has hyperchain rows to defer at all, and deferring them on a chain that is not
    // one would report a failing area that is none; a node that cannot answer that GET (asked in rounds, with
    // backoff) cannot serve the batch's other reads either: an outage, retried as one
    if (hyperchain) await recordHyperchain(client, await hyperchain.record);
    // transfers, tokens (AEX-N, AEX-9, AEX-141, DEX) and statistics, derived from the rows just written and the ones
    // before them (an area behind or failing is deferred to the backfill)
    await deriveBatchAreas(client, rows, {
      rules: deps.transferRules ?? DEFAULT_TRANSFER_RULES,
      appearances: written.accounts,
      underived,
      balances: reads.balances,
      onBalanceDifferences: balanceDifferences(deps),
      gaCalls: reads.gaCalls,
      internalCalls: reads.internalCalls,
      ...(deps.aexn ? { aex9State: { reader: deps.aexn, onRead: aex9StateReport(deps.log, deps.metrics) } } : {}),
      gathering,
      // its epoch boundaries' dry-runs, asked as the batch was prepared: a read that failed defers the area only
      hyperchain: hyperchain?.rows,
    });
    await recordTop(client);
    await reorgLog?.record(client, gens);
    await webhooks.write(client, from, to);
    if (opts.rederive) rederiveFrom = await moveMark(client, to);
    else if (changesState(rows.filter((r) => added.includes(r.keyBlock.height))))
      rederiveFrom = await markStaleAbove(client, to);
    await opts.alsoWrite?.(client, replaced);
    const notification = rolledBack ? { from, to, rollbackFrom: opts.rollbackFrom } : { from, to };
    // NOTIFY inside the transaction is delivered by PostgreSQL at COMMIT and never if it rolls back.
    await notifyCommitted(client, deps.schema, notification);
    return written.transactions;
  }).catch((err: unknown) => {
    // the numbers given to new ids and the codes given to new types in the transaction are gone with it
    numbers.forget();
    types.forget();
    throw err;
  });
  if (unknownTypes) reportUnknownTypes(deps, unknownTypes);
  if (gathering) deps.written?.keep(rows);
  // only now: a batch prepared but never written (a fork came first) must teach the decoder nothing
  deps.decoder.rememberCode(createdCode);
  deps.onProtocols?.(gens.map((g) => ({ height: g.height, version: keyBlockProtocol(g.keyBlock) })));
  if (deps.metrics) countBatch(deps.metrics, { gens, transactions, started, rolledBack });
  return { kind: 'written', from, to, transactions, replaced, rederiveFrom };
}

/** relinkBelow is the rollback a batch needs when its first generation does not follow the stored one below it. */
async function relinkBelow(deps: LoaderDeps, first: FetchedGeneration): Promise<BatchResult | undefined> {
  // on the batches' connection, idle between them: the pool's connections each planned it anew
  const below = first.height > 0 ? await storedLink(deps.writer ?? deps.pool, first.height - 1) : undefined;
  if (!below || linkBreak(first, below) === undefined) return undefined;
  const floor = Math.max(0, first.height - (deps.maxForkDepth ?? Infinity));
  const agreeing = await agreeingBelow(deps.pool, deps.node, first.height - 1, floor);
  return { kind: 'relink', rollbackFrom: Math.max(0, agreeing) };
}

/** countBatch records a written batch in the populator's metrics (`started`: process.hrtime.bigint() before it). */
function countBatch(
  m: NonNullable<LoaderDeps['metrics']>,
  batch: { gens: readonly FetchedGeneration[]; transactions: number; started: bigint; rolledBack: boolean },
): void {
  m.batches.inc();
  m.lastCommit.setToCurrentTime();
  m.generations.inc(batch.gens.filter((g) => g.continuesAt === undefined).length);
  m.transactions.inc(batch.transactions);
  m.batchSeconds.observe(Number(process.hrtime.bigint() - batch.started) / 1e9);
  if (batch.rolledBack) m.rollbacks.inc();
}

/** The balance differences' report of each loader's dependencies: one per process, so the first ones are logged once. */
const differenceReports = new WeakMap<LoaderDeps, BalanceReport>();

function balanceDifferences(deps: LoaderDeps): BalanceReport {
  let report = differenceReports.get(deps);
  if (report === undefined) differenceReports.set(deps, (report = balanceDifferenceReport(deps.log, deps.metrics)));
  return report;
}

/**
 * reportUnknownTypes logs each transaction type the code does not know once, when the schema first stores it (the
 * type, its first height and hash), and counts every such transaction by type: they are stored, served and counted
 * under their names, and a later version that knows the type re-types them (db/writes/learned-tx-types.ts).
 */
function reportUnknownTypes(deps: Pick<LoaderDeps, 'log' | 'metrics'>, unknown: WrittenRows['unknownTypes']): void {
  for (const t of unknown.firstMet)
    deps.log.warn(
      { type: t.name, height: t.height, hash: t.hash },
      'a transaction type this version does not know: stored, served and counted under its name',
    );
  for (const [type, n] of unknown.counts) deps.metrics?.unknownTransactions.inc({ type }, n);
}
