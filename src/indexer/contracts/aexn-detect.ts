/**
 * @module AEX-N detection from deployed FATE bytecode, as ae_mdw does it at contract creation: a contract is
 * AEX-9 or AEX-141 when its type table holds every function of the standard with exactly the standard's
 * types (names and types are in the code; the ACI is not needed). Also the constant `*_extensions` list
 * when the code returns it from a literal, and whether an AEX-9 token is a wrapped AE (dex-contracts-v2's WAE: AE paid
 * to `deposit` minted with a `Deposit` event, `withdraw` burnt with a `Withdrawal`), on any network; likewise a DEX
 * factory (detectDexFactory). Pure.
 */
import { ContractEncoder } from '@aeternity/aepp-calldata';
import type { AexnType } from '../../db/writes/token-rows.ts';

/** A FATE type as aepp-calldata's ContractEncoder decodes it. */
interface DecodedType {
  readonly name: string;
  readonly valueTypes?: readonly DecodedType[];
  readonly valuesType?: DecodedType;
  readonly keyType?: DecodedType;
  readonly valueType?: DecodedType;
  readonly variants?: readonly DecodedType[];
}

interface DecodedFunction {
  readonly name: string;
  readonly args: DecodedType;
  readonly returnType: DecodedType;
  readonly instructions?: readonly (readonly { mnemonic: string; args: readonly { mod: string; arg: unknown }[] }[])[];
}

/**
 * typeSignature writes a decoded type in a Sophia-like notation: `address`, `(string,string,int)`,
 * `option(int)` (a variant of `()` and one value), `map(address,int)`, `variant((),(string))`.
 */
export function typeSignature(t: DecodedType): string {
  switch (t.name) {
    case 'account_pubkey':
      return 'address';
    case 'contract_pubkey':
      return 'contract';
    case 'tuple':
      return `(${(t.valueTypes ?? []).map(typeSignature).join(',')})`;
    case 'list':
      return `list(${typeSignature(t.valuesType!)})`;
    case 'map':
      return `map(${typeSignature(t.keyType!)},${typeSignature(t.valueType!)})`;
    case 'variant': {
      const variants = t.variants ?? [];
      const [none, some] = variants;
      if (variants.length === 2 && none?.valueTypes?.length === 0 && some?.valueTypes?.length === 1)
        return `option(${typeSignature(some.valueTypes[0]!)})`;
      return `variant(${variants.map(typeSignature).join(',')})`;
    }
    default:
      return t.name;
  }
}

/** functionSignature is `(args) => return`, e.g. `(address) => option(int)`. */
const functionSignature = (f: DecodedFunction): string => `${typeSignature(f.args)} => ${typeSignature(f.returnType)}`;

/** The AEX-9 functions and their exact types (meta_info's record is a tuple in the code). */
const AEX9: Readonly<Record<string, string>> = {
  aex9_extensions: '() => list(string)',
  meta_info: '() => (string,string,int)',
  total_supply: '() => int',
  owner: '() => address',
  balances: '() => map(address,int)',
  balance: '(address) => option(int)',
  transfer: '(address,int) => ()',
};

/**
 * A wrapped AE adds to AEX-9 a payable `deposit()` and a `withdraw(amount)` (dex-contracts-v2's WAE): its `Deposit`
 * and `Withdrawal` events mint and burn. Other tokens' events of those names move no balance, as ae_mdw counts them.
 */
const WRAPPED_AE: Readonly<Record<string, string>> = {
  deposit: '() => ()',
  withdraw: '(int) => ()',
};

/**
 * A DEX factory (dex-contracts-v2's AedexV2Factory) keeps its pairs and announces each one it creates with
 * `PairCreated`: its code holds these with exactly these types, and a `create_pair` (whose options vary by version).
 */
const DEX_FACTORY: Readonly<Record<string, string>> = {
  all_pairs_length: '() => int',
  get_all_pairs: '() => list(contract)',
  get_pair: '(contract,contract) => option(contract)',
};

/** AEX-141's metadata: `MetadataIdentifier(string) | MetadataMap(map(string, string))`. */
const METADATA = 'variant((string),(map(string,string)))';
const AEX141_COMMON: Readonly<Record<string, string>> = {
  aex141_extensions: '() => list(string)',
  balance: '(address) => option(int)',
  owner: '(int) => option(address)',
  approve: '(address,int,bool) => ()',
  approve_all: '(address,bool) => ()',
  get_approved: '(int) => option(address)',
  is_approved: '(int,address) => bool',
  is_approved_for_all: '(address,address) => bool',
  metadata: `(int) => option(${METADATA})`,
};
/** AEX-141 as updated in 2023: `metadata_type` has three constructors (URL, OBJECT_ID, MAP). */
const AEX141: Readonly<Record<string, string>> = {
  ...AEX141_COMMON,
  meta_info: '() => (string,string,option(string),variant((),(),()))',
  total_supply: '() => int',
  transfer: '(address,int,option(string)) => ()',
};
/** AEX-141 before that update (ae_mdw accepts it below mainnet height 669 300): four constructors, sender in transfer. */
const AEX141_BEFORE_UPDATE: Readonly<Record<string, string>> = {
  ...AEX141_COMMON,
  meta_info: '() => (string,string,option(string),variant((),(),(),()))',
  transfer: '(address,address,int,option(string)) => ()',
};

const implementsAll = (functions: ReadonlyMap<string, string>, standard: Readonly<Record<string, string>>): boolean =>
  Object.entries(standard).every(([name, signature]) => functions.get(name) === signature);

/** constantStrings is the string list a function body returns as a literal (`RETURNR` of an immediate), if it does. */
function constantStrings(f: DecodedFunction | undefined): string[] | undefined {
  const first = f?.instructions?.[0]?.[0];
  const arg = first?.args[0];
  if (first?.mnemonic !== 'RETURNR' || arg?.mod !== 'immediate' || !Array.isArray(arg.arg)) return undefined;
  return arg.arg.every((s) => typeof s === 'string') ? (arg.arg as string[]) : undefined;
}

/** AexnDetection is what the code says: the standard, and the extensions when the code holds them as a literal. */
export interface AexnDetection {
  readonly type: AexnType;
  /** undefined: the extensions function computes its answer (a dry-run reads it) */
  readonly extensions: readonly string[] | undefined;
  /** AEX-141: the names of meta_info's metadata_type constructors, in order (ae_mdw's `metadata_type` values) */
  readonly metadataTypes?: readonly string[];
  /** AEX-9: the token is a wrapped AE (its Deposit and Withdrawal events mint and burn) */
  readonly wrappedAe?: boolean;
}

const METADATA_TYPES = ['url', 'object_id', 'map'];
const METADATA_TYPES_BEFORE_UPDATE = ['url', 'ipfs', 'object_id', 'map'];

/** decodeFunctions reads the functions of `cb_` FATE code; undefined when it is not FATE code. */
export function decodeFunctions(code: string): DecodedFunction[] | undefined {
  try {
    const decoded = new ContractEncoder().decode(code as `cb_${string}`) as {
      bytecode?: { functions?: DecodedFunction[] };
    };
    return decoded.bytecode?.functions;
  } catch {
    return undefined;
  }
}

/** detectAexn says whether code implements AEX-9 or AEX-141 (undefined: neither, or not FATE code). */
export function detectAexn(code: string): AexnDetection | undefined {
  const functions = decodeFunctions(code);
  if (!functions) return undefined;
  const byName = new Map(functions.map((f) => [f.name, f]));
  const signatures = new Map(functions.map((f) => [f.name, functionSignature(f)]));
  if (implementsAll(signatures, AEX9))
    return {
      type: 'aex9',
      extensions: constantStrings(byName.get('aex9_extensions')),
      wrappedAe: implementsAll(signatures, WRAPPED_AE),
    };
  const extensions141 = (): string[] | undefined => constantStrings(byName.get('aex141_extensions'));
  if (implementsAll(signatures, AEX141))
    return { type: 'aex141', extensions: extensions141(), metadataTypes: METADATA_TYPES };
  if (implementsAll(signatures, AEX141_BEFORE_UPDATE))
    return { type: 'aex141', extensions: extensions141(), metadataTypes: METADATA_TYPES_BEFORE_UPDATE };
  return undefined;
}

/** detectDexFactory says whether code is a DEX factory's, whose `PairCreated` events name the pairs /v3/dex lists. */
export function detectDexFactory(code: string): boolean {
  const functions = decodeFunctions(code);
  if (!functions) return false;
  const signatures = new Map(functions.map((f) => [f.name, functionSignature(f)]));
  return signatures.has('create_pair') && implementsAll(signatures, DEX_FACTORY);
}
