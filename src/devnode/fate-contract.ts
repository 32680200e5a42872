/**
 * @module A tiny FATE contract the devnode puts on chain: real serialised bytecode (no compiler
 * needed) so `@aeternity/aepp-calldata`'s BytecodeContractCallEncoder can name functions and
 * decode calldata. Functions: `init()`, `set(int): int`, `get(): int`, `note(string): string`.
 */
import { BytecodeContractCallEncoder, ContractByteArrayEncoder } from '@aeternity/aepp-calldata';
import { encode, hash } from '../chain/encoding.ts';
import { intToBytes, rlpEncode } from '../chain/rlp.ts';
import { flat } from '../chain/id-cache.ts';

const TYPE_INTEGER = 0x07;
const TYPE_STRING = 0x77;
const TYPE_TUPLE = 0x37;
const TYPE_BOOLEAN = 0x17;
const FATE_TRUE_BYTE = 0xff;
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

function tupleType(types: readonly number[]): Uint8Array {
  return Uint8Array.of(TYPE_TUPLE, types.length, ...types);
}

/** FateFunction is one function of hand-made FATE code: argument types, return type and body as raw bytes. */
export interface FateFunction {
  readonly name: string;
  readonly args: readonly number[];
  readonly ret: readonly number[];
  readonly body: readonly number[];
}

/** The functions: `ret` is a type (one byte) or an empty tuple type; `body` one RETURNR instruction. */
const FUNCTIONS: readonly FateFunction[] = [
  { name: 'init', args: [], ret: [...tupleType([])], body: [RETURNR, IMMEDIATE, EMPTY_TUPLE] },
  { name: 'set', args: [TYPE_INTEGER], ret: [TYPE_INTEGER], body: [RETURNR, ARG, 0x00] },
  { name: 'get', args: [], ret: [TYPE_INTEGER], body: [RETURNR, IMMEDIATE, 42 << 1] },
  { name: 'note', args: [TYPE_STRING], ret: [TYPE_STRING], body: [RETURNR, ARG, 0x00] },
];

const functionId = (name: string): Buffer => Buffer.from(hash(Buffer.from(name, 'utf8'))).subarray(0, 4);

/** fateBytecode serialises FATE contract code (`cb_…`) with these functions; `source` is hashed into its source-hash field. */
export function fateBytecode(functions: readonly FateFunction[], source: string): string {
  const sorted = [...functions].sort((a, b) => Buffer.compare(functionId(a.name), functionId(b.name)));
  const code = Buffer.concat(
    sorted.map((f) =>
      Buffer.concat([
        Uint8Array.of(0xfe),
        functionId(f.name),
        Uint8Array.of(0x00),
        tupleType(f.args),
        Uint8Array.of(...f.ret),
        Uint8Array.of(...f.body),
      ]),
    ),
  );
  const symbols = Buffer.concat([
    Uint8Array.of(MAP),
    rlpEncode(intToBytes(sorted.length)),
    ...sorted.map((f) => Buffer.concat([fateString(functionId(f.name)), fateString(f.name)])),
  ]);
  const annotations = Buffer.concat([Uint8Array.of(MAP), rlpEncode(intToBytes(0))]);
  const byteCode = Buffer.concat([rlpEncode(code), rlpEncode(symbols), rlpEncode(annotations)]);
  const contract = rlpEncode([
    intToBytes(70),
    intToBytes(3),
    hash(Buffer.from(source)),
    [],
    byteCode,
    Buffer.from('devnode', 'utf8'),
    Uint8Array.of(0),
  ]);
  return encode('cb', contract);
}

/** DEVNODE_CONTRACT_BYTECODE is the `code` of every generated ContractCreateTx. */
export const DEVNODE_CONTRACT_BYTECODE = fateBytecode(FUNCTIONS, 'devnode contract') as `cb_${string}`;

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

/** FATE_UNIT is the encoded FATE unit value (the empty tuple). */
export const FATE_UNIT = encode('cb', Uint8Array.of(EMPTY_TUPLE)) as `cb_${string}`;
/** FATE_TRUE is the FATE value `true`, what a generalized account's authentication returns. */
export const FATE_TRUE = encode('cb', Uint8Array.of(FATE_TRUE_BYTE)) as `cb_${string}`;

/**
 * GA_CONTRACT_BYTECODE is the devnode's generalized-account contract: `init()` and
 * `authorize(int): bool`, which returns true (the devnode accepts every GAMetaTx of a GA account).
 */
export const GA_CONTRACT_BYTECODE = fateBytecode(
  [
    { name: 'init', args: [], ret: [...tupleType([])], body: [RETURNR, IMMEDIATE, EMPTY_TUPLE] },
    { name: 'authorize', args: [TYPE_INTEGER], ret: [TYPE_BOOLEAN], body: [RETURNR, IMMEDIATE, FATE_TRUE_BYTE] },
  ],
  'devnode generalized account',
) as `cb_${string}`;
/** GA_AUTH_FUN is the `auth_fun` of a GAAttachTx for that contract: blake2b of the function name. */
export const GA_AUTH_FUN = `0x${Buffer.from(hash(Buffer.from('authorize'))).toString('hex')}`;

const gaEncoder = new BytecodeContractCallEncoder(GA_CONTRACT_BYTECODE);
/** gaAuthData is the calldata of `authorize(n)`, the `auth_data` of a GAMetaTx. */
export function gaAuthData(n: bigint): `cb_${string}` {
  return gaEncoder.encodeCall('authorize', [n]) as `cb_${string}`;
}
const RETURN_TYPES: Record<string, { name: string } | undefined> = { set: { name: 'int' }, note: { name: 'string' } };

/**
 * devnodeCallResult "runs" the devnode contract: `set(x)` and `note(s)` return their argument,
 * `get()` returns 42 and `init()` unit. Undefined when the calldata is not a call of it.
 */
export function devnodeCallResult(callData: string): string | undefined {
  try {
    const { functionName, args } = encoder.decodeCall(callData as `cb_${string}`) as {
      functionName: string;
      args: unknown[];
    };
    if (functionName === 'init') return FATE_UNIT;
    if (functionName === 'get') return values.encodeWithType(42n, { name: 'int' });
    const type = RETURN_TYPES[functionName];
    return type ? values.encodeWithType(args[0], type) : undefined;
  } catch {
    return undefined;
  }
}

/** CallResult is what a contract call record says about the outcome: `return_type` and `return_value`. */
export interface CallResult {
  readonly returnType: 'ok' | 'revert';
  readonly returnValue: string;
}

const foreignEncoders = new Map<string, BytecodeContractCallEncoder>();

/** foreignEncoder is the (lazily parsing) encoder of other code, kept for the next call. */
function foreignEncoder(code: string): BytecodeContractCallEncoder {
  let found = foreignEncoders.get(code);
  if (!found) {
    found = new BytecodeContractCallEncoder(code as `cb_${string}`);
    if (foreignEncoders.size >= 100) foreignEncoders.clear();
    foreignEncoders.set(code, found);
  }
  return found;
}

/** revert is a reverted call whose value is, as on the node, the FATE string of the reason. */
function revert(reason: string): CallResult {
  return { returnType: 'revert', returnValue: values.encodeWithType(`devnode: ${reason}`, { name: 'string' }) };
}

const UNIT_RESULT: CallResult = { returnType: 'ok', returnValue: FATE_UNIT };

/**
 * contractCallResult is the outcome the devnode records for a create (`isCreate`) or call of `code`.
 * The devnode runs no contract code: its own contract gets that contract's results
 * (devnodeCallResult). Other code is deployed with unit (deploys must succeed); a call of it
 * returns unit when the function's declared type is unit and reverts otherwise (other types, AEVM
 * code, bad calldata), so that no recorded value contradicts the function's type.
 */
export function contractCallResult(code: string, callData: string, isCreate: boolean): CallResult {
  if (code === DEVNODE_CONTRACT_BYTECODE) {
    const value = devnodeCallResult(callData);
    return value === undefined
      ? revert('calldata does not call the devnode contract')
      : { returnType: 'ok', returnValue: value };
  }
  if (isCreate) return UNIT_RESULT;
  try {
    const encoder = foreignEncoder(code);
    const { functionName } = encoder.decodeCall(callData as `cb_${string}`) as { functionName: string };
    encoder.decodeResult(functionName, FATE_UNIT);
    return UNIT_RESULT;
  } catch {
    return revert('no contract code is run; only calls of FATE functions returning unit succeed');
  }
}
