/** @module Naming-system rules that depend on the protocol version (aec_governance). Pure. */
import { asciiName } from './derived-ids.ts';
import { encode } from './encoding.ts';
import type { Json } from './json.ts';

/** Consensus protocol versions, as key blocks print them (aec_hard_forks; the names and the rules: protocols.ts). */
export const Protocol = { ROMA: 1, MINERVA: 2, FORTUNA: 3, LIMA: 4, IRIS: 5, CERES: 6, ARCUS: 7 } as const;

/**
 * From Ceres a bid extends its auction to at least bid height + this (aec_governance
 * name_claim_bid_extension: 12 × 20 blocks an hour = 240; Ceres' announcement says 120, the
 * consensus code says 240, and the code is what nodes run).
 */
export const CERES_BID_EXTENSION = 240;

/** MAX_AUCTIONED_LABEL_LENGTH: longer names are claimed at once, shorter ones go to auction (Lima+). */
export const MAX_AUCTIONED_LABEL_LENGTH = 12;

/** labelLength is the length of the name without its registrar suffix. */
function labelLength(name: string): number {
  const ascii = asciiName(name);
  const dot = ascii.lastIndexOf('.');
  return dot < 0 ? ascii.length : dot;
}

/** NAME_FEE_BASE: a name's fee is this many aettos times a Fibonacci number (aec_governance name_claim_fee_base). */
const NAME_FEE_BASE = 10n ** 14n;

/** LONGEST_FEE_LABEL: labels this long or longer pay the lowest name fee. */
const LONGEST_FEE_LABEL = 31;

/**
 * minimumNameFee is the lowest `name_fee` of a claim (aec_governance name_claim_fee, Lima on): NAME_FEE_BASE times the
 * Fibonacci number that grows as the label shortens, fib(4) = 3 for a label of 31 characters or more up to
 * fib(34) = 5702887 for one of a single character (what aepp-sdk's getMinimumNameFee tables).
 */
export function minimumNameFee(name: string): bigint {
  let [a, b] = [0n, 1n];
  for (let n = 35 - Math.min(labelLength(name), LONGEST_FEE_LABEL); n > 0; n--) [a, b] = [b, a + b];
  return a * NAME_FEE_BASE;
}

/**
 * LONGEST_AUCTION: the most heights an auction's end lies after a claim or bid of it (a label of 1 to 4 characters'
 * timeout before Ceres; a bid's extension is at most the timeout).
 */
export const LONGEST_AUCTION = 29760;

/** auctionTimeout is how long an auction runs after a bid (0: the name is not auctioned). */
export function auctionTimeout(name: string, protocol: number): number {
  if (protocol < Protocol.LIMA) return 0;
  const len = labelLength(name);
  if (len > MAX_AUCTIONED_LABEL_LENGTH) return 0;
  if (protocol >= Protocol.CERES) return len <= 4 ? 2400 : len <= 8 ? 960 : 480;
  return len <= 4 ? LONGEST_AUCTION : len <= 8 ? 14880 : 480;
}

/** claimMaxExpiration is the lifetime a claim (or an auction win) gives a name. */
export function claimMaxExpiration(protocol: number): number {
  return protocol >= Protocol.IRIS ? 180000 : 50000;
}

/** namePointersMaxCount is how many pointers a name may hold (unlimited before Iris). */
export function namePointersMaxCount(protocol: number): number {
  return protocol >= Protocol.IRIS ? 32 : Infinity;
}

/** A name pointer as a node (7.x) renders it, in a name's answer and in its transactions: keys sorted. */
export type NamePointer = {
  /** the key's bytes as a `ba_`: exact where the text is not (a key need not be UTF-8) */
  encoded_key: string;
  id: string;
  key: string;
};

/**
 * namePointer is a transaction's pointer as the node renders it: the node's own `encoded_key` when the transaction
 * carries one (tx-parse.ts gives it from the key's bytes), else the key's UTF-8 bytes (a pointer without it: an older
 * node's JSON, a contract's AENS.update).
 */
export function namePointer(p: { [key: string]: Json }): NamePointer {
  const key = String(p.key);
  const encoded = typeof p.encoded_key === 'string' ? p.encoded_key : encode('ba', Buffer.from(key, 'utf8'));
  return { encoded_key: encoded, id: String(p.id), key };
}

/**
 * auctionEndAfterBid is the new end of an auction when a bid arrives at `height` (aens_auctions:extend):
 * the later of the current end and height + the extension, which before Ceres is the full timeout
 * (so a bid restarts it) and from Ceres is CERES_BID_EXTENSION.
 */
export function auctionEndAfterBid(name: string, protocol: number, height: number, previousEnd: number): number {
  const extension = protocol < Protocol.CERES ? auctionTimeout(name, protocol) : CERES_BID_EXTENSION;
  return Math.max(previousEnd, height + extension);
}
