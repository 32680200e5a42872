/**
 * @module The ACI (the compiler's contract interface JSON, which aepp-sdk's `Contract` reads to encode calls and
 * decode results and events) of the contracts the devnode defines, derived from their type tables, so a client
 * deploys and calls them through the SDK with no compiler. Pure.
 */
import type { FunctionSpec } from './bytecode.ts';
import type { FateType } from '../../chain/fate.ts';
import { AEX9_FUNCTIONS } from './standards.ts';
import { GA_FUNCTIONS } from './fate-contract.ts';
import { HC_ELECTION_FUNCTIONS, HC_STAKING_FUNCTIONS, HC_STAKING_VALIDATOR_FUNCTIONS } from './hc-types.ts';

/** AciType is a type as the ACI writes it. */
type AciType =
  | string
  | { readonly [constructor: string]: readonly AciType[] }
  | { readonly bytes: number | 'any' }
  | { readonly record: readonly { readonly name: string; readonly type: AciType }[] };

/** AciTypedef is a named type of the contract (the records its functions take or return). */
interface AciTypedef {
  readonly name: string;
  readonly typedef: AciType;
  readonly vars: readonly [];
}

/** Aci is the compiler's ACI of one main contract, as the SDK takes it. */
export type Aci = readonly [{ readonly contract: AciContract }];

interface AciContract {
  readonly name: string;
  readonly kind: 'contract_main';
  readonly payable: false;
  readonly typedefs: readonly AciTypedef[];
  readonly state: AciType;
  readonly event?: AciType;
  readonly functions: readonly {
    readonly name: string;
    readonly arguments: readonly { readonly name: string; readonly type: AciType }[];
    readonly returns: AciType;
    readonly stateful: boolean;
    readonly payable: boolean;
  }[];
}

/** isOption: the type tables write `option(t)` as the variant `None | Some(t)`. */
const isOption = (type: { readonly variant: readonly (readonly FateType[])[] }): boolean =>
  type.variant.length === 2 && type.variant[0]!.length === 0 && type.variant[1]!.length === 1;

/**
 * aciType writes a type-table type in the ACI's notation (options only among variants: they have no names). A record
 * is written as a reference to its typedef in `contract`, which `typedefs` collects (the compiler's ACI does so).
 */
export function aciType(type: FateType, contract = '', typedefs = new Map<string, AciTypedef>()): AciType {
  const inner = (t: FateType): AciType => aciType(t, contract, typedefs);
  // the compiler names a contract type by its contract; the SDK reads a contract's name as a contract address
  if (type === 'contract' && contract !== '') return contract;
  if (typeof type === 'string') return type;
  if ('list' in type) return { list: [inner(type.list)] };
  if ('tuple' in type) return { tuple: type.tuple.map(inner) };
  if ('map' in type) return { map: type.map.map(inner) };
  if ('bytes' in type) return { bytes: type.bytes };
  if ('record' in type) {
    if (!typedefs.has(type.record)) {
      const fields = type.fields.map(([name, t]) => ({ name, type: inner(t) }));
      typedefs.set(type.record, { name: type.record, typedef: { record: fields }, vars: [] });
    }
    return `${contract}.${type.record}`;
  }
  if (isOption(type)) return { option: [inner(type.variant[1]![0]!)] };
  throw new RangeError('a variant other than option has no constructor names to write in an ACI');
}

/** EventSpec is an event constructor and its argument types. */
type EventSpec = readonly [name: string, args: readonly FateType[]];

/** contractAci is the ACI of a contract with these functions; `stateful` names those that change state. */
export function contractAci(
  name: string,
  functions: readonly FunctionSpec[],
  stateful: readonly string[],
  events: readonly EventSpec[] = [],
): Aci {
  const typedefs = new Map<string, AciTypedef>();
  const write = (type: FateType): AciType => aciType(type, name, typedefs);
  const written = functions.map((f) => ({
    name: f.name,
    arguments: f.args.map((type, i) => ({ name: `arg${i}`, type: write(type) })),
    returns: write(f.ret),
    stateful: f.name === 'init' || stateful.includes(f.name),
    payable: f.payable === true,
  }));
  const contract: AciContract = {
    name,
    kind: 'contract_main',
    payable: false,
    typedefs: [...typedefs.values()],
    state: { tuple: [] },
    ...(events.length > 0 ? { event: { variant: events.map(([e, args]) => ({ [e]: args.map(write) })) } } : {}),
    functions: written,
  };
  return [{ contract }];
}

/** TOKEN_ACI is the ACI of the devnode's AEX-9 token (`BYTECODE.aex9`, fungible-token-full). */
export const TOKEN_ACI = contractAci(
  'FungibleTokenFull',
  AEX9_FUNCTIONS,
  ['transfer', 'create_allowance', 'transfer_allowance', 'change_allowance', 'reset_allowance', 'mint', 'burn'],
  [
    ['Transfer', ['address', 'address', 'int']],
    ['Allowance', ['address', 'address', 'int']],
    ['Burn', ['address', 'int']],
    ['Mint', ['address', 'int']],
  ],
);

/** GA_ACI is the ACI of the devnode's generalized-account contract (GA_CONTRACT_BYTECODE). */
export const GA_ACI = contractAci('DevnodeAuth', GA_FUNCTIONS, ['authorize']);

/** HC_ELECTION_ACI is the ACI of a devnode hyperchain's election contract (HCElection's records named). */
export const HC_ELECTION_ACI = contractAci('HCElection', HC_ELECTION_FUNCTIONS, [
  'init_epochs',
  'step',
  'step_eoe',
  'pin',
  'add_reward',
  'finalize_epoch',
]);

const STAKING_STATEFUL = ['new_validator', 'stake', 'withdraw', 'lock_stake', 'add_rewards'];

/**
 * HC_STAKING_ACI is the ACI of a devnode hyperchain's staking contract (MainStaking), `get_validator_state` answering
 * `get_validator_response` (the default `stakingRecord`).
 */
export const HC_STAKING_ACI = contractAci('MainStaking', HC_STAKING_FUNCTIONS, STAKING_STATEFUL);

/** HC_STAKING_VALIDATOR_ACI is the same of a devnode started with `stakingRecord: 'validator'` (the node's record). */
export const HC_STAKING_VALIDATOR_ACI = contractAci('MainStaking', HC_STAKING_VALIDATOR_FUNCTIONS, STAKING_STATEFUL);
