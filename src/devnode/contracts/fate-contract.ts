/**
 * @module A tiny FATE contract the devnode puts on chain: real serialised bytecode (no compiler
 * needed) so `@aeternity/aepp-calldata`'s BytecodeContractCallEncoder can name functions and
 * decode calldata. Functions: `init()`, `set(int): int`, `get(): int`, `note(string): string`.
 */
import { BytecodeContractCallEncoder, ContractByteArrayEncoder } from '@aeternity/aepp-calldata';
import { hash } from '../../chain/encoding.ts';
import { flat } from '../../chain/id-cache.ts';
import { contractBytecode, type FunctionSpec } from './bytecode.ts';
import { encodeValue, UNIT } from '../../chain/fate.ts';

/** The devnode contract's functions: `set` and `note` echo their argument, `get` returns 42. */
const FUNCTIONS: readonly FunctionSpec[] = [
  { name: 'init', args: [], ret: { tuple: [] }, constant: UNIT },
  { name: 'set', args: ['int'], ret: 'int', returnsFirstArgument: true },
  { name: 'get', args: [], ret: 'int', constant: 42n },
  { name: 'note', args: ['string'], ret: 'string', returnsFirstArgument: true },
];

/** DEVNODE_CONTRACT_BYTECODE is the `code` of every generated ContractCreateTx. */
export const DEVNODE_CONTRACT_BYTECODE = contractBytecode(FUNCTIONS, 'devnode contract');

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
export const FATE_UNIT = encodeValue(UNIT) as `cb_${string}`;
/** FATE_TRUE is the FATE value `true`, what a generalized account's authentication returns. */
export const FATE_TRUE = encodeValue(true) as `cb_${string}`;

/** GA_FUNCTIONS are the generalized-account contract's: `init()` and `authorize(int): bool`. */
export const GA_FUNCTIONS: readonly FunctionSpec[] = [
  { name: 'init', args: [], ret: { tuple: [] }, constant: UNIT },
  { name: 'authorize', args: ['int'], ret: 'bool', constant: true },
];

/**
 * GA_CONTRACT_BYTECODE is the devnode's generalized-account contract: `init()` and
 * `authorize(int): bool`, which returns true (the devnode accepts every GAMetaTx of a GA account).
 */
export const GA_CONTRACT_BYTECODE = contractBytecode(GA_FUNCTIONS, 'devnode generalized account');
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
