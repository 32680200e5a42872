/**
 * @module Which areas a node's configuration leaves as gaps, and the node configuration that fills them: read from
 * what the start-up probe found (node/node-probe.ts), said in one log line per node and kept for `/mdw/v3/status`
 * (`mdw_node_gaps`). Pure.
 */
import type { Json } from '../../chain/json.ts';
import type { NodeFindings } from '../../node/node-probe.ts';

/** AREAS: what each area that a node's configuration can leave empty is, as the status and the docs name it. */
export const AREAS = {
  tokens: 'AEX-9 and AEX-141 detection, meta info and balances (dry-runs)',
  int_calls: "contract calls' internal calls and the AE they move (dry-run replays)",
  hyperchain: "a hyperchain's staking and election reads (dry-runs)",
  verify_state: "`mdw -v --full`'s state check (dry-runs)",
  call_infos: "old contract calls' call info (stored without it)",
  pending_txs:
    "pending transactions (/v3/transactions/pending, websocket tx_update; the node's mempool, a debug endpoint)",
} as const;
export type Area = keyof typeof AREAS;

/** The node configuration (`key.path: value`) that fills each lack a probe can find. */
const CONFIG = {
  dryRun: ['http.endpoints.dry-run: true'],
  gasCap: ['http.external.gas_limit: 6000000'],
  debug: ['http.endpoints.debug: true', 'http.internal.debug_endpoints: true'],
  history: ['chain.garbage_collection.enabled: false'],
} as const;

/** Why a node leaves areas empty: the finding that is off, the areas it empties and the configuration that fills them. */
interface Lack {
  readonly finding: keyof NodeFindings;
  readonly because: string;
  readonly areas: readonly Area[];
  readonly config: readonly string[];
}

/** the areas every dry-run serves (the hyperchain's only on a hyperchain) */
const DRY_RUN_AREAS: readonly Area[] = ['tokens', 'int_calls', 'hyperchain', 'verify_state'];

const LACKS: readonly Lack[] = [
  { finding: 'dryRun', because: 'no external dry-run', areas: DRY_RUN_AREAS, config: CONFIG.dryRun },
  {
    finding: 'gasCap',
    because: "its dry-run gas cap refuses the middleware's requests (6 calls, 6000000 gas)",
    areas: DRY_RUN_AREAS,
    config: CONFIG.gasCap,
  },
  { finding: 'debugEndpoints', because: 'no debug endpoints', areas: ['pending_txs'], config: CONFIG.debug },
  {
    finding: 'stateHistory',
    because: 'old state garbage-collected (410)',
    areas: ['tokens', 'int_calls', 'hyperchain', 'call_infos'],
    config: CONFIG.history,
  },
];

/** AreaGap: an area a node leaves empty, and why. */
export interface AreaGap {
  readonly area: Area;
  readonly because: readonly string[];
}

/** NodeGaps: a node's findings, the areas it leaves empty and the configuration lines that would fill them. */
export interface NodeGaps {
  readonly findings: NodeFindings;
  readonly gaps: readonly AreaGap[];
  /** `key.path: value` lines, in the order of the lacks */
  readonly config: readonly string[];
}

/** nodeGaps reads a node's findings: what it leaves empty (a hyperchain's reads only on one). */
export function nodeGaps(findings: NodeFindings, opts: { readonly hyperchain: boolean }): NodeGaps {
  const lacks = LACKS.filter((l) => findings[l.finding] === 'off');
  const gaps = new Map<Area, string[]>();
  for (const lack of lacks)
    for (const area of lack.areas) {
      if (area === 'hyperchain' && !opts.hyperchain) continue;
      gaps.set(area, [...(gaps.get(area) ?? []), lack.because]);
    }
  return {
    findings,
    gaps: [...gaps].map(([area, because]) => ({ area, because })),
    config: lacks.flatMap((l) => l.config),
  };
}

/**
 * middlewareGaps are the areas the middleware leaves empty: those every node leaves (a dry-run or a read one node
 * refuses goes on to the next), the pending transactions where the node of NODE_INTERNAL_URL (the first) does.
 */
export function middlewareGaps(nodes: readonly NodeGaps[]): Area[] {
  const left = (node: NodeGaps | undefined): Set<Area> => new Set(node?.gaps.map((g) => g.area) ?? []);
  const [first, ...rest] = nodes;
  const every = [...left(first)].filter((area) => area === 'pending_txs' || rest.every((n) => left(n).has(area)));
  return every;
}

/**
 * configYaml writes `key.path: value` lines as the node's YAML configuration file nests them, keys in the order
 * first given. Pure.
 */
export function configYaml(lines: readonly string[]): string {
  type Tree = Map<string, Tree | string>;
  const root: Tree = new Map();
  for (const line of lines) {
    const [path = '', value = ''] = line.split(': ');
    const keys = path.split('.');
    let node = root;
    for (const key of keys.slice(0, -1)) {
      const next = node.get(key);
      if (next instanceof Map) node = next;
      else {
        const made: Tree = new Map();
        node.set(key, made);
        node = made;
      }
    }
    node.set(keys.at(-1)!, value);
  }
  const write = (tree: Tree, indent: string): string =>
    [...tree]
      .map(([key, v]) =>
        v instanceof Map ? `${indent}${key}:\n${write(v, `${indent}  `)}` : `${indent}${key}: ${v}\n`,
      )
      .join('');
  return write(root, '');
}

/** logLine is the message of a node's one log line: its gaps and the configuration that fills them, or none. Pure. */
export function logLine(node: NodeGaps): string {
  if (node.gaps.length === 0) return 'node probe: this node leaves no area empty';
  const areas = node.gaps.map((g) => g.area).join(', ');
  const why = [...new Set(node.gaps.flatMap((g) => g.because))].join('; ');
  return `node probe: this node leaves ${areas} empty (${why}); node configuration that fills them: ${node.config.join(', ')}`;
}

/** statusJson is a node's report as `/mdw/v3/status`'s `mdw_node_gaps.nodes[]` has it (snake_case). Pure. */
export function statusJson(index: number, node: NodeGaps): { [key: string]: Json } {
  const f = node.findings;
  return {
    node: index,
    dry_run: f.dryRun,
    internal_dry_run: f.internalDryRun,
    debug_endpoints: f.debugEndpoints,
    gas_cap: f.gasCap,
    dry_run_time_limit: f.dryRunTimeLimit,
    state_history: f.stateHistory,
    gaps: node.gaps.map((g) => ({ area: g.area, because: [...g.because] })),
    config: configYaml(node.config),
  };
}

/** probeReport is what the populator stores for `/mdw/v3/status` (`mdw_node_gaps`): when, each node, the gaps. Pure. */
export function probeReport(nodes: readonly NodeGaps[], probedAt: Date): { [key: string]: Json } {
  return {
    probed_at: probedAt.toISOString(),
    gaps: middlewareGaps(nodes),
    nodes: nodes.map((n, i) => statusJson(i, n)),
  };
}
