/** @module ae_mdw's /v3/status, answered from memory: the stored totals and the node's status, refreshed at most once a second. */
import { isJsonObject, stringifyJson, type Json } from '../../../chain/json.ts';
import { storedTotals, type StoredTotals } from '../../../db/queries/sync-state.ts';
import { storedProtocolReport } from '../../../db/queries/blocks.ts';
import type { ProtocolReport } from '../../../chain/protocols.ts';
import type { Pool } from '../../../db/pool.ts';
import type { ReadReplicas } from '../../../db/read-replicas.ts';
import { readServedTop } from '../../served-top.ts';
import { cannotAdvance, SYNCED_MAX_LAG } from '../../status.ts';

/**
 * MDW_COMPAT_VERSION is the ae_mdw release whose /v3 we answer like. The SDK's Middleware accepts
 * 1.81.0 ≤ version < 2.0.0; our own build is in `mdw_revision`.
 */
export const MDW_COMPAT_VERSION = '1.107.1';

/** What the status is computed from. */
export interface StatusFacts {
  readonly totals: StoredTotals;
  /** the node's /v2/status, or undefined when it did not answer */
  readonly node: { [key: string]: Json } | undefined;
  readonly gensPerMinute: number;
  readonly revision: string;
  /** the stored chain's protocol (undefined for an empty database) */
  readonly protocol?: ProtocolReport;
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
    // ours (issue 39): the derived areas whose derivation fails, which a synced chain does not show otherwise
    mdw_failed_areas: totals.failedAreas.map((a) => ({
      area: a.area,
      from: a.from,
      since: a.since.toISOString(),
      error: a.error,
    })),
  };
}

/** gensPerMinute is the rate of the stored top between the oldest and newest sample of the last minute. Pure. */
export function gensPerMinute(samples: readonly { atMs: number; height: number }[]): number {
  const first = samples[0];
  const last = samples.at(-1);
  if (!first || !last || last.atMs <= first.atMs) return 0;
  return Math.round(((last.height - first.height) * 60_000 * 100) / (last.atMs - first.atMs)) / 100;
}

const MAX_AGE_MS = 1000;
const SAMPLE_WINDOW_MS = 60_000;

/**
 * StatusSource keeps the last status in memory. A request older than MAX_AGE_MS starts one refresh
 * (never two at once) and is answered with the value it had, so answers cost no I/O; only the very
 * first request waits. A refresh nobody waits for that fails (the database restarting) is handed to
 * `onRefreshFailed` and the last status stays: a background failure never ends the process.
 */
export class StatusSource {
  readonly #db: Pool;
  readonly #replicas: ReadReplicas | undefined;
  readonly #nodeStatus: () => Promise<Json>;
  readonly #revision: string;
  /** the status as JSON text: answers send it as it is */
  #text: string | undefined;
  #at = 0;
  #refreshing: Promise<void> | undefined;
  readonly #samples: { atMs: number; height: number }[] = [];
  readonly #onRefreshFailed: (err: unknown) => void;

  constructor(
    db: Pool,
    nodeStatus: () => Promise<Json>,
    revision: string,
    onRefreshFailed: (err: unknown) => void,
    replicas?: ReadReplicas,
  ) {
    this.#db = db;
    this.#replicas = replicas;
    this.#nodeStatus = nodeStatus;
    this.#revision = revision;
    this.#onRefreshFailed = onRefreshFailed;
  }

  /** current is the status as JSON text; it rejects only while no status was ever read. */
  async current(): Promise<string> {
    if (Date.now() - this.#at > MAX_AGE_MS && !this.#refreshing) {
      const refresh = this.#refresh().finally(() => (this.#refreshing = undefined));
      this.#refreshing = refresh;
      // the first request awaits it (and answers its failure); every later refresh runs in the background
      if (this.#text !== undefined) refresh.catch(this.#onRefreshFailed);
    }
    if (this.#text === undefined) await this.#refreshing;
    return this.#text!;
  }

  async #refresh(): Promise<void> {
    const [totals, node, protocol] = await Promise.all([
      readServedTop(this.#db, this.#replicas, storedTotals),
      this.#nodeStatus().then(
        (s) => (isJsonObject(s) ? s : undefined),
        () => undefined,
      ),
      storedProtocolReport(this.#db),
    ]);
    const now = Date.now();
    this.#samples.push({ atMs: now, height: totals.topHeight ?? 0 });
    while (this.#samples.length > 2 && now - this.#samples[0]!.atMs > SAMPLE_WINDOW_MS) this.#samples.shift();
    this.#text = stringifyJson(
      statusBody({ totals, node, gensPerMinute: gensPerMinute(this.#samples), revision: this.#revision, protocol }),
    );
    this.#at = now;
  }
}
