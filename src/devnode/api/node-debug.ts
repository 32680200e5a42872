/**
 * @module The node's internal reads about its peers, channels and mempool that a devnode answers as a node
 * alone in its network: no peers, no channel FSMs, no network analytics, and a mempool whose transactions are
 * includable (the devnode admits a transaction only when it applies to the pending state).
 */
import { isEncoded } from '../../chain/encoding.ts';
import type { Chain } from '../chain.ts';
import { HttpError, ok, type Route } from './http.ts';

/** nodeDebugRoutes are these reads under /v2 (alsoUnderV3 adds /v3). */
export function nodeDebugRoutes(chain: Chain): Route[] {
  return [
    {
      method: 'GET',
      path: '/v2/debug/peers',
      handler: () => ok({ peers: [], inbound: [], outbound: [], blocked: [] }),
    },
    {
      method: 'GET',
      path: '/v2/node/operator/peers/count',
      handler: () =>
        ok({ connected: { inbound: 0, outbound: 0 }, available: { verified: 0, unverified: 0 }, blocked: 0 }),
    },
    {
      method: 'GET',
      path: '/v2/debug/network',
      handler: () => {
        throw new HttpError(404, 'Network analytics disabled in node config');
      },
    },
    { method: 'GET', path: '/v2/debug/channels/fsm-count', handler: () => ok({ count: 0 }) },
    {
      method: 'GET',
      path: '/v2/debug/check-tx/pool/:hash',
      handler: (req) => {
        const hash = req.params[0]!;
        if (!isEncoded(hash, ['th'])) throw new HttpError(400, 'Invalid hash: hash');
        const record = chain.txs.get(hash);
        if (!record) throw new HttpError(404, 'tx_not_found');
        return ok({ status: record.blockHeight >= 0 ? 'included' : 'includable' });
      },
    },
  ];
}
