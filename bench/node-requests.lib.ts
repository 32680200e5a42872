/**
 * @module What a populator asks its nodes, by kind, and what the nodes can serve of it (bench/sync.ts): the kind of
 * each request (bench/node-requests.hook.ts counts them in the populator's process) and the node bound, each
 * regulator's workers ÷ its worker-time per generation, from a devnode's counts (`GET /v2/debug/dev/pacing`).
 */

/** RequestKinds are a load's requests by kind: how many, how many refused (503), the read-only calls they carried. */
export type RequestKinds = Record<string, { requests: number; refused: number; calls: number }>;

/** the GETs the populator sends, by path (after `/v2` or `/v3`), named for what it reads them for */
const GETS: readonly [RegExp, string][] = [
  [/^\/generations\/height\//, 'GET generation (key block, micro block hashes)'],
  [/^\/key-blocks\/current/, 'GET key-blocks/current (the top)'],
  [/^\/key-blocks\/height\//, 'GET key block by height'],
  [/^\/micro-blocks\/hash\/[^/]+\/header$/, 'GET micro block header'],
  [/^\/micro-blocks\/hash\/[^/]+\/transactions$/, "GET micro block's transactions"],
  [/^\/transactions\/[^/]+\/info$/, "GET transaction's info"],
  [/^\/accounts\/[^/]+\/hash\//, 'GET account at a block'],
  [/^\/accounts\//, 'GET account'],
  [/^\/contracts\/[^/]+\/code$/, "GET contract's code"],
  [/^\/status$/, 'GET status'],
];

/**
 * requestKind names what a request to a node asks for, from its method, path and (a dry-run's) body; `calls` are a
 * dry-run's read-only calls (its `call_req` items). A dry-run that carries none replays a transaction (a contract
 * call, with `tx_events`: its internal calls). Pure.
 */
export function requestKind(method: string, path: string, body: string | undefined): { kind: string; calls: number } {
  const p = path.replace(/^\/v[23]/, '').replace(/\?.*$/, '');
  if (method === 'POST' && p.endsWith('dry-run')) {
    const calls = body?.match(/"call_req"/g)?.length ?? 0;
    return { kind: calls > 0 ? 'POST dry-run: read-only contract calls' : 'POST dry-run: a call replayed', calls };
  }
  const rule = method === 'GET' ? GETS.find(([re]) => re.test(p)) : undefined;
  // an id in a path the table lacks: one kind for every id
  return { kind: rule ? rule[1] : `${method} ${p.replace(/[a-z]{2}_[1-9A-HJ-NP-Za-km-z]+/g, '{id}')}`, calls: 0 };
}

/** QueueCounts are one regulator's counts on a devnode (`http_read`: GETs; `http_update`: POSTs, the dry-runs). */
export interface QueueCounts {
  readonly workers: number;
  readonly answers: number;
  /** the summed milliseconds its answers held a worker */
  readonly answerMs: number;
  readonly refused: number;
}

/** QueueNeed is one regulator's share of a load, per generation, and the generations a second its workers serve. */
export interface QueueNeed {
  readonly answersPerGeneration: number;
  readonly refusedPerGeneration: number;
  readonly serviceMs: number;
  /** the nodes' workers of this regulator, summed */
  readonly workers: number;
  readonly generationsPerSecond: number;
}

export type QueueName = 'read' | 'update';

/** NodeBound is what the nodes serve of a load: each regulator's need and the busier one's generations a second. */
export interface NodeBound {
  readonly read: QueueNeed;
  readonly update: QueueNeed;
  readonly generationsPerSecond: number;
  readonly bound: QueueName;
  /**
   * the generations a second if the two regulators' work goes one after the other, never side by side, as when a
   * catch-up left its replays (the dry-runs) to the backfill at its end (before issue 87's overlap)
   */
  readonly oneAfterOther: number;
}

/**
 * nodeBound is what the nodes serve of a load, from each node's regulators' counts before and after it: per
 * regulator, its workers over all nodes ÷ its worker-milliseconds per generation (answers per generation × the
 * service time: `latencyMs` where the node answers in a flat time, else the mean time an answer held a worker as
 * the devnode counted it, for a node profile); the busier regulator bounds. Refusals hold no worker. Pure.
 */
export function nodeBound(
  before: readonly Record<QueueName, QueueCounts>[],
  after: readonly Record<QueueName, QueueCounts>[],
  generations: number,
  latencyMs: number | undefined,
): NodeBound {
  const need = (name: QueueName): QueueNeed => {
    const delta = (count: (q: QueueCounts) => number): number =>
      after.reduce((sum, a, i) => sum + count(a[name]) - count(before[i]![name]), 0);
    const answers = delta((q) => q.answers);
    const serviceMs = latencyMs ?? (answers > 0 ? delta((q) => q.answerMs) / answers : 0);
    const workers = after.reduce((sum, a) => sum + a[name].workers, 0);
    const workerMsPerGeneration = (answers / generations) * serviceMs;
    return {
      answersPerGeneration: answers / generations,
      refusedPerGeneration: delta((q) => q.refused) / generations,
      serviceMs,
      workers,
      generationsPerSecond: workerMsPerGeneration > 0 ? (1000 * workers) / workerMsPerGeneration : Infinity,
    };
  };
  const read = need('read');
  const update = need('update');
  const oneAfterOther = 1 / (1 / read.generationsPerSecond + 1 / update.generationsPerSecond);
  return read.generationsPerSecond <= update.generationsPerSecond
    ? { read, update, generationsPerSecond: read.generationsPerSecond, bound: 'read', oneAfterOther }
    : { read, update, generationsPerSecond: update.generationsPerSecond, bound: 'update', oneAfterOther };
}

/** kindLines are a load's requests per generation by kind, most first, with the refusals and calls they had. Pure. */
export function kindLines(kinds: RequestKinds, generations: number): string[] {
  const rows = Object.entries(kinds).sort((a, b) => b[1].requests - a[1].requests);
  const total = rows.reduce((sum, [, k]) => sum + k.requests, 0);
  return [
    `requests per generation by kind (${(total / generations).toFixed(2)} in all, refusals included):`,
    ...rows.map(
      ([name, k]) =>
        `  ${(k.requests / generations).toFixed(3).padStart(7)}  ${name}` +
        (k.calls > 0 ? ` (${(k.calls / k.requests).toFixed(2)} calls each)` : '') +
        (k.refused > 0 ? ` (${k.refused} refused: 503)` : ''),
    ),
  ];
}
