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
import { readAnswer } from './fate-answers.ts';
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

/** readFateBalances reads the state record's FATE value, or gives undefined for another shape. */
export function readFateBalances(value: FateValue): Balances | undefined {
  if (!isKind(value, 'tuple') || value.items.length !== 5) return undefined;
  const [validators, owners, signKeys, minStake, epoch] = value.items;
  const isAddress = (v: FateValue): boolean => isKind(v, 'address');
  const isAddressMap = (m: FateValue | undefined): boolean =>
    isKind(m, 'map') && m.entries.every(([k, v]) => isAddress(k) && isAddress(v));
  if (!isKind(validators, 'map') || !isAddressMap(owners) || !isAddressMap(signKeys)) return undefined;
  if (typeof minStake !== 'bigint' || typeof epoch !== 'bigint') return undefined;
  return balancesOf(
    validators.entries.map(([k, v]) => [isAddress(k), v, isKind(v, 'tuple') ? v.items : []] as const),
    readFateValidatorState,
    (field) => (field as { id: string }).id,
  );
}

/** readDecodedBalances reads aepp-calldata's decoding of the state record, or gives undefined for another shape. */
export function readDecodedBalances(value: unknown): Balances | undefined {
  if (!Array.isArray(value) || value.length !== 5) return undefined;
  const [validators, owners, signKeys, minStake, epoch] = value as unknown[];
  const isAddress = (v: unknown): boolean => typeof v === 'string' && v.startsWith('ak_');
  const isAddressMap = (m: unknown): boolean =>
    m instanceof Map && [...m].every(([k, v]) => isAddress(k) && isAddress(v));
  if (!(validators instanceof Map) || !isAddressMap(owners) || !isAddressMap(signKeys)) return undefined;
  if (typeof minStake !== 'bigint' || typeof epoch !== 'bigint') return undefined;
  return balancesOf(
    [...validators].map(([k, v]: [unknown, unknown]) => [isAddress(k), v, Array.isArray(v) ? v : []] as const),
    readValidatorState,
    (field) => field as string,
  );
}

/**
 * balancesOf keys each validator record's `total_balance` by its signing key: its second field where it has one, its
 * owner in the version of the record without (which named validators by owner). Undefined when a key is no address or
 * a record not the `validator` one.
 */
function balancesOf<V>(
  entries: readonly (readonly [keyIsAddress: boolean, record: V, fields: readonly unknown[]])[],
  read: (record: V) => ValidatorState | undefined,
  id: (field: unknown) => string,
): Balances | undefined {
  const balances = new Map<string, bigint>();
  for (const [keyIsAddress, record, fields] of entries) {
    const state = keyIsAddress ? read(record) : undefined;
    if (state?.record !== 'validator') return undefined;
    balances.set(id(fields[fields.length === 6 ? 1 : 0]), state.totalBalance);
  }
  return balances;
}
