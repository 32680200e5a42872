/**
 * @module What a solo close's or slash's proof of inclusion (`pi_`, the node's aec_trees:poi) tells of a channel's
 * parties: their balances in the off-chain state it proves, which become the channel's on-chain amounts that a settle
 * pays out (aesc_channels:close_solo_int, fetch_amount_from_poi). Pure.
 */
import { EntryTag, unpackEntry } from '@aeternity/aepp-sdk';
import type { Json } from '../../chain/json.ts';

/** PartyAmounts is the two parties' balances in an off-chain state. */
export interface PartyAmounts {
  readonly initiator: bigint;
  readonly responder: bigint;
}

/** ProvenTrees is the part of an unpacked proof read here: its accounts tree (none, or one Merkle Patricia tree). */
interface ProvenTrees {
  readonly accounts: readonly { get(id: `ak_${string}`): { readonly balance: bigint | string } | undefined }[];
}

/**
 * poiAmounts reads both parties' balances from a proof of inclusion; undefined when it does not hold both accounts
 * (an empty proof, as the devnode's own traffic writes: the devnode takes off-chain states at their word and then
 * keeps the on-chain amounts) or is no proof at all.
 */
export function poiAmounts(poi: Json | undefined, initiator: string, responder: string): PartyAmounts | undefined {
  if (typeof poi !== 'string' || !poi.startsWith('pi_')) return undefined;
  let trees: ProvenTrees;
  try {
    trees = unpackEntry(poi as `pi_${string}`, EntryTag.TreesPoi) as unknown as ProvenTrees;
  } catch {
    return undefined;
  }
  const accounts = trees.accounts[0];
  const balance = (id: string): bigint | undefined => {
    try {
      const account = accounts?.get(id as `ak_${string}`);
      return account === undefined ? undefined : BigInt(account.balance);
    } catch {
      // a complete tree without the key: aepp-sdk throws where an incomplete one gives undefined
      return undefined;
    }
  };
  const [i, r] = [balance(initiator), balance(responder)];
  return i === undefined || r === undefined ? undefined : { initiator: i, responder: r };
}
