/**
 * @module Own instructions per transaction of the working tree's load (B) against older commits' (A) (issue 88: "own
 * CPU per transaction ≤ 1.1 × 0.2.0's" settled in a measure the machine's load does not move; bench/populator-ab.ts's
 * CPU seconds move ±10 % from day to day for the same code). Each side's populator (bench/indexer.lib.populate.ts of
 * its checkout, bench/checkout.lib.ts) loads the devnode chains bench/instructions.ts reads (`--seed perf`, the A/B's
 * fixed genesis, no latency; 800 and 2 400 generations) into an empty schema of a PostgreSQL of its own, configured
 * alike as a deployment on the devnode's chain (REWARD_RULES=devnode, its genesis accounts and hard-fork files): the
 * populator under cachegrind as bench/instructions.ts counts it (Node `--single-threaded --predictable`), the
 * server's every backend under cachegrind as bench/postgres-instructions.ts counts them (bench/postgres-count.lib.ts,
 * net of the postmaster's count; no parallel workers, so that a backend does all of its statements' work). Each
 * side migrates its own schema (an older commit has other migrations): its start, its migrations and its
 * connections' cancel in the difference of the two chains' counts over the difference of their transactions (the
 * bare client's count, bench/bare-client.lib.ts). Every side runs with all of its derived areas (0.2.0 has 8 of the
 * working tree's 11: no internal calls, channels or spends), and each load is checked to have stopped with none
 * pending. Left out on both sides, unlike populator-ab's CPU seconds: the kernel's work (valgrind counts user space)
 * and PostgreSQL's checkpointer, WAL writer and background writer, whose wake-ups follow the clock and so the load.
 * The populator's count moved ±8 % a transaction run to run. Not by its batches: every run cuts them alike (each waits
 * for its generations in chain order up to BATCH_TRANSACTIONS). Taken out (instructions.lib.ts): the devnode's 503s
 * under the machine's load, each asked again, and a poll of the node's top per 2 s of a slowed-down clock. Some loads
 * asked ~2 900 requests more, at ~0.37 M instructions each (800 generations: 9 421 against 6 537, +1.06 G): a step that
 * failed under valgrind, whose retry asked its batch, the one prepared ahead and the fetch-ahead's window again; the
 * fetch-ahead keeps them now, so a failed step moves the count little (an older side's still does: each load's node
 * requests and warnings are printed, and a load above its side's usual count is no measure of its code). What fails
 * is not known yet. Left as well: V8's collections, whose heap grows by their
 * measured speed and whose work is what is live when they come (the answers' timing): two loads of 800 generations
 * 14.57 and 14.69 G. V8's fixed schedule (`--predictable-gc-schedule --no-incremental-marking`) is no cure: four such
 * loads still 15.60–16.20 G, and it collects unlike any deployment (main ÷ 0.2.0 came out 1.229, populator 1 026k ÷
 * 735k a tx, where the default schedule gave 1.07–1.17). So: rounds. Each round loads each chain once per side, the
 * sides in turn; prints each side's populator, PostgreSQL and own (their sum) instructions per transaction, the median
 * of the rounds and their range, and B ÷ A of the medians.
 *
 *   node bench/own-instructions-ab.ts   (make bench ONLY=own-instructions-ab; needs valgrind; 5–10 min a side at
 *                                        load 2–8)
 *   BENCH_OWN_AB_COMMITS=8ad1e69e,bbc7ed24   the A sides (default 8ad1e69e, release 0.2.0: issue 88's baseline)
 *   BENCH_OWN_AB_GENERATIONS=800,2400        the two chains' lengths, the shorter first
 *   BENCH_OWN_AB_ROUNDS=1                    rounds (BENCH_OWN_AB_COMMITS= and 2 or 3 rounds: B's spread alone)
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { bareClient } from './bare-client.lib.ts';
import { extractCommit, type Checkout } from './checkout.lib.ts';
import { derivedWhole } from './derived-whole.lib.ts';
import { killChildrenOnExit, median, type DevnodeChild } from './http.lib.ts';
import {
  countedChildEnv,
  countInstructions,
  ownPerTransaction,
  startCountedChain,
  valgrindAvailable,
  type OwnPerTransaction,
} from './instructions.lib.ts';
import { createDatabase, loadInstructions, startCountedServer } from './postgres-count.lib.ts';
import { writeResult } from './results.lib.ts';

const COMMITS = (process.env.BENCH_OWN_AB_COMMITS ?? '8ad1e69e').split(',').filter(Boolean);
// past 800 generations: V8 still compiles the populator's functions after 200 (828 compilations in a load of 200, 1 313
// in one of 800), which a 200/800 difference counts per transaction and a long catch-up pays once
const LENGTHS = (process.env.BENCH_OWN_AB_GENERATIONS ?? '800,2400').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_OWN_AB_ROUNDS ?? '1');
const NEW = new URL('..', import.meta.url).pathname;
/** the bare client's slots, as bench/instructions.ts reads the chains */
const SLOTS = 32;
/** a parallel worker is no backend in the server's log, and its work would be left out */
const SERIAL = ['max_parallel_workers_per_gather=0', 'max_parallel_maintenance_workers=0'];

/** a load's warnings printed at most */
const WARNINGS_SHOWN = 5;

/** One side of the A/B: a checkout and its counts, each by chain (the shorter first) and by round. */
interface Side {
  readonly label: string;
  readonly dir: string;
  readonly populator: number[][];
  readonly postgres: number[][];
  readonly requests: number[][];
}

/**
 * load counts `side`'s populator loading the chain of `devnode` up to `length` (`chain`: its index), and the server's
 * backends.
 */
async function load(side: Side, devnode: DevnodeChild, chain: number, length: number): Promise<void> {
  const started = performance.now();
  const server = await startCountedServer(SERIAL);
  let populator: number;
  let requests: number;
  let warnings: string[];
  try {
    const databaseUrl = await createDatabase(server, 'chain');
    const env = countedChildEnv(devnode, databaseUrl, 'populated', length);
    const script = join(side.dir, 'bench/indexer.lib.populate.ts');
    const counted = await countInstructions(['--predictable', '--expose-gc', script], env, side.dir);
    populator = counted.instructions;
    requests = (JSON.parse(counted.report) as { nodeRequests: number }).nodeRequests;
    warnings = counted.warnings;
    await derivedWhole(databaseUrl, 'populated');
  } finally {
    (side.postgres[chain] ??= []).push(loadInstructions(await server.stop()));
  }
  (side.populator[chain] ??= []).push(populator);
  (side.requests[chain] ??= []).push(requests);
  const g = (n: number): string => `${(n / 1e9).toFixed(3)} G`;
  const minutes = ((performance.now() - started) / 60_000).toFixed(1);
  console.log(
    `  ${side.label}, ${length} generations: populator ${g(populator)}, PostgreSQL ${g(side.postgres[chain].at(-1)!)}, ` +
      `${requests} node requests (${minutes} min, load ${loadavg()[0]!.toFixed(1)})`,
  );
  // a step that failed is retried (before the fetch-ahead kept what it fetched, an 800 generations' load with a write
  // that failed once, at its third step, asked 9 532 requests against 6 537): the warnings say whether a load failed one
  for (const [i, warning] of warnings.slice(0, WARNINGS_SHOWN).entries())
    console.log(`    warning ${i + 1}: ${warning}`);
  if (warnings.length > WARNINGS_SHOWN) console.log(`    (${warnings.length - WARNINGS_SHOWN} warnings more)`);
}

/** rounds is a side's instructions per transaction in each round (its counts of that round over the two chains). */
function rounds(side: Side, transactions: readonly number[]): OwnPerTransaction[] {
  return side.populator[0]!.map((_, r) =>
    ownPerTransaction(
      { populator: side.populator.map((c) => c[r]!), postgres: side.postgres.map((c) => c[r]!) },
      transactions,
    ),
  );
}

/** middle is the median of each figure over the rounds. Pure. */
function middle(perRound: readonly OwnPerTransaction[]): OwnPerTransaction {
  const of = (key: keyof OwnPerTransaction): number => median(perRound.map((t) => t[key]));
  return { populator: of('populator'), postgres: of('postgres'), own: of('own') };
}

async function main(): Promise<void> {
  if (!valgrindAvailable()) {
    console.log('own instruction counts skipped: valgrind is not installed');
    return;
  }
  if (LENGTHS.length !== 2 || !(LENGTHS[0]! < LENGTHS[1]!))
    throw new Error('BENCH_OWN_AB_GENERATIONS: two lengths, the shorter first');
  if (!(Number.isInteger(ROUNDS) && ROUNDS >= 1)) throw new Error('BENCH_OWN_AB_ROUNDS: a whole number ≥ 1');
  killChildrenOnExit();
  const head = execFileSync('git', ['-C', NEW, 'rev-parse', '--short=8', 'HEAD'], { encoding: 'utf8' }).trim();
  const checkouts: Checkout[] = [];
  const sides: Side[] = [];
  const transactions: number[] = [];
  try {
    for (const commit of COMMITS) {
      const checkout = extractCommit(NEW, commit);
      checkouts.push(checkout);
      sides.push({ label: checkout.commit.slice(0, 8), dir: checkout.dir, populator: [], postgres: [], requests: [] });
    }
    sides.push({ label: `B (working tree, ${head})`, dir: NEW, populator: [], postgres: [], requests: [] });
    console.log(
      `A: ${COMMITS.join(', ')}; B: the working tree at ${head}; chains of ${LENGTHS.join(' and ')} generations, ` +
        `${ROUNDS} round(s)`,
    );
    for (const [chain, length] of LENGTHS.entries()) {
      const devnode = await startCountedChain(length);
      try {
        transactions.push((await bareClient([devnode.url], length, SLOTS)).transactions);
        for (let round = 0; round < ROUNDS; round++) for (const side of sides) await load(side, devnode, chain, length);
      } finally {
        await devnode.stop();
      }
    }
  } finally {
    for (const checkout of checkouts) checkout.remove();
  }
  const perRound = new Map(sides.map((s) => [s.label, rounds(s, transactions)]));
  const perTx = new Map([...perRound].map(([label, r]) => [label, middle(r)]));
  const kilo = (n: number): string => `${(n / 1000).toFixed(1)}k`;
  const range = (values: readonly number[]): string =>
    values.length < 2 ? '' : ` (${kilo(Math.min(...values))}–${kilo(Math.max(...values))})`;
  console.log(
    `instructions per transaction (valgrind, ${transactions.join(' and ')} transactions; median of ${ROUNDS} ` +
      `round(s), range):`,
  );
  for (const [label, t] of perTx) {
    const r = perRound.get(label)!;
    console.log(
      `  ${label}: populator ${kilo(t.populator)}${range(r.map((x) => x.populator))}, PostgreSQL ` +
        `${kilo(t.postgres)}${range(r.map((x) => x.postgres))}, own ${kilo(t.own)}${range(r.map((x) => x.own))}`,
    );
  }
  const b = perTx.get(sides.at(-1)!.label)!;
  const ratios: Record<string, OwnPerTransaction> = {};
  for (const side of sides.slice(0, -1)) {
    const a = perTx.get(side.label)!;
    ratios[side.label] = {
      populator: b.populator / a.populator,
      postgres: b.postgres / a.postgres,
      own: b.own / a.own,
    };
    const r = ratios[side.label]!;
    console.log(
      `B ÷ ${side.label}: own ${r.own.toFixed(3)} (target ≤ 1.1; populator ${r.populator.toFixed(3)}, ` +
        `PostgreSQL ${r.postgres.toFixed(3)})`,
    );
  }
  writeResult('own-instructions-ab', {
    benchmark: 'own-instructions-ab',
    date: new Date().toISOString(),
    command: 'node bench/own-instructions-ab.ts',
    head,
    generations: LENGTHS,
    transactions,
    rounds: ROUNDS,
    sides: sides.map(({ label, populator, postgres, requests }) => ({
      label,
      populator,
      postgres,
      requests,
      perRound: perRound.get(label),
      perTransaction: perTx.get(label),
    })),
    bOverA: ratios,
  });
}

await main();
