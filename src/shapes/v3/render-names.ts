/** @module ae_mdw's Name, Auction, NameClaim/Transfer/Update and Pointee objects from stored rows. Pure. */
import { namePointer } from '../../chain/aens.ts';
import { isJsonObject, type Json } from '../../chain/json.ts';
import type { NameEventRow, NameStateRow, PointeeRow } from '../../db/queries/names.ts';
import { sourceTxFields, txBody } from './render-source-tx.ts';
import type { ShapeValue } from '../shape-table.ts';
import type { AUCTION, NAME, NAME_EVENT, POINTEE } from './shapes-names.ts';

/** A rendered object given into another (an auction, a transaction), or none. */
type JsonObject = { [key: string]: Json } | null;

/** KEY_BLOCK_MS: the expected time between key blocks, for heights not mined yet. */
export const KEY_BLOCK_MS = 180_000;

/** Chain time: the stored key block times, and the top to extrapolate from. */
export interface ChainClock {
  readonly top: number;
  readonly topTimeMs: number;
  readonly times: ReadonlyMap<number, number>;
}

/** heightTime is when a height was mined, or when it is expected (ae_mdw's approximate times). */
export function heightTime(clock: ChainClock, height: number): number {
  return clock.times.get(height) ?? clock.topTimeMs + (height - clock.top) * KEY_BLOCK_MS;
}

/**
 * isInAuction: claimed by a bid that opened an auction, and the auction's last height not yet passed. A node hands the
 * name over when the generation after the auction's end starts, so the end height itself is still in auction.
 */
export function isInAuction(n: NameStateRow, top: number): boolean {
  return n.activatedAt > n.createdAt && n.activatedAt >= top && (n.kind === 'claim' || n.kind === 'bid');
}

/** isActive: auction over, not revoked, and not past its expiry (a node serves a name through its `ttl` height). */
export function isActive(n: NameStateRow, top: number): boolean {
  return !isInAuction(n, top) && n.expiresAt !== null && n.expiresAt >= top && n.kind !== 'revoke';
}

/** pointersJson is the stored pointers as the node and ae_mdw render them, with `encoded_key` (the key's bytes). */
export function pointersJson(pointers: Json): Json[] {
  if (!Array.isArray(pointers)) return [];
  return pointers.filter(isJsonObject).map(namePointer);
}

/** nameObject is ae_mdw's Name; `auction` and `revoke` are given rendered (or null). */
export function nameObject(
  n: NameStateRow,
  clock: ChainClock,
  auction: JsonObject,
  revoke: JsonObject,
): Record<string, Json> {
  return {
    active: isActive(n, clock.top),
    hash: n.nameHash,
    name: n.name,
    active_from: n.activatedAt,
    approximate_activation_time: heightTime(clock, n.activatedAt),
    approximate_expire_time: n.expiresAt === null ? null : heightTime(clock, n.expiresAt),
    expire_height: n.expiresAt,
    pointers: pointersJson(n.pointers),
    auction,
    auction_timeout: n.activatedAt - n.createdAt,
    ownership: { current: n.owner, original: n.lastClaimOwner ?? n.owner },
    name_fee: n.nameFee === null ? null : BigInt(n.nameFee),
    revoke,
    claims_count: n.claimsCount,
  } satisfies ShapeValue<typeof NAME>;
}

/** auctionObject is ae_mdw's Auction of a name in auction; `lastBid` is the leading claim rendered. */
export function auctionObject(n: NameStateRow, clock: ChainClock, lastBid: JsonObject): Record<string, Json> {
  return {
    name: n.name,
    activation_time: heightTime(clock, n.createdAt),
    auction_end: n.activatedAt,
    approximate_expire_time: heightTime(clock, n.activatedAt),
    name_fee: n.nameFee === null ? null : BigInt(n.nameFee),
    claims_count: n.claimsCount,
    last_bid: lastBid,
  } satisfies ShapeValue<typeof AUCTION>;
}

/** nameEventObject is a NameClaim, NameTransfer or NameUpdate: the tx (without type and version) and where it is. */
export function nameEventObject(e: NameEventRow): Record<string, Json> {
  return {
    active_from: e.activeFrom,
    height: e.height,
    ...sourceTxFields(e),
    internal_source: e.internalSource === true,
    tx: txBody(e.tx),
  } satisfies ShapeValue<typeof NAME_EVENT>;
}

/** pointeeObject is ae_mdw's Pointee: the name, the key pointing at the id, and the update that set it. */
export function pointeeObject(p: PointeeRow): Record<string, Json> {
  return {
    active: p.active,
    name: p.name,
    key: p.key,
    block_height: p.height,
    block_time: Number(p.blockTime),
    ...sourceTxFields(p),
    tx: txBody(p.tx),
  } satisfies ShapeValue<typeof POINTEE>;
}
