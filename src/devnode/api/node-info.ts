/**
 * @module The node's informational reads that come from its configuration and recent blocks rather than its
 * state: `/currency`, `/recent-gas-prices`, `/sync-status`, `/status/chain-ends`, and the one it cannot answer,
 * `/contracts/{id}/poi`.
 */
import type { Json } from '../../chain/json.ts';
import type { Chain, MicroBlock } from '../chain.ts';
import { HttpError, ok, type Route } from './http.ts';

/** The node's chain.currency and chain.display defaults (aeternity_config_schema.json). */
const CURRENCY = { name: 'aeternity', symbol: 'AE', subunit: 'aetto', subunits_per_unit: 10n ** 18n };
const DISPLAY = { primary_colour: '#f5274e', secondary_colour: '#242424' };

/** networkName is the node's default display name of a network id. */
function networkName(networkId: string): string {
  if (networkId === 'ae_mainnet') return 'Mainnet';
  if (networkId === 'ae_uat') return 'Testnet';
  return networkId;
}

/** GAS_PRICE_WINDOWS are the node's windows, in minutes, of `/recent-gas-prices`. */
const GAS_PRICE_WINDOWS = [1, 5, 15, 60] as const;
/** BLOCK_GAS_LIMIT is a micro block's gas (aec_governance:block_gas_limit), the 100 % of `utilization`. */
const BLOCK_GAS_LIMIT = 6_000_000;

/** GasPriceWindow is one row of `/recent-gas-prices`. */
export interface GasPriceWindow {
  readonly minutes: number;
  readonly min_gas_price: bigint;
  readonly utilization: number;
}

/**
 * recentGasPrices summarises the micro blocks of the last 1, 5, 15 and 60 minutes before `now` as the node does:
 * the lowest gas price of their transactions (0 when there are none) and the gas they used as a share of their
 * limit. The devnode knows the gas price and gas used of contract, GA and force progress transactions only (it computes no
 * transaction's fee gas), so only those count. Pure.
 */
export function recentGasPrices(micro: readonly MicroBlock[], now: number): GasPriceWindow[] {
  return GAS_PRICE_WINDOWS.map((minutes) => {
    const recent = micro.filter((mb) => mb.header.time >= now - minutes * 60_000);
    let min: bigint | undefined;
    let used = 0;
    for (const record of recent.flatMap((mb) => mb.txs)) {
      const info = record.callInfo ?? record.gaInfo;
      if (!info) continue;
      const price = BigInt(info.gas_price as number | bigint);
      if (min === undefined || price < min) min = price;
      used += Number(info.gas_used);
    }
    const limit = Math.max(1, recent.length) * BLOCK_GAS_LIMIT;
    return { minutes, min_gas_price: min ?? 0n, utilization: Math.round((100 * used) / limit) };
  });
}

/** lastHourMicroBlocks are the micro blocks of the last hour before `now`, oldest first. */
function lastHourMicroBlocks(chain: Chain, now: number): MicroBlock[] {
  const found: MicroBlock[] = [];
  for (let h = chain.height; h >= 0; h--) {
    const kb = chain.keyBlocks[h]!;
    found.unshift(...kb.micro.filter((mb) => mb.header.time >= now - 60 * 60_000));
    if (kb.header.time < now - 60 * 60_000) break;
  }
  return found;
}

/** nodeInfoRoutes serve these reads under `base` (`/v2` or `/v3`). */
export function nodeInfoRoutes(chain: Chain, base: string): Route[] {
  return [
    {
      method: 'GET',
      path: `${base}/currency`,
      handler: () => ok({ ...CURRENCY, ...DISPLAY, network_name: networkName(chain.options.networkId) }),
    },
    {
      method: 'GET',
      path: `${base}/recent-gas-prices`,
      handler: () => {
        const now = Date.now();
        return ok(recentGasPrices(lastHourMicroBlocks(chain, now), now) as unknown as Json);
      },
    },
    {
      method: 'GET',
      path: `${base}/sync-status`,
      handler: () => {
        // the devnode is its own chain: it never syncs
        throw new HttpError(404, 'Node is not syncing');
      },
    },
    // a fork replaces blocks rather than keeping them as a side chain: the only chain end is the top
    { method: 'GET', path: `${base}/status/chain-ends`, handler: () => ok([chain.top.hash]) },
    {
      method: 'GET',
      path: `${base}/contracts/:id/poi`,
      handler: (req) => {
        if (!chain.state.contracts.get(req.params[0]!)) throw new HttpError(404, 'Proof for contract not found');
        throw new HttpError(501, 'The devnode keeps no Merkle state trees: it has no proofs of inclusion');
      },
    },
  ];
}
