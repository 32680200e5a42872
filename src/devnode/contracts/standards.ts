/**
 * @module The type tables of the contracts the devnode runs natively: AEX-9 (fungible token with
 * the allowances, mintable and burnable extensions), wrapped AE, AEX-141 (NFT collection with
 * templates), and the æternity DEX (dex-contracts-v2: factory, pair, router). Function names and
 * types are the standards' exactly, because middlewares detect AEX-9/AEX-141 from them. Pure.
 */
import { contractBytecode, fn, type FunctionSpec } from './bytecode.ts';
import { optionType, type FateType } from '../../chain/fate.ts';
import { HC_ELECTION_FUNCTIONS, HC_STAKING_FUNCTIONS, HC_STAKING_VALIDATOR_FUNCTIONS } from './hc-types.ts';

const UNIT: FateType = { tuple: [] };
const OPTION_INT = optionType('int');
const OPTION_STRING = optionType('string');
const OPTION_ADDRESS = optionType('address');
const ALLOWANCE_ACCOUNTS: FateType = { tuple: ['address', 'address'] };
/** AEX-141's `metadata = MetadataIdentifier(string) | MetadataMap(map(string, string))`. */
export const METADATA: FateType = { variant: [['string'], [{ map: ['string', 'string'] }]] };
/** AEX-141's `metadata_type = URL | OBJECT_ID | MAP`. */
const METADATA_TYPE: FateType = { variant: [[], [], []] };

/** The AEX-9 base functions and the allowances extension (WAE and DEX pairs have them too). */
const AEX9_CORE: readonly FunctionSpec[] = [
  fn('meta_info', [], { tuple: ['string', 'string', 'int'] }),
  fn('total_supply', [], 'int'),
  fn('owner', [], 'address'),
  fn('balances', [], { map: ['address', 'int'] }),
  fn('balance', ['address'], OPTION_INT),
  fn('transfer', ['address', 'int'], UNIT),
  fn('allowances', [], { map: [ALLOWANCE_ACCOUNTS, 'int'] }),
  fn('allowance', [ALLOWANCE_ACCOUNTS], OPTION_INT),
  fn('allowance_for_caller', ['address'], OPTION_INT),
  fn('create_allowance', ['address', 'int'], UNIT),
  fn('transfer_allowance', ['address', 'address', 'int'], UNIT),
  fn('change_allowance', ['address', 'int'], UNIT),
  fn('reset_allowance', ['address'], UNIT),
];

const extensions = (name: string, list: string[]): FunctionSpec => ({
  name,
  args: [],
  ret: { list: 'string' },
  constant: list,
});

/** AEX9_EXTENSIONS of the devnode's fungible tokens. */
export const AEX9_EXTENSIONS = ['allowances', 'mintable', 'burnable'];

/** AEX-9 `fungible-token-full`: init(name, decimals, symbol, initial_owner_balance). */
export const AEX9_FUNCTIONS: readonly FunctionSpec[] = [
  fn('init', ['string', 'int', 'string', OPTION_INT], UNIT),
  extensions('aex9_extensions', AEX9_EXTENSIONS),
  ...AEX9_CORE,
  fn('mint', ['address', 'int'], UNIT),
  fn('burn', ['int'], UNIT),
];

/** Wrapped AE (dex-contracts-v2 WAE): AE paid to `deposit` becomes tokens, `withdraw` pays AE back. */
export const WAE_FUNCTIONS: readonly FunctionSpec[] = [
  fn('init', [], UNIT),
  extensions('aex9_extensions', ['allowances']),
  ...AEX9_CORE,
  fn('deposit', [], UNIT, true),
  fn('deposit_to', ['address'], UNIT, true),
  fn('withdraw', ['int'], UNIT, false, ['SPEND']),
];

/** AEX141_EXTENSIONS of the devnode's collections. */
export const AEX141_EXTENSIONS = ['mintable', 'mintable_templates', 'mintable_templates_limit', 'burnable'];

/** AEX-141 collection with unique mints and template editions (CollectionTemplateEditionNFTs). */
export const AEX141_FUNCTIONS: readonly FunctionSpec[] = [
  fn('init', ['string', 'string', 'int'], UNIT),
  extensions('aex141_extensions', AEX141_EXTENSIONS),
  fn('meta_info', [], { tuple: ['string', 'string', OPTION_STRING, METADATA_TYPE] }),
  fn('metadata', ['int'], optionType(METADATA)),
  fn('total_supply', [], 'int'),
  fn('balance', ['address'], OPTION_INT),
  fn('owner', ['int'], OPTION_ADDRESS),
  fn('transfer', ['address', 'int', OPTION_STRING], UNIT),
  fn('transfer_to_contract', ['int'], UNIT),
  fn('approve', ['address', 'int', 'bool'], UNIT),
  fn('approve_all', ['address', 'bool'], UNIT),
  fn('get_approved', ['int'], OPTION_ADDRESS),
  fn('is_approved', ['int', 'address'], 'bool'),
  fn('is_approved_for_all', ['address', 'address'], 'bool'),
  fn('mint', ['address', optionType(METADATA), OPTION_STRING], 'int'),
  fn('burn', ['int'], UNIT),
  fn('template_metadata_type', [], { variant: [[], []] }),
  fn('template', ['int'], optionType({ tuple: [METADATA, OPTION_INT, 'int'] })),
  fn('template_supply', [], 'int'),
  fn('create_template', [METADATA, OPTION_INT], 'int'),
  fn('delete_template', ['int'], UNIT),
  fn('template_mint', ['address', 'int', OPTION_STRING], 'int'),
  fn('template_limit', [], 'int'),
  fn('decrease_template_limit', ['int'], UNIT),
  fn('get_owned_tokens', ['address'], { list: 'int' }),
];

/** DEX factory (AedexV2Factory): creates pairs by cloning its pair model. */
export const FACTORY_FUNCTIONS: readonly FunctionSpec[] = [
  fn('init', ['address', 'contract', optionType('bool')], UNIT),
  fn('all_pairs_length', [], 'int'),
  fn('get_all_pairs', [], { list: 'contract' }),
  fn('get_pair', ['contract', 'contract'], optionType('contract')),
  fn('create_pair', ['contract', 'contract', OPTION_INT, OPTION_INT], 'contract', false, ['CLONE']),
];

/** DEX pair (AedexV2Pair): an AEX-9 liquidity token holding reserves of two tokens. */
export const PAIR_FUNCTIONS: readonly FunctionSpec[] = [
  fn('init', ['contract', 'contract', 'contract', OPTION_INT, OPTION_INT], UNIT),
  extensions('aex9_extensions', ['allowances']),
  ...AEX9_CORE,
  fn('get_reserves', [], { tuple: ['int', 'int', 'int'] }),
  fn('token0', [], 'contract'),
  fn('token1', [], 'contract'),
  // both read or move the tokens they hold through calls of the token contracts
  fn('mint', ['address'], 'int', false, ['CALL_R']),
  fn('swap', ['int', 'int', 'address', optionType('contract')], UNIT, false, ['CALL_R']),
];

/** DEX router (AedexV2Router): adds liquidity and swaps along a path of pairs. */
export const ROUTER_FUNCTIONS: readonly FunctionSpec[] = [
  fn('init', ['contract', 'contract', 'contract'], UNIT),
  fn('factory', [], 'contract'),
  fn(
    'add_liquidity',
    ['contract', 'contract', 'int', 'int', 'int', 'int', 'address', OPTION_INT, 'int'],
    { tuple: ['int', 'int', 'int'] },
    false,
    ['CALL_R'],
  ),
  fn(
    'swap_exact_tokens_for_tokens',
    ['int', 'int', { list: 'contract' }, 'address', 'int', optionType('contract')],
    { list: 'int' },
    false,
    ['CALL_R'],
  ),
  fn(
    'swap_exact_ae_for_tokens',
    ['int', { list: 'contract' }, 'address', 'int', optionType('contract')],
    { list: 'int' },
    true,
    ['CALL_R'],
  ),
];

/**
 * A names registrar: a contract that claims names for itself with the AE sent along (AENS.claim, salt 0: a name of
 * 12 characters or fewer opens or bids in an auction), points them at an account, transfers and revokes them.
 */
export const REGISTRAR_FUNCTIONS: readonly FunctionSpec[] = [
  fn('init', [], UNIT),
  fn('claim', ['string'], UNIT, true, ['AENS_CLAIM']),
  fn('update', ['string', 'address'], UNIT, false, ['AENS_UPDATE']),
  fn('transfer', ['string', 'address'], UNIT, false, ['AENS_TRANSFER']),
  fn('revoke', ['string'], UNIT, false, ['AENS_REVOKE']),
];

/** ContractKind names what the devnode runs for a bytecode. */
export type ContractKind =
  | 'aex9'
  /** an AEX-9 token whose `mint` logs no event (as some deployed tokens do): the generator deploys none, tests do */
  | 'aex9_unlogged'
  | 'wae'
  | 'aex141'
  | 'factory'
  | 'pair'
  | 'router'
  | 'hc_staking'
  /** MainStaking whose `get_validator_state` answers the node's current `validator` record (hc-types.ts) */
  | 'hc_staking_validator'
  | 'hc_election'
  | 'registrar';

const SPECS: Record<ContractKind, { functions: readonly FunctionSpec[]; payable: boolean }> = {
  aex9: { functions: AEX9_FUNCTIONS, payable: false },
  aex9_unlogged: { functions: AEX9_FUNCTIONS, payable: false },
  wae: { functions: WAE_FUNCTIONS, payable: true },
  aex141: { functions: AEX141_FUNCTIONS, payable: false },
  factory: { functions: FACTORY_FUNCTIONS, payable: false },
  pair: { functions: PAIR_FUNCTIONS, payable: false },
  router: { functions: ROUTER_FUNCTIONS, payable: true },
  hc_staking: { functions: HC_STAKING_FUNCTIONS, payable: true },
  hc_staking_validator: { functions: HC_STAKING_VALIDATOR_FUNCTIONS, payable: true },
  hc_election: { functions: HC_ELECTION_FUNCTIONS, payable: true },
  registrar: { functions: REGISTRAR_FUNCTIONS, payable: true },
};

/** BYTECODE is each kind's `cb_…` code (the same for every token, collection or pair of a kind). */
export const BYTECODE: Readonly<Record<ContractKind, string>> = Object.fromEntries(
  Object.entries(SPECS).map(([kind, s]) => [kind, contractBytecode(s.functions, `devnode ${kind}`, s.payable)]),
) as Record<ContractKind, string>;

const KIND_BY_CODE = new Map(Object.entries(BYTECODE).map(([kind, code]) => [code, kind as ContractKind]));

/** kindOfCode is the native kind of deployed code, or undefined for other code. */
export function kindOfCode(code: string): ContractKind | undefined {
  return KIND_BY_CODE.get(code);
}

/** functionsOf are a kind's functions. */
export function functionsOf(kind: ContractKind): readonly FunctionSpec[] {
  return SPECS[kind].functions;
}
