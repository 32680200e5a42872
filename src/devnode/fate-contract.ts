/**
 * @module A tiny FATE contract the devnode puts on chain: real serialised bytecode (no compiler
 * needed) so `@aeternity/aepp-calldata`'s BytecodeContractCallEncoder can name functions and
 * decode calldata. Functions: `init()`, `set(int): int`, `get(): int`, `note(string): string`.
 */
import { BytecodeContractCallEncoder, ContractByteArrayEncoder } from '@aeternity/aepp-calldata';
import { hash } from '../chain/encoding.ts';
import { intToBytes, rlpEncode } from './rlp.ts';
import { encodeFlat, flat } from './id-cache.ts';

const TYPE_INTEGER = 0x07;
const TYPE_STRING = 0x77;
const TYPE_TUPLE = 0x37;
const EMPTY_TUPLE = 0x3f;
const MAP = 0x2f;
const RETURNR = 0x01;
const ARG = 0b01;
const IMMEDIATE = 0b11;

function fateString(value: string | Uint8Array): Uint8Array {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  if (bytes.length >= 64) throw new RangeError('only short strings are needed here');
  return Buffer.concat([Uint8Array.of((bytes.length << 2) | 0b01), bytes]);
}

function tupleType(types: number[]): Uint8Array {
  return Uint8Array.of(TYPE_TUPLE, types.length, ...types);
}

interface FateFunction { readonly name: string; readonly args: number[]; readonly ret: number[]; readonly body: number[] }

/** The functions: `ret` is a type (one byte) or an empty tuple type; `body` one RETURNR instruction. */
const FUNCTIONS: readonly FateFunction[] = [
  { name: 'init', args: [], ret: [...tupleType([])], body: [RETURNR, IMMEDIATE, EMPTY_TUPLE] },
  { name: 'set', args: [TYPE_INTEGER], ret: [TYPE_INTEGER], body: [RETURNR, ARG, 0x00] },
  { name: 'get', args: [], ret: [TYPE_INTEGER], body: [RETURNR, IMMEDIATE, 42 << 1] },
  { name: 'note', args: [TYPE_STRING], ret: [TYPE_STRING], body: [RETURNR, ARG, 0x00] },
];

const functionId = (name: string): Buffer => Buffer.from(hash(Buffer.from(name, 'utf8'))).subarray(0, 4);

function buildBytecode(): string {
  const sorted = [...FUNCTIONS].sort((a, b) => Buffer.compare(functionId(a.name), functionId(b.name)));
  const code = Buffer.concat(sorted.map((f) => Buffer.concat([
    Uint8Array.of(0xfe), functionId(f.name), Uint8Array.of(0x00), tupleType(f.args), Uint8Array.of(...f.ret), Uint8Array.of(...f.body),
  ])));
  const symbols = Buffer.concat([
    Uint8Array.of(MAP), rlpEncode(intToBytes(sorted.length)),
    ...sorted.map((f) => Buffer.concat([fateString(functionId(f.name)), fateString(f.name)])),
  ]);
  const annotations = Buffer.concat([Uint8Array.of(MAP), rlpEncode(intToBytes(0))]);
  const byteCode = Buffer.concat([rlpEncode(code), rlpEncode(symbols), rlpEncode(annotations)]);
  const contract = rlpEncode([
    intToBytes(70), intToBytes(3), hash(Buffer.from('devnode contract')), [], byteCode, Buffer.from('devnode', 'utf8'), Uint8Array.of(0),
  ]);
  return encodeFlat('cb', contract);
}

/** DEVNODE_CONTRACT_BYTECODE is the `code` of every generated ContractCreateTx. */
export const DEVNODE_CONTRACT_BYTECODE = buildBytecode() as `cb_${string}`;

/** FATE_VM_VERSION is the vm_version of the generated contracts (FATE_2). */
export const FATE_VM_VERSION = 7;
/** FATE_ABI_VERSION is the abi_version of the generated contracts (FATE). */
export const FATE_ABI_VERSION = 3;

const encoder = new BytecodeContractCallEncoder(DEVNODE_CONTRACT_BYTECODE);

/** contractCallData encodes a call of the devnode contract (`cb_…`). */
export function contractCallData(fn: 'init' | 'set' | 'get' | 'note', args: readonly unknown[]): `cb_${string}` {
  return flat(encoder.encodeCall(fn, [...args])) as `cb_${string}`;
}

const values = new ContractByteArrayEncoder();
const RETURN_TYPES: Record<string, { name: string } | undefined> = { set: { name: 'int' }, note: { name: 'string' } };

/**
 * devnodeCallResult "runs" the devnode contract: `set(x)` and `note(s)` return their argument,
 * `get()` returns 42 and `init()` unit. Undefined when the calldata is not a call of it.
 */
export function devnodeCallResult(callData: string): string | undefined {
  try {
    const { functionName, args } = encoder.decodeCall(callData as `cb_${string}`) as { functionName: string; args: unknown[] };
    if (functionName === 'init') return encodeFlat('cb', Uint8Array.of(EMPTY_TUPLE));
    if (functionName === 'get') return values.encodeWithType(42n, { name: 'int' });
    const type = RETURN_TYPES[functionName];
    return type ? values.encodeWithType(args[0], type) : undefined;
  } catch {
    return undefined;
  }
}
