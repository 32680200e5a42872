/** @module `/middleware/status`: health of this data generation from the populator's sync state. Pure. */
import type { SyncState } from '../db/queries/stats.ts';

/** SYNCED_MAX_LAG: a generation within this many heights of the node counts as synced. */
export const SYNCED_MAX_LAG = 3;

/** What decides the answer besides the state. */
export interface StatusInputs {
  readonly state: SyncState;
  readonly nowMs: number;
  /** seconds: an older newest block makes the status 503 (STATUS_MAX_BLOCK_AGE) */
  readonly maxBlockAge: number;
  /** seconds: an older populator heartbeat means the populator is stuck */
  readonly heartbeatTimeout: number;
  readonly version: string;
  readonly decodeErrors: number;
}

/** heartbeatTimeoutSeconds: the populator beats every poll, so ten missed polls (at least a minute) mean it is stuck. */
export function heartbeatTimeoutSeconds(pollIntervalMs: number): number {
  return Math.max(60, Math.ceil((10 * pollIntervalMs) / 1000));
}

/**
 * statusReport keeps the original's fields (`OK`, `queue_length`, `seconds_since_last_block`,
 * `version`, `errors_last_500_blocks`) and adds the heights the operator and people need.
 * `ok` is false (HTTP 503) when the newest block is too old or the populator's heartbeat is stale.
 */
export function statusReport(i: StatusInputs): { ok: boolean; body: Record<string, unknown> } {
  const { state } = i;
  const blockAge = state.topTimeMs === undefined ? null : Math.max(0, Math.floor((i.nowMs - state.topTimeMs) / 1000));
  const heartbeatAge =
    state.heartbeatAt === undefined ? null : Math.max(0, Math.floor((i.nowMs - state.heartbeatAt.getTime()) / 1000));
  const lag =
    state.topHeight !== undefined && state.nodeHeight !== undefined
      ? Math.max(0, state.nodeHeight - state.topHeight)
      : null;
  const blockFresh = blockAge !== null && blockAge <= i.maxBlockAge;
  const populatorAlive = heartbeatAge !== null && heartbeatAge <= i.heartbeatTimeout;
  const ok = blockFresh && populatorAlive;
  const reason = !populatorAlive
    ? 'the populator is stuck: no heartbeat'
    : `the newest block is ${blockAge ?? 'not yet'} seconds old (maximum ${i.maxBlockAge})`;
  return {
    ok,
    body: {
      ...(ok ? {} : { reason }),
      OK: ok,
      height: state.topHeight ?? null,
      node_height: state.nodeHeight ?? null,
      lag,
      synced: lag !== null && lag <= SYNCED_MAX_LAG && state.status !== 'reloading',
      seconds_since_last_block: blockAge,
      queue_length: lag ?? 0,
      populator: {
        status: state.status,
        alive: populatorAlive,
        seconds_since_heartbeat: heartbeatAge,
        last_error: state.lastError ?? null,
      },
      errors_last_500_blocks: i.decodeErrors,
      version: i.version,
    },
  };
}
