/**
 * @module The populator's busy time by stage, from a V8 CPU profile (`--cpu-prof`): each sample goes to the first
 * stage, in POPULATOR_STAGES' order, that a frame of its stack belongs to (the JSON parse of an answer is the parse,
 * not the node client around it). Idle samples and those of Node's start (module loading) are left out: they are the
 * same whatever the chain. Pure.
 */

/** The parts of a `.cpuprofile` the split reads. */
export interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber?: number };
    readonly children?: readonly number[];
  }[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** A stage and what tells its frames: a pattern on `<function> <url>`. */
export type Stage = readonly [name: string, frame: RegExp];

/** Left out of the shares: waiting, and Node's start. */
const LEFT_OUT: readonly Stage[] = [
  ['idle', /^\(idle\) /],
  ['start', /run_main_module|esm\/loader|modules\/cjs\/loader/],
];

/** The populator's stages (issue 40's table in docs/benchmarks.md), the innermost kinds of work first. */
export const POPULATOR_STAGES: readonly Stage[] = [
  ['garbage collection', /^\(garbage collector\) /],
  ['JSON parse of the answers', /^parseJson(Member)? /],
  ['stored binary of each transaction', /^storedTxColumns /],
  ['rest of the transform (rows of every table)', /^transformGeneration /],
  ['COPY encoding', /^encodeRows /],
  ['contract call decoding', /contracts\/contract-decoder\.ts$/],
  ['AEX-N detection', /contracts\/aexn-/],
  ['derived areas', /src\/indexer\/derived\/|src\/db\/writes\/(stats-derive|derive-backfill)\.ts$/],
  ['writes (COPY and statements sent, answers read)', /src\/db\/|node_modules\/pg(-protocol)?\//],
  ['node client (requests, HTTP)', /src\/node\/|node_modules\/undici\//],
];

/** stageShares sums the profile's samples (ms) per stage; a sample of none of them is `other`. */
export function stageShares(profile: CpuProfile, stages: readonly Stage[] = POPULATOR_STAGES): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const shares = new Map<string, number>([...stages.map(([name]) => [name, 0] as const), ['other', 0]]);
  // a stack is classified once, however many samples it has
  const stageOf = new Map<number, string | undefined>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    if (!stageOf.has(id)) {
      const frames: string[] = [];
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const { functionName, url } = byId.get(at)!.callFrame;
        frames.push(`${functionName} ${url}`);
      }
      const first = (list: readonly Stage[]): string | undefined =>
        list.find(([, frame]) => frames.some((f) => frame.test(f)))?.[0];
      stageOf.set(id, first(LEFT_OUT) === undefined ? (first(stages) ?? 'other') : undefined);
    }
    const stage = stageOf.get(id);
    if (stage !== undefined) shares.set(stage, shares.get(stage)! + (profile.timeDeltas[i] ?? 0) / 1000);
  }
  return shares;
}

/**
 * selfTimes sums the profile's samples (ms) per function where the sample was taken (its self time): the `count`
 * largest, largest first, each named `<function> <file>:<line>` (the file without its
 * directories, the line 1-based where the profile has it). Idle samples and Node's start are left out as in stageShares.
 */
export function selfTimes(profile: CpuProfile, count: number): [name: string, ms: number][] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const leftOut = new Map<number, boolean>();
  const times = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    if (!leftOut.has(id)) {
      let out = false;
      for (let at: number | undefined = id; at !== undefined && !out; at = parent.get(at)) {
        const { functionName, url } = byId.get(at)!.callFrame;
        out = LEFT_OUT.some(([, frame]) => frame.test(`${functionName} ${url}`));
      }
      leftOut.set(id, out);
    }
    if (leftOut.get(id)) continue;
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const line = lineNumber === undefined || lineNumber < 0 ? '' : `:${lineNumber + 1}`;
    const where = url === '' ? '' : ` ${url.slice(url.lastIndexOf('/') + 1)}${line}`;
    const name = `${functionName || '(anonymous)'}${where}`;
    times.set(name, (times.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  }
  return [...times].sort((a, b) => b[1] - a[1]).slice(0, count);
}
