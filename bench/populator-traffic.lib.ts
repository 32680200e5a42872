/**
 * @module The sums bench/populator-traffic.ts prints: a sampling heap profile's bytes by site and by package, and an
 * `strace -f -yy` log's system calls by name and writes by peer. Pure.
 */

/** The parts of a V8 sampling heap profile (`HeapProfiler.stopSampling`) the sums read. */
export interface SamplingProfile {
  readonly head: ProfileNode;
}

interface ProfileNode {
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly selfSize: number;
  readonly children: readonly ProfileNode[];
}

/** Bytes by name, largest first. */
export type Sums = [name: string, bytes: number][];

/** where is a frame's package (`undici`), or source folder of this project (`src/chain`), or `node:` for Node's own. */
function where(url: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pkg) return pkg[1]!;
  const own = /\/(src\/[^/]+|bench)\//.exec(url);
  if (own) return own[1]!;
  return url.startsWith('node:') ? 'node:' : url;
}

/** shortUrl is a script's path in its package or in this project. */
const shortUrl = (url: string): string =>
  /node_modules\/(.*)$/.exec(url)?.[1] ?? /\/((?:src|bench)\/.*)$/.exec(url)?.[1] ?? url;

const sorted = (sums: Map<string, number>): Sums => [...sums].sort((a, b) => b[1] - a[1]);

/**
 * allocationSites sums a profile's bytes: by site, its innermost frame in a package or in this project (Node's own and
 * builtin frames, such as `subarray`, are named before it: `subarray ← decodeAt src/chain/rlp.ts:93`), and by that
 * frame's package or folder.
 */
export function allocationSites(profile: SamplingProfile): { total: number; sites: Sums; packages: Sums } {
  const sites = new Map<string, number>();
  const packages = new Map<string, number>();
  let total = 0;
  const visit = (node: ProfileNode, caller: string, callerWhere: string, inner: readonly string[]): void => {
    const { functionName, url, lineNumber } = node.callFrame;
    const own = url !== '' && !url.startsWith('node:');
    const name = functionName || '(anonymous)';
    const site = own ? `${name} ${shortUrl(url)}:${lineNumber + 1}` : caller;
    const at = own ? where(url) : callerWhere;
    const chain = own ? [] : [name, ...inner];
    if (node.selfSize > 0) {
      const key = [...chain, site].join(' ← ');
      sites.set(key, (sites.get(key) ?? 0) + node.selfSize);
      packages.set(at, (packages.get(at) ?? 0) + node.selfSize);
      total += node.selfSize;
    }
    for (const child of node.children) visit(child, site, at, chain);
  };
  visit(profile.head, '(root)', '(root)', []);
  return { total, sites: sorted(sites), packages: sorted(packages) };
}

/** Write system calls, whose peer the counts tell apart. */
const WRITES = new Set(['write', 'writev', 'sendto', 'sendmsg', 'pwrite64']);

/** A peer's writes: calls and bytes written. */
export interface Writes {
  calls: number;
  bytes: number;
}

/**
 * syscallCounts reads an `strace -f -yy -s 8` log of a populator child (bench/indexer.lib.populate.ts) over its load,
 * from its `syncing` line to its report's line (each a write to its standard output): the calls by name, and the writes
 * by peer, a TCP socket named by its remote port (`ports`: PostgreSQL's, the node's), any other file by its kind.
 */
export function syscallCounts(
  log: string,
  ports: Readonly<Record<string, number>>,
): { byName: Map<string, number>; writes: Map<string, Writes> } {
  const byName = new Map<string, number>();
  const writes = new Map<string, Writes>();
  const peerOfPort = new Map(Object.entries(ports).map(([name, port]) => [port, name]));
  // a call split over two lines by another thread's (`<unfinished ...>`, then `<... write resumed>`): its writes' peer
  const pending = new Map<string, Writes>();
  let loading = false;
  const written = (peer: Writes | undefined, rest: string): void => {
    const result = /\)\s+= (\d+)/.exec(rest);
    if (peer && result) peer.bytes += Number(result[1]);
  };
  for (const line of log.split('\n')) {
    const resumed = /^(\d+)\s+<\.\.\. (\w+) resumed>(.*)$/.exec(line);
    if (resumed) {
      if (loading) written(pending.get(resumed[1]!), resumed[3]!);
      pending.delete(resumed[1]!);
      continue;
    }
    const call = /^(\d+)\s+(\w+)\((.*)$/.exec(line);
    if (!call) continue;
    const [, pid, name, args] = call as unknown as [string, string, string, string];
    if (WRITES.has(name) && args.startsWith('1<')) {
      // the load's window: from the `syncing` line to the report (a JSON line)
      if (args.includes('"syncing')) loading = true;
      else if (/, "\{/.test(args)) loading = false;
    }
    if (!loading) continue;
    byName.set(name, (byName.get(name) ?? 0) + 1);
    if (!WRITES.has(name)) continue;
    const fd = /^\d+<(.*?)>,/.exec(args)?.[1] ?? '';
    const port = /->(?:\[[^\]]*\]|[^:\]]*):(\d+)\]$/.exec(fd)?.[1];
    const peerName = port !== undefined ? (peerOfPort.get(Number(port)) ?? `port ${port}`) : fd.split(/[:<]/)[0]!;
    const peer = writes.get(peerName) ?? { calls: 0, bytes: 0 };
    writes.set(peerName, peer);
    peer.calls++;
    if (args.endsWith('<unfinished ...>')) pending.set(pid, peer);
    else written(peer, args);
  }
  return { byName, writes };
}
