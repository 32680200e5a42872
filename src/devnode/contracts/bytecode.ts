/**
 * @module Hand-made FATE contract code (`cb_…` as the node stores it): the serialised type table
 * (function ids, names, attributes, argument and return types) of a contract the devnode runs
 * natively, and of the devnode's own small contracts. Bodies end in one instruction: `RETURNR` of a constant where
 * the code is read for one (the standards' `*_extensions` lists, a getter), `RETURNR` of the first argument for
 * echo functions, else `ABORT`, because no FATE VM runs them. Before it stand the chain operations the real
 * contract's function holds (a spend, a remote call, a clone, a name's transaction), on stack arguments: what a
 * reader of the code learns from it (chain/internal-call-ops.ts) is true of the devnode's contracts too. Pure.
 */
import { decode, encode, hash } from '../../chain/encoding.ts';
import { intToBytes, rlpDecode, rlpEncode } from '../../chain/rlp.ts';
import { fateMap, serializeType, serializeValue, type FateType, type FateValue } from '../../chain/fate.ts';

/** FunctionSpec is one entrypoint: name, types, whether it takes AE (`payable`) and what its body returns. */
export interface FunctionSpec {
  readonly name: string;
  readonly args: readonly FateType[];
  readonly ret: FateType;
  readonly payable?: boolean;
  /** the constant the body returns (`RETURNR`), for functions whose result is read from the code */
  readonly constant?: FateValue;
  /** the body returns its first argument (`RETURNR arg0`) */
  readonly returnsFirstArgument?: boolean;
  /** the chain operations the function runs (natively: frame.ts's moveAe, a remote call, a clone, registrar.ts) */
  readonly ops?: readonly ChainOp[];
}

/** fn is an entrypoint as the type tables write it: name, argument and return types, whether payable, its operations. */
export const fn = (
  name: string,
  args: FateType[],
  ret: FateType,
  payable = false,
  ops?: readonly ChainOp[],
): FunctionSpec => ({ name, args, ret, payable, ...(ops ? { ops } : {}) });

/** CHAIN_OPS: the FATE operations a native function may run on the chain's state, with their opcode and arity. */
const CHAIN_OPS = {
  SPEND: [0x65, 2],
  CALL_R: [0x03, 5],
  CREATE: [0xa3, 3],
  CLONE: [0xa4, 4],
  AENS_CLAIM: [0x6f, 5],
  AENS_UPDATE: [0x70, 6],
  AENS_TRANSFER: [0x71, 4],
  AENS_REVOKE: [0x72, 3],
} as const satisfies Record<string, readonly [number, number]>;

/** ChainOp names one of CHAIN_OPS. */
export type ChainOp = keyof typeof CHAIN_OPS;

/** chainOp is an operation on stack arguments: its opcode, then its arguments' modifiers (two bits each, 00). */
function chainOp(op: ChainOp): number[] {
  const [opcode, arity] = CHAIN_OPS[op];
  return [opcode, ...new Array<number>(arity <= 4 ? 1 : 2).fill(0)];
}

const RETURNR = 0x01;
const ABORT = 0xfb;
const ARGUMENT = 0b01;
const IMMEDIATE = 0b11;
const ATTRIBUTE_PAYABLE = 0b10;
/** FATE contract serialisation: tag 70 (compiler_sophia), version 3. */
const CONTRACT_TAG = 70;
const CONTRACT_VSN = 3;

/** functionId is the 4-byte id of a function: the first bytes of blake2b(name), as hex. */
export function functionId(name: string): string {
  return Buffer.from(hash(Buffer.from(name, 'utf8')).subarray(0, 4)).toString('hex');
}

function body(f: FunctionSpec): number[] {
  const ops = (f.ops ?? []).flatMap(chainOp);
  if (f.returnsFirstArgument) return [...ops, RETURNR, ARGUMENT, 0];
  if (f.constant !== undefined) return [...ops, RETURNR, IMMEDIATE, ...serializeValue(f.constant)];
  return [...ops, ABORT, IMMEDIATE, ...serializeValue(`devnode: ${f.name} runs natively`)];
}

function functionCode(f: FunctionSpec): Buffer {
  return Buffer.concat([
    Uint8Array.of(0xfe),
    Buffer.from(functionId(f.name), 'hex'),
    serializeValue(BigInt(f.payable ? ATTRIBUTE_PAYABLE : 0)),
    Uint8Array.from(serializeType({ tuple: f.args })),
    Uint8Array.from(serializeType(f.ret)),
    Uint8Array.from(body(f)),
  ]);
}

/**
 * contractBytecode serialises a contract with these functions (sorted by id, as the compiler
 * emits them) and a symbol table naming them; `source` goes into the source hash.
 */
export function contractBytecode(functions: readonly FunctionSpec[], source: string, payable = false): `cb_${string}` {
  const sorted = [...functions].sort((a, b) => functionId(a.name).localeCompare(functionId(b.name)));
  const code = Buffer.concat(sorted.map(functionCode));
  const symbols = serializeValue(fateMap(sorted.map((f) => [Buffer.from(functionId(f.name), 'hex'), f.name])));
  const annotations = serializeValue(fateMap([]));
  const byteCode = Buffer.concat([rlpEncode(code), rlpEncode(symbols), rlpEncode(annotations)]);
  const contract = rlpEncode([
    intToBytes(CONTRACT_TAG),
    intToBytes(CONTRACT_VSN),
    hash(Buffer.from(source, 'utf8')),
    [],
    byteCode,
    Buffer.from('devnode', 'utf8'),
    Uint8Array.of(payable ? 1 : 0),
  ]);
  return encode('cb', contract) as `cb_${string}`;
}

/**
 * codePayable reads a contract's code (`cb_…`, the node's serialised contract) for whether its account takes AE: the
 * payable flag of version 3 (Iris); code of an earlier version has none, and its account is payable.
 */
export function codePayable(code: string): boolean {
  const fields = rlpDecode(decode(code, ['cb']).bytes);
  if (!Array.isArray(fields) || fields.length < 7) return true;
  const flag = fields[6];
  return flag instanceof Uint8Array && flag.length > 0 && flag[0] !== 0;
}
