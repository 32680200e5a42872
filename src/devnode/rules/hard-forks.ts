/**
 * @module The devnode's protocol schedule and its hard forks, as a node configured with a
 * `chain.hard_forks` schedule has them: from each fork's height on, key and micro blocks carry its
 * protocol, and the fork's key block credits the fork's accounts and creates its contracts
 * (aec_block_fork: Minerva's and Fortuna's accounts, Lima's accounts, extra accounts and contracts,
 * owned by the locked-coins account). Pure.
 *
 * The devnode applies Ceres' rules only, so a chain whose top is below Ceres takes no transactions
 * (chain.ts refuses them) rather than running them under rules its blocks do not claim. Arcus (7) changes none of
 * the rules the devnode runs (chain/protocols.ts), so a chain crosses Ceres → Arcus as a 7.3 node's does.
 */
import { isEncoded } from '../../chain/encoding.ts';
import { isJsonObject, parseJson, stringifyJson, toSafeNumber, type Json } from '../../chain/json.ts';
import { Protocol } from '../../chain/aens.ts';
import { LOCKED_COINS_ACCOUNT } from '../../chain/derived-ids.ts';
import { parseHardForkFile, type HardForkFile } from '../../chain/hard-forks.ts';
import { LATEST_KNOWN_PROTOCOL } from '../../chain/protocols.ts';
import { contractId } from '../ids.ts';
import { asAccount, credit } from './common.ts';
import type { WorldState } from '../store/state.ts';

/** An account a fork credits (created when new, else its balance grows). */
export interface ForkAccount {
  readonly address: string;
  readonly balance: bigint;
}

/** A contract a Lima fork creates, as the node's contracts file describes it. */
export interface ForkContract {
  /** the locked-coins account's nonce that makes its id */
  readonly nonce: number;
  readonly amount: bigint;
  readonly vmVersion: number;
  readonly abiVersion: number;
  readonly code: string;
  readonly callData: string;
}

/** A protocol of the schedule and, for Minerva, Fortuna and Lima, what its fork credits. */
export interface DevnodeHardFork {
  readonly version: number;
  readonly height: number;
  /**
   * tests only: `version` is a made-up protocol above the known ones, which the devnode runs under Arcus' rules,
   * to show a middleware a protocol it does not know (the node's configuration has no such thing)
   */
  readonly future?: boolean;
  readonly accounts?: readonly ForkAccount[];
  /** Lima only */
  readonly extraAccounts?: readonly ForkAccount[];
  /** Lima only */
  readonly contracts?: readonly ForkContract[];
}

/** The devnode's own schedule unless told otherwise: Ceres from genesis. */
export const CERES_ONLY: readonly DevnodeHardFork[] = [{ version: Protocol.CERES, height: 0 }];

const CARRIES_ACCOUNTS: ReadonlySet<number> = new Set([Protocol.MINERVA, Protocol.FORTUNA, Protocol.LIMA]);

/** ProtocolSchedule answers which protocol a height runs and which fork a key block applies. */
export class ProtocolSchedule {
  readonly forks: readonly DevnodeHardFork[];

  /** Throws a RangeError unless the schedule starts at 0, heights and versions rise, and only forks that can carry accounts do. */
  constructor(forks: readonly DevnodeHardFork[]) {
    if (forks[0]?.height !== 0) throw new RangeError('the protocol schedule must start at height 0');
    forks.forEach((f, i) => {
      const prev = forks[i - 1];
      const top = f.future === true ? Infinity : LATEST_KNOWN_PROTOCOL;
      if (!Number.isInteger(f.version) || f.version < Protocol.ROMA || f.version > top)
        throw new RangeError(`unknown protocol ${f.version}`);
      if (f.future === true && f.version <= LATEST_KNOWN_PROTOCOL)
        throw new RangeError(`protocol ${f.version} is a known one, not a future one`);
      if (prev && (f.height <= prev.height || f.version <= prev.version))
        throw new RangeError('protocol heights and versions must rise');
      if ((f.accounts?.length ?? 0) > 0 && !CARRIES_ACCOUNTS.has(f.version))
        throw new RangeError(`protocol ${f.version} migrates no accounts`);
      if (((f.extraAccounts?.length ?? 0) > 0 || (f.contracts?.length ?? 0) > 0) && f.version !== Protocol.LIMA)
        throw new RangeError('only Lima has extra accounts and contracts');
    });
    this.forks = forks;
  }

  /** protocolAt is the protocol of the blocks at `height`. */
  protocolAt(height: number): number {
    return this.forks.findLast((f) => f.height <= height)!.version;
  }

  /** forkAt is the fork whose key block is at `height` (none at genesis, whose accounts are the genesis ones). */
  forkAt(height: number): DevnodeHardFork | undefined {
    return height === 0 ? undefined : this.forks.find((f) => f.height === height);
  }

  /** statusProtocols is the schedule as the node's /v2/status lists it. */
  statusProtocols(): { version: number; effective_at_height: number }[] {
    return this.forks.map((f) => ({ version: f.version, effective_at_height: f.height }));
  }
}

/** forkContractId is the id the node gives a fork contract: the locked-coins account's at the contract's nonce. */
export const forkContractId = (c: ForkContract): string => contractId(LOCKED_COINS_ACCOUNT, c.nonce);

/**
 * applyHardFork credits a fork's accounts and extra accounts and creates its contracts with their
 * amounts. The contracts' `init` is not run (the devnode runs no code of its own choosing there);
 * the locked-coins account keeps its balance and takes the highest nonce, as in aec_block_fork.
 */
export function applyHardFork(state: WorldState, fork: DevnodeHardFork): void {
  for (const a of [...(fork.accounts ?? []), ...(fork.extraAccounts ?? [])]) credit(state, a.address, a.balance);
  const contracts = [...(fork.contracts ?? [])].sort((a, b) => a.nonce - b.nonce);
  for (const c of contracts) {
    const id = forkContractId(c);
    state.contracts.set(id, {
      id,
      ownerId: LOCKED_COINS_ACCOUNT,
      vmVersion: c.vmVersion,
      abiVersion: c.abiVersion,
      deposit: 0n,
      code: c.code,
    });
    credit(state, asAccount(id), c.amount);
  }
  if (contracts.length > 0) {
    const owner = state.accounts.get(LOCKED_COINS_ACCOUNT) ?? { balance: 0n, nonce: 0 };
    state.accounts.set(LOCKED_COINS_ACCOUNT, { ...owner, nonce: Math.max(owner.nonce, contracts.at(-1)!.nonce) });
  }
}

const accountsJson = (accounts: readonly ForkAccount[] | undefined): string | undefined =>
  accounts && accounts.length > 0
    ? stringifyJson(Object.fromEntries(accounts.map((a) => [a.address, a.balance])))
    : undefined;

/**
 * hardForkFilesJson is the schedule's forks as the node's fork files (what the middleware's
 * MINERVA_ACCOUNTS_FILE, … read), one text per file that has anything in it.
 */
export function hardForkFilesJson(schedule: ProtocolSchedule): Partial<Record<HardForkFile, string>> {
  const at = (version: number): DevnodeHardFork | undefined => schedule.forks.find((f) => f.version === version);
  const lima = at(Protocol.LIMA);
  const files: Partial<Record<HardForkFile, string | undefined>> = {
    minervaAccounts: accountsJson(at(Protocol.MINERVA)?.accounts),
    fortunaAccounts: accountsJson(at(Protocol.FORTUNA)?.accounts),
    limaAccounts: accountsJson(lima?.accounts),
    limaExtraAccounts: accountsJson(lima?.extraAccounts),
    limaContracts:
      lima?.contracts && lima.contracts.length > 0
        ? stringifyJson(
            Object.fromEntries(
              lima.contracts.map((c) => [
                forkContractId(c),
                {
                  amount: c.amount,
                  vm_version: c.vmVersion,
                  abi_version: c.abiVersion,
                  nonce: c.nonce,
                  code: c.code,
                  call_data: c.callData,
                },
              ]),
            ),
          )
        : undefined,
  };
  return Object.fromEntries(Object.entries(files).filter(([, text]) => text !== undefined)) as Partial<
    Record<HardForkFile, string>
  >;
}

const forkAccounts = (file: HardForkFile, value: Json | undefined): ForkAccount[] =>
  value === undefined
    ? []
    : parseHardForkFile(file, stringifyJson(value)).map((c) => ({ address: c.account, balance: c.amount }));

function forkContracts(value: Json | undefined): ForkContract[] {
  if (value === undefined) return [];
  if (!isJsonObject(value)) throw new RangeError('contracts: expected the node’s contracts file object');
  const credits = parseHardForkFile('limaContracts', stringifyJson(value));
  return Object.entries(value).map(([id, spec], i) => {
    const s = spec as { [key: string]: Json };
    const text = (field: string): string => {
      if (!isEncoded(s[field], ['cb'])) throw new RangeError(`${id}.${field}: expected a cb_ string`);
      return s[field] as string;
    };
    const contract: ForkContract = {
      nonce: toSafeNumber(s.nonce),
      amount: credits[i]!.amount,
      vmVersion: toSafeNumber(s.vm_version),
      abiVersion: toSafeNumber(s.abi_version),
      code: text('code'),
      callData: text('call_data'),
    };
    // the node refuses a file whose id is not the locked-coins account's at the nonce
    if (forkContractId(contract) !== id)
      throw new RangeError(`${id}: not the locked-coins account's contract at nonce ${contract.nonce}`);
    return contract;
  });
}

/**
 * parseHardForkSchedule reads a schedule as the node's `chain.hard_forks` setting has it, protocol →
 * height or {height, accounts, extra_accounts, contracts}, with the node's file contents inline:
 * `{"1": 0, "2": {"height": 2, "accounts": {"ak_…": 5}}, "4": {"height": 5, "contracts": {"ct_…": {…}}}, "6": 6}`.
 * Throws a RangeError or TypeError naming what is wrong (the schedule's own rules: ProtocolSchedule).
 */
export function parseHardForkSchedule(text: string): DevnodeHardFork[] {
  const parsed = parseJson(text);
  if (!isJsonObject(parsed)) throw new RangeError('expected an object of protocol → height or {height, …}');
  const forks = Object.entries(parsed).map(([protocol, value]): DevnodeHardFork => {
    const version = Number(protocol);
    if (!isJsonObject(value)) return { version, height: toSafeNumber(value) };
    const unknown = Object.keys(value).filter(
      (k) => !['height', 'accounts', 'extra_accounts', 'contracts'].includes(k),
    );
    if (unknown.length > 0) throw new RangeError(`protocol ${protocol}: unknown ${unknown.join(', ')}`);
    return {
      version,
      height: toSafeNumber(value.height),
      accounts: forkAccounts('minervaAccounts', value.accounts),
      extraAccounts: forkAccounts('limaExtraAccounts', value.extra_accounts),
      contracts: forkContracts(value.contracts),
    };
  });
  forks.sort((a, b) => a.height - b.height);
  return [...new ProtocolSchedule(forks).forks];
}
