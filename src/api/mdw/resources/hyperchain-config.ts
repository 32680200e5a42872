/**
 * @module /v3/hyperchain/config: the chain's consensus, hard forks and fork management in the shape of ae_mdw's answer
 * (its node's `aeternity.yaml`, the pinners' and stakers' keys left out). We run beside the node, not in it: every
 * value is one the node's API states, so no setting of the node, secret or not, can show.
 */
import { isJsonObject, type Json } from '../../../chain/json.ts';
import { currentEpochReport } from '../../status/current-epoch.ts';
import { onlyOnHyperchain } from './hyperchain-guard.ts';
import type { HyperchainContracts } from './hyperchain-source.ts';
import type { ShapeValue } from '../../../shapes/shape-table.ts';
import { HYPERCHAIN_CONFIG } from '../../../shapes/v3/shapes-hyperchain.ts';

/** What the config is made of: the node's answers. */
export interface ConfigFacts {
  readonly contracts: HyperchainContracts;
  /** the node's `/v3/status` */
  readonly status: Json;
  /** the node's `/v3/hyperchain/pin-tx`, undefined while it has none (404) */
  readonly pin: Json | undefined;
  /** the epochs' length, when known (the stored current epoch's: the node's `child_epoch_length`) */
  readonly epochLength?: number;
}

/** hyperchainConfig is ae_mdw's config answer from the node's facts. Pure. */
export function hyperchainConfig({ contracts, status, pin, epochLength }: ConfigFacts): Record<string, Json> {
  const consensus: Record<string, Json> = { consensus_key: '0', type: 'hyperchain' };
  if (epochLength !== undefined) consensus.child_epoch_length = epochLength;
  consensus.staking_contract = contracts.staking;
  if (contracts.election !== null) consensus.election_contract = contracts.election;
  if (contracts.rewards !== null) consensus.rewards_contract = contracts.rewards;
  if (isJsonObject(pin) && typeof pin.parent_type === 'string')
    consensus.parent_chain = {
      consensus: {
        type: pin.parent_type,
        network_id: typeof pin.parent_network_id === 'string' ? pin.parent_network_id : null,
      },
    };
  const hardForks: Record<string, Json> = {};
  const protocols = isJsonObject(status) && Array.isArray(status.protocols) ? status.protocols : [];
  for (const p of protocols)
    if (isJsonObject(p) && typeof p.version === 'number' && typeof p.effective_at_height === 'number')
      hardForks[String(p.version)] = p.effective_at_height;
  const networkId = isJsonObject(status) && typeof status.network_id === 'string' ? status.network_id : null;
  return {
    consensus: [consensus],
    hard_forks: hardForks,
    fork_management: { network_id: networkId },
  } satisfies ShapeValue<typeof HYPERCHAIN_CONFIG>;
}

/** getHyperchainConfig: the chain's consensus settings as the node states them (ae_mdw's 400 on another chain). */
export const getHyperchainConfig = onlyOnHyperchain(
  HYPERCHAIN_CONFIG,
  async function getHyperchainConfig({ hyperchain, pool }) {
    const [contracts, status, pin, epoch] = await Promise.all([
      hyperchain.contracts(),
      hyperchain.nodeJson('/v3/status'),
      hyperchain.nodeJson('/v3/hyperchain/pin-tx'),
      currentEpochReport(pool),
    ]);
    const epochLength = epoch?.length;
    return hyperchainConfig({
      contracts: contracts!,
      status: status ?? null,
      pin,
      ...(epochLength ? { epochLength } : {}),
    });
  },
);
