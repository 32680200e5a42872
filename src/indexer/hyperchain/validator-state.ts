/**
 * @module Which record a staking contract's `get_validator_state(owner)` answered, told by its fields' types, and what
 * it states: ae_mdw 1.107's `get_validator_response` (8 fields) states the validator's delegates and no balance (its
 * sixth field is `stake_limit` on the node's contracts of that time, so it is never read as one); the node's MainStaking
 * since its staking contracts overhaul (node PR #4504) answers its `validator` record, `total_balance` and no
 * delegates. Read from aepp-calldata's decoding by the code's types or from the FATE value (fate-answers.ts). Pure.
 */
import { isKind, type FateValue } from '../../chain/fate.ts';
import type { DryRunResult } from '../../node/dry-run.ts';
import type { BytecodeEncoder } from '../contracts/contract-decoder.ts';
import { readDelegates, readFateDelegates } from './epoch-rows.ts';
import { readAnswer } from '../contracts/fate-answers.ts';

/** ValidatorState is what one answer states, by the record it is. */
export type ValidatorState =
  | { readonly record: 'get_validator_response'; readonly delegates: ReadonlyMap<string, bigint> }
  | { readonly record: 'validator'; readonly totalBalance: bigint };

/** One answer as read: undefined when the call failed, null for a record this version does not know. */
export type StateRead = ValidatorState | null | undefined;

type FieldKind = 'address' | 'int' | 'balance' | 'int map' | 'bool';

/**
 * The `validator` record's fields (`balance` is `total_balance`): `{owner, sign_key, total_balance, current_stake,
 * staked, restake}`, and without `sign_key` as an intermediate version of the contract had it. No shape of
 * `get_validator_response` has 5 or 6 fields.
 */
const VALIDATOR_RECORDS: readonly (readonly FieldKind[])[] = [
  ['address', 'address', 'balance', 'int', 'int map', 'bool'],
  ['address', 'balance', 'int', 'int map', 'bool'],
];

/** readState reads a `get_validator_state` dry-run's result, from its FATE value or by the staking contract's types. */
export function readState(code: BytecodeEncoder, result: DryRunResult | undefined): StateRead {
  if (!result?.ok) return undefined;
  return readAnswer(code, 'get_validator_state', result.value, readFateValidatorState, readValidatorState) ?? null;
}

/**
 * recordOf is the record a boundary's answers are, when every one read is the same (a failed call says nothing):
 * null when one is a record this version does not read or they differ, undefined when none was read.
 */
export function recordOf(states: readonly StateRead[]): ValidatorState['record'] | null | undefined {
  const records = new Set(states.flatMap((s) => (s === undefined ? [] : [s?.record ?? null])));
  if (records.size > 1) return null;
  return [...records][0];
}

/** readValidatorState reads aepp-calldata's decoding of an answer, or gives undefined for a record it does not know. */
export function readValidatorState(value: unknown): ValidatorState | undefined {
  const delegates = readDelegates(value);
  if (delegates) return { record: 'get_validator_response', delegates };
  return Array.isArray(value) ? validatorRecord(value, isDecoded) : undefined;
}

/** readFateValidatorState reads an answer's FATE value, or gives undefined for a record it does not know. */
export function readFateValidatorState(value: FateValue): ValidatorState | undefined {
  const delegates = readFateDelegates(value);
  if (delegates) return { record: 'get_validator_response', delegates };
  return isKind(value, 'tuple') ? validatorRecord(value.items, isFate) : undefined;
}

/** validatorRecord reads `total_balance` of fields whose kinds are one of VALIDATOR_RECORDS. */
function validatorRecord(
  fields: readonly unknown[],
  is: (kind: FieldKind, value: unknown) => boolean,
): ValidatorState | undefined {
  const kinds = VALIDATOR_RECORDS.find((r) => r.length === fields.length);
  if (!kinds?.every((kind, i) => is(kind, fields[i]))) return undefined;
  return { record: 'validator', totalBalance: fields[kinds.indexOf('balance')] as bigint };
}

/** isDecoded: aepp-calldata gives an address as `ak_…`, an int as a bigint, a map as a Map. */
function isDecoded(kind: FieldKind, value: unknown): boolean {
  switch (kind) {
    case 'address':
      return typeof value === 'string' && value.startsWith('ak_');
    case 'int':
    case 'balance':
      return typeof value === 'bigint';
    case 'int map':
      return value instanceof Map && [...value].every(([k, v]) => typeof k === 'bigint' && typeof v === 'bigint');
    case 'bool':
      return typeof value === 'boolean';
  }
}

function isFate(kind: FieldKind, value: unknown): boolean {
  const v = value as FateValue;
  switch (kind) {
    case 'address':
      return isKind(v, 'address') && v.id.startsWith('ak_');
    case 'int':
    case 'balance':
      return typeof v === 'bigint';
    case 'int map':
      return isKind(v, 'map') && v.entries.every(([k, s]) => typeof k === 'bigint' && typeof s === 'bigint');
    case 'bool':
      return typeof v === 'boolean';
  }
}
