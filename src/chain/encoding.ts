/** @module æternity API encoding: `<prefix>_<base58 or base64 of bytes ++ checksum>`. Pure. */
import { createRequire } from 'node:module';
import type { createBLAKE2b as CreateBLAKE2b } from 'hash-wasm';
import { checksumWord } from './sha256.ts';

// hash-wasm's build of BLAKE2b alone (the per-algorithm bundle its README offers), 16 KB: its index holds the loaders
// and WebAssembly (as text) of thirty algorithms, 280 KB that each process loaded at its start for this one
const { createBLAKE2b } = createRequire(import.meta.url)('hash-wasm/dist/blake2b.umd.min.js') as {
  createBLAKE2b: typeof CreateBLAKE2b;
};

/** Prefixes whose payload is Base64; every other prefix is Base58 (node aeser_api_encoder). */
const BASE64_PREFIXES = new Set(['tx', 'cb', 'ba', 'ov', 'or', 'st', 'pi', 'ss', 'cs', 'ck', 'cv']);

/** Fixed payload sizes; prefixes not listed accept any size. `nm` is not enforced by the node. */
const SIZES: Readonly<Record<string, number>> = {
  ak: 32,
  ok: 32,
  ct: 32,
  ch: 32,
  cm: 32,
  oq: 32,
  kh: 32,
  mh: 32,
  bf: 32,
  bx: 32,
  bs: 32,
  th: 32,
  pp: 32,
  sg: 64,
  st: 32,
};

export type Prefix =
  | 'ak'
  | 'ok'
  | 'ct'
  | 'ch'
  | 'nm'
  | 'cm'
  | 'oq'
  | 'kh'
  | 'mh'
  | 'bf'
  | 'bx'
  | 'bs'
  | 'th'
  | 'sg'
  | 'pp'
  | 'sk'
  | 'tx'
  | 'cb'
  | 'ba'
  | 'ov'
  | 'or'
  | 'st'
  | 'pi'
  | 'ss'
  | 'cs'
  | 'ck'
  | 'cv';

/** DecodeError says why an encoded string is not a valid id of the expected kind. */
export class DecodeError extends Error {
  override readonly name = 'DecodeError';
}

/**
 * BLAKE2B_256 is BLAKE2b with a 32-byte digest in WebAssembly (hash-wasm, compiled once here from the module it
 * ships): Node's crypto has only the 64-byte BLAKE2b, and in JavaScript (@noble/hashes) one hash of 64 bytes took
 * 79k instructions against 10k. Its calls are synchronous, so one instance serves every caller.
 */
const BLAKE2B_256 = await createBLAKE2b(256);

/** hash is the node's object hash: blake2b with a 32-byte digest. */
export function hash(bytes: Uint8Array): Uint8Array {
  return BLAKE2B_256.init().update(bytes).digest('binary');
}

/**
 * The bytes and checksum of one encode call, reused (the calls are synchronous), grown for a longer input: no Buffer
 * made per call, as garbage, for every signature the stored transactions' render-back check encodes.
 */
let payload = Buffer.alloc(256);

/**
 * encode prefixes and checksums bytes the way the node prints them. The result is one flat string:
 * ids are stored by the million (devnode chains, caches), and a string built a character at a time
 * stays a V8 rope of ~1.5 KB.
 */
export function encode(prefix: Prefix, bytes: Uint8Array): string {
  const size = bytes.length + 4;
  if (size > payload.length) payload = Buffer.alloc(2 * size);
  payload.set(bytes);
  payload.writeInt32BE(checksumWord(bytes), bytes.length);
  return `${prefix}_${BASE64_PREFIXES.has(prefix) ? payload.toString('base64', 0, size) : base58(payload, size)}`;
}

const ALPHABET = Buffer.from('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 'latin1');
const LIMB = 58 ** 4;
/** PAIRS holds the two digits of each number below 58^2: a limb's four digits are one division and two look-ups. */
const PAIR = 58 * 58;
const PAIRS = Buffer.alloc(PAIR * 2);
for (let p = 0; p < PAIR; p++) {
  PAIRS[2 * p] = ALPHABET[Math.floor(p / 58)]!;
  PAIRS[2 * p + 1] = ALPHABET[p % 58]!;
}
/**
 * The base-58^4 limbs and the digits of one base58 call, reused (the calls are synchronous), grown for a longer input:
 * a signature's 68 bytes took 2–3 times as long with an array of limbs and a buffer made per call.
 */
let limbs = new Float64Array(64);
let digits = Buffer.alloc(320);

/**
 * multiplyAdd sets the number in the first `count` limbs of `limbs` (base `base`, the lowest first) to itself × `factor`
 * + `carry`, and returns its count of limbs. Each limb × factor + carry stays below 2^53, so every step is exact.
 */
function multiplyAdd(limbs: Float64Array, count: number, factor: number, carry: number, base: number): number {
  for (let j = 0; j < count; j++) {
    const v = limbs[j]! * factor + carry;
    carry = Math.floor(v / base);
    limbs[j] = v - carry * base;
  }
  for (; carry > 0; count++) {
    const q = Math.floor(carry / base);
    limbs[count] = carry - q * base;
    carry = q;
  }
  return count;
}

/**
 * base58 encodes bytes (the first `n`) in the Bitcoin alphabet (leading zero bytes become '1's), on base-58^4 limbs fed three bytes at
 * a time (a limb × 2^24 + carry stays below 2^48: exact in a double), each limb's digits two at a time from PAIRS (a
 * signature's 68 bytes 1.7 → 1.35 µs: a digit at a time was a third of it).
 */
export function base58(bytes: Uint8Array, n = bytes.length): string {
  // 58^4 holds more than 23 bits: a limb per 23 bits of the input (and one to spare), 4 digits per limb
  if (Math.ceil((n * 8) / 23) + 1 > limbs.length) {
    limbs = new Float64Array(Math.ceil((n * 8) / 23) + 1);
    digits = Buffer.alloc(limbs.length * 4 + n);
  }
  let zeros = 0;
  while (zeros < n && bytes[zeros] === 0) zeros++;
  let count = 0;
  let i = zeros;
  // the bytes above a multiple of three first (fewer than 2^16: one limb, not zero, the zeros were skipped)
  const head = (n - zeros) % 3;
  if (head > 0) {
    limbs[count++] = head === 1 ? bytes[i]! : bytes[i]! * 256 + bytes[i + 1]!;
    i += head;
  }
  for (; i < n; i += 3)
    count = multiplyAdd(limbs, count, 16777216, bytes[i]! * 65536 + bytes[i + 1]! * 256 + bytes[i + 2]!, LIMB);
  // the digits from the last, four per limb; then the top limb's leading zeros ('1's) dropped
  let end = digits.length;
  for (let j = 0; j < count; j++) {
    const v = limbs[j]!;
    const high = Math.floor(v / PAIR);
    const low = v - high * PAIR;
    end -= 4;
    digits[end] = PAIRS[2 * high]!;
    digits[end + 1] = PAIRS[2 * high + 1]!;
    digits[end + 2] = PAIRS[2 * low]!;
    digits[end + 3] = PAIRS[2 * low + 1]!;
  }
  while (end < digits.length && digits[end] === ALPHABET[0]) end++;
  for (let z = 0; z < zeros; z++) digits[--end] = ALPHABET[0]!;
  return digits.toString('latin1', end);
}

const DIGITS = new Int8Array(128).fill(-1);
ALPHABET.forEach((c, i) => {
  DIGITS[c] = i;
});

const LIMB_BITS = 24;
const LIMB_BASE = 2 ** LIMB_BITS;
/** 58^k for k = 0..4: four digits at a time keep limb × 58^4 + carry below 2^53. */
const POW58 = [1, 58, 58 ** 2, 58 ** 3, 58 ** 4];

/**
 * The limbs of the last Base58 text read (readBase58), base 2^24, the lowest first: reused (the reads are synchronous; a
 * read grows them for a longer text). An array of small integers, not a Float64Array, whose accesses V8 guards more (a
 * signature's check 20.6k → 15.7k instructions, valgrind).
 */
let readLimbs: number[] = new Array<number>(32).fill(0);
/** 2^-24: a limb's carry by a multiplication, exact for a power of two, where a division takes many more cycles. */
const INVERSE_LIMB = 2 ** -24;
/** log2(58): the most Base58 digits of n bytes are ceil(8n / log2(58)). */
const DIGIT_BITS = Math.log2(58);

/**
 * readBase58 reads `text` from `from` on as a Base58 number into readLimbs, four digits a step (a limb × 58^4 + carry
 * stays below 2^48: every step exact in a double): the count of limbs (0 for the number 0), or -1 at a character
 * outside the alphabet.
 */
function readBase58(text: string, from: number): number {
  const most = Math.ceil(((text.length - from) * 6) / LIMB_BITS) + 1;
  if (most > readLimbs.length) readLimbs = new Array<number>(most).fill(0);
  const limbs = readLimbs;
  let count = 0;
  for (let i = from; i < text.length; i += 4) {
    const k = Math.min(4, text.length - i);
    let carry = 0;
    for (let j = 0; j < k; j++) {
      const code = text.charCodeAt(i + j);
      const digit = code < 128 ? DIGITS[code]! : -1;
      if (digit < 0) return -1;
      carry = carry * 58 + digit;
    }
    const factor = POW58[k]!;
    for (let j = 0; j < count; j++) {
      const v = limbs[j]! * factor + carry;
      carry = Math.floor(v * INVERSE_LIMB);
      limbs[j] = v - carry * LIMB_BASE;
    }
    for (; carry > 0; count++) {
      const q = Math.floor(carry * INVERSE_LIMB);
      limbs[count] = carry - q * LIMB_BASE;
      carry = q;
    }
  }
  return count;
}

/** numberBytes is the count of bytes of the number in the first `count` read limbs (none for 0). */
function numberBytes(count: number): number {
  if (count === 0) return 0;
  const top = readLimbs[count - 1]!;
  return 3 * (count - 1) + (top >= 65536 ? 3 : top >= 256 ? 2 : 1);
}

/**
 * carriesBytes tells whether `text` is `prefix_` (a Base58 prefix) and the Base58 of `bytes` and four checksum bytes,
 * the checksum not checked: the text is read as its number and its bytes compared with `bytes`, its last four (the
 * checksum) left out, its leading '1's with the leading zero bytes. The stored transactions' render-back check compares
 * each of the node's signatures so, as it does the bytes of its `encoded_tx` (stored-tx.ts encodedTxBytes): a
 * signature's checksum, two SHA-256, was more than half of encoding it (21.4k of 36.9k instructions, valgrind);
 * encoding the bytes to compare the texts (a division a limb a step) took 22.6k instructions, this reading 15.7k.
 */
export function carriesBytes(text: string, prefix: Prefix, bytes: Uint8Array): boolean {
  if (text.length < 4 || !text.startsWith(prefix) || text.charCodeAt(2) !== 0x5f) return false;
  const size = bytes.length + 4;
  let at = 3;
  while (at < text.length && text.charCodeAt(at) === ALPHABET[0]) at++;
  // more digits than `size` bytes can have: another number (and no quadratic work on a long text)
  if (text.length - at > Math.ceil((8 * size) / DIGIT_BITS)) return false;
  const count = readBase58(text, at);
  if (count < 0) return false;
  // the number's bytes from the last, each at its place in `bytes` and the checksum (`size` bytes): the checksum's left
  // out, none beyond the first
  let index = size - 1;
  for (let j = 0; j < count; j++) {
    const limb = readLimbs[j]!;
    for (let shift = 0; shift < 24; shift += 8, index--) {
      const byte = (limb >>> shift) & 0xff;
      if (index < 0 ? byte !== 0 : index < bytes.length && bytes[index] !== byte) return false;
    }
  }
  // above the number's bytes `bytes` holds zeros, as many of the leading ones as the text's leading '1's
  for (let i = 0; i <= index && i < bytes.length; i++) if (bytes[i] !== 0) return false;
  return at - 3 === size - numberBytes(count);
}

/**
 * base58Decode is base58's inverse (leading '1's become zero bytes), on base-2^24 limbs four digits
 * at a time: the decoding of every id and signature read, about ten times fewer steps than a
 * digit-by-byte loop. The limbs are kept between calls and the bytes written straight into the result (issue 40:
 * two growing arrays per signature were most of its cost). Throws on a character outside the alphabet.
 */
export function base58Decode(text: string): Buffer {
  let zeros = 0;
  while (zeros < text.length && text.charCodeAt(zeros) === ALPHABET[0]) zeros++;
  const count = readBase58(text, zeros);
  if (count < 0) {
    const bad = [...text].find((c) => c.charCodeAt(0) >= 128 || DIGITS[c.charCodeAt(0)]! < 0);
    throw new Error(`not a base58 character: ${JSON.stringify(bad)}`);
  }
  const size = zeros + numberBytes(count);
  // from Node's pool: a buffer of its own per signature (an ArrayBuffer beyond V8's heap) cost more than the decoding
  const out = Buffer.allocUnsafe(size).fill(0, 0, zeros);
  let at = size;
  for (let j = 0; j < count; j++) {
    const limb = readLimbs[j]!;
    for (let shift = 0; shift < 24 && at > zeros; shift += 8) out[--at] = (limb >>> shift) & 0xff;
  }
  return out;
}

/** isLowerLetter tells the character code of a prefix's letter (a–z). */
function isLowerLetter(code: number): boolean {
  return code >= 0x61 && code <= 0x7a;
}

/** decodePayload checks an encoded string's prefix, checksum and size: its bytes, and its text and payload decoded. */
function decodePayload(
  encoded: string,
  allowed?: readonly Prefix[],
): { prefix: Prefix; bytes: Buffer; text: string; payload: Buffer } {
  if (
    !isLowerLetter(encoded.charCodeAt(0)) ||
    !isLowerLetter(encoded.charCodeAt(1)) ||
    encoded.length < 4 ||
    encoded[2] !== '_'
  )
    throw new DecodeError(`not an encoded id: ${JSON.stringify(encoded.slice(0, 80))}`);
  const prefix = encoded.slice(0, 2) as Prefix;
  if (allowed && !allowed.includes(prefix)) {
    throw new DecodeError(`expected a ${allowed.map((p) => `${p}_`).join(' or ')} id, got ${prefix}_`);
  }
  const text = encoded.slice(3);
  let payload: Buffer;
  try {
    payload = BASE64_PREFIXES.has(prefix) ? Buffer.from(text, 'base64') : base58Decode(text);
  } catch {
    throw new DecodeError(`invalid ${prefix}_ encoding`);
  }
  if (payload.length < 4) throw new DecodeError(`invalid ${prefix}_ encoding`);
  const bytes = payload.subarray(0, payload.length - 4);
  if (checksumWord(bytes) !== payload.readInt32BE(payload.length - 4)) {
    throw new DecodeError(`invalid ${prefix}_ checksum`);
  }
  const size = SIZES[prefix];
  if (size !== undefined && bytes.length !== size) {
    throw new DecodeError(`invalid ${prefix}_ length: ${bytes.length} bytes, expected ${size}`);
  }
  return { prefix, bytes, text, payload };
}

/**
 * decode returns the bytes of an encoded string, checking the prefix (one of `allowed`, when
 * given), the checksum and, for fixed-size kinds, the length.
 */
export function decode(encoded: string, allowed?: readonly Prefix[]): { prefix: Prefix; bytes: Buffer } {
  const { prefix, bytes } = decodePayload(encoded, allowed);
  return { prefix, bytes };
}

/**
 * decodeCanonical is decode of one prefix, and whether `encoded` is the text encode gives its bytes, without
 * encoding them again. Base58 always is: base58Decode takes only the alphabet, its leading '1's are the zero bytes
 * and the rest a number's digits with no leading zero, which is one text per byte string (and the checksum, checked,
 * is the one of those bytes). Base64 is when the text is the padded standard form: Buffer's decoder also takes the
 * URL-safe alphabet, white space, missing padding and stray bits.
 */
export function decodeCanonical(encoded: string, prefix: Prefix): { bytes: Buffer; canonical: boolean } {
  const { bytes, text, payload } = decodePayload(encoded, [prefix]);
  if (!BASE64_PREFIXES.has(prefix)) return { bytes, canonical: true };
  return { bytes, canonical: payload.toString('base64') === text };
}

/** isEncoded is true when `encoded` decodes as one of the allowed prefixes. */
export function isEncoded(encoded: unknown, allowed: readonly Prefix[]): encoded is string {
  if (typeof encoded !== 'string') return false;
  try {
    decode(encoded, allowed);
    return true;
  } catch {
    return false;
  }
}

/** reprefix moves the same 32 bytes to another kind (an account's oracle id is `ak_X` → `ok_X`). */
export function reprefix(encoded: string, prefix: Prefix): string {
  return encode(prefix, decode(encoded).bytes);
}
