/**
 * @module Read-side SQL for the populator's progress: the sync_state row (status, heartbeat, last error, the re-derive
 * mark) with the stored top, as /middleware/status, /v3/status and the metrics read it, and the heights still missing.
 */
import type { Queryable } from '../connection/pool.ts';
import type { Json } from '../../chain/json.ts';
import { pendingBackfills, type PendingBackfill } from './pending-backfills.ts';
import { topHeight, topKeyBlock } from './blocks.ts';

/**
 * missingHeights lists heights in [from, to] that have no key block, ascending, at most `limit`.
 * It reads the stored heights of the range (none while catching up) rather than probing each height.
 */
export async function missingHeights(db: Queryable, from: number, to: number, limit: number): Promise<number[]> {
  if (to < from) return [];
  const { rows } = await db.query<{ height: number }>({
    name: 'mdw_stored_heights_between',
    text: 'SELECT height FROM key_blocks WHERE height BETWEEN $1 AND $2',
    values: [from, to],
  });
  const stored = new Set(rows.map((r) => r.height));
  const missing: number[] = [];
  for (let h = from; h <= to && missing.length < limit; h++) if (!stored.has(h)) missing.push(h);
  return missing;
}

/** lowestMissing is the first height without a key block (0 on an empty database). */
export async function lowestMissing(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ h: number }>(
    `SELECT CASE WHEN NOT EXISTS (SELECT 1 FROM key_blocks WHERE height = 0) THEN 0
            ELSE (SELECT min(k.height) + 1 FROM key_blocks k
                   WHERE NOT EXISTS (SELECT 1 FROM key_blocks n WHERE n.height = k.height + 1)) END AS h`,
  );
  return rows[0]!.h;
}

/** rederiveMark is sync_state.rederive_from: where stored heights stop deriving from the whole chain below (migration 1000). */
export async function rederiveMark(db: Queryable): Promise<number | undefined> {
  const { rows } = await db.query<{ rederive_from: number | null }>('SELECT rederive_from FROM sync_state');
  return rows[0]?.rederive_from ?? undefined;
}

/** The populator's one sync_state row, with the newest stored block's time. */
export interface SyncState {
  readonly topHeight: number | undefined;
  readonly topTimeMs: number | undefined;
  readonly nodeHeight: number | undefined;
  readonly heartbeatAt: Date | undefined;
  readonly status: string;
  readonly lastError: string | undefined;
  /** derived areas behind the stored heights (derive_backfill): being derived from the stored rows, or failing */
  readonly derivations?: readonly PendingBackfill[];
}

/** syncState reads the populator's progress and the newest stored key block. */
export async function syncState(db: Queryable): Promise<SyncState> {
  const top = await topKeyBlock(db);
  const { rows } = await db.query('SELECT node_height, heartbeat_at, status, last_error FROM sync_state');
  const r = rows[0] as Record<string, unknown> | undefined;
  return {
    topHeight: top?.height,
    topTimeMs: top?.timeMs,
    nodeHeight: (r?.node_height as number | null) ?? undefined,
    heartbeatAt: (r?.heartbeat_at as Date | null) ?? undefined,
    status: (r?.status as string | undefined) ?? 'idle',
    lastError: (r?.last_error as string | null) ?? undefined,
    derivations: await pendingBackfills(db),
  };
}

/** StoredTotals: the top height, the transactions stored, the last migration and the populator's view. */
export interface StoredTotals {
  readonly topHeight: number | undefined;
  readonly txCount: number;
  readonly lastMigration: string | undefined;
  readonly nodeHeight: number | undefined;
  readonly populatorStatus: string;
  readonly heartbeatAt: Date | undefined;
  /** the derived areas whose derivation fails: from which height, since when, why (derive_backfill) */
  readonly failedAreas: readonly FailedArea[];
  /** the AEX-9 tokens whose balances are read from their state (aex9_state_reads, migration 1020) */
  readonly aex9StateTokens: number;
  /** the calls whose internal calls no dry-run told, per reason (migration 1111) */
  readonly incompleteAreas: readonly IncompleteArea[];
  /** what the populator's start-up probe found its nodes allow (migration 1136), undefined before one probed */
  readonly nodeProbe?: { [key: string]: Json };
  /** the indexes and tables only queries read that a catch-up left to the top, each deferred or building (1140) */
  readonly deferredBuilds: readonly DeferredBuild[];
  /** the stored heights the populator's start reloads, per repair and stage (1142) */
  readonly pendingRepairs: readonly PendingRepair[];
}

/** A repair's heights of one stage (`seed` until the start listed them, `reload`): how many, the first and last. */
export interface PendingRepair {
  readonly repair: string;
  readonly stage: string;
  readonly heights: number;
  readonly first_height: number;
  readonly last_height: number;
}

/** An index or table a catch-up left out: `deferred` until the top, `building` while it is built, since when. */
export interface DeferredBuild {
  readonly name: string;
  readonly kind: string;
  readonly state: string;
  readonly since: string;
}

/** Calls of an area that no reading can complete, for one reason: how many, the first and last height holding one. */
export interface IncompleteArea {
  readonly area: string;
  readonly reason: string;
  readonly calls: number;
  readonly first_height: number;
  readonly last_height: number;
}

/** A derived area whose derivation fails: the first height it lacks, since when it fails and the error. */
export interface FailedArea {
  readonly area: string;
  readonly from: number;
  readonly since: Date;
  readonly error: string;
}

/**
 * storedTotals reads the status numbers: the top (topHeight) and the rest in one statement. The transaction count
 * sums the counts migration 1015 keeps per transaction type (a few rows, whatever the chain's size).
 */
export async function storedTotals(db: Queryable): Promise<StoredTotals> {
  // one after the other: `db` may be one client (a replica's snapshot), which runs one query at a time
  const top = await topHeight(db);
  const { rows } = await db.query<{
    txs: string | null;
    migration: string | null;
    node_height: number | null;
    status: string | null;
    heartbeat_at: Date | null;
    failed: FailedArea[] | null;
    aex9_state: number;
    incomplete: IncompleteArea[] | null;
    node_probe: { [key: string]: Json } | null;
    deferred: DeferredBuild[] | null;
    repairs: PendingRepair[] | null;
  }>({
    name: 'mdw_v3_stored_totals',
    text: `SELECT (SELECT sum(n) FROM tx_type_totals) AS txs,
                  (SELECT max(name) FROM mdw_migrations) AS migration,
                  s.node_height, s.status, s.heartbeat_at, s.node_probe,
                  (SELECT json_agg(json_build_object('area', b.area, 'from', b.next_height, 'since', b.failing_since,
                                                     'error', coalesce(b.last_error, '')) ORDER BY b.area)
                     FROM derive_backfill b WHERE b.failing_since IS NOT NULL) AS failed,
                  (SELECT count(DISTINCT contract_id)::int FROM aex9_state_reads) AS aex9_state,
                  (SELECT json_agg(json_build_object('area', 'int_calls', 'reason', g.reason, 'calls', g.calls,
                     'first_height', (SELECT min(x.height) FROM contract_internal_call_gaps x WHERE x.reason = g.reason),
                     'last_height', (SELECT max(x.height) FROM contract_internal_call_gaps x WHERE x.reason = g.reason))
                     ORDER BY g.reason)
                     FROM contract_internal_call_gap_totals g) AS incomplete,
                  (SELECT json_agg(json_build_object('name', d.name, 'kind', d.kind, 'state', d.state, 'since', d.since)
                                   ORDER BY d.kind, d.name)
                     FROM deferred_builds d) AS deferred,
                  (SELECT json_agg(json_build_object('repair', r.repair, 'stage', r.stage, 'heights', r.heights,
                                                     'first_height', r.first_height, 'last_height', r.last_height)
                                   ORDER BY r.repair, r.stage)
                     FROM (SELECT repair, stage, count(*) AS heights, min(height) AS first_height,
                                  max(height) AS last_height
                             FROM repair_heights GROUP BY repair, stage) r) AS repairs
             FROM sync_state s`,
  });
  const r = rows[0];
  return {
    topHeight: top,
    txCount: Number(r?.txs ?? 0),
    lastMigration: r?.migration ?? undefined,
    nodeHeight: r?.node_height ?? undefined,
    populatorStatus: r?.status ?? 'idle',
    heartbeatAt: r?.heartbeat_at ?? undefined,
    // json_agg gives the time as text
    failedAreas: (r?.failed ?? []).map((f) => ({ ...f, since: new Date(f.since) })),
    aex9StateTokens: r?.aex9_state ?? 0,
    incompleteAreas: r?.incomplete ?? [],
    deferredBuilds: r?.deferred ?? [],
    pendingRepairs: r?.repairs ?? [],
    ...(r?.node_probe ? { nodeProbe: r.node_probe } : {}),
  };
}
