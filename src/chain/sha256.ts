/**
 * @module The 4-byte checksum of the æternity API encoding: the first 4 bytes of SHA-256(SHA-256(bytes)), as one
 * 32-bit word. Every id, signature and call datum the populator reads carries one. Node's `crypto.hash` costs about
 * 2 µs per call here, almost all of it the call (a signature's checksum: 4.2–4.6 µs against 1.3–2.0 µs for the
 * loop below, hash-wasm 2.4–2.9 µs, @noble/hashes 5.7–7.0 µs; alternating timed loops), so short
 * inputs are hashed here, in a few reused typed arrays, and long ones (contract code) natively. Pure.
 */
import { hash as nodeHash } from 'node:crypto';

// prettier-ignore
const K = Int32Array.of(
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
);
const INITIAL = Int32Array.of(
  0x6a09e667,
  0xbb67ae85,
  0x3c6ef372,
  0xa54ff53a,
  0x510e527f,
  0x9b05688c,
  0x1f83d9ab,
  0x5be0cd19,
);
/** the state, the message schedule, the padded last blocks and the first digest (synchronous: one set serves all) */
const H = new Int32Array(8);
const W = new Int32Array(64);
const TAIL = new Uint8Array(128);
const DIGEST = new Uint8Array(32);

/** Inputs this long or longer are hashed natively: its per-byte speed wins past about 300 bytes. */
const NATIVE_FROM = 256;

/** compress runs SHA-256's compression function on the 64-byte block of `block` at `at`, into H. */
function compress(block: Uint8Array, at: number): void {
  for (let i = 0; i < 16; i++, at += 4)
    W[i] = (block[at]! << 24) | (block[at + 1]! << 16) | (block[at + 2]! << 8) | block[at + 3]!;
  for (let i = 16; i < 64; i++) {
    const x = W[i - 15]!;
    const y = W[i - 2]!;
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    W[i] = (W[i - 16]! + s0 + W[i - 7]! + s1) | 0;
  }
  let a = H[0]!;
  let b = H[1]!;
  let c = H[2]!;
  let d = H[3]!;
  let e = H[4]!;
  let f = H[5]!;
  let g = H[6]!;
  let h = H[7]!;
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
    const t1 = (h + s1 + ((e & f) ^ (~e & g)) + K[i]! + W[i]!) | 0;
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  H[0] = (H[0]! + a) | 0;
  H[1] = (H[1]! + b) | 0;
  H[2] = (H[2]! + c) | 0;
  H[3] = (H[3]! + d) | 0;
  H[4] = (H[4]! + e) | 0;
  H[5] = (H[5]! + f) | 0;
  H[6] = (H[6]! + g) | 0;
  H[7] = (H[7]! + h) | 0;
}

/** sha256Into leaves SHA-256 of `bytes` in H (inputs below NATIVE_FROM bytes, whose bit length fits 32 bits). */
function sha256Into(bytes: Uint8Array): void {
  H.set(INITIAL);
  const n = bytes.length;
  let at = 0;
  for (; at + 64 <= n; at += 64) compress(bytes, at);
  const rest = n - at;
  // the rest, the 0x80 marker and the 8-byte bit length: one block, or two when they do not fit in one
  const end = rest + 9 > 64 ? 128 : 64;
  TAIL.fill(0, 0, end);
  for (let i = 0; i < rest; i++) TAIL[i] = bytes[at + i]!;
  TAIL[rest] = 0x80;
  const bits = n * 8;
  TAIL[end - 4] = bits >>> 24;
  TAIL[end - 3] = bits >>> 16;
  TAIL[end - 2] = bits >>> 8;
  TAIL[end - 1] = bits;
  compress(TAIL, 0);
  if (end === 128) compress(TAIL, 64);
}

/** checksumWord is the first 4 bytes of SHA-256(SHA-256(bytes)) as a signed big-endian 32-bit word. */
export function checksumWord(bytes: Uint8Array): number {
  if (bytes.length >= NATIVE_FROM)
    return nodeHash('sha256', nodeHash('sha256', bytes, 'buffer'), 'buffer').readInt32BE(0);
  sha256Into(bytes);
  for (let i = 0; i < 8; i++) {
    const v = H[i]!;
    DIGEST[4 * i] = v >>> 24;
    DIGEST[4 * i + 1] = v >>> 16;
    DIGEST[4 * i + 2] = v >>> 8;
    DIGEST[4 * i + 3] = v;
  }
  sha256Into(DIGEST);
  return H[0]!;
}
