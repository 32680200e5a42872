/** @module Ed25519 account keys with Node's native crypto (fast signing), in the node's ak_/sk_ encodings. */
import { createPrivateKey, createPublicKey, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import { encode, decode, hash } from '../chain/encoding.ts';
import { idBytes } from '../chain/id-cache.ts';

const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** KeyPair is one account: its public key bytes, its encodings and a native signing key. */
export interface KeyPair {
  readonly publicKey: Uint8Array;
  readonly address: string;
  readonly secretKey: string;
  readonly privateKey: KeyObject;
}

/** keyPairFromSeed derives an ed25519 key pair from its 32-byte seed. */
export function keyPairFromSeed(seed: Uint8Array): KeyPair {
  if (seed.length !== 32) throw new RangeError(`an ed25519 seed has 32 bytes, got ${seed.length}`);
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  const publicKey = new Uint8Array(spki.subarray(spki.length - 32));
  return { publicKey, address: encode('ak', publicKey), secretKey: encode('sk', seed), privateKey };
}

/** randomKeyPair is a new account of random keys. */
export function randomKeyPair(): KeyPair {
  return keyPairFromSeed(randomBytes(32));
}

/** deriveKey is the i-th key pair of a seed. */
export function deriveKey(seed: string, label: string): KeyPair {
  return keyPairFromSeed(hash(Buffer.from(`devnode:${seed}:${label}`, 'utf8')));
}

/**
 * parseSecretKey accepts an `sk_` secret (the sdk's 32-byte seed) or hex: 64 characters (the seed)
 * or 128 characters (the older seed ++ public key form).
 */
export function parseSecretKey(secret: string): KeyPair {
  const text = secret.trim();
  if (text.startsWith('sk_')) return keyPairFromSeed(decode(text, ['sk']).bytes);
  if (/^[0-9a-fA-F]{64}$/.test(text) || /^[0-9a-fA-F]{128}$/.test(text)) {
    return keyPairFromSeed(Buffer.from(text.slice(0, 64), 'hex'));
  }
  throw new Error('a secret key is sk_… or 64/128 hex characters');
}

/** signBytes signs a message with an account's key. */
export function signBytes(pair: KeyPair, message: Uint8Array): Uint8Array {
  return sign(null, message, pair.privateKey);
}

const publicKeyCache = new Map<string, KeyObject>();

/** verifySignature checks an ed25519 signature by a raw 32-byte public key. */
export function verifySignature(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (signature.length !== 64) return false;
  const cacheKey = Buffer.from(publicKey).toString('hex');
  let key = publicKeyCache.get(cacheKey);
  if (!key) {
    key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, publicKey]), format: 'der', type: 'spki' });
    if (publicKeyCache.size > 10_000) publicKeyCache.clear();
    publicKeyCache.set(cacheKey, key);
  }
  return verify(null, message, key, signature);
}

/**
 * unsignedBy returns the first signer without a valid signature (undefined when all signed).
 * The node accepts a signature over `networkId ++ txBytes` and, from Lima, over
 * `networkId ++ blake2b(txBytes)` (what the sdk signs); both are accepted here.
 */
export function unsignedBy(
  networkId: string,
  signerIds: readonly string[],
  txBytes: Uint8Array,
  signatures: readonly Uint8Array[],
): string | undefined {
  const network = Buffer.from(networkId, 'utf8');
  const messages = [Buffer.concat([network, txBytes]), Buffer.concat([network, hash(txBytes)])];
  return signerIds.find((id) => {
    const key = idBytes(id);
    return !signatures.some((s) => messages.some((m) => verifySignature(key, m, s)));
  });
}
