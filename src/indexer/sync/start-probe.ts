/**
 * @module The populator's start-up probe: every node asked at once what it allows (node/node-probe.ts), one log line
 * per node saying the areas it leaves empty and the node configuration that fills them (node-gaps.ts), and the
 * report `/mdw/v3/status` answers as `mdw_node_gaps`. The sync does not wait for it.
 */
import type { Json } from '../../chain/json.ts';
import type { Logger } from '../../base/log.ts';
import { probeNode, PROBE_TIMEOUT_MS } from '../../node/node-probe.ts';
import type { NodeMeters } from '../../node/chain-identity.ts';
import { configYaml, logLine, nodeGaps, probeReport } from './node-gaps.ts';

/** What the probe asks: the nodes (NODE_URLS, NODE_URL first), the first one's internal API, the chain's kind. */
export interface StartProbeOptions {
  readonly urls: readonly string[];
  /** NODE_INTERNAL_URL: the internal API of the first node */
  readonly internalUrl: string | undefined;
  readonly timeoutMs: number;
  /** whether the chain is a hyperchain (its staking and election reads are an area then) */
  readonly hyperchain: boolean;
  readonly signal?: AbortSignal;
  /** the role's node metrics: the probe's requests count as its clients' do */
  readonly meters?: NodeMeters;
}

/**
 * probeNodes probes every node at once, each request bounded by the smaller of the node timeout and
 * PROBE_TIMEOUT_MS, logs one line per node (a warning where it leaves an area empty) and resolves with the report.
 */
export async function probeNodes(opts: StartProbeOptions, log: Logger): Promise<{ [key: string]: Json }> {
  const timeoutMs = Math.min(opts.timeoutMs, PROBE_TIMEOUT_MS);
  const findings = await Promise.all(
    opts.urls.map((url, i) =>
      probeNode({
        url,
        ...(i === 0 && opts.internalUrl !== undefined ? { internalUrl: opts.internalUrl } : {}),
        timeoutMs,
        signal: opts.signal,
        meters: opts.meters,
      }),
    ),
  );
  // a populator stopped meanwhile says nothing of nodes it stopped asking
  opts.signal?.throwIfAborted();
  const nodes = findings.map((f) => nodeGaps(f, { hyperchain: opts.hyperchain }));
  nodes.forEach((node, i) => {
    const fields = {
      node: opts.urls[i],
      ...node.findings,
      gaps: node.gaps.map((g) => g.area),
      ...(node.config.length > 0 ? { config: configYaml(node.config) } : {}),
    };
    if (node.gaps.length > 0) log.warn(fields, logLine(node));
    else log.info(fields, logLine(node));
  });
  return probeReport(nodes, new Date());
}
