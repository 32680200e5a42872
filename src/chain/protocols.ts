/**
 * @module The consensus protocols the middleware knows, by the node's names (aec_hard_forks:protocol_vsn_name), and
 * which rules a block of any protocol is read with. Pure.
 *
 * Arcus (7, node 7.3.0) changes no rule the middleware applies: the node's name fees, auction times, name lifetimes,
 * pointer limits, coinbase, reward split and dev fund (aec_governance, aec_dev_reward) all take Ceres' values from
 * Ceres on, and Arcus has no fork files of its own (aec_block_fork applies none past Lima). Its one consensus change
 * in the node's sources, FATE store reads charged by size, shows in the gas the node's call records carry, which the
 * middleware stores as the node gives it.
 */
import { Protocol } from './aens.ts';

/** PROTOCOL_NAMES: each known protocol's name, as the node spells it. */
export const PROTOCOL_NAMES: Readonly<Record<number, string>> = {
  [Protocol.ROMA]: 'roma',
  [Protocol.MINERVA]: 'minerva',
  [Protocol.FORTUNA]: 'fortuna',
  [Protocol.LIMA]: 'lima',
  [Protocol.IRIS]: 'iris',
  [Protocol.CERES]: 'ceres',
  [Protocol.ARCUS]: 'arcus',
};

/** LATEST_KNOWN_PROTOCOL is the newest protocol whose rules the middleware has. */
export const LATEST_KNOWN_PROTOCOL: number = Protocol.ARCUS;

/** keyBlockProtocol is a key block's consensus protocol: its `version`, 1 (Roma) where a node sent none. Pure. */
export function keyBlockProtocol(keyBlock: { readonly version?: unknown }): number {
  return typeof keyBlock.version === 'number' ? keyBlock.version : 1;
}

/** isKnownProtocol is true for a protocol of the table (Roma to Arcus). */
export function isKnownProtocol(version: number): boolean {
  return Object.hasOwn(PROTOCOL_NAMES, version);
}

/**
 * rulesProtocol is the protocol whose rules a block of `version` is read with: its own, or for a protocol above the
 * known ones (a newer node's), the last known one's. Every rule compares with `>=`, so following a later protocol
 * with the last known rules is what the rule functions do; this says so in one place for what reports it.
 */
export function rulesProtocol(version: number): number {
  return version > LATEST_KNOWN_PROTOCOL ? LATEST_KNOWN_PROTOCOL : version;
}

/** ProtocolReport is how the statuses show the stored chain's protocol. */
export interface ProtocolReport {
  /** the protocol of the newest stored key block */
  readonly version: number;
  /** the node's name for it; null for a protocol this middleware does not know */
  readonly name: string | null;
  readonly known: boolean;
  /** the protocol whose rules the middleware applies to it */
  readonly rules: number;
  /** the lowest stored height of that protocol (null when not known, e.g. a gap below it) */
  readonly since_height: number | null;
}

/** protocolReport describes the protocol `version` the stored chain entered at `sinceHeight`. */
export function protocolReport(version: number, sinceHeight: number | null): ProtocolReport {
  const known = isKnownProtocol(version);
  return {
    version,
    name: known ? PROTOCOL_NAMES[version]! : null,
    known,
    rules: rulesProtocol(version),
    since_height: sinceHeight,
  };
}
