/**
 * @module The node-bound rate of a chain (bench/sync.ts' (n), bench/populator-ab.ts' baseline): a bare client that
 * keeps every slot of the nodes busy reading the chain and does nothing else.
 */
import { performance } from 'node:perf_hooks';
import { isJsonObject, parseJson, type Json } from '../src/chain/json.ts';
import { holdsTransactions } from '../src/chain/txs-hash.ts';
import { contractTx } from '../src/indexer/contracts/contract-decoder.ts';
import { httpGet, HttpGetError } from '../src/node/http-get.ts';
import { retry } from '../src/base/retry.ts';

/** What the bare client read: the requests the chain takes at the fewest, and in how long. */
export interface BareRead {
  readonly seconds: number;
  readonly requests: number;
  readonly generations: number;
  readonly transactions: number;
  /** this process's CPU seconds over the read (user + system): the client's own work per transaction */
  readonly cpuSeconds: number;
}

/**
 * bareClient reads heights 0..top with 2 × `slots` requests in flight at each node and nothing else: every answer
 * parsed losslessly, its follow-up requests queued (micro blocks' headers after their generation, a block's
 * transactions after its header when it names some, call infos after their micro block's transactions). `slots` of them wait at the node, so a slot freed is taken at once and the client's own
 * turnaround (and the loopback) never leaves one empty: the node's rate, whatever the client.
 */
export async function bareClient(urls: readonly string[], top: number, slots: number): Promise<BareRead> {
  const queue: string[] = Array.from({ length: top + 1 }, (_, h) => `/generations/height/${h}`);
  let inFlight = 0;
  let requests = 0;
  let transactions = 0;
  // workers with nothing to do wait for the answers in flight to bring more work (or for the end)
  let waiting: (() => void)[] = [];
  const wakeAll = (): void => {
    const all = waiting;
    waiting = [];
    for (const w of all) w();
  };
  const handle = (path: string, body: Json): void => {
    if (!isJsonObject(body)) throw new Error(`${path}: not an object`);
    if (Array.isArray(body.micro_blocks)) {
      for (const hash of body.micro_blocks) queue.push(`/micro-blocks/hash/${String(hash)}/header`);
    } else if (path.endsWith('/header')) {
      // the transactions of a block whose header names some, as the populator asks them (src/chain/txs-hash.ts)
      if (holdsTransactions(body)) queue.push(path.replace(/\/header$/, '/transactions'));
    } else if (Array.isArray(body.transactions)) {
      transactions += body.transactions.length;
      for (const signed of body.transactions)
        if (isJsonObject(signed) && isJsonObject(signed.tx) && contractTx(signed.tx))
          queue.push(`/transactions/${String(signed.hash)}/info`);
    }
  };
  const worker = async (base: string): Promise<void> => {
    for (;;) {
      const path = queue.shift();
      if (path === undefined) {
        if (inFlight === 0) {
          wakeAll();
          return;
        }
        await new Promise<void>((resolve) => waiting.push(resolve));
        continue;
      }
      inFlight++;
      // a keep-alive socket the node closed as it was reused fails without an answer: a GET may simply go again
      const { status, text } = await retry(() => httpGet(new URL(`${base}/v2${path}`), 30_000), {
        attempts: 3,
        initialMs: 10,
        maxMs: 100,
        retryable: (err) => err instanceof HttpGetError && !err.timedOut,
      });
      if (status !== 200) throw new Error(`${path}: ${status} ${text.slice(0, 200)}`);
      handle(path, parseJson(text));
      requests++;
      inFlight--;
      wakeAll();
    }
  };
  const started = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(urls.flatMap((url) => Array.from({ length: 2 * slots }, () => worker(url))));
  const used = process.cpuUsage(cpu);
  return {
    seconds: (performance.now() - started) / 1000,
    requests,
    generations: top + 1,
    transactions,
    cpuSeconds: (used.user + used.system) / 1e6,
  };
}
