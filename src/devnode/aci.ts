/**
 * @module The ACI (the compiler's contract interface JSON, which aepp-sdk's `Contract` reads to encode calls and
 * decode results and events) of the contracts the devnode defines, derived from their type tables, so a client
 * deploys and calls them through the SDK with no compiler. Pure.
 */
import type { FunctionSpec } from './contracts/bytecode.ts';
import type { FateType } from './contracts/fate.ts';
import { AEX9_FUNCTIONS } from './contracts/standards.ts';
import { GA_FUNCTIONS } from './fate-contract.ts';

/** AciType is a type as the ACI writes it. */
type AciType = string | { readonly [constructor: string]: readonly AciType[] };

/** Aci is the compiler's ACI of one main contract, as the SDK takes it. */
export type Aci = readonly [{ readonly contract: AciContract }];

interface AciContract {
  readonly name: string;
  readonly kind: 'contract_main';
  readonly payable: false;
  readonly typedefs: readonly [];
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

/** aciType writes a type-table type in the ACI's notation (options only among variants: they have no names). */
export function aciType(type: FateType): AciType {
  if (typeof type === 'string') return type;
  if ('list' in type) return { list: [aciType(type.list)] };
  if ('tuple' in type) return { tuple: type.tuple.map(aciType) };
  if ('map' in type) return { map: type.map.map(aciType) };
  if (isOption(type)) return { option: [aciType(type.variant[1]![0]!)] };
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
  const contract: AciContract = {
    name,
    kind: 'contract_main',
    payable: false,
    typedefs: [],
    state: { tuple: [] },
    ...(events.length > 0 ? { event: { variant: events.map(([e, args]) => ({ [e]: args.map(aciType) })) } } : {}),
    functions: functions.map((f) => ({
      name: f.name,
      arguments: f.args.map((type, i) => ({ name: `arg${i}`, type: aciType(type) })),
      returns: aciType(f.ret),
      stateful: f.name === 'init' || stateful.includes(f.name),
      payable: f.payable === true,
    })),
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
