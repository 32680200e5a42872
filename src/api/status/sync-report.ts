/** @module `/middleware/status`: health of this data generation from the populator's sync state and the node's height now. Pure. */
import type { SyncState } from '../../db/queries/sync-state.ts';
import type { ReplicaState } from '../../db/connection/replica-watch.ts';
import type { ProtocolReport } from '../../chain/protocols.ts';
import type { EpochReport } from './current-epoch.ts';

/**
 * PROTOCOL_REPORT_SCHEMA: the OpenAPI schema of the stored chain's protocol (ProtocolReport), which both statuses
 * carry, `/middleware/status` and `/mdw/v3/status`, so both documents take it from here.
 */
export const PROTOCOL_REPORT_SCHEMA = {
  type: 'object',
  required: ['version', 'name', 'known', 'rules', 'since_height'],
  properties: {
    version: { type: 'integer' },
    name: { type: 'string', nullable: true },
    known: { type: 'boolean' },
    rules: { type: 'integer' },
    since_height: { type: 'integer', nullable: true },
  },
} as const;

/** SYNCED_MAX_LAG: a generation within this many heights of the node counts as synced. */
export const SYNCED_MAX_LAG = 3;

/** What decides the answer besides the state. */
export interface StatusInputs {
  readonly state: SyncState;
  /** the node's height as this server read it a moment ago; null when no node answered */
  readonly nodeHeight: number | null;
  /** every height from 0 to the top is stored */
  readonly contiguous: boolean;
  readonly nowMs: number;
  /** seconds: an older newest block makes the status 503 (STATUS_MAX_BLOCK_AGE) */
  readonly maxBlockAge: number;
  /** seconds: an older populator heartbeat means the populator is stuck */
  readonly heartbeatTimeout: number;
  readonly version: string;
  readonly decodeErrors: number;
  /** the read replicas this server reads, when it reads any (DATABASE_READ_URLS) */
  readonly replicas?: readonly ReplicaState[];
  /** the stored chain's protocol (undefined for an empty database) */
  readonly protocol?: ProtocolReport;
  /** a hyperchain's current epoch (undefined on another chain) */
  readonly epoch?: EpochReport;
}

/** heartbeatTimeoutSeconds: the populator beats every poll, so ten missed polls (at least a minute) mean it is stuck. */
export function heartbeatTimeoutSeconds(pollIntervalMs: number): number {
  return Math.max(60, Math.ceil((10 * pollIntervalMs) / 1000));
}

/** The populator status written on a clean stop (SyncStatus.STOPPED). */
const STOPPED = 'stopped';

/**
 * cannotAdvance is true while the populator's last step failed (SyncStatus.NODE_UNAVAILABLE or ERROR, written with
 * the error at each failed step and cleared only by a step that loaded or found nothing to load).
 */
export function cannotAdvance(populatorStatus: string): boolean {
  return populatorStatus === 'node_unavailable' || populatorStatus === 'error';
}

/**
 * statusReport keeps the original's fields (`OK`, `queue_length`, `seconds_since_last_block`,
 * `version`, `errors_last_500_blocks`) and adds what the operator's promotion gate reads (see
 * docs/api.md). `ok` (HTTP 200) needs a live populator that can advance, a reachable node and a fresh newest block;
 * `synced` needs besides a lag of at most SYNCED_MAX_LAG, no reload and no gap below the top.
 */
export function statusReport(i: StatusInputs): { ok: boolean; body: Record<string, unknown> } {
  const { state } = i;
  const blockAge = state.topTimeMs === undefined ? null : Math.max(0, Math.floor((i.nowMs - state.topTimeMs) / 1000));
  const heartbeatAge =
    state.heartbeatAt === undefined ? null : Math.max(0, Math.floor((i.nowMs - state.heartbeatAt.getTime()) / 1000));
  const lag = state.topHeight !== undefined && i.nodeHeight !== null ? i.nodeHeight - state.topHeight : null;
  const stopped = state.status === STOPPED;
  const populatorAlive = !stopped && heartbeatAge !== null && heartbeatAge <= i.heartbeatTimeout;
  const blockFresh = blockAge !== null && blockAge <= i.maxBlockAge;
  const reason = stopped
    ? 'the populator has stopped'
    : !populatorAlive
      ? 'the populator is stuck: no heartbeat'
      : i.nodeHeight === null
        ? 'the node cannot be reached'
        : cannotAdvance(state.status)
          ? `the populator cannot advance: ${state.lastError ?? state.status}`
          : !blockFresh
            ? `the newest block is ${blockAge ?? 'not yet'} seconds old (maximum ${i.maxBlockAge})`
            : undefined;
  const ok = reason === undefined;
  const synced =
    lag !== null &&
    Math.abs(lag) <= SYNCED_MAX_LAG &&
    populatorAlive &&
    state.status !== 'reloading' &&
    !cannotAdvance(state.status) &&
    i.contiguous;
  return {
    ok,
    body: {
      ...(reason === undefined ? {} : { reason }),
      OK: ok,
      height: state.topHeight ?? null,
      node_height: i.nodeHeight,
      lag,
      synced,
      contiguous: i.contiguous,
      // a protocol this middleware does not know is followed with the last known rules: shown, never a failure
      protocol: i.protocol ?? null,
      // a hyperchain's only
      ...(i.epoch === undefined ? {} : { epoch: { ...i.epoch } }),
      seconds_since_last_block: blockAge,
      queue_length: lag === null ? 0 : Math.max(0, lag),
      populator: {
        status: state.status,
        alive: populatorAlive,
        seconds_since_heartbeat: heartbeatAge,
        last_error: state.lastError ?? null,
        // derived areas behind the stored heights: derived from the stored rows beside the chain, or failing
        derivations: (state.derivations ?? []).map((d) => ({
          area: d.area,
          from: d.next,
          to: d.to,
          failing_since: d.failingSince?.toISOString() ?? null,
          error: d.error ?? null,
        })),
      },
      errors_last_500_blocks: i.decodeErrors,
      version: i.version,
      ...(i.replicas === undefined ? {} : { read_replicas: i.replicas.map(replicaReport) }),
    },
  };
}

/** replicaReport is one read replica in the status: where reads go, how far it replayed and how far behind it is. */
function replicaReport(r: ReplicaState): Record<string, unknown> {
  return {
    url: r.url,
    serving: r.serving,
    reachable: r.reachable,
    replayed_lsn: r.replayed,
    lag_seconds: r.lagSeconds,
    lag_bytes: r.lagBytes,
  };
}
