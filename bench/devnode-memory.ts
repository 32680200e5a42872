/**
 * @module Devnode memory bench: generates the chain `mdw devnode --scale P` serves (issue 57) in this process and
 * prints the time it took (wall and CPU), the RSS after it and at its peak, and the heap's and the buffers' shares, so
 * the bytes a transaction costs can be read off two sizes and projected to a tenth of mainnet. Then reads the state
 * after 64 blocks spread over the chain, in chain order, as a populator reads its balances after each batch, and
 * prints the heap the states it keeps take (what serving adds to the generated chain). Last, reads at four blocks far
 * apart and a fork of depth 20 at the top, timed (each replays from the nearest checkpoint below, chain.ts). Writes
 * bench/results/devnode-memory.json.
 *
 *   node --expose-gc bench/devnode-memory.ts   (BENCH_DEVNODE_SCALE=0.1, per cent of mainnet)
 */
import { readFileSync } from 'node:fs';
import v8 from 'node:v8';
import { generateChain } from '../src/devnode/generator.ts';
import { deriveKey } from '../src/devnode/keys.ts';
import { scaleChain } from '../src/devnode/traffic/hot-spots.ts';
import { writeResult } from './results.lib.ts';

const PERCENT = Number(process.env.BENCH_DEVNODE_SCALE ?? 0.1);
const SEED = 'devnode-memory';
const MB = 1e6;

const collect = (globalThis as { gc?: () => void }).gc;
if (!collect) throw new Error('run with node --expose-gc: the figures are read after a full collection');

function settled(): NodeJS.MemoryUsage {
  collect!();
  collect!();
  return process.memoryUsage();
}

/** peakRss is the process's highest RSS so far (VmHWM). */
function peakRss(): number {
  return Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;
}

const before = settled();
const started = performance.now();
const cpuBefore = process.cpuUsage();
const { chain } = generateChain({
  ...scaleChain(PERCENT),
  seed: SEED,
  profile: 'mainnet-like',
  miner: deriveKey(SEED, 'miner'),
});
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
const peak = peakRss();
const after = settled();
const txs = chain.txs.size;
const spaces = Object.fromEntries(
  v8
    .getHeapSpaceStatistics()
    .map((s) => [s.space_name, { committedMb: s.space_size / MB, usedMb: s.space_used_size / MB }]),
);
// the states a populator's balance reads leave kept: one per batch, each after the batch's last block
const READS = 64;
const readsStarted = performance.now();
for (let i = 1; i <= READS; i++) {
  const kb = chain.keyBlocks[Math.floor((i * (chain.height - 1)) / READS)]!;
  chain.stateAfter(kb.micro.at(-1)?.hash ?? kb.hash);
}
const readsSeconds = (performance.now() - readsStarted) / 1000;
const keptStatesMb = (settled().heapUsed - after.heapUsed) / MB;
// reads far from the last ones (`mdw -H` from an old height, `mdw -v` at a block anywhere), then a fork at the top:
// each rebuilt from the nearest checkpoint below, or from genesis without one
const farStarted = performance.now();
const farReads = [0.5, 0.1, 0.9, 0.3].map((f) => {
  const t0 = performance.now();
  chain.stateAfter(chain.keyBlocks[Math.floor(f * chain.height)]!.hash);
  return (performance.now() - t0) / 1000;
});
const farReadsSeconds = (performance.now() - farStarted) / 1000;
const forkStarted = performance.now();
chain.fork(20);
const forkSeconds = (performance.now() - forkStarted) / 1000;
const servedPeakRssMb = peakRss() / MB;
const result = {
  percent: PERCENT,
  generations: chain.height,
  transactions: txs,
  seconds,
  cpuSeconds,
  txPerSecond: txs / seconds,
  txPerCpuSecond: txs / cpuSeconds,
  rssMb: after.rss / MB,
  peakRssMb: peak / MB,
  baseRssMb: before.rss / MB,
  heapUsedMb: after.heapUsed / MB,
  heapTotalMb: after.heapTotal / MB,
  arrayBuffersMb: after.arrayBuffers / MB,
  spaces,
  keptStatesMb,
  readsSeconds,
  farReads,
  forkSeconds,
  servedPeakRssMb,
};
console.log(
  `${PERCENT} % of mainnet: ${chain.height} generations, ${txs} transactions in ${seconds.toFixed(0)} s ` +
    `(${cpuSeconds.toFixed(0)} s of CPU: ${Math.round(txs / cpuSeconds)} tx per CPU second)`,
);
console.log(
  `RSS ${(after.rss / MB).toFixed(0)} MB after, ${(peak / MB).toFixed(0)} MB peak (${(before.rss / MB).toFixed(0)} before); ` +
    `heap ${(after.heapUsed / MB).toFixed(0)} MB used of ${(after.heapTotal / MB).toFixed(0)}, buffers ${(after.arrayBuffers / MB).toFixed(0)} MB`,
);
console.log(
  `the states after ${READS} blocks in chain order: ${keptStatesMb.toFixed(0)} MB of heap kept, read in ${readsSeconds.toFixed(0)} s`,
);
console.log(
  `reads at 4 blocks far apart: ${farReads.map((s) => s.toFixed(2)).join(', ')} s (${farReadsSeconds.toFixed(1)} s); ` +
    `a fork of depth 20: ${forkSeconds.toFixed(1)} s; RSS peak ${servedPeakRssMb.toFixed(0)} MB`,
);
writeResult('devnode-memory', result);
