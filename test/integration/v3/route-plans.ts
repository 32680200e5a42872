/**
 * @module Reads a statement's plan as a large database would run it (route-plans-suite.ts): the scans of the tables that
 * grow with the chain that read more than a page or a probe, where an index or a kept count would do (issue 57).
 */

/** A node of `EXPLAIN (FORMAT JSON)`'s plan. */
export interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Relation Name'?: string;
  readonly 'Index Name'?: string;
  readonly 'Index Cond'?: string;
  readonly 'Recheck Cond'?: string;
  readonly Filter?: string;
  readonly 'Parent Relationship'?: string;
  readonly Plans?: readonly PlanNode[];
}

/**
 * LARGE: the tables that grow with the chain's transactions, each with the columns an equality on which selects a
 * bounded set of its rows (a generation's, a transaction's, one object's own few rows). A scan of one of them by any
 * other condition reads a part of the chain: it must stream into a LIMIT (a keyset page), never into a sort, an
 * aggregate or a hash, nor run whole per row of an outer scan.
 */
export const LARGE: Readonly<Record<string, readonly string[]>> = {
  transactions: ['height', 'hash'],
  account_transactions: ['height'],
  micro_blocks: ['height', 'hash'],
  contract_calls: ['height', 'tx_hash'],
  contract_remote_calls: ['height'],
  contract_internal_calls: ['height'],
  internal_transfers: ['height', 'ref_tx_hash'],
  aex9_events: ['height', 'tx_hash'],
  aex9_transfers: ['height', 'tx_hash'],
  aex9_event_balances: ['height'],
  aex141_events: ['height', 'tx_hash'],
  dex_swaps: ['height', 'tx_hash'],
  name_events: ['height', 'tx_hash', 'name_hash'],
  name_pointers: ['height', 'name_hash'],
  name_state: ['name_hash'],
  oracle_queries: ['height', 'query_id'],
  oracle_responses: ['height', 'query_id'],
  channel_events: ['height'],
  channel_totals: ['channel_id'],
  spend_heights: ['height'],
  account_balance_changes: ['height'],
  account_ids: ['num', 'key'],
};

/**
 * Nodes that read their whole input before they give a row: a scan below one reads all it selects. An incremental sort
 * is not one: it sorts the rows of one value of its presorted prefix (a position's) at a time.
 */
const BLOCKING = new Set([
  'Sort',
  'Aggregate',
  'Hash',
  'Materialize',
  'WindowAgg',
  'SetOp',
  'Group',
  'Gather Merge',
  'Gather',
]);

const SCANS = new Set(['Seq Scan', 'Index Scan', 'Index Only Scan', 'Bitmap Heap Scan', 'Tid Scan', 'Sample Scan']);

/** A scan of a large table that reads more than the plan needs. */
export interface Finding {
  readonly table: string;
  readonly scan: string;
  readonly why: string;
}

/** Partial indexes that hold a bounded set of their table's rows, with what it is. */
const NARROW_INDEXES: Readonly<Record<string, string>> = {
  contract_calls_pruned: 'the calls whose info every node had pruned (a probe for one at or above a height)',
  contract_calls_decode_errors:
    "the calls whose decoding failed (migration 1068), of which the status counts the last 500 heights': only them",
};

/** conditionOf is the index condition of a scan (a bitmap heap scan's from its bitmap index scans). */
function conditionOf(node: PlanNode): string {
  if (node['Node Type'] === 'Bitmap Heap Scan')
    return [node['Recheck Cond'] ?? '', ...(node.Plans ?? []).map(conditionOf)].join(' ');
  return node['Index Cond'] ?? '';
}

/**
 * isNarrow: the condition fixes one of the table's bounding columns by equality (`height = …`, `hash = ANY (…)`). A
 * scan's filter counts too: with sorts disabled the planner walks another index in the order asked and filters a
 * name's few rows out of it, where at scale it takes that column's index and sorts them.
 */
function isNarrow(table: string, condition: string): boolean {
  return (LARGE[table] ?? []).some((column) => new RegExp(`\\(${column} = `).test(condition));
}

/**
 * largeScans lists the plan's scans of large tables that are not narrow and do not stream into a LIMIT: a sequential
 * scan anywhere, an index walk under a sort, aggregate or hash, or one run whole for each row of an outer scan.
 */
export function largeScans(root: PlanNode): Finding[] {
  const found: Finding[] = [];
  const visit = (node: PlanNode, limited: boolean, under: string): void => {
    const type = node['Node Type'];
    const table = node['Relation Name'];
    if (SCANS.has(type) && table !== undefined && LARGE[table] !== undefined) {
      const scan = `${type}${node['Index Name'] ? ` using ${node['Index Name']}` : ''}`;
      if (type === 'Seq Scan' || type === 'Sample Scan')
        found.push({ table, scan, why: 'reads the whole table: no index serves the condition' });
      else if (
        !isNarrow(table, `${conditionOf(node)} ${node.Filter ?? ''}`) &&
        !limited &&
        NARROW_INDEXES[node['Index Name'] ?? ''] === undefined
      )
        found.push({
          table,
          scan,
          why: `reads every row it selects (${under}): ${conditionOf(node) || 'no condition'}`,
        });
    }
    for (const child of node.Plans ?? []) {
      const relation = child['Parent Relationship'];
      // an init plan or a CTE hangs under the node that uses it first, a LIMIT too, and runs whole all the same
      if (relation === 'InitPlan' || relation === 'SubPlan') visit(child, false, 'a sub-plan without a LIMIT');
      else if (type === 'Limit') visit(child, true, '');
      else if (BLOCKING.has(type)) visit(child, false, `into a ${type}`);
      else if (relation === 'Inner' && (type === 'Nested Loop' || type === 'Hash Join'))
        visit(child, false, 'whole for each outer row');
      else visit(child, limited, under || 'with no LIMIT');
    }
  };
  visit(root, false, 'with no LIMIT');
  return found;
}

/**
 * PLANNER: the settings under which a small test database is planned as a large one would be: a sequential scan, a
 * sort, a hash or a materialization looks cheap on a few hundred rows and is chosen over the index walk the large table gets,
 * so each is taken only where no index path exists (PostgreSQL adds a prohibitive cost to a disabled node, never
 * refuses a plan).
 */
export const PLANNER: readonly string[] = [
  'enable_seqscan = off',
  'enable_sort = off',
  'enable_hashjoin = off',
  'enable_hashagg = off',
  'enable_material = off',
  'enable_mergejoin = off',
  'random_page_cost = 1',
];
