/**
 * @module Native checksums for aepp-calldata. The library checks every `cb_` calldata and return value it decodes,
 * and encodes every address in a decoded value, with a double SHA-256 written in JavaScript (sha.js) and, for
 * addresses, a JavaScript Base58: a contract call's largest cost in the populator after its bytecode is parsed. Its
 * encoders keep that work in an `ApiEncoder` object of their own (not exported); `withNativeChecksums` gives them one
 * that does the same with Node's SHA-256 and this project's Base58 (encoding.ts), and leaves everything it does not
 * take for certain (a wrong tag, size or checksum, an unknown type) to the library's own object, so that every
 * result and every error message stays the library's.
 */
import { encode, type Prefix } from '../../chain/encoding.ts';
import { decodedField, encodedId } from '../../chain/id-cache.ts';

/** The part of aepp-calldata's internal ApiEncoder its byte-array encoder and canonical mapper call. */
interface ApiEncoder {
  encode(typeName: string, payload: Uint8Array): string;
  decode(data: string): Uint8Array;
  decodeWithType(data: string, expectedType: string): Uint8Array;
}

interface ApiType {
  /** the prefix, whose alphabet (Base64 for cb and ba, else Base58) the library and encoding.ts agree on */
  readonly tag: Prefix;
  /** payload bytes, 0 for any */
  readonly size: number;
}

/** aepp-calldata's API types (src/ApiEncoder.js, version 1.9): tag and payload size. */
const TYPES: Readonly<Record<string, ApiType>> = Object.fromEntries(
  (
    [
      ['key_block_hash', 'kh', 32],
      ['micro_block_hash', 'mh', 32],
      ['block_pof_hash', 'bf', 32],
      ['block_tx_hash', 'bx', 32],
      ['block_state_hash', 'bs', 32],
      ['contract_bytearray', 'cb', 0],
      ['contract_pubkey', 'ct', 32],
      ['account_pubkey', 'ak', 32],
      ['account_seckey', 'sk', 32],
      ['channel', 'ch', 32],
      ['oracle_pubkey', 'ok', 32],
      ['oracle_query_id', 'oq', 32],
      ['peer_pubkey', 'pp', 32],
      ['name', 'nm', 0],
      ['tx_hash', 'th', 32],
      ['signature', 'sg', 64],
      ['commitment', 'cm', 32],
      ['bytearray', 'ba', 0],
    ] as const
  ).map(([name, tag, size]) => [name, { tag, size }]),
);
const TYPE_OF_TAG = new Map<string, ApiType>(Object.values(TYPES).map((t) => [t.tag, t]));

/** NativeApiEncoder answers what it can be sure of and asks the library's own encoder for everything else. */
class NativeApiEncoder implements ApiEncoder {
  readonly #library: ApiEncoder;

  constructor(library: ApiEncoder) {
    this.#library = library;
  }

  encode(typeName: string, payload: Uint8Array): string {
    const type = Object.hasOwn(TYPES, typeName) ? TYPES[typeName]! : undefined;
    if (type === undefined || (type.size > 0 && payload.length !== type.size))
      return this.#library.encode(typeName, payload);
    // an address of a call's arguments or result: the same accounts and contracts recur
    return type.size === 32 ? encodedId(type.tag, payload) : encode(type.tag, payload);
  }

  decode(data: string): Uint8Array {
    const type = data[2] === '_' ? TYPE_OF_TAG.get(data.slice(0, 2)) : undefined;
    return (type && this.#payload(type, data)) ?? this.#library.decode(data);
  }

  decodeWithType(data: string, expectedType: string): Uint8Array {
    const type = Object.hasOwn(TYPES, expectedType) ? TYPES[expectedType]! : undefined;
    if (type === undefined || !data.startsWith(type.tag) || data[2] !== '_')
      return this.#library.decodeWithType(data, expectedType);
    return this.#payload(type, data) ?? this.#library.decodeWithType(data, expectedType);
  }

  /** #payload is the checked payload of an encoded text, or undefined where the library must decide (and throw). */
  #payload(type: ApiType, data: string): Uint8Array | undefined {
    let bytes: Uint8Array;
    try {
      // remembered: the call data the serialiser reads next (tx-serialize), and the results that recur
      bytes = decodedField(data, type.tag).bytes;
    } catch {
      return undefined;
    }
    if (type.size > 0 && bytes.length !== type.size) return undefined;
    // the library hands its decoders a plain Uint8Array (whose slice copies, unlike a Buffer's)
    return new Uint8Array(bytes);
  }
}

/** The internals of aepp-calldata's public encoders that hold an ApiEncoder (version 1.9). */
interface EncoderInternals {
  _internalEncoder?: {
    _byteArrayEncoder?: ByteArrayInternals;
  } & ByteArrayInternals;
}
interface ByteArrayInternals {
  _apiEncoder?: ApiEncoder;
  _canonicalMapper?: { _apiEncoder?: ApiEncoder };
}

/** byteArrayInternals is the part of an encoder that holds its ApiEncoders (a call encoder wraps a byte-array one). */
function byteArrayInternals(encoder: object): ByteArrayInternals | undefined {
  const internal = (encoder as EncoderInternals)._internalEncoder;
  return internal?._byteArrayEncoder ?? internal;
}

/**
 * withNativeChecksums gives an aepp-calldata BytecodeContractCallEncoder or ContractByteArrayEncoder the native
 * encoder for its calldata, return values and decoded addresses, and returns it. An encoder of another shape (a
 * later version of the library) is returned as it is: slower, never different.
 */
export function withNativeChecksums<E extends object>(encoder: E): E {
  const byteArray = byteArrayInternals(encoder);
  const mapper = byteArray?._canonicalMapper;
  if (byteArray?._apiEncoder && mapper?._apiEncoder) {
    byteArray._apiEncoder = new NativeApiEncoder(byteArray._apiEncoder);
    mapper._apiEncoder = new NativeApiEncoder(mapper._apiEncoder);
  }
  return encoder;
}

/** usesNativeChecksums says whether withNativeChecksums took hold of an encoder (tests: a library update shows). */
export function usesNativeChecksums(encoder: object): boolean {
  const byteArray = byteArrayInternals(encoder);
  return (
    byteArray?._apiEncoder instanceof NativeApiEncoder &&
    byteArray._canonicalMapper?._apiEncoder instanceof NativeApiEncoder
  );
}
