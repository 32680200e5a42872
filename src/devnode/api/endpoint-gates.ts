/**
 * @module What a node's configuration shuts or bounds, as node 7.2.2 does it (aehttp): the internal debug endpoints
 * answer 403 with no body unless `http.internal.debug_endpoints` is true (aehttp_dispatch_int forbidden: every
 * operation tagged `debug`, the debug dry-run included), and both dry-runs are cut at `http.dry_run.timeout_ms`
 * (aec_dry_run run_bounded, the `public` profile both handlers ask for: aehttp_helpers do_dry_run) with 400
 * `Bad request: dry-run exceeded time limit`. The external dry-run's endpoint group (`http.endpoints.dry-run`) needs
 * no gate: a node without it has no such route (aehttp_api_router), the devnode then registers none either.
 */
import { isJsonObject, stringifyJson, type Json } from '../../chain/json.ts';
import type { Reply, Route } from './http.ts';

/** DEFAULT_DRY_RUN_TIMEOUT_MS: the node's default `http.dry_run.timeout_ms` (its config schema); 0 is unbounded. */
export const DEFAULT_DRY_RUN_TIMEOUT_MS = 3000;

/** DRY_RUN_TIME_LIMIT_REASON: the node's 400 reason for a dry-run past its time limit (aehttp_helpers dry_run_err). */
export const DRY_RUN_TIME_LIMIT_REASON = 'Bad request: dry-run exceeded time limit';

/**
 * isNodeDebugPath says whether `path` is one of the node's debug endpoints (`/v2/debug/…`, `/v3/debug/…`); the
 * devnode's own controls under `/debug/dev/` are no node's and stay served. Pure.
 */
export function isNodeDebugPath(path: string): boolean {
  return /^\/v[23]\/debug\//.test(path) && !/^\/v[23]\/debug\/dev\//.test(path);
}

/** forbidDebug marks the node's debug endpoints among `routes` forbidden: 403, no body, as the node's REST layer. */
export function forbidDebug(routes: readonly Route[]): Route[] {
  return routes.map((route) => (isNodeDebugPath(route.path) ? { ...route, forbidden: true } : route));
}

/** itemCount is how many items a dry-run the handler took holds (its body's `txs`, an array by then). Pure. */
function itemCount(body: Json | undefined): number {
  return isJsonObject(body) && Array.isArray(body.txs) ? body.txs.length : 0;
}

/**
 * HeavyItems are the dry-run items that take any dry-run running them past the node's time limit (Devnode.overTimeLimit
 * and overTimeLimitCall, for tests): a call a real node runs for seconds (a long loop, a token's `balances()` over a
 * great many holders), which no devnode contract is. A dry-run holding one, a transaction unsigned (`tx_…`, as a
 * replay sends it) or a `call_req` of a contract with that calldata, is given up at the limit, on a real node and
 * here, however often it is asked.
 */
export class HeavyItems {
  readonly #keys = new Set<string>();

  /** addTx makes the unsigned transaction `tx` (`tx_…`) heavy. */
  addTx(tx: string): void {
    this.#keys.add(tx);
  }

  /** addCall makes each `call_req` of `contract` (`ct_…`) with `calldata` (`cb_…`) heavy. */
  addCall(contract: string, calldata: string): void {
    this.#keys.add(`${contract} ${calldata}`);
  }

  /** ran says whether a dry-run (its body) runs a heavy item. */
  ran(body: Json | undefined): boolean {
    if (this.#keys.size === 0 || !isJsonObject(body) || !Array.isArray(body.txs)) return false;
    return body.txs.some((item) => {
      if (!isJsonObject(item)) return false;
      if (typeof item.tx === 'string') return this.#keys.has(item.tx);
      const call = item.call_req;
      return isJsonObject(call) && this.#keys.has(`${String(call.contract)} ${String(call.calldata)}`);
    });
  }
}

/**
 * timeLimited answers `route`'s dry-run with the node's 400 when it took longer than `timeoutMs` (0: unbounded): its
 * items' time as the paced node's (`itemMs` each, pacing.ts Pacer.dryRunItemMs: the recorded node's with a profile), or
 * else the devnode's own but the state's reading at the block (a reply's `stateMs`: a replay to a past block, where a
 * node reads its state trees; counted, a dry-run at a block seconds of replay away was refused); always when it ran one
 * of the `heavy` items. The paced answer holds the node's time beyond the one item its service time holds (a reply's
 * `holdMs`): the other items' time, or for the refusal the time to the limit, where the node gives it up. Only a
 * dry-run that ran is timed (the node's checks before it, the gas cap's 403 among them, answer first). The devnode's
 * dry-run runs on the event loop and cannot be cut as the node kills its worker: it runs to its end, and its answer is
 * then the refusal the node would have given at the limit.
 */
export function timeLimited(route: Route, timeoutMs: number, itemMs = 0, heavy?: HeavyItems): Route {
  if (timeoutMs <= 0 && itemMs <= 0) return route;
  const limited = timeoutMs > 0;
  return {
    ...route,
    handler: async (req) => {
      const started = performance.now();
      const reply = await route.handler(req);
      const items = itemCount(req.body);
      if (limited && (items * itemMs > timeoutMs || heavy?.ran(req.body) === true))
        return { ...timeLimitReply(), holdMs: Math.max(0, timeoutMs - itemMs) };
      // the devnode's replay to the block is none of the node's time: it reads its state trees there
      if (limited && performance.now() - started - (reply.stateMs ?? 0) > timeoutMs) return timeLimitReply();
      return itemMs > 0 ? { ...reply, holdMs: Math.max(0, items - 1) * itemMs } : reply;
    },
  };
}

/** timeLimitReply is the node's refusal of a dry-run past its time limit. */
const timeLimitReply = (): Reply => ({ status: 400, body: stringifyJson({ reason: DRY_RUN_TIME_LIMIT_REASON }) });
