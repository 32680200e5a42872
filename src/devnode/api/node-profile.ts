/**
 * @module How long a real node takes over a request, per kind of endpoint and per load: the service times of a node
 * 7.2.2 recorded on 2 shared cores (test/fixtures/real-node/overload.json, `service_times`: 64 requests, or 32
 * dry-runs, spread over 1, 5 and 32 clients asking one after another). Such a node is bound by its CPU, not by its
 * 5 workers: 5 clients get 1.5 × the key blocks 1 client gets, the same micro blocks' transactions, 2.2 × the
 * dry-runs, and 32 clients less than 5 (27 wait in its queue, and the queue costs). So a request's time depends on
 * how many are at the node: with `n` requests at a node of `w` workers, min(n, w) run at once and the node answers
 * one every `perRequestMs(n)`, so each running request holds its worker for min(n, w) × perRequestMs(n). Pure.
 */

/** EndpointKind is a kind of request the recording timed. */
export type EndpointKind = 'key_block' | 'micro_block_transactions' | 'dry_run';

/** Calibration is one recorded load: `concurrency` clients, and the node's wall time per answer at that load. */
export interface Calibration {
  readonly concurrency: number;
  readonly perRequestMs: number;
}

/** NodeProfile gives each kind its calibrations, in increasing concurrency. */
export type NodeProfile = Readonly<Record<EndpointKind, readonly Calibration[]>>;

/**
 * NODE_7_2_2 is fitted to overload.json's `service_times` of `key_block` (`GET /v3/key-blocks/height/273`),
 * `micro_block_transactions` (a micro block's 5 transactions) and `dry_run_1_spend_tx_events` (`POST /v3/dry-run`, one
 * spend with `tx_events`). The recorded `per_request_ms` (wall time ÷ answers) at 1, 5 and 32 clients is an average
 * over a run whose last answers came with fewer requests at the node (64 requests, 32 dry-runs: at 32 clients every
 * dry-run was sent at once and the node emptied as they were answered), so the figures here are the node's time per
 * answer with that many at it, fitted so that the recorded runs come out at the recorded figure: the same at 1
 * client, within 6 % at 5, higher at 32 (a key block 7.21 recorded → 8.92, a dry-run 16.19 → 25.10).
 * test/devnode/node-profile.test.ts replays the recorded runs on a fake clock and holds them within 5 %.
 */
export const NODE_7_2_2: NodeProfile = {
  key_block: [
    { concurrency: 1, perRequestMs: 5.51 },
    { concurrency: 5, perRequestMs: 3.53 },
    { concurrency: 32, perRequestMs: 8.92 },
  ],
  micro_block_transactions: [
    { concurrency: 1, perRequestMs: 14.64 },
    { concurrency: 5, perRequestMs: 14.79 },
    { concurrency: 32, perRequestMs: 27.3 },
  ],
  dry_run: [
    { concurrency: 1, perRequestMs: 21.45 },
    { concurrency: 5, perRequestMs: 8.99 },
    { concurrency: 32, perRequestMs: 25.1 },
  ],
};

/**
 * dryRunItemMs is what one item of a dry-run costs the node, whatever the item: the recorded dry-run time of one
 * client (one spend, `dry_run[0]`) less its key block read's (`key_block[0]`), the request around the item (HTTP, the
 * JSON, finding the block) being a read's. For 7.2.2: 21.45 − 5.51 = 15.94 ms. The recording's time limit brackets it
 * (dry-run.ndjson.gz, the internal endpoint, `http.dry_run.timeout_ms` 3000): 100 `call_req`s of the token's
 * `balances()` answered (at most 30 ms each), 1000 refused `dry-run exceeded time limit` (more than 3 ms each). Per
 * item, not by gas used: the one timed dry-run is a spend (no gas), the bracketed ones are one call of one gas figure,
 * so nothing in the recording tells two gas figures' times apart, and the devnode's gas is its own round model.
 * test/devnode/node-profile.test.ts holds the fit inside the bracket. Pure.
 */
export function dryRunItemMs(profile: NodeProfile): number {
  return profile.dry_run[0]!.perRequestMs - profile.key_block[0]!.perRequestMs;
}

/** NODE_PROFILES are the profiles `--node-profile` names. */
export const NODE_PROFILES: Readonly<Record<string, NodeProfile>> = { '7.2.2': NODE_7_2_2 };

/**
 * endpointKind is the recorded kind a request is timed as: a micro block's transactions as those, every other GET
 * as a key block (one object read and rendered), every POST as a dry-run (the one POST the recording timed; a posted
 * transaction is checked against the state as a dry-run's is).
 */
export function endpointKind(method: string, path: string): EndpointKind {
  if (method !== 'GET') return 'dry_run';
  return /\/micro-blocks\/hash\/[^/]+\/transactions$/.test(path) ? 'micro_block_transactions' : 'key_block';
}

/**
 * perRequestMs is the node's wall time per answer with `inNode` requests at it: the calibrations' own figure at a
 * recorded load, a straight line between two, the nearest end's beyond them.
 */
export function perRequestMs(calibrations: readonly Calibration[], inNode: number): number {
  const first = calibrations[0]!;
  if (inNode <= first.concurrency) return first.perRequestMs;
  for (let i = 1; i < calibrations.length; i++) {
    const [a, b] = [calibrations[i - 1]!, calibrations[i]!];
    if (inNode === b.concurrency) return b.perRequestMs;
    if (inNode < b.concurrency)
      return (
        a.perRequestMs +
        ((b.perRequestMs - a.perRequestMs) * (inNode - a.concurrency)) / (b.concurrency - a.concurrency)
      );
  }
  return calibrations.at(-1)!.perRequestMs;
}

/** serviceMs is how long a request holds its worker when `inNode` requests (itself included) are at `workers` workers. */
export function serviceMs(calibrations: readonly Calibration[], inNode: number, workers: number): number {
  return Math.min(inNode, workers) * perRequestMs(calibrations, inNode);
}
