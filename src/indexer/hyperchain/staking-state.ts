/**
 * @module The validators' balances in the node's current MainStaking's `get_state()` answer, its whole `state` record
 * `{validators, owners, sign_keys, validator_min_stake, current_epoch}`: one answer states every validator's
 * `validator` record (validator-state.ts), where `get_validator_state(owner)` states one, and only of its owner, not
 * of the signing key the other answers name it by. Read from the FATE value or from aepp-calldata's decoding by the
 * contract's types (fate-answers.ts); any other shape is not read. Pure.
 */
import { isKind, type FateValue } from '../../chain/fate.ts';
import type { DryRunResult } from '../../node/dry-run.ts';
import type { BytecodeEncoder } from '../contracts/contract-decoder.ts';
import { readAnswer } from '../contracts/fate-answers.ts';
import { readFateValidatorState, readValidatorState, type ValidatorState } from './validator-state.ts';

/** Each validator's `total_balance` by its signing key. */
export type Balances = ReadonlyMap<string, bigint>;

/** One answer as read: undefined when the call failed, null for a shape this version does not know. */
export type BalancesRead = Balances | null | undefined;

/** readBalances reads a `get_state()` dry-run's result, from its FATE value or by the staking contract's types. */
export function readBalances(code: BytecodeEncoder, result: DryRunResult | undefined): BalancesRead {
  if (!result?.ok) return undefined;
  try {
    return readAnswer(code, 'get_state', result.value, readFateBalances, readDecodedBalances) ?? null;
  } catch {
    return null; // aepp-calldata refuses the answer: not the state its types declare
  }
}

/** How one reading of an answer tells its parts: the FATE value's, or aepp-calldata's decoding by the types. */
interface Reading<V> {
  /** a tuple's or record's fields */
  readonly items: (value: V) => readonly V[] | undefined;
  readonly entries: (value: V) => readonly (readonly [V, V])[] | undefined;
  readonly isAddress: (value: V) => boolean;
  readonly id: (address: V) => string;
  readonly state: (record: V) => ValidatorState | undefined;
}

const FATE: Reading<FateValue> = {
  items: (v) => (isKind(v, 'tuple') ? v.items : undefined),
  entries: (v) => (isKind(v, 'map') ? v.entries : undefined),
  isAddress: (v) => isKind(v, 'address'),
  id: (v) => (v as { id: string }).id,
  state: readFateValidatorState,
};

const DECODED: Reading<unknown> = {
  items: (v) => (Array.isArray(v) ? v : undefined),
  entries: (v) => (v instanceof Map ? [...(v as Map<unknown, unknown>)] : undefined),
  isAddress: (v) => typeof v === 'string' && v.startsWith('ak_'),
  id: (v) => v as string,
  state: readValidatorState,
};

/** readFateBalances reads the state record's FATE value, or gives undefined for another shape. */
export const readFateBalances = (value: FateValue): Balances | undefined => balancesOf(FATE, value);

/** readDecodedBalances reads aepp-calldata's decoding of the state record, or gives undefined for another shape. */
export const readDecodedBalances = (value: unknown): Balances | undefined => balancesOf(DECODED, value);

/**
 * balancesOf keys each validator record's `total_balance` by its signing key: its second field where it has one, its
 * owner in the version of the record without (which named validators by owner). Undefined when the answer is not the
 * state record, a key is no address or a record not the `validator` one.
 */
function balancesOf<V>(r: Reading<V>, value: V): Balances | undefined {
  const items = r.items(value);
  if (items?.length !== 5) return undefined;
  const [validators, owners, signKeys, minStake, epoch] = items as [V, V, V, V, V];
  const isAddressMap = (m: V): boolean => r.entries(m)?.every(([k, v]) => r.isAddress(k) && r.isAddress(v)) ?? false;
  const records = r.entries(validators);
  if (!records || !isAddressMap(owners) || !isAddressMap(signKeys)) return undefined;
  if (typeof minStake !== 'bigint' || typeof epoch !== 'bigint') return undefined;
  const balances = new Map<string, bigint>();
  for (const [key, record] of records) {
    const state = r.isAddress(key) ? r.state(record) : undefined;
    if (state?.record !== 'validator') return undefined;
    const fields = r.items(record)!;
    balances.set(r.id(fields[fields.length === 6 ? 1 : 0]!), state.totalBalance);
  }
  return balances;
}
