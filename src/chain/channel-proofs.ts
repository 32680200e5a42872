/**
 * @module What a channel transaction's off-chain trees tell of the channel's parties: their balances in the off-chain
 * state a solo close's or slash's proof of inclusion (`pi_`, aec_trees:poi) proves, or a force progress's trees
 * (`ss_`, its `offchain_trees`) hold once its call moved its amount. The node makes them the channel's on-chain
 * `initiator_amount` and `responder_amount` (aesc_channels:close_solo_int, force_progress), which a settle pays out.
 * Read straight where they have a channel's usual shape (channel-trees-read.ts), else with aepp-sdk's unpacking. Pure.
 */
import { entryBuilder } from './sdk-entry.ts';
import { isJsonObject, toBigInt, type Json } from './json.ts';
import { poiBalances, stateTreesBalances, UNREAD } from './channel-trees-read.ts';

/** PartyAmounts is the two parties' balances in an off-chain state. */
export interface PartyAmounts {
  readonly initiator: bigint;
  readonly responder: bigint;
}

/** ProvenTrees is the part of an unpacked proof read here: its accounts tree (none, or one Merkle Patricia tree). */
interface ProvenTrees {
  readonly accounts: readonly { get(id: `ak_${string}`): { readonly balance: bigint | string } | undefined }[];
}

/** StateTrees is the part of unpacked state trees read here: its accounts by id. */
interface StateTrees {
  readonly accounts: { readonly [id: string]: { readonly balance: bigint | string } | undefined };
}

/**
 * poiAmounts reads both parties' balances from a proof of inclusion; undefined when it does not hold both accounts
 * (an empty proof, which the devnode takes at its word and then keeps the on-chain amounts) or is no proof at all.
 */
export function poiAmounts(poi: Json | undefined, initiator: string, responder: string): PartyAmounts | undefined {
  if (typeof poi !== 'string' || !poi.startsWith('pi_')) return undefined;
  const read = poiBalances(poi, [initiator, responder]);
  if (read !== UNREAD) return both(read[0], read[1]);
  const { unpackEntry, EntryTag } = entryBuilder();
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
  return both(balance(initiator), balance(responder));
}

/** treesAmounts reads both parties' balances from off-chain state trees (`ss_`); undefined when not both are there. */
export function treesAmounts(trees: Json | undefined, initiator: string, responder: string): PartyAmounts | undefined {
  if (typeof trees !== 'string' || !trees.startsWith('ss_')) return undefined;
  const read = stateTreesBalances(trees, [initiator, responder]);
  if (read !== UNREAD) return both(read[0], read[1]);
  const { unpackEntry, EntryTag } = entryBuilder();
  let accounts: StateTrees['accounts'];
  try {
    accounts = (unpackEntry(trees as `ss_${string}`, EntryTag.StateTrees) as unknown as StateTrees).accounts;
  } catch {
    return undefined;
  }
  const balance = (id: string): bigint | undefined => {
    const account = Object.hasOwn(accounts, id) ? accounts[id] : undefined;
    return account === undefined ? undefined : BigInt(account.balance);
  };
  return both(balance(initiator), balance(responder));
}

/**
 * forcedAmounts are the parties' balances after a force progress's off-chain call: its trees' ones, less the call's
 * amount for a caller that is a party and keeps the channel reserve after it (aesc_offchain_update:apply_on_trees,
 * remove_tokens: otherwise the update fails and moves nothing). The call's code is not run here: a call that pays a
 * party (`Chain.spend`) or fails (its amount then given back, since Iris) is taken as one that keeps the amount.
 * Undefined when the trees do not hold both parties.
 */
export function forcedAmounts(
  tx: { readonly [key: string]: Json },
  initiator: string,
  responder: string,
  reserve: bigint,
): PartyAmounts | undefined {
  const held = treesAmounts(tx.offchain_trees, initiator, responder);
  if (!held) return undefined;
  const update = isJsonObject(tx.update) ? tx.update : {};
  const amount = toBigInt(update.amount ?? 0);
  const pays = (party: string, balance: bigint): bigint =>
    update.caller_id === party && balance - amount >= reserve ? balance - amount : balance;
  return { initiator: pays(initiator, held.initiator), responder: pays(responder, held.responder) };
}

function both(initiator: bigint | undefined, responder: bigint | undefined): PartyAmounts | undefined {
  return initiator === undefined || responder === undefined ? undefined : { initiator, responder };
}
