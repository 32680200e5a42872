/**
 * @module The calibrated devnode against the node it imitates: `mdw devnode --node-profile 7.2.2` (its own process)
 * asked as the real node 7.2.2 was (test/fixtures/real-node/overload.json): 64 key blocks, 64 micro blocks'
 * transactions and 32 dry-runs of one spend with `tx_events`, each spread over 1, 5 and 32 clients asking one after
 * another; then a burst of 300 key block reads at once. Prints the devnode's wall time per answer, p50 and p95 beside
 * the recording's, and the burst's 200 / 503 / dropped beside the recorded 140 / 160 / 0; writes
 * bench/results/devnode-pace.json.
 *
 *   node bench/devnode-pace.ts
 */
import { readFileSync } from 'node:fs';
import { keyPairFromSeed } from '../src/devnode/keys.ts';
import { killChildrenOnExit, percentile, startDevnodeProcess } from './http.lib.ts';
import { writeResult } from './results.lib.ts';

type Loads = { concurrency: number; total: number; p50_ms: number; p95_ms: number; per_request_ms: number }[];
const recording = JSON.parse(
  readFileSync(new URL('../test/fixtures/real-node/overload.json', import.meta.url), 'utf8'),
) as {
  service_times: Record<string, Loads>;
  bursts: { key_block_same_300: { count_200: number; count_503: number; closed_without_answer: number } };
};

const ACCOUNT = keyPairFromSeed(new Uint8Array(32).fill(31));

/** ask sends one request and resolves with its status and milliseconds, or 0 when the connection ended unanswered. */
async function ask(url: string, init?: RequestInit): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  try {
    const res = await fetch(url, init);
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - started };
  } catch {
    return { status: 0, ms: performance.now() - started };
  }
}

/** closedLoop asks `total` requests over `clients` clients one after another, as the recording did. */
async function closedLoop(
  request: () => Promise<{ status: number; ms: number }>,
  clients: number,
  total: number,
): Promise<{ perRequestMs: number; p50: number; p95: number; statuses: Record<number, number> }> {
  let next = 0;
  const times: number[] = [];
  const statuses: Record<number, number> = {};
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next++ < total) {
        const { status, ms } = await request();
        times.push(ms);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  const sorted = times.sort((a, b) => a - b);
  return {
    perRequestMs: (performance.now() - started) / total,
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    statuses,
  };
}

killChildrenOnExit();
const node = await startDevnodeProcess([
  ...['--generate', '300', '--seed', 'devnode-pace', '--node-profile', '7.2.2'],
  ...['--account', `${ACCOUNT.secretKey}:${10n ** 24n}`],
]);
try {
  const generation = (await (await fetch(`${node.url}/v3/generations/height/273`)).json()) as {
    micro_blocks: string[];
  };
  const micro = generation.micro_blocks.at(-1)!;
  const built = await fetch(`${node.internalUrl}/v3/debug/transactions/spend`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      sender_id: ACCOUNT.address,
      recipient_id: ACCOUNT.address,
      amount: 1,
      fee: 20000,
      payload: '',
    }),
  });
  const { tx } = (await built.json()) as { tx: string };
  const dryRun = JSON.stringify({ txs: [{ tx }], tx_events: true });
  const kinds: Record<string, () => Promise<{ status: number; ms: number }>> = {
    key_block: () => ask(`${node.url}/v3/key-blocks/height/273`),
    micro_block_transactions: () => ask(`${node.url}/v3/micro-blocks/hash/${micro}/transactions`),
    dry_run_1_spend_tx_events: () =>
      ask(`${node.url}/v3/dry-run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: dryRun }),
  };
  const rows = [];
  console.log('kind, clients: devnode ms per answer (p50, p95) | recorded node 7.2.2');
  for (const [kind, request] of Object.entries(kinds)) {
    for (const r of recording.service_times[kind]!) {
      const got = await closedLoop(request, r.concurrency, r.total);
      rows.push({ kind, concurrency: r.concurrency, devnode: got, recorded: r });
      console.log(
        `${kind}, ${r.concurrency}: ${got.perRequestMs.toFixed(2)} (${got.p50.toFixed(1)}, ${got.p95.toFixed(1)}) ` +
          `| ${r.per_request_ms} (${r.p50_ms}, ${r.p95_ms}); ${(got.perRequestMs / r.per_request_ms).toFixed(2)} × ` +
          `the node's; statuses ${JSON.stringify(got.statuses)}`,
      );
    }
  }
  const burst = await Promise.all(Array.from({ length: 300 }, () => ask(`${node.url}/v3/key-blocks/height/273`)));
  const count = (status: number): number => burst.filter((b) => b.status === status).length;
  const recorded = recording.bursts.key_block_same_300;
  console.log(
    `burst of 300 key block reads: ${count(200)} × 200, ${count(503)} × 503, ${count(0)} dropped ` +
      `| recorded ${recorded.count_200} / ${recorded.count_503} / ${recorded.closed_without_answer}`,
  );
  writeResult('devnode-pace', { rows, burst: { ok: count(200), refused: count(503), dropped: count(0) } });
} finally {
  await node.stop();
}
