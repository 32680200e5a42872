/**
 * @module The coins a node creates at a hard fork: the accounts it credits from its fork files and
 * the contracts it creates with an amount (ae_mdw's `accounts_minerva`, `accounts_fortuna`,
 * `accounts_lima`, `accounts_extra_lima`, `contracts_lima` transfers). Pure.
 *
 * The node applies a fork's files to the state of the first key block whose protocol is higher
 * than its predecessor's (aec_trees:perform_pre_transformations → aec_block_fork:apply), only the
 * files of that block's protocol: Minerva's accounts, Fortuna's accounts, Lima's accounts, extra
 * accounts and contracts (aec_fork_block_settings). Where that block is follows from the network's
 * protocol schedule (aec_hard_forks: mainnet Minerva 47800, Fortuna 90800, Lima 161150; testnet
 * 40900, 82900, 154300), which the key blocks' `version` carries.
 */
import { isEncoded, reprefix } from './encoding.ts';
import { isJsonObject, parseJson, toBigInt, type Json } from './json.ts';
import { Protocol } from './aens.ts';

/** The transfer kinds of the forks, as ae_mdw names them. */
export type HardForkKind =
  'accounts_minerva' | 'accounts_fortuna' | 'accounts_lima' | 'accounts_extra_lima' | 'contracts_lima';

/** One credit of a fork: the account (`ak_`, a contract's too, as ae_mdw writes it) and the amount. */
export interface HardForkCredit {
  readonly kind: HardForkKind;
  readonly account: string;
  readonly amount: bigint;
}

/** The node's fork files, by what they hold: which kind each becomes and at which protocol it applies. */
export const HARD_FORK_FILES = {
  minervaAccounts: { kind: 'accounts_minerva', protocol: Protocol.MINERVA, contracts: false },
  fortunaAccounts: { kind: 'accounts_fortuna', protocol: Protocol.FORTUNA, contracts: false },
  limaAccounts: { kind: 'accounts_lima', protocol: Protocol.LIMA, contracts: false },
  limaExtraAccounts: { kind: 'accounts_extra_lima', protocol: Protocol.LIMA, contracts: false },
  limaContracts: { kind: 'contracts_lima', protocol: Protocol.LIMA, contracts: true },
} as const satisfies Record<string, { kind: HardForkKind; protocol: number; contracts: boolean }>;

export type HardForkFile = keyof typeof HARD_FORK_FILES;

/** What each protocol's fork credits. */
export type HardForkCredits = ReadonlyMap<number, readonly HardForkCredit[]>;

const amountOf = (value: Json | undefined, where: string): bigint => {
  let amount: bigint | undefined;
  try {
    amount = toBigInt(value);
  } catch {
    amount = undefined;
  }
  if (amount === undefined || amount < 0n) throw new TypeError(`${where}: expected a non-negative integer amount`);
  return amount;
};

/**
 * parseHardForkFile reads one of the node's fork files: an accounts file (`{"ak_…": balance}`) or a
 * contracts file (`{"ct_…": {"amount": n, "vm_version", "abi_version", "nonce", "code", "call_data"}}`,
 * of which the amount is what the fork creates). Throws a TypeError naming what is wrong.
 */
export function parseHardForkFile(file: HardForkFile, text: string): HardForkCredit[] {
  const { kind, contracts } = HARD_FORK_FILES[file];
  const parsed = parseJson(text);
  if (!isJsonObject(parsed)) throw new TypeError(`expected an object of ${contracts ? 'contract' : 'account'} ids`);
  return Object.entries(parsed).map(([id, value]) => {
    if (!isEncoded(id, [contracts ? 'ct' : 'ak']))
      throw new TypeError(`not a valid ${contracts ? 'ct_' : 'ak_'} id: ${id}`);
    if (!contracts) return { kind, account: id, amount: amountOf(value, id) };
    if (!isJsonObject(value))
      throw new TypeError(`${id}: expected {amount, vm_version, abi_version, nonce, code, call_data}`);
    return { kind, account: reprefix(id, 'ak'), amount: amountOf(value.amount, `${id}.amount`) };
  });
}

/** hardForkCreditsOf groups the credits of the files by the protocol whose fork applies them. */
export function hardForkCreditsOf(files: Partial<Record<HardForkFile, readonly HardForkCredit[]>>): HardForkCredits {
  const byProtocol = new Map<number, HardForkCredit[]>();
  for (const [file, credits] of Object.entries(files) as [HardForkFile, readonly HardForkCredit[]][]) {
    const { protocol } = HARD_FORK_FILES[file];
    byProtocol.set(protocol, [...(byProtocol.get(protocol) ?? []), ...credits]);
  }
  return byProtocol;
}

/**
 * forkCredits is what the key block of protocol `version` credits after a key block of protocol
 * `previous`: the fork files of `version` when it is higher (a jump over several protocols applies
 * only the last one's, as the node does), nothing otherwise.
 */
export function forkCredits(credits: HardForkCredits, previous: number, version: number): readonly HardForkCredit[] {
  return version > previous ? (credits.get(version) ?? []) : [];
}
