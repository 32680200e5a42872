/** @module The shape table of ae_mdw's Status (status-source.ts renders it), and GraphQL's SyncStatus read from it. */
import {
  bool,
  int,
  list,
  nullable,
  num,
  obj,
  object,
  only,
  optional,
  shape,
  str,
  type Field,
} from '../../../shapes/shape-table.ts';
import { PROTOCOL_REPORT_SCHEMA } from '../../status/sync-report.ts';
import { EPOCH_REPORT_SCHEMA } from '../../status/current-epoch.ts';

/** a finding of the start-up probe: on, off, or unknown (no answer, or one that tells nothing) */
const allowed = { kind: 'string', enum: ['on', 'off', 'unknown'] } as const;

/** mdw_node_gaps: when the populator probed, the areas every node leaves empty, and each node's findings */
const NODE_GAPS = {
  probed_at: str,
  gaps: list(str),
  nodes: list(
    object(
      {
        node: int,
        dry_run: allowed,
        internal_dry_run: allowed,
        debug_endpoints: allowed,
        gas_cap: allowed,
        dry_run_time_limit: allowed,
        state_history: allowed,
        gaps: list(object({ area: str, because: list(str) }, true)),
        config: str,
      },
      true,
    ),
  ),
};

/** ae_mdw's GraphQL names the stored top `lastSyncedHeight` and answers `partial` while it is catching up */
const syncFields: Record<string, Field> = {
  partial: { ...only('graphql', bool), from: 'mdw_syncing' },
  last_synced_height: { ...only('graphql', int), from: 'mdw_height' },
};

export const STATUS = shape(
  { openapi: 'Status', graphql: ['Status'] },
  {
    mdw_gens_per_minute: num,
    mdw_height: int,
    mdw_last_migration: int,
    // not ae_mdw's: the stored chain's protocol, the same schema as /middleware/status's
    mdw_protocol: only('openapi', { kind: 'object', nullable: true, schema: PROTOCOL_REPORT_SCHEMA }),
    // not ae_mdw's: a hyperchain's current epoch (absent on another chain), the same schema as /middleware/status's
    mdw_epoch: only('openapi', optional({ kind: 'object', schema: EPOCH_REPORT_SCHEMA })),
    mdw_revision: str,
    mdw_synced: bool,
    mdw_syncing: bool,
    mdw_tx_index: int,
    mdw_version: str,
    node_height: int,
    node_progress: num,
    node_revision: str,
    node_syncing: bool,
    node_version: str,
    // not ae_mdw's: whether the node answered this reading
    mdw_node_reachable: only('openapi', bool),
    mdw_failed_areas: only('openapi', list(object({ area: str, from: int, since: str, error: str }, true))),
    // not ae_mdw's: the AEX-9 tokens whose balances are read from their contracts' state (docs/api-v3.md)
    mdw_aex9_state_tokens: only('openapi', int),
    // not ae_mdw's: the int_calls area's calls no dry-run told, per reason, with the first and last height of each
    mdw_incomplete_areas: only(
      'openapi',
      list(object({ area: str, reason: str, calls: int, first_height: int, last_height: int }, true)),
    ),
    // not ae_mdw's: the indexes and tables only queries read that a catch-up from genesis builds at the top, and which
    // is being built
    mdw_deferred_builds: only('openapi', list(object({ name: str, kind: str, state: str, since: str }, true))),
    // not ae_mdw's: the stored heights an older version wrote wrongly that the populator's start reloads (1142)
    mdw_pending_repairs: only(
      'openapi',
      list(object({ repair: str, stage: str, heights: int, first_height: int, last_height: int }, true)),
    ),
    // not ae_mdw's: what the populator's start-up probe found its nodes allow (indexer/sync/node-gaps.ts), null before
    mdw_node_gaps: only('openapi', nullable(object(NODE_GAPS, true))),
    mdw_async_tasks: only('graphql', obj),
    ...syncFields,
  },
);

export const SYNC_STATUS = shape({ graphql: ['SyncStatus'] }, syncFields);
