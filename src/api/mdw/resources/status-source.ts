/** @module ae_mdw's /v3/status: the stored totals and the node's status, read at most once a second and never older. */
import { isJsonObject, type Json } from '../../../chain/json.ts';
import { storedTotals, type StoredTotals } from '../../../db/queries/sync-state.ts';
import { storedProtocolReport } from '../../../db/queries/blocks.ts';
import type { ProtocolReport } from '../../../chain/protocols.ts';
import type { Pool } from '../../../db/connection/pool.ts';
import type { ReadReplicas } from '../../../db/connection/read-replicas.ts';
import { BriefValue } from '../../http/brief-value.ts';
import { PromptReading } from '../../http/prompt-reading.ts';
import { STATUS_NODE_WAIT_MS } from '../../http/node-height.ts';
import { readServedTop } from '../../status/served-top.ts';
import { cannotAdvance, SYNCED_MAX_LAG } from '../../status/sync-report.ts';
import { currentEpochReport, type EpochReport } from '../../status/current-epoch.ts';

/**
 * MDW_COMPAT_VERSION is the ae_mdw release whose /v3 we answer like. The SDK's Middleware accepts
 * 1.81.0 ≤ version < 2.0.0; our own build is in `mdw_revision`.
 */
export const MDW_COMPAT_VERSION = '1.107.1';

/** What the status is computed from. */
export interface StatusFacts {
  readonly totals: StoredTotals;
  /** the node's /v2/status, or undefined when it did not answer (or is known away: not asked) */
  readonly node: { [key: string]: Json } | undefined;
  readonly gensPerMinute: number;
  readonly revision: string;
  /** the stored chain's protocol (undefined for an empty database) */
  readonly protocol?: ProtocolReport;
  /** a hyperchain's current epoch (undefined on another chain) */
  readonly epoch?: EpochReport;
}

/** statusBody is ae_mdw's Status object (keys in its order) with our sync truth. Pure. */
export function statusBody(f: StatusFacts): Record<string, Json> {
  const { totals, node } = f;
  const height = totals.topHeight ?? -1;
  const nodeHeight = typeof node?.top_block_height === 'number' ? node.top_block_height : (totals.nodeHeight ?? height);
  const lag = nodeHeight - height;
  const stalled = cannotAdvance(totals.populatorStatus);
  const synced =
    totals.topHeight !== undefined && lag <= SYNCED_MAX_LAG && totals.populatorStatus !== 'reloading' && !stalled;
  return {
    mdw_async_tasks: { long_tasks: 0, producer_buffer: 0, total_pending: 0 },
    mdw_gens_per_minute: f.gensPerMinute,
    mdw_height: height,
    mdw_last_migration: Number(/^\d+/.exec(totals.lastMigration ?? '')?.[0] ?? 0),
    // not ae_mdw's: the stored chain's protocol, `known: false` for one this middleware follows with the last known rules
    mdw_protocol: f.protocol ? { ...f.protocol } : null,
    // not ae_mdw's: a hyperchain's current epoch (absent on another chain)
    ...(f.epoch ? { mdw_epoch: { ...f.epoch } } : {}),
    mdw_revision: f.revision,
    mdw_synced: synced,
    // a populator whose steps fail is neither synced nor syncing
    mdw_syncing: !synced && totals.populatorStatus !== 'stopped' && !stalled,
    mdw_tx_index: totals.txCount,
    mdw_version: MDW_COMPAT_VERSION,
    node_height: nodeHeight,
    node_progress: typeof node?.sync_progress === 'number' ? node.sync_progress : 0,
    node_revision: typeof node?.node_revision === 'string' ? node.node_revision : '',
    node_syncing: node?.syncing === true,
    node_version: typeof node?.node_version === 'string' ? node.node_version : '',
    // ours (issue 59): false while the node cannot be reached, the node_* fields then what the populator last read
    mdw_node_reachable: node !== undefined,
    // ours (issue 39): the derived areas whose derivation fails, which a synced chain does not show otherwise
    mdw_failed_areas: totals.failedAreas.map((a) => ({
      area: a.area,
      from: a.from,
      since: a.since.toISOString(),
      error: a.error,
    })),
    // ours (issue 58): the AEX-9 tokens whose events took them below zero, marked invalid and read from their state
    mdw_aex9_state_tokens: totals.aex9StateTokens,
    // ours (issue 76): the calls whose internal calls no dry-run told, per reason, never silently missing
    mdw_incomplete_areas: totals.incompleteAreas.map((a) => ({ ...a })),
    mdw_deferred_builds: totals.deferredBuilds.map((d) => ({ ...d })),
    // ours (issue 88): the stored heights an older version wrote wrongly that the populator's start reloads
    mdw_pending_repairs: totals.pendingRepairs.map((r) => ({ ...r })),
    // ours (issue 87): what the populator's start-up probe found its nodes allow, the areas they leave empty and the
    // node configuration that fills them (indexer/sync/node-gaps.ts); null until a populator probed
    mdw_node_gaps: totals.nodeProbe ?? null,
  };
}

/** gensPerMinute is the rate of the stored top between the oldest and newest sample of the last minute. Pure. */
export function gensPerMinute(samples: readonly { atMs: number; height: number }[]): number {
  const first = samples[0];
  const last = samples.at(-1);
  if (!first || !last || last.atMs <= first.atMs) return 0;
  return Math.round(((last.height - first.height) * 60_000 * 100) / (last.atMs - first.atMs)) / 100;
}

/** MAX_AGE_MS bounds how old an answered status may be: a request finding it older waits for a new reading. */
export const STATUS_MAX_AGE_MS = 1000;
const SAMPLE_WINDOW_MS = 60_000;

/**
 * StatusSource reads the status at most once per STATUS_MAX_AGE_MS, requests within that time sharing one reading. A
 * request finding the last reading older waits for a new one (issue 44: answering the previous reading and refreshing
 * behind it told a monitor polling once a minute a minute-old `mdw_synced`); a reading that fails (the database
 * restarting) is that request's failure, never an old status passed off as current. A reading waits for the node's
 * status STATUS_NODE_WAIT_MS at most, then says the node is unreachable while the node's reading goes on behind: its
 * answer, when it comes, is the next readings' (issue 79).
 */
export class StatusSource {
  readonly #db: Pool;
  readonly #replicas: ReadReplicas | undefined;
  /** the node's /v2/status, waited for STATUS_NODE_WAIT_MS at most (then undefined: unreachable) */
  readonly #nodeStatus: PromptReading<{ [key: string]: Json } | undefined>;
  readonly #revision: string;
  /** the status last read: every request within STATUS_MAX_AGE_MS answers it */
  readonly #status: BriefValue<Record<string, Json>>;
  readonly #samples: { atMs: number; height: number }[] = [];

  constructor(db: Pool, nodeStatus: () => Promise<Json>, revision: string, replicas?: ReadReplicas) {
    this.#db = db;
    this.#replicas = replicas;
    this.#nodeStatus = new PromptReading({
      read: () =>
        nodeStatus().then(
          (s) => (isJsonObject(s) ? s : undefined),
          () => undefined,
        ),
      ttlMs: STATUS_MAX_AGE_MS,
      waitMs: STATUS_NODE_WAIT_MS,
      late: () => undefined,
    });
    this.#revision = revision;
    this.#status = new BriefValue(() => this.#read(), STATUS_MAX_AGE_MS);
  }

  /** current is the status, read within the last STATUS_MAX_AGE_MS. */
  current(): Promise<Record<string, Json>> {
    return this.#status.get();
  }

  async #read(): Promise<Record<string, Json>> {
    const [totals, node, protocol, epoch] = await Promise.all([
      readServedTop(this.#db, this.#replicas, storedTotals),
      this.#nodeStatus.get(),
      storedProtocolReport(this.#db),
      currentEpochReport(this.#db),
    ]);
    const now = Date.now();
    this.#samples.push({ atMs: now, height: totals.topHeight ?? 0 });
    while (this.#samples.length > 2 && now - this.#samples[0]!.atMs > SAMPLE_WINDOW_MS) this.#samples.shift();
    return statusBody({
      totals,
      node,
      gensPerMinute: gensPerMinute(this.#samples),
      revision: this.#revision,
      protocol,
      epoch,
    });
  }
}
