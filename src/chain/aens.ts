/** @module Naming-system rules that depend on the protocol version (aec_governance). Pure. */
import { asciiName } from './derived-ids.ts';

/** Consensus protocol versions, as key blocks print them. */
export const Protocol = { ROMA: 1, MINERVA: 2, FORTUNA: 3, LIMA: 4, IRIS: 5, CERES: 6 } as const;

/** Within this many blocks of an auction's end, a Ceres bid extends the auction to bid height + this. */
const CERES_BID_EXTENSION = 120;

/** labelLength is the length of the name without its registrar suffix. */
function labelLength(name: string): number {
  const ascii = asciiName(name);
  const dot = ascii.lastIndexOf('.');
  return dot < 0 ? ascii.length : dot;
}

/** auctionTimeout is how long an auction runs after a bid (0: the name is not auctioned). */
export function auctionTimeout(name: string, protocol: number): number {
  if (protocol < Protocol.LIMA) return 0;
  const len = labelLength(name);
  if (len > 12) return 0;
  if (protocol >= Protocol.CERES) return len <= 4 ? 2400 : len <= 8 ? 960 : 480;
  return len <= 4 ? 29760 : len <= 8 ? 14880 : 480;
}

/** claimMaxExpiration is the lifetime a claim (or an auction win) gives a name. */
export function claimMaxExpiration(protocol: number): number {
  return protocol >= Protocol.IRIS ? 180000 : 50000;
}

/**
 * auctionEndAfterBid is the new end of an auction when a bid arrives at `height`. Before Ceres a
 * bid restarts the timeout; from Ceres the end stays, but is pushed to height + 120 when closer.
 */
export function auctionEndAfterBid(name: string, protocol: number, height: number, previousEnd: number): number {
  if (protocol < Protocol.CERES) return height + auctionTimeout(name, protocol);
  return Math.max(previousEnd, height + CERES_BID_EXTENSION);
}
