/**
 * @module The devnode's pruning mode (`--gc-height H`): state older than H is gone, as on a node (v6.9+) whose
 * garbage collector has swept it. Every read of state at a block below H answers 410 with the node's own reason
 * text (aehttp: `State data at the requested height has been garbage-collected`): the call info of a transaction
 * mined below H, an account (or contract account) at a height or block below H, the token supply at such a
 * height. A dry-run on top of such a block answers as the node's dry-run does (aec_dry_run, aehttp_helpers
 * dry_run_err): 400 `Bad request: Block state of given hash was garbage collected`, not 410. Reads of the current
 * state and of blocks and transactions stay.
 */
import type { Json } from '../../chain/json.ts';
import type { Chain } from '../chain.ts';
import { HttpError, type Route, type RouteRequest } from './http.ts';

/** GC_REASON is the node's reason for a 410. */
export const GC_REASON = 'State data at the requested height has been garbage-collected';

/** DRY_RUN_GC_REASON is the node's reason for its 400 to a dry-run on top of a garbage-collected block. */
export const DRY_RUN_GC_REASON = 'Bad request: Block state of given hash was garbage collected';

/** StateHeight says at which height a request reads state, or undefined when it reads none the GC can remove. */
type StateHeight = (chain: Chain, req: RouteRequest) => number | undefined;

function blockHeight(chain: Chain, hash: string | undefined): number | undefined {
  const block = hash === undefined ? undefined : chain.blocks.get(hash);
  return block?.header.height;
}

function heightParam(req: RouteRequest, index: number): number | undefined {
  const value = Number(req.params[index]);
  return Number.isSafeInteger(value) ? value : undefined;
}

function dryRunTop(chain: Chain, req: RouteRequest): number | undefined {
  const body = req.body as { [k: string]: Json } | undefined;
  return typeof body?.top === 'string' ? blockHeight(chain, body.top) : undefined;
}

/** How the node refuses a read of collected state: 410 with its reason (and `error_code`), or a dry-run's 400. */
interface Refusal {
  readonly height: StateHeight;
  readonly errorCode?: string;
  readonly status?: number;
  readonly reason?: string;
}

/** a dry-run's refusal: its handler's own error, 400 */
const DRY_RUN: Refusal = { height: dryRunTop, status: 400, reason: DRY_RUN_GC_REASON };

/**
 * PRUNED lists the node's state-at-a-block reads by their path below the API version (they read alike under /v2
 * and /v3), with the node's extra `error_code` where it sends one. A path the devnode does not serve is skipped.
 */
const PRUNED: Readonly<Record<string, Refusal>> = {
  '/transactions/:hash/info': {
    height: (chain, req) => {
      const record = chain.txs.get(req.params[0] ?? '');
      return record && record.blockHeight >= 0 ? record.blockHeight : undefined;
    },
  },
  '/accounts/:id/height/:height': { height: (_, req) => heightParam(req, 1), errorCode: 'garbage_collected' },
  '/accounts/:id/hash/:hash': {
    height: (chain, req) => blockHeight(chain, req.params[1]),
    errorCode: 'garbage_collected',
  },
  '/debug/token-supply/height/:height': { height: (_, req) => heightParam(req, 0) },
  '/dry-run': DRY_RUN,
  '/debug/transactions/dry-run': DRY_RUN,
};

/** isCollected is true when state at `height` is below the GC height. Pure. */
export function isCollected(height: number | undefined, gcHeight: number): boolean {
  return height !== undefined && height < gcHeight;
}

/** pruneBelow wraps the state reads among `routes` so that state below `gcHeight` answers as the node refuses it. */
export function pruneBelow(routes: readonly Route[], chain: Chain, gcHeight: number): Route[] {
  return routes.map((route) => {
    const pruned = PRUNED[route.path.replace(/^\/v\d+/, '')];
    if (!pruned) return route;
    return {
      ...route,
      handler: (req) => {
        if (isCollected(pruned.height(chain, req), gcHeight)) {
          const extra: { [k: string]: Json } = pruned.errorCode ? { error_code: pruned.errorCode } : {};
          throw new HttpError(pruned.status ?? 410, pruned.reason ?? GC_REASON, extra);
        }
        return route.handler(req);
      },
    };
  });
}
