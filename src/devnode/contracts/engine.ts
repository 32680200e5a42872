/**
 * @module The native contract engine: decodes calldata against a kind's type table, runs the
 * TypeScript entrypoint (and the calls it makes to other contracts) on a layer of the world state,
 * and gives the outcome the node records: return value, logs, gas. A revert or a runtime error (out
 * of gas, AE sent to a function that is not payable) drops the layer. Pure over the world state.
 */
import { encode } from '../../chain/encoding.ts';
import { mayMakeInternalCalls } from '../../chain/internal-call-ops.ts';
import { commitState, newState, type WorldState } from '../store/state.ts';
import { AEX141_HANDLERS } from './aex141.ts';
import { AEX9_HANDLERS, AEX9_UNLOGGED_HANDLERS, type Handler } from './aex9.ts';
import { functionId, type FunctionSpec } from './bytecode.ts';
import { factoryHandlers, PAIR_HANDLERS, ROUTER_HANDLERS, WAE_HANDLERS } from './dex.ts';
import {
  decodeCallData,
  encodeValue,
  FateDecodeError,
  type FateBytes,
  type FateType,
  type FateValue,
  type FateVariant,
} from '../../chain/fate.ts';
import {
  charge,
  FateError,
  Frame,
  GAS,
  moveAe,
  require,
  Revert,
  type InternalEvent,
  type ContractLog,
  type Env,
  type NameRules,
} from './frame.ts';
import { HC_ELECTION_HANDLERS } from './hc-election.ts';
import { REGISTRAR_HANDLERS } from './registrar.ts';
import { HC_STAKING_HANDLERS, HC_STAKING_VALIDATOR_HANDLERS } from './hc-staking.ts';
import { BYTECODE, functionsOf, kindOfCode, type ContractKind } from './standards.ts';

/** clone creates a contract from inside a call (Chain.clone): its id follows the creator's account nonce. */
function clone(f: Frame, kind: 'pair', init: readonly FateValue[]): string {
  charge(f.env, GAS.create);
  const id = f.createContract(BYTECODE[kind]);
  // recorded before its init runs, as the node's deploy_contract does
  f.env.events.push({ type: 'Call.clone', contract: id });
  dispatch(f.env, { caller: f.self, contract: id, fn: 'init', args: init, value: 0n, isCreate: true });
  return id;
}

const HANDLERS: Record<ContractKind, Record<string, Handler>> = {
  aex9: AEX9_HANDLERS,
  aex9_unlogged: AEX9_UNLOGGED_HANDLERS,
  wae: WAE_HANDLERS,
  aex141: AEX141_HANDLERS,
  factory: factoryHandlers(clone),
  pair: PAIR_HANDLERS,
  router: ROUTER_HANDLERS,
  hc_staking: HC_STAKING_HANDLERS,
  hc_staking_validator: HC_STAKING_VALIDATOR_HANDLERS,
  hc_election: HC_ELECTION_HANDLERS,
  registrar: REGISTRAR_HANDLERS,
};

const SPECS_BY_ID = new Map<ContractKind, Map<string, FunctionSpec>>(
  (Object.keys(HANDLERS) as ContractKind[]).map((kind) => [
    kind,
    new Map(functionsOf(kind).map((spec) => [functionId(spec.name), spec])),
  ]),
);

/**
 * constantHandler answers a function whose code returns a literal (a standard's `*_extensions` list: bytecode.ts
 * `constant`) with that literal, as its code does; undefined for another function.
 */
function constantHandler(kind: ContractKind, fn: string): Handler | undefined {
  const constant = functionsOf(kind).find((spec) => spec.name === fn)?.constant;
  return constant === undefined ? undefined : () => constant;
}

/** PAYABLE names each kind's payable functions: only these take AE with a call. */
const PAYABLE = new Map<ContractKind, Set<string>>(
  (Object.keys(HANDLERS) as ContractKind[]).map((kind) => [
    kind,
    new Set(functionsOf(kind).flatMap((spec) => (spec.payable ? [spec.name] : []))),
  ]),
);

/** typed gives decoded calldata its declared types: FATE strings arrive as bytes. */
function typed(value: FateValue, type: FateType): FateValue {
  const fail = (): never => {
    throw new FateDecodeError(`argument does not have type ${JSON.stringify(type)}`);
  };
  if (type === 'string') return value instanceof Uint8Array ? Buffer.from(value).toString('utf8') : fail();
  if (type === 'int') return typeof value === 'bigint' ? value : fail();
  if (type === 'bool') return typeof value === 'boolean' ? value : fail();
  if (type === 'address' || type === 'contract') {
    const id = (value as { kind?: string; id?: string }).kind === 'address' ? (value as { id: string }).id : fail();
    return id.startsWith(type === 'address' ? 'ak_' : 'ct_') ? value : fail();
  }
  if ('bytes' in type) {
    const b = (value as { kind?: string; bytes?: Uint8Array }).kind === 'bytes' ? (value as FateBytes).bytes : fail();
    return type.bytes === 'any' || b.length === type.bytes ? value : fail();
  }
  if ('record' in type) return typed(value, { tuple: type.fields.map(([, t]) => t) });
  if ('list' in type) return Array.isArray(value) ? value.map((v: FateValue) => typed(v, type.list)) : fail();
  const v = value as { kind?: string; items?: FateValue[]; tag?: number; values?: FateValue[] };
  if ('tuple' in type) {
    if (v.kind !== 'tuple' || v.items!.length !== type.tuple.length) fail();
    return { kind: 'tuple', items: v.items!.map((item, i) => typed(item, type.tuple[i]!)) };
  }
  if ('variant' in type) {
    const args = v.kind === 'variant' ? type.variant[v.tag!] : undefined;
    if (!args || args.length !== v.values!.length) fail();
    return { ...(value as FateVariant), values: v.values!.map((item, i) => typed(item, args![i]!)) };
  }
  return value;
}

/** A call of a native contract's function that dispatch runs: `init` only at creation (`isCreate`). */
interface Dispatch {
  readonly caller: string;
  readonly contract: string;
  readonly fn: string;
  readonly args: readonly FateValue[];
  readonly value: bigint;
  readonly isCreate?: boolean;
}

/** dispatch runs `fn` of a native contract called by `caller`, with `value` paid to it. */
function dispatch(env: Env, { caller, contract, fn, args, value, isCreate = false }: Dispatch): FateValue {
  charge(env, GAS.call);
  const entry = env.state.contracts.get(contract);
  require(entry !== undefined, `contract ${contract} not found`);
  const kind = kindOfCode(entry.code);
  require(kind !== undefined, `${contract} is not a contract the devnode runs`);
  const handler = HANDLERS[kind][fn] ?? constantHandler(kind, fn);
  require(handler !== undefined && (fn === 'init') === isCreate, `no function ${fn} to call`);
  if (value > 0n && !isCreate && !PAYABLE.get(kind)!.has(fn)) throw new FateError(`Function ${fn} is not payable`);
  const frame = new Frame(env, contract, caller, value);
  if (caller !== env.origin) moveAe(env, frame.caller, frame.account, value, 'Call.amount');
  return handler(frame, args);
}

/** NativeCall is a contract transaction (or dry-run) the engine runs; the caller already paid `amount` to the contract. */
export interface NativeCall {
  readonly height: number;
  /** the generation the call's micro block follows (the height where absent: a chain but a hyperchain) */
  readonly generation?: number;
  /** the naming rules the call's AENS operations follow (absent: they fail) */
  readonly names?: NameRules;
  readonly caller: string;
  readonly contract: string;
  readonly code: string;
  readonly callData: string;
  readonly amount: bigint;
  readonly gasLimit: number;
  readonly isCreate: boolean;
}

/** CallOutcome is what the call record says: return type and value, logs (newest first, as the node keeps them), gas used. */
export interface CallOutcome {
  readonly returnType: 'ok' | 'revert' | 'error';
  readonly returnValue: string;
  readonly log: readonly ContractLog[];
  readonly gasUsed: number;
  /** the AE the call moved between accounts and the names it acted on, in order (a failed call has none) */
  readonly events?: readonly InternalEvent[];
}

/**
 * runNative runs a call of native code on a layer of `state`, committed only when the call
 * succeeds. Undefined when the code is not native.
 */
export function runNative(state: WorldState, call: NativeCall): CallOutcome | undefined {
  const kind = kindOfCode(call.code);
  if (!kind) return undefined;
  const layer = newState(state);
  const env: Env = {
    state: layer,
    height: call.height,
    generation: call.generation ?? call.height,
    origin: call.caller,
    gasLimit: call.gasLimit,
    logs: [],
    events: [],
    ...(call.names ? { names: call.names } : {}),
    gasUsed: call.isCreate ? GAS.create : 0,
    call: (caller, contract, fn, args, value) => dispatch(env, { caller, contract, fn, args, value }),
  };
  try {
    const { functionId: id, args } = decodeCallData(call.callData);
    const spec = SPECS_BY_ID.get(kind)!.get(id);
    if (!spec || spec.args.length !== args.length) throw new Revert(`no function with id ${id} and these arguments`);
    const value = dispatch(env, {
      caller: call.caller,
      contract: call.contract,
      fn: spec.name,
      args: args.map((a, i) => typed(a, spec.args[i]!)),
      value: call.amount,
      isCreate: call.isCreate,
    });
    // a middleware leaves out the calls of code without such operations (chain/internal-call-ops.ts): a kind's code
    // must hold those its functions run (bytecode.ts, `ops`)
    if (env.events.length > 0 && !mayMakeInternalCalls(call.code))
      throw new Error(`devnode: ${kind}.${spec.name} made internal calls, but its code holds no operation making one`);
    commitState(layer);
    // the node's FATE engine prepends each event (aefa_engine_state:add_log) and stores the list as it is
    const log = env.logs.reverse();
    return { returnType: 'ok', returnValue: encodeValue(value), log, gasUsed: env.gasUsed, events: env.events };
  } catch (err) {
    if (err instanceof FateError) {
      return {
        returnType: 'error',
        returnValue: encode('cb', Buffer.from(err.message)),
        log: [],
        gasUsed: call.gasLimit,
      };
    }
    if (err instanceof Revert || err instanceof FateDecodeError) {
      return {
        returnType: 'revert',
        returnValue: encodeValue(err.message),
        log: [],
        gasUsed: Math.min(env.gasUsed, call.gasLimit),
      };
    }
    throw err;
  }
}
