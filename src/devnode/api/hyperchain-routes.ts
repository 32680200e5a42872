/**
 * @module The node's two hyperchain endpoints (endpoint group `hyperchain`): the consensus contracts' ids and the
 * data of the pin the current epoch's last leader posts to the parent chain (aehttp_dispatch_ext,
 * aec_parent_connector:get_pinning_data_/2).
 */
import { decode, encode } from '../../chain/encoding.ts';
import type { Chain } from '../chain.ts';
import { ok, type Route } from './http.ts';
import type { Hyperchain } from '../hyperchain/consensus.ts';

/** PARENT_TYPE is the parent chain's type as the node names it: another æternity chain. */
const PARENT_TYPE = 'AE2AE';

/**
 * pinPayload is the 80-byte payload a pin carries to the parent: the epoch and height (8 bytes each, big-endian), the
 * key block hash (32 bytes), zero-padded. (The devnode's layout: the node's aeser_hc encoding was not checked.)
 */
function pinPayload(epoch: number, height: number, blockHash: Uint8Array): string {
  const bytes = Buffer.alloc(80);
  bytes.writeBigUInt64BE(BigInt(epoch), 0);
  bytes.writeBigUInt64BE(BigInt(height), 8);
  Buffer.from(blockHash).copy(bytes, 16);
  return encode('ba', bytes);
}

/** hyperchainRoutes serves `/hyperchain/contracts` and `/hyperchain/pin-tx` under `/{version}`. */
export function hyperchainRoutes(chain: Chain, hyperchain: Hyperchain, version: 'v2' | 'v3'): Route[] {
  return [
    {
      method: 'GET',
      path: `/${version}/hyperchain/contracts`,
      // the node's rewards contract is its staking contract
      handler: () => ok({ staking: hyperchain.staking, election: hyperchain.election, rewards: hyperchain.staking }),
    },
    {
      method: 'GET',
      path: `/${version}/hyperchain/pin-tx`,
      handler: () => {
        const epoch = hyperchain.currentEpoch(chain.state);
        const height = epoch.first - 1;
        const block = chain.keyBlocks[height]!;
        return ok({
          epoch: epoch.epoch - 1,
          height,
          block_hash: block.hash,
          parent_payload: pinPayload(epoch.epoch - 1, height, decode(block.hash).bytes),
          last_leader: epoch.schedule.at(-1)!,
          parent_type: PARENT_TYPE,
          parent_network_id: hyperchain.config.parentNetworkId,
        });
      },
    },
  ];
}
