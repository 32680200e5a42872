/**
 * @module One running call of a native contract: its storage, its caller and value, the events it
 * emits (the node's log format) and the calls it makes to other contracts. Pure over the world state.
 */
import { encode, hash } from '../../chain/encoding.ts';
import { idBytes, withPrefix } from '../../chain/id-cache.ts';
import { bytesToInt } from '../../chain/rlp.ts';
import type { Json } from '../../chain/json.ts';
import type { WorldState } from '../store/state.ts';
import type { FateValue } from '../../chain/fate.ts';
import { contractId } from '../ids.ts';
import { FATE_ABI_VERSION, FATE_VM_VERSION } from './fate-contract.ts';

/** Revert is a contract's `abort`/`require` failure: the call reverts with this reason. */
export class Revert extends Error {
  override readonly name = 'Revert';
}

/**
 * FateError is a FATE runtime error (out of gas, AE sent to a function that is not payable): the call
 * fails with `return_type: error`, the message as its value, and uses all the gas it was given.
 */
export class FateError extends Error {
  override readonly name = 'FateError';
}

/** ContractLog is one event as the node prints it in `call_info.log`. */
export interface ContractLog {
  readonly address: string;
  readonly topics: readonly bigint[];
  readonly data: string;
}

/** logJson is a log entry as JSON (topics stay exact big integers). */
export const logJson = (log: ContractLog): Json => ({ address: log.address, topics: [...log.topics], data: log.data });

/** Gas a native call charges: per call, per event and per storage write (round, plausible numbers). */
export const GAS = { call: 600, event: 250, write: 120, create: 3000 } as const;

/**
 * AeTransfer is AE that moved inside a call, as the node reports it among a dry-run's `tx_events`: by `Chain.spend`
 * (a contract paying out) or with a call to another contract (`Call.amount`).
 */
export interface AeTransfer {
  readonly type: 'Chain.spend' | 'Call.amount';
  readonly from: string;
  readonly to: string;
  readonly amount: bigint;
}

/**
 * AensOperation is a name operation a contract performed (`AENS.claim`…), with the transaction the node's event
 * carries for it (its `for_client` JSON: fee, nonce 0).
 */
export interface AensOperation {
  readonly type: 'AENS.claim' | 'AENS.update' | 'AENS.transfer' | 'AENS.revoke';
  readonly info: { readonly [key: string]: Json };
}

/**
 * ContractCreation is a contract a call created (`Call.clone`; `Call.create` from code): the node records it among the
 * call's events with no transaction (aefa_chain_api tx_event_data has none for it), so its dry-run cannot serialise it
 * (api/dry-run.ts).
 */
export interface ContractCreation {
  readonly type: 'Call.clone' | 'Call.create';
  readonly contract: string;
}

/** ToldEvent is an event a dry-run's `tx_events` tells: one carrying the transaction it amounts to. */
export type ToldEvent = AeTransfer | AensOperation;

/** InternalEvent is one of a call's `tx_events`, in the order the call made them. */
export type InternalEvent = ToldEvent | ContractCreation;

/** isTold says whether a dry-run can tell an event (it carries a transaction). */
export const isTold = (event: InternalEvent): event is ToldEvent =>
  event.type !== 'Call.clone' && event.type !== 'Call.create';

/**
 * NameRules applies a name transaction (`NameClaimTx`…, fee 0) a contract's AENS call amounts to, on the call's
 * state: the naming rules (rules/names.ts, which sit above the contracts and hand them down); a refusal throws
 * FateError, as the node's primop fails the call.
 */
export type NameRules = (
  state: WorldState,
  tx: { readonly [key: string]: Json },
  at: { readonly height: number; readonly generation: number },
) => void;

/** Env is what every frame of one transaction shares: the state layer, the height, the events and the gas. */
export interface Env {
  readonly state: WorldState;
  /** the micro block's height (aetx_env:height) and the generation whose prune decides what exists (rules/common.ts) */
  readonly height: number;
  readonly generation: number;
  readonly origin: string;
  readonly gasLimit: number;
  readonly logs: ContractLog[];
  readonly events: InternalEvent[];
  /** the naming rules a contract's AENS calls follow (absent: such a call fails) */
  readonly names?: NameRules;
  gasUsed: number;
  /** call runs a function of another contract (the engine's dispatcher) */
  readonly call: (caller: string, contract: string, fn: string, args: readonly FateValue[], value: bigint) => FateValue;
}

/** charge adds gas and ends the call when the limit is passed. */
export function charge(env: Env, gas: number): void {
  env.gasUsed += gas;
  if (env.gasUsed > env.gasLimit) throw new FateError('Out of gas');
}

/** eventTopic is an event's first topic: blake2b-256 of the constructor name, as an unsigned integer. */
export function eventTopic(name: string): bigint {
  return bytesToInt(hash(Buffer.from(name, 'utf8')));
}

/** Indexed is an indexed event argument: an address (`ak_`/`ct_`), an integer or a bool. */
export type Indexed = string | bigint | boolean;

function topicOf(arg: Indexed): bigint {
  if (typeof arg === 'bigint') return arg;
  if (typeof arg === 'boolean') return arg ? 1n : 0n;
  return bytesToInt(idBytes(arg));
}

/** Frame is one call of one contract. */
export class Frame {
  readonly env: Env;
  /** the contract (`ct_`) and its account (`ak_`) */
  readonly self: string;
  readonly account: string;
  /** the caller's address (`ak_`, also for contracts) and the AE it sent */
  readonly caller: string;
  readonly value: bigint;

  constructor(env: Env, self: string, caller: string, value: bigint) {
    this.env = env;
    this.self = self;
    this.account = withPrefix(self, 'ak');
    this.caller = withPrefix(caller, 'ak');
    this.value = value;
  }

  get<V extends FateValue>(slot: string): V | undefined {
    return this.env.state.contractStore.get(`${this.self}/${slot}`) as V | undefined;
  }

  int(slot: string): bigint {
    return this.get<bigint>(slot) ?? 0n;
  }

  set(slot: string, value: FateValue): void {
    charge(this.env, GAS.write);
    this.env.state.contractStore.set(`${this.self}/${slot}`, value);
  }

  /** push appends to a list slot (lists are copied on write: the ones here stay small). */
  push(slot: string, item: FateValue): void {
    this.set(slot, [...(this.get<FateValue[]>(slot) ?? []), item]);
  }

  /** call calls `fn` of another contract as this contract, sending `value` AE. */
  call(contract: string, fn: string, args: readonly FateValue[], value = 0n): FateValue {
    return this.env.call(this.self, contract, fn, args, value);
  }

  /**
   * createContract stores a contract of `code` this call creates (Chain.clone, Chain.create) and gives its id, which
   * follows this contract's account nonce as the node's does: the creation bumps it.
   */
  createContract(code: string): string {
    const accounts = this.env.state.accounts;
    const creator = accounts.get(this.account) ?? { balance: 0n, nonce: 0 };
    accounts.set(this.account, { ...creator, nonce: creator.nonce + 1 });
    const id = contractId(this.account, creator.nonce + 1);
    this.env.state.contracts.set(id, {
      id,
      ownerId: this.account,
      vmVersion: FATE_VM_VERSION,
      abiVersion: FATE_ABI_VERSION,
      deposit: 0n,
      code,
    });
    return id;
  }

  /** emit logs event `name` with indexed arguments (topics) and an optional string payload. */
  emit(name: string, indexed: readonly Indexed[], data = ''): void {
    charge(this.env, GAS.event);
    this.env.logs.push({
      address: this.self,
      topics: [eventTopic(name), ...indexed.map(topicOf)],
      data: encode('cb', Buffer.from(data, 'utf8')),
    });
  }
}

/** moveAe pays AE between accounts within a call (value sent with an inner call, WAE withdrawals). */
export function moveAe(env: Env, from: string, to: string, amount: bigint, type: AeTransfer['type']): void {
  if (amount === 0n) return;
  const accounts = env.state.accounts;
  const source = accounts.get(from) ?? { balance: 0n, nonce: 0 };
  require(source.balance >= amount, 'NOT_ENOUGH_AE');
  accounts.set(from, { ...source, balance: source.balance - amount });
  const target = accounts.get(to) ?? { balance: 0n, nonce: 0 };
  accounts.set(to, { ...target, balance: target.balance + amount });
  env.events.push({ type, from, to, amount });
}

/** require reverts with `reason` unless `condition` holds (Sophia's require). */
export function require(condition: boolean, reason: string): asserts condition {
  if (!condition) throw new Revert(reason);
}
