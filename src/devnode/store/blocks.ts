/** @module Key and micro block headers: the node's binary layout (node-api.md §6.2), hashes and JSON. Pure. */
import { encode, hash } from '../../chain/encoding.ts';
import type { Json } from '../../chain/json.ts';
import { jsonInt } from '../tx-codec.ts';
import { idBytes } from '../../chain/id-cache.ts';
import { Protocol } from '../../chain/aens.ts';

/** PROTOCOL_VERSION is the consensus protocol the devnode runs and claims (Ceres, mainnet's since 2024). */
export const PROTOCOL_VERSION = Protocol.CERES;

/** KeyHeader is a key block; `nonce` and `pow` are absent on a pending candidate. */
export interface KeyHeader {
  readonly height: number;
  readonly prevHash: string;
  readonly prevKeyHash: string;
  readonly stateHash: string;
  readonly miner: string;
  readonly beneficiary: string;
  readonly target: number;
  readonly pow?: readonly number[];
  readonly nonce?: bigint;
  readonly time: number;
  readonly version: number;
  readonly info: string;
  /** a hyperchain's HOLE and EOE bits (contracts/hc-schedule.ts); present on every key block of a hyperchain */
  readonly hcFlags?: number;
}

/** MicroHeader is a micro block header without its hash. */
export interface MicroHeader {
  readonly height: number;
  readonly prevHash: string;
  readonly prevKeyHash: string;
  readonly stateHash: string;
  readonly txsHash: string;
  readonly time: number;
  readonly version: number;
  readonly signature?: string;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
}

function u64(n: bigint | number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(n));
  return b;
}

/** keyFlags is a key header's flags word: the key tag (bit 31), "info present" (bit 30) and a hyperchain's bits. */
function keyFlags(info: Uint8Array, hcFlags = 0): number {
  return (0x80000000 | (info.length > 0 ? 0x40000000 : 0) | hcFlags) >>> 0;
}

/** MICRO_FLAGS: a micro header's flags word, the devnode's micro blocks carrying no proof of fraud. */
const MICRO_FLAGS = 0;

/**
 * showsFlags: the node's API shows a header's `flags` (`ba_` of the flags word) from 7.3.0-rc7. The devnode shows them
 * on blocks of Arcus on, the ones only such a node makes, so that chains of earlier protocols answer as the 7.2 nodes
 * (and ae_mdw's renderings of them) the conformance tests hold the API to.
 */
function showsFlags(version: number): boolean {
  return version >= Protocol.ARCUS;
}

/** keyHeaderBytes is `aec_headers:serialize_to_binary/1` of a key header (pow and nonce zero when absent). */
function keyHeaderBytes(h: KeyHeader): Uint8Array {
  const info = idBytes(h.info);
  const flags = keyFlags(info, h.hcFlags);
  const pow = Buffer.alloc(42 * 4);
  (h.pow ?? []).forEach((p, i) => pow.writeUInt32BE(p >>> 0, i * 4));
  return Buffer.concat([
    u32(h.version),
    u32(flags),
    u64(h.height),
    idBytes(h.prevHash),
    idBytes(h.prevKeyHash),
    idBytes(h.stateHash),
    idBytes(h.miner),
    idBytes(h.beneficiary),
    u32(h.target),
    pow,
    u64(h.nonce ?? 0n),
    u64(h.time),
    info,
  ]);
}

/** keyBlockHash is the `kh_` of a key header. */
export function keyBlockHash(h: KeyHeader): string {
  return encode('kh', hash(keyHeaderBytes(h)));
}

/** PackedMicroHeader is a micro header with its hashes and signature as bytes, as the chain keeps them. */
export interface PackedMicroHeader {
  readonly height: number;
  readonly prevHash: Uint8Array;
  readonly prevKeyHash: Uint8Array;
  readonly stateHash: Uint8Array;
  readonly txsHash: Uint8Array;
  readonly time: number;
  readonly version: number;
  readonly signature?: Uint8Array;
}

/** packedMicroHeaderBytes is the binary micro header; without a signature it is the bytes the miner signs. */
export function packedMicroHeaderBytes(h: PackedMicroHeader): Uint8Array {
  return Buffer.concat([
    u32(h.version),
    u32(MICRO_FLAGS),
    u64(h.height),
    h.prevHash,
    h.prevKeyHash,
    h.stateHash,
    h.txsHash,
    u64(h.time),
    h.signature ?? Buffer.alloc(0),
  ]);
}

/** microHeaderBytes is the binary micro header of an encoded one. */
export function microHeaderBytes(h: MicroHeader): Uint8Array {
  return packedMicroHeaderBytes({
    height: h.height,
    time: h.time,
    version: h.version,
    prevHash: idBytes(h.prevHash),
    prevKeyHash: idBytes(h.prevKeyHash),
    stateHash: idBytes(h.stateHash),
    txsHash: idBytes(h.txsHash),
    ...(h.signature ? { signature: idBytes(h.signature) } : {}),
  });
}

/** microBlockHash is the `mh_` of a signed micro header. */
export function microBlockHash(h: MicroHeader): string {
  return encode('mh', hash(microHeaderBytes(h)));
}

/**
 * keyBlockJson is the node's KeyBlock object, its keys in the node's (sorted) order, built so rather than sorted at
 * each answer; a candidate (no nonce) has neither `nonce` nor `pow`.
 */
export function keyBlockJson(h: KeyHeader, hashValue: string): { [k: string]: Json } {
  // a hyperchain's node is a 7.3 node, whose API shows the flags on every protocol
  const flags = showsFlags(h.version) || h.hcFlags !== undefined;
  return {
    beneficiary: h.beneficiary,
    ...(flags ? { flags: encode('ba', u32(keyFlags(idBytes(h.info), h.hcFlags))) } : {}),
    hash: hashValue,
    height: h.height,
    info: h.info,
    miner: h.miner,
    ...(h.nonce === undefined ? {} : { nonce: jsonInt(h.nonce) }),
    ...(h.pow === undefined ? {} : { pow: [...h.pow] }),
    prev_hash: h.prevHash,
    prev_key_hash: h.prevKeyHash,
    state_hash: h.stateHash,
    target: h.target,
    time: h.time,
    version: h.version,
  };
}

/** microHeaderJson is the node's MicroBlockHeader object, its keys in the node's (sorted) order. */
export function microHeaderJson(h: MicroHeader, hashValue: string): { [k: string]: Json } {
  return {
    ...(showsFlags(h.version) ? { flags: encode('ba', u32(MICRO_FLAGS)) } : {}),
    hash: hashValue,
    height: h.height,
    pof_hash: 'no_fraud',
    prev_hash: h.prevHash,
    prev_key_hash: h.prevKeyHash,
    signature: h.signature ?? '',
    state_hash: h.stateHash,
    time: h.time,
    txs_hash: h.txsHash,
    version: h.version,
  };
}
