/**
 * @module The naming system's rules at the devnode's protocol (aeprimop name_claim, aens_auctions,
 * aens_state_tree expiry): preclaims, claims with or without a preclaim, auctions and their bids,
 * updates, transfers, revokes, and the key-block step that hands an ended auction's name to its
 * winner. A name fee is locked as the node locks it, in the locked-coins account (aeprimop lock_namefee,
 * int_lock_amount; aens_state_tree lock_name_claim_fee): a claim without an auction's at once, an auction's bids
 * held in the auction (an outbid one returned to its bidder) until the key block after its end locks the winning one.
 * The protocol-dependent numbers come from chain/aens.ts, which the middleware uses too. Pure.
 */
import {
  auctionEndAfterBid,
  auctionTimeout,
  claimMaxExpiration,
  minimumNameFee,
  namePointersMaxCount,
} from '../../chain/aens.ts';
import { LOCKED_COINS_ACCOUNT } from '../../chain/derived-ids.ts';
import { COMMITMENT_EXPIRATION, NAME_BID_INCREMENT_PERCENT } from './fees.ts';
import { commitmentId, nameHash, nameValidationError } from '../ids.ts';
import { PROTOCOL_VERSION } from '../store/blocks.ts';
import {
  asAccount,
  credit,
  debit,
  int,
  isHeld,
  nameStatus,
  num,
  resolveName,
  str,
  TxRejected,
  type Apply,
  type ApplyContext,
} from './common.ts';
import type { Commitment, NameAuction, NameEntry, WorldState } from '../store/state.ts';
import type { TxFields } from '../tx-codec.ts';
import { FateError, type NameRules } from '../contracts/frame.ts';

/** isValidOverbid: a bid must be at least 5 % above the previous one (integer arithmetic, as the node). */
export function isValidOverbid(bid: bigint, previous: bigint): boolean {
  return (bid - previous) * 100n >= previous * NAME_BID_INCREMENT_PERCENT;
}

function ownedName(state: WorldState, tx: TxFields, generation: number): NameEntry {
  const entry = state.names.get(str(tx.name_id));
  if (nameStatus(entry, generation) !== 'claimed') throw new TxRejected(`name ${str(tx.name_id)} not found`);
  if (entry!.owner !== str(tx.account_id))
    throw new TxRejected(`name_not_owned: ${str(tx.name_id)} is not owned by ${str(tx.account_id)}`);
  return entry!;
}

function scheduleAuctionEnd(state: WorldState, auction: NameAuction): void {
  const key = String(auction.ends);
  state.auctionEnds.set(key, [...(state.auctionEnds.get(key) ?? []), auction.id]);
  state.auctions.set(auction.id, auction);
}

/** commitmentTtl is a preclaim's ttl: its height plus the preclaim expiration (aens_commitments:new). */
const commitmentTtl = (c: Commitment): number => c.height + COMMITMENT_EXPIRATION;

/** useCommitment checks the claim's preclaim (owner, one height later, not pruned) and removes it. */
function useCommitment(state: WorldState, tx: TxFields, name: string, ctx: ApplyContext): void {
  const cm = commitmentId(name, int(tx.name_salt));
  const commitment = state.commitments.get(cm);
  if (!commitment || commitment.owner !== str(tx.account_id) || !isHeld(commitmentTtl(commitment), ctx.generation))
    throw new TxRejected(`name_not_preclaimed: no commitment ${cm} by ${str(tx.account_id)}`);
  if (commitment.height >= ctx.height) {
    throw new TxRejected('commitment_delta_too_small: a claim is not accepted in the same generation as its preclaim');
  }
  state.commitments.delete(cm);
}

function checkNameFee(name: string, fee: bigint): void {
  const minimum = minimumNameFee(name);
  if (fee < minimum) throw new TxRejected(`invalid_name_fee: name_fee ${fee} is below the minimum ${minimum}`);
}

/** bid is a claim with salt 0 on a name in auction: 5 % over the last bid, the outbid fee refunded, the end maybe pushed. */
function bid(state: WorldState, tx: TxFields, auction: NameAuction, height: number): void {
  const fee = int(tx.name_fee);
  checkNameFee(auction.name, fee);
  if (!isValidOverbid(fee, auction.bid))
    throw new TxRejected(`name_fee_increment_too_low: ${fee} is not 5 % above the last bid ${auction.bid}`);
  credit(state, auction.bidder, auction.bid);
  const ends = auctionEndAfterBid(auction.name, PROTOCOL_VERSION, height, auction.ends);
  scheduleAuctionEnd(state, { ...auction, bidder: str(tx.account_id), bid: fee, started: height, ends });
}

function claim(state: WorldState, tx: TxFields, ctx: ApplyContext): void {
  const name = str(tx.name).toLowerCase();
  const invalid = nameValidationError(name);
  if (invalid) throw new TxRejected(`name validation failed: ${invalid}`);
  const id = nameHash(name);
  // from Lima a name fee of 0 is neither locked nor bid (aeprimop lock_namefee: illegal_name_fee)
  if (int(tx.name_fee) === 0n) throw new TxRejected('illegal_name_fee: a name fee of 0');
  debit(state, asAccount(str(tx.account_id)), int(tx.fee) + int(tx.name_fee));
  if (nameStatus(state.names.get(id), ctx.generation) !== 'gone') throw new TxRejected(`name_already_taken: ${name}`);
  const timeout = auctionTimeout(name, PROTOCOL_VERSION);
  const salted = int(tx.name_salt) !== 0n;
  const running = state.auctions.get(id);
  if (timeout > 0 && !salted && running) return bid(state, tx, running, ctx.height);
  if (running) throw new TxRejected(`name_already_in_auction: ${name}`);
  // from Ceres a claim with salt 0 needs no preclaim; with a salt it reveals one (and only then, as
  // in aeprimop, is its name_fee checked against the minimum: a salt-0 start is not)
  if (salted) {
    useCommitment(state, tx, name, ctx);
    checkNameFee(name, int(tx.name_fee));
  }
  const owner = str(tx.account_id);
  if (timeout === 0) {
    const expires = ctx.height + claimMaxExpiration(PROTOCOL_VERSION);
    state.names.set(id, { id, name, owner, expires, pointers: [] });
    credit(state, LOCKED_COINS_ACCOUNT, int(tx.name_fee));
    return;
  }
  scheduleAuctionEnd(state, {
    id,
    name,
    bidder: owner,
    bid: int(tx.name_fee),
    started: ctx.height,
    ends: ctx.height + timeout,
  });
}

/**
 * endAuctions runs when key block `height` is added: each auction whose end is `height − 1` gives
 * its name to the last bidder, claimed until the end plus the protocol's claim lifetime, and locks
 * the winning bid (aens_state_tree run_elapsed_name_auction).
 */
export function endAuctions(state: WorldState, height: number): void {
  const key = String(height - 1);
  for (const id of state.auctionEnds.get(key) ?? []) {
    const auction = state.auctions.get(id);
    if (!auction || auction.ends !== height - 1) continue;
    const expires = auction.ends + claimMaxExpiration(PROTOCOL_VERSION);
    state.names.set(id, { id, name: auction.name, owner: auction.bidder, expires, pointers: [] });
    state.auctions.delete(id);
    credit(state, LOCKED_COINS_ACCOUNT, auction.bid);
  }
  state.auctionEnds.delete(key);
}

export const NAME_RULES: Record<string, Apply> = {
  NamePreclaimTx(state, tx, ctx) {
    const id = str(tx.commitment_id);
    const existing = state.commitments.get(id);
    if (existing && isHeld(commitmentTtl(existing), ctx.generation))
      throw new TxRejected(`commitment ${id} already exists`);
    debit(state, asAccount(str(tx.account_id)), int(tx.fee));
    state.commitments.set(id, { owner: str(tx.account_id), height: ctx.height });
  },
  NameClaimTx(state, tx, ctx) {
    claim(state, tx, ctx);
  },
  NameUpdateTx(state, tx, ctx) {
    const entry = ownedName(state, tx, ctx.generation);
    const nameTtl = num(tx.name_ttl);
    const max = claimMaxExpiration(PROTOCOL_VERSION);
    if (nameTtl > max) throw new TxRejected(`ttl_too_high: name_ttl ${nameTtl} exceeds ${max}`);
    const pointers = (Array.isArray(tx.pointers) ? tx.pointers : []).map((p) => {
      const o = p as { key: string; id: string };
      return { key: o.key, id: o.id };
    });
    if (pointers.length > namePointersMaxCount(PROTOCOL_VERSION))
      throw new TxRejected(`too_many_pointers: ${pointers.length}`);
    debit(state, asAccount(str(tx.account_id)), int(tx.fee));
    state.names.set(entry.id, { ...entry, expires: ctx.height + nameTtl, pointers });
  },
  NameTransferTx(state, tx, ctx) {
    const entry = ownedName(state, tx, ctx.generation);
    const recipient = resolveName(state, str(tx.recipient_id), 'account_pubkey', ctx.generation);
    debit(state, asAccount(str(tx.account_id)), int(tx.fee));
    state.names.set(entry.id, { ...entry, owner: asAccount(recipient) });
  },
  NameRevokeTx(state, tx, ctx) {
    const entry = ownedName(state, tx, ctx.generation);
    debit(state, asAccount(str(tx.account_id)), int(tx.fee));
    state.names.set(entry.id, { ...entry, revokedAt: ctx.height, pointers: [] });
  },
};

/**
 * contractNameRules are the naming rules a contract's AENS operations follow (contracts/registrar.ts): the name
 * transaction's rule on the call's state, a refusal failing the call as the node's primop does.
 */
export const contractNameRules: NameRules = (state, tx, at) => {
  try {
    NAME_RULES[str(tx.type)]!(state, tx as TxFields, { ...at, txHash: '' });
  } catch (err) {
    if (err instanceof TxRejected) throw new FateError(err.message);
    throw err;
  }
};
