/**
 * @module The table of the derived areas (DERIVED_AREAS, in the order they derive): each area's derivation of a batch
 * in its transaction and of stored heights in the backfill, the tables it fills, what it reads of the node and of the
 * areas before it. A batch derives them with derive-batch.ts, the populator's backfill with derive-backfill.ts.
 */
import { type Queryable } from '../../db/connection/pool.ts';
import {
  deleteInternalTransfers,
  replaceGenerationFees,
  storedKeyBlockTargets,
} from '../../db/writes/derive-backfill.ts';
import { pendingBackfills, type PendingBackfill } from '../../db/queries/pending-backfills.ts';
import { recordBackfill } from '../../db/writes/derive-backfill.ts';
import { topHeight } from '../../db/queries/blocks.ts';
import { deriveTransfersOfStored, writeInternalTransfers, type TransferRules } from './internal-transfers.ts';
import type { AexnDetector } from '../contracts/aexn-detector.ts';
import type { ContractDecoder } from '../contracts/contract-decoder.ts';
import { deriveBatchTokens, deriveStoredTokens } from './derive-tokens.ts';
import type { Aex9Settling } from './aex9-state.ts';
import { deriveBalances, type BalanceReader, type BalanceReport } from './account-balances.ts';
import { batchRange } from './batch-range.ts';
import { batchTransactions, type WrittenTransactions } from './written-transactions.ts';
import type { GenerationRows } from '../rows/rows.ts';
import { deriveStats, deriveStatsOfStored } from './stats.ts';
import { redecodeStoredCalls } from './redecode-calls.ts';
import { deriveBatchGaCalls, deriveGaCalls, type GaInfoReader } from './ga-calls.ts';
import { deriveForceProgressGas } from './force-progress-gas.ts';
import type { BatchAppearances } from './stats-accounts.ts';
import { deriveCreatedIds } from './created-ids.ts';
import { deriveChannelStates } from './channel-states.ts';
import { deriveBatchSpends, deriveStoredSpends } from './spend-days.ts';
import { deriveStoredHyperchain, writeBatchHyperchain } from './hyperchain.ts';
import type { HyperchainReader } from '../hyperchain/reader.ts';
import type { HyperchainBatch } from '../../db/writes/hyperchain-rows.ts';
import { HYPERCHAIN_LOAD_TABLES } from '../../db/writes/hyperchain.ts';
import {
  deriveInternalCalls,
  foldStoredContractNames,
  NAME_READERS,
  writeBatchInternalCalls,
  type InternalCalls,
  type ReplayReader,
} from './internal-calls.ts';

/**
 * What the stored derivations need beyond the database. The populator shares its follower's readers: they keep caches
 * only (the decoder's code cache the detector's too, the hyperchain reader the chain's detection), safe to share.
 */
export interface DeriveContext {
  readonly rules: TransferRules;
  /** reads new contracts' code and meta info (the token area; absent: that area cannot be derived) */
  readonly detector?: AexnDetector;
  /** reads accounts' balances (the balances area; absent: that area cannot be derived) */
  readonly balances?: BalanceReader;
  /** decodes the calls stored undecoded for now (the call area; absent: that area cannot be derived) */
  readonly decoder?: ContractDecoder;
  /** reads GA transactions' infos (the ga area; absent: that area cannot be derived) */
  readonly gaCalls?: GaInfoReader;
  /** runs micro blocks' transactions again (the int_calls area; absent: that area cannot be derived) */
  readonly internalCalls?: ReplayReader;
  /** reads a hyperchain's epochs from its stored key blocks (the hyperchain area; absent: that area cannot be derived) */
  readonly hyperchain?: Pick<HyperchainReader, 'read'>;
  /** hears of the AEX-9 tokens whose balances the token area read from their state (the populator's log and metric) */
  readonly onAex9State?: Aex9Settling['onRead'];
  /** hears of the accounts whose derived balance was not the node's (the populator's log and metric) */
  readonly onBalanceDifferences?: BalanceReport;
  /** the transactions the populator wrote while catching up, kept for the balances' stretches (none: read back) */
  readonly written?: WrittenTransactions;
}

/** How an area derives: a batch's heights from its rows in memory, or stored heights from..to from stored rows. */
export interface AreaDerivation {
  /**
   * absent: a batch's rows of the area are written with the batch's own (nothing to derive, no savepoint to take: two
   * statements a batch for each such area)
   */
  readonly batch?: (db: Queryable, gens: readonly GenerationRows[], derivation: BatchDerivation) => Promise<void>;
  readonly stored: (db: Queryable, from: number, to: number, ctx: DeriveContext) => Promise<void>;
  /**
   * the tables it writes (by itself or through their triggers), which lack rows while it is pending: `mdw -v --full`
   * does not compare them then
   */
  readonly tables: readonly string[];
  /**
   * the stored derivation asks the node (dry-runs of new contracts, balances, contracts' code), so `mdw -v` does not
   * repeat it
   */
  readonly asksNode?: boolean;
  /**
   * the area reads no other area's rows and none reads its: a batch defers it only for its own sake, and it defers no
   * other (the backfill still takes it in order, after the areas before it)
   */
  readonly standalone?: boolean;
  /** no area reads its rows: deferring it defers none after it (it still waits for the areas before it) */
  readonly leaf?: boolean;
  /**
   * while the populator catches up, its batches leave the area pending and the backfill derives it in stretches of
   * this many heights (or once caught up), each ending sooner where its transactions reach GATHERED_TRANSACTIONS: an
   * area that asks the node once per account and stretch asks once per so many heights instead of once per batch.
   * Only a leaf gathers: what waits for its stretch holds no other area.
   */
  readonly gathers?: number;
  /**
   * the area derives again rows another area writes (an upgrade's repair), none of its own: `mdw -v` does not repeat
   * it, the rows are compared as that area's
   */
  readonly repairs?: string;
  /**
   * the area derives from key blocks and the node alone, never from transactions: a transaction type learned later
   * (learned-tx-types.ts) does not send its heights back to it
   */
  readonly ofKeyBlocks?: boolean;
  /**
   * the areas before it whose rows it reads, where it does not wait for every area before it: a batch that does not
   * derive one of them defers it (and no other deferral does), and the backfill derives it only below their pending
   * heights (unless they fail: then the node's balances stand in, reconciled, for what their rows would have told)
   */
  readonly reads?: readonly string[];
}

/**
 * BALANCES_GATHERED: heights whose balances one step reads while catching up. Each account a stretch touches is read
 * once, where the batches read it once per batch that touched it (issue 40: the perf chain's 105 accounts were read
 * 1356 times over its 15 batches, 0.45 requests per generation); a stretch is still one transaction, which ends
 * sooner where its transactions pass GATHERED_TRANSACTIONS (the heights alone bound no memory: 10 000 busy heights at
 * a tenth of mainnet hold about 1.5 M transactions), and the wealth served while catching up is at most this far
 * behind the stored top.
 */
const BALANCES_GATHERED = 10_000;

/**
 * GATHERED_TRANSACTIONS: transactions a stretch of an area that gathers holds at most (a stretch is always at least
 * one height, so a huge generation still progresses). The balances hold a stretch's transactions and changes in
 * memory at once: a step's heap peaked at 130 MB + 1.4 KB a transaction of its stretch (bench/balances-stretch.ts,
 * 2 700 mainnet-like generations: 25 000 transactions +166 MB, 50 000 +192 MB, 99 994 +263 MB), so 10 000 busy
 * heights at a tenth of mainnet (1.5 M transactions) would take some 2.2 GB in one step, where a capped one stays
 * near 260 MB. A quiet era's 10 000 heights hold about as many (10 a generation): the cap shortens the busy eras'
 * stretches only, to a few hundred generations, some fifty of the catch-up's batches (BATCH_TRANSACTIONS), each
 * account still read once per stretch.
 */
export const GATHERED_TRANSACTIONS = 100_000;

/**
 * The areas in the order they derive: the internal transfers read the GA calls (generation_fees counts their gas and
 * leaves out a failed inner transaction's fee), the statistics read the internal transfers (miners' rewards, supply)
 * and the AEX-9 events (transfers per day), and each generation's rewards read the fees of generations before it; the
 * transfers, the statistics and the balances read the names' events, which an upgrade's `names` fold repairs first. The
 * GA calls ask the node: while they fail, the areas after them wait (the transfers must: their fees would lack the
 * GAs' gas). The calls'
 * decoding stands alone: a call undecoded for now defers no other area, and no other defers it in a batch. The
 * hyperchain's consensus stands alone too, and comes last: no other area reads its rows, and the backfill derives the
 * pending areas in this order, those after a failing one waiting for it; its failing (a contract this version does not
 * read, a node that no longer keeps an old boundary's state: until an upgrade or another node) must hold up no other.
 */
export const DERIVED_AREAS: ReadonlyMap<string, AreaDerivation> = new Map<string, AreaDerivation>([
  [
    // first: the transfers read its rows (a GA's own call's gas is part of the generation's fees, a GAMetaTx's failed
    // inner transaction's fee is not), so the backfill derives its pending heights before theirs, and a batch that
    // does not derive it defers them (it is no standalone area)
    'ga',
    {
      batch: (db, gens, { gaCalls }) => deriveBatchGaCalls(db, nodeReader('ga', gaCalls), gens),
      // and the gas of the force progresses' calls (their infos: force-progress-gas.ts), which a sync stores with their
      // channel events but a schema from before migration 1143 lacks
      async stored(db, from, to, { gaCalls }) {
        const range = { from, to, fromMicro: -1 };
        await deriveGaCalls(db, nodeReader('ga', gaCalls), range);
        await deriveForceProgressGas(db, nodeReader('ga', gaCalls), range);
      },
      tables: ['ga_calls'],
      asksNode: true,
    },
  ],
  [
    // the names the stored AENS calls act on, folded again from the stored rows (migration 1164, a repair of the
    // int_calls area's name events: no node asked); before the transfers, the statistics and the balances, which read
    // the events (a batch defers them while it is pending), after the GA calls, which do not. A batch's own names the
    // int_calls area folds.
    'names',
    {
      stored: (db, from, to) => foldStoredContractNames(db, { from, to, fromMicro: -1 }),
      tables: ['name_events', 'name_pointers', 'name_state', 'name_count_edges', 'name_count_spans'],
      repairs: 'int_calls',
    },
  ],
  [
    'transfers',
    {
      batch: (db, gens, { rules }) => writeInternalTransfers(db, gens, rules),
      async stored(db, from, to, { rules }) {
        await deleteInternalTransfers(db, from, to);
        await replaceGenerationFees(db, from, to);
        const heights = (await storedKeyBlockTargets(db, from, to)).map((b) => b.height);
        await deriveTransfersOfStored(db, heights, { from, to }, rules);
      },
      tables: ['internal_transfers', 'generation_fees'],
    },
  ],
  [
    'tokens',
    {
      batch: (db, gens, { aex9State }) => deriveBatchTokens(db, gens, aex9State),
      stored: (db, from, to, { detector, onAex9State }) =>
        deriveStoredTokens(db, nodeReader('tokens', detector), from, to, onAex9State),
      tables: [
        'aexn_contracts',
        'aexn_call_created',
        'aex9_events',
        'aex9_state_reads',
        'aex9_transfers',
        'aex9_balances',
        'aex9_contract_state',
        'aex141_events',
        'aex141_tokens',
        'aex141_owner_counts',
        'aex141_collection_counts',
        'dex_pairs',
        'dex_swaps',
      ],
      asksNode: true,
    },
  ],
  [
    'stats',
    {
      batch: (db, gens, { appearances }) => deriveStats(db, gens, appearances),
      stored: async (db, from, to) => deriveStatsOfStored(db, await storedKeyBlockTargets(db, from, to)),
      tables: [
        'stats_generations',
        'stats_series_counts',
        'stats_accounts',
        'stats_active_accounts',
        'stats_intervals',
        'stats_miner_rewards',
        'stats_miners',
      ],
    },
  ],
  [
    'calls',
    {
      // a batch's calls are decoded before its transaction and written with its rows
      stored: (db, from, to, { decoder }) => redecodeStoredCalls(db, nodeReader('calls', decoder), from, to),
      // their decoding: `mdw -v` names each call undecoded for now apart (verify.ts undecodedCalls)
      tables: ['contract_calls'],
      asksNode: true,
      standalone: true,
    },
  ],
  [
    // contract_internal_calls (1097): a batch's asked as it was prepared (node-reads.ts), as the ga area's infos, while
    // catching up too: the node runs its dry-runs on workers of their own (a regulator apart from the reads'), so a
    // batch's replays run while the batches after it are read. Left to backfill steps of 500 heights behind the head
    // (issue 76), they ran while the chain's reads waited, and the reads idled while they ran (issue 87)
    'int_calls',
    {
      // and the areas before it that read the name transactions' events it changed derive the batch again from there
      batch: async (db, gens, derivation) =>
        deriveNameReadersAgain(
          db,
          await writeBatchInternalCalls(db, gens, derivation.internalCalls),
          batchRange(gens).to,
          derivation,
        ),
      stored: (db, from, to, { internalCalls, decoder }) =>
        deriveInternalCalls(
          db,
          nodeReader('int_calls', internalCalls),
          { from, to, fromMicro: -1 },
          decoder && ((id) => decoder.code(id)),
        ),
      // and the name events of contracts' AENS calls, with the name state and counts their triggers keep (1112), and
      // the pointers their updates set (1160)
      tables: [
        'contract_internal_calls',
        'contract_internal_call_gaps',
        'contract_internal_call_ids',
        'name_events',
        'name_pointers',
        'name_state',
        'name_count_edges',
        'name_count_spans',
      ],
      asksNode: true,
      standalone: true,
      leaf: true,
    },
  ],
  [
    // after the areas whose rows it reads (`reads`: the transfers, the GA calls' gas and the internal calls, Chain.spend
    // paying accounts no transaction names), and only those hold it; no area reads it, so a batch that gathers it
    // (catching up) or fails to read the node defers none after it
    'balances',
    {
      // the transactions' fields from the batch's rows, or those the populator kept of the stretch's (written by it
      // while catching up), not read back
      batch: (db, gens, { balances, onBalanceDifferences }) =>
        deriveBalances(
          db,
          nodeReader('balances', balances),
          batchRange(gens),
          onBalanceDifferences,
          batchTransactions(gens),
        ),
      stored: async (db, from, to, { balances, onBalanceDifferences, written }) => {
        const range = { from, to, fromMicro: -1 };
        await deriveBalances(
          db,
          nodeReader('balances', balances),
          range,
          onBalanceDifferences,
          written?.transactionsOf,
        );
        written?.forgetThrough(to);
      },
      tables: ['account_balances', 'account_wealth', 'account_holders', 'account_balance_changes'],
      asksNode: true,
      leaf: true,
      gathers: BALANCES_GATHERED,
      reads: ['transfers', 'ga', 'int_calls'],
    },
  ],
  [
    // channel_events' states (1051): a batch's are written with its rows
    'channels',
    {
      stored: (db, from, to) => deriveChannelStates(db, from, to),
      tables: ['channel_events'],
      standalone: true,
    },
  ],
  [
    // transactions.created_id (1013): a batch's are written with its transactions
    'created',
    {
      stored: (db, from, to) => deriveCreatedIds(db, from, to),
      tables: ['transactions'],
      standalone: true,
    },
  ],
  [
    // spend_heights (1061), whose triggers keep spend_days: a batch's amounts from its transactions in memory
    'spends',
    {
      batch: (db, gens) => deriveBatchSpends(db, gens),
      stored: (db, from, to) => deriveStoredSpends(db, from, to),
      tables: ['spend_heights', 'spend_days'],
      standalone: true,
    },
  ],
  [
    // a batch's rows come from its reads of the node, asked as it was prepared (loader.ts); none on another chain
    'hyperchain',
    {
      batch: (db, _gens, { hyperchain }) => writeBatchHyperchain(db, hyperchain),
      stored: (db, from, to, { hyperchain }) =>
        deriveStoredHyperchain(db, nodeReader('hyperchain', hyperchain), from, to),
      tables: HYPERCHAIN_LOAD_TABLES,
      asksNode: true,
      standalone: true,
      ofKeyBlocks: true,
    },
  ],
]);

/**
 * pendingAreaTables maps each table of an area still pending to that area's pending work: until the backfill has
 * derived it, such a table lacks the rows of its heights (and what its triggers count from them). Pure.
 */
export function pendingAreaTables(pending: readonly PendingBackfill[]): Map<string, PendingBackfill> {
  const tables = new Map<string, PendingBackfill>();
  for (const p of pending) for (const table of DERIVED_AREAS.get(p.area)?.tables ?? []) tables.set(table, p);
  return tables;
}

/** transactionAreas are the areas whose rows derive from transactions (a learned transaction type re-derives them). */
export const transactionAreas = (): string[] =>
  [...DERIVED_AREAS].filter(([, derive]) => !derive.ofKeyBlocks).map(([area]) => area);

/** What a batch's derivation reads besides its rows. */
export interface BatchDerivation {
  readonly rules: TransferRules;
  /** the batch's account rows as the writer stored them, which the statistics count in memory */
  readonly appearances?: BatchAppearances;
  /**
   * the areas the batch cannot derive, with why (known before its transaction: a contract's code no node gives, a
   * call undecoded for now): deferred and reported as failing
   */
  readonly underived?: ReadonlyMap<string, string>;
  /** reads accounts' balances (the balances area) */
  readonly balances?: BalanceReader;
  /** hears of the accounts whose derived balance was not the node's (the balances area) */
  readonly onBalanceDifferences?: BalanceReport;
  /** reads GA transactions' infos (the ga area) */
  readonly gaCalls?: GaInfoReader;
  /**
   * the batch's internal calls (the int_calls area), being read: their failure defers the area, as a failed derivation
   * does, not the batch
   */
  readonly internalCalls?: Promise<InternalCalls>;
  /** reads the state of AEX-9 tokens whose events fail them (the token area) */
  readonly aex9State?: Aex9Settling;
  /** the batch is one of a catch-up: the areas that gather (`gathers`) are left to the backfill's stretches */
  readonly gathering?: boolean;
  /**
   * the batch's hyperchain rows (the hyperchain area), being read: their failure defers the area, as a failed
   * derivation does, not the batch
   */
  readonly hyperchain?: Promise<HyperchainBatch>;
}

/**
 * deriveNameReadersAgain derives NAME_READERS again from height `from` of a batch whose top is `to`: in its transaction
 * where the batch is the stored top and derived them, else (a reload below the top, or the areas pending) through the
 * backfill, up to the stored top.
 */
async function deriveNameReadersAgain(
  db: Queryable,
  from: number | undefined,
  to: number,
  { rules }: BatchDerivation,
): Promise<void> {
  if (from === undefined) return;
  const top = Math.max(to, (await topHeight(db)) ?? to);
  const pending = await pendingBackfills(db);
  for (const area of NAME_READERS) {
    if (top > to || pending.some((p) => p.area === area && p.next <= to)) await recordBackfill(db, area, from, top);
    else await DERIVED_AREAS.get(area)!.stored(db, from, to, { rules });
  }
}

/** nodeReader is an area's reader of the node (asksNode), or the error that no node was given to derive it. */
function nodeReader<T>(area: string, reader: T | undefined): T {
  if (reader === undefined) throw new Error(`the ${area} area needs a node (none given)`);
  return reader;
}
