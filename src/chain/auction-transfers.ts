/**
 * @module What name auctions move besides their bids' own debits, by the node's rules (aens_state_tree, aeprimop
 * lock_namefee), whoever bid: a NameClaimTx or a contract's `AENS.claim` (an internal call of a ContractCallTx). A bid
 * returns the bid it outbids to that bidder (`fee_refund_name`), and the key block after an auction's end locks the
 * winning bid in the locked-coins account (`fee_lock_name`: its prune of that key block hands the name over). Pure.
 */

/** A claim or bid of a name in an auction (a name_events row whose claim opened or bid in one), in chain order. */
export interface AuctionEvent {
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly nameHash: string;
  /** `claim` (it opened the auction) or `bid` */
  readonly kind: string;
  /** the bidder: an account, or a contract's account (`ak_`) */
  readonly owner: string;
  readonly nameFee: bigint;
  /** the auction's last height after this claim or bid (a bid is still taken there) */
  readonly auctionEnd: number;
  /** its transaction: the NameClaimTx, or the contract call whose `AENS.claim` it was */
  readonly txHash: string;
}

/** What an auction moved at a place: a refund to the outbid bidder, or the winner's bid locked. */
export interface AuctionTransfer {
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly kind: 'fee_refund_name' | 'fee_lock_name';
  /** the outbid bidder (refunded), or the winner (whose bid the locked-coins account takes) */
  readonly account: string;
  readonly amount: bigint;
  /** the bid refunded or locked */
  readonly txHash: string;
}

/** The places whose transfers are wanted: heights from..to, from micro block `fromMicro` of `from` on (−1: all). */
export interface AuctionRange {
  readonly from: number;
  readonly to: number;
  readonly fromMicro: number;
}

/**
 * auctionTransfers are the refunds and locks of `events` placed in `range`, in chain order. `events` are the claims and
 * bids (chain order) of the auctions running in the range: each bid of the range with the claim or bid before it, each
 * auction whose key block after its end is in the range with all of its claim and bids. A bid refunds the name's
 * claim or bid before it, at the bid's place; the last claim or bid of an auction (the next of its name being none or
 * a claim, which opened another after its end) is locked at the key block after its end. Pure.
 */
export function auctionTransfers(events: readonly AuctionEvent[], range: AuctionRange): AuctionTransfer[] {
  const out: AuctionTransfer[] = [];
  const inRange = (height: number, microIndex: number): boolean =>
    height >= range.from && height <= range.to && (height > range.from || microIndex >= range.fromMicro);
  const won = (w: AuctionEvent): void => {
    if (inRange(w.auctionEnd + 1, -1))
      out.push({
        height: w.auctionEnd + 1,
        microIndex: -1,
        txIndex: -1,
        kind: 'fee_lock_name',
        account: w.owner,
        amount: w.nameFee,
        txHash: w.txHash,
      });
  };
  const latest = new Map<string, AuctionEvent>();
  for (const e of events) {
    const before = latest.get(e.nameHash);
    latest.set(e.nameHash, e);
    if (before === undefined) continue;
    if (e.kind !== 'bid') {
      won(before);
      continue;
    }
    if (inRange(e.height, e.microIndex))
      out.push({
        height: e.height,
        microIndex: e.microIndex,
        txIndex: e.txIndex,
        kind: 'fee_refund_name',
        account: before.owner,
        amount: before.nameFee,
        txHash: before.txHash,
      });
  }
  for (const w of latest.values()) won(w);
  // stable: a place's refunds and locks in the order of their bids
  return out.sort((a, b) => a.height - b.height || a.microIndex - b.microIndex || a.txIndex - b.txIndex);
}
