/**
 * @module The populator's internal transfers: what each batch adds to `internal_transfers` once
 * its rows are written (rewards by the chain's rules, genesis and hard-fork accounts, name fees,
 * oracle rewards and refunds), and what each generation paid in fees for the rewards to come.
 */
import { readFile } from 'node:fs/promises';
import { blockRewards, REWARD_RULES, rewardedGeneration, type RewardRules } from '../../chain/block-rewards.ts';
import {
  forkCredits,
  hardForkCreditsOf,
  parseHardForkFile,
  type HardForkCredit,
  type HardForkCredits,
  type HardForkFile,
} from '../../chain/hard-forks.ts';
import { isJsonObject, parseJson, toBigInt } from '../../chain/json.ts';
import { rewardFees, type RewardFeeFacts } from '../../chain/reward-fees.ts';
import { auctionTransfers } from '../../chain/auction-transfers.ts';
import { ConfigError } from '../../config/env-reader.ts';
import { HARD_FORK_FILE_VARIABLES, type Config } from '../../config/middleware.ts';
import type { Queryable } from '../../db/connection/pool.ts';
import { protocolEntry, topHeight } from '../../db/queries/blocks.ts';
import { hasKeyBlockTransfers } from '../../db/queries/internal-transfers.ts';
import { auctionEvents } from '../../db/queries/balance-inputs.ts';
import { recordBackfill } from '../../db/writes/derive-backfill.ts';
import {
  deriveInternalTransfers,
  addGenerationFees,
  insertInternalTransfers,
  rewardInputs,
  type InternalTransferRow,
} from '../../db/writes/internal-transfers.ts';
import { gaCallOutcomes } from '../../db/writes/ga-calls.ts';
import type { GenerationRows } from '../rows/rows.ts';
import { batchRange } from './batch-range.ts';
import { hasGaCall } from './ga-calls.ts';

/** The chain's rules for the transfers no transaction shows: its rewards, its genesis accounts and its forks' credits. */
export interface TransferRules {
  readonly rewards: RewardRules;
  readonly genesisAccounts: readonly { readonly account: string; readonly amount: bigint }[];
  /** what the key block entering each protocol credits (by protocol) */
  readonly hardForks: HardForkCredits;
}

/** Without configuration: the node's mainnet rewards, and no genesis or fork accounts known. */
export const DEFAULT_TRANSFER_RULES: TransferRules = {
  rewards: REWARD_RULES.mainnet,
  genesisAccounts: [],
  hardForks: new Map(),
};

/**
 * transferRulesOf reads the configured rules (REWARD_RULES, GENESIS_ACCOUNTS_FILE, the hard-fork files); on a
 * hyperchain the rewards are the hyperchain's whatever REWARD_RULES says (chain-transfer-rules.ts).
 */
export async function transferRulesOf(
  cfg: Pick<Config, 'rewardRules' | 'genesisAccountsFile' | 'hardForkFiles'>,
  chain: { readonly hyperchain: boolean },
): Promise<TransferRules> {
  return {
    rewards: chain.hyperchain ? REWARD_RULES.hyperchain : REWARD_RULES[cfg.rewardRules],
    genesisAccounts: cfg.genesisAccountsFile === undefined ? [] : await loadGenesisAccounts(cfg.genesisAccountsFile),
    hardForks: await loadHardForkFiles(cfg.hardForkFiles),
  };
}

/**
 * loadHardForkFiles reads the node's fork files that are configured. A file that cannot be read or is not
 * the node's format fails the start with MDW_CONFIG_INVALID, naming its variable, every bad one at once.
 */
export async function loadHardForkFiles(files: Config['hardForkFiles']): Promise<HardForkCredits> {
  const entries = Object.entries(files) as [HardForkFile, string][];
  const read = await Promise.allSettled(
    entries.map(async ([file, path]) => [file, parseHardForkFile(file, await readFile(path, 'utf8'))] as const),
  );
  const problems = read.flatMap((r, i) =>
    r.status === 'rejected'
      ? [`${HARD_FORK_FILE_VARIABLES[entries[i]![0]]}: ${entries[i]![1]}: ${(r.reason as Error).message}`]
      : [],
  );
  if (problems.length > 0) throw new ConfigError(problems);
  const credits = read.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  return hardForkCreditsOf(Object.fromEntries(credits) as Partial<Record<HardForkFile, HardForkCredit[]>>);
}

/**
 * storedForksWithoutTransfers lists the configured forks the stored chain has passed without their
 * transfers: the files were given after those heights were written.
 */
export async function storedForksWithoutTransfers(
  db: Queryable,
  rules: TransferRules,
): Promise<{ protocol: number; height: number; kinds: string[] }[]> {
  const missing: { protocol: number; height: number; kinds: string[] }[] = [];
  for (const [protocol, credits] of rules.hardForks) {
    if (credits.length === 0) continue;
    const entry = await protocolEntry(db, protocol);
    if (!entry || entry.previous === undefined || entry.previous >= protocol) continue;
    const kinds = [...new Set(credits.map((c) => c.kind))];
    if (!(await hasKeyBlockTransfers(db, entry.height, kinds))) missing.push({ protocol, height: entry.height, kinds });
  }
  return missing;
}

/**
 * backfillStoredForks has the populator's backfill derive, from the stored rows, the transfers of each
 * configured fork the stored chain passed without them, and the statistics from there up (the token
 * supply sums them): nothing is fetched again. It gives the forks it asked for.
 */
export async function backfillStoredForks(
  db: Queryable,
  rules: TransferRules,
): Promise<{ protocol: number; height: number; kinds: string[] }[]> {
  const missing = await storedForksWithoutTransfers(db, rules);
  const top = missing.length === 0 ? undefined : await topHeight(db);
  for (const fork of missing) {
    await recordBackfill(db, 'transfers', fork.height, fork.height);
    await recordBackfill(db, 'stats', fork.height, top ?? fork.height);
  }
  return missing;
}

/**
 * loadGenesisAccounts reads the node's genesis accounts file (`accounts_<network>.json`: an object
 * from `ak_` id to balance), the file the node itself was started with.
 */
export async function loadGenesisAccounts(file: string): Promise<TransferRules['genesisAccounts']> {
  const parsed = parseJson(await readFile(file, 'utf8'));
  if (!isJsonObject(parsed)) throw new TypeError(`${file}: expected an object of account → balance`);
  return Object.entries(parsed).map(([account, balance]) => ({ account, amount: toBigInt(balance) }));
}

/** A GA call's outcome (ga_calls) by its transaction's position, `height:micro_index:tx_index`. */
export type GaOutcomes = ReadonlyMap<string, { readonly gasUsed: bigint | null; readonly ok: boolean | null }>;

const position = (height: number, microIndex: number, txIndex: number): string => `${height}:${microIndex}:${txIndex}`;

/**
 * generationFees is what the transactions of generation rows paid as the node counts it for rewards (rewardFees): every
 * fee, inner transactions' included (a GAMetaTx's failed inner one's not), and the gas of each contract call, force
 * progress's call and generalized account's own call (`gaCalls`, the ga area's rows: a GA call without gas, or none, counts 0).
 */
export function generationFees(gen: GenerationRows, gaCalls: GaOutcomes): bigint {
  const gasUsed = new Map<string, bigint>();
  for (const c of gen.contractCalls)
    if (c.callInfo?.gas_used !== undefined) gasUsed.set(c.txHash, toBigInt(c.callInfo.gas_used));
  for (const e of gen.channelEvents) if (e.gasUsed !== null) gasUsed.set(e.txHash, BigInt(e.gasUsed));
  let fees = 0n;
  for (const t of gen.transactions) {
    // a position's key made only where the batch has GA calls (most have none), the facts set member by member
    const ga = gaCalls.size === 0 ? undefined : gaCalls.get(position(t.height, t.microIndex, t.txIndex));
    const facts: { -readonly [K in keyof RewardFeeFacts]: RewardFeeFacts[K] } = { callGasUsed: gasUsed.get(t.txHash) };
    if (ga?.gasUsed != null) facts.gaGasUsed = ga.gasUsed;
    if (ga?.ok != null) facts.gaOk = ga.ok;
    fees += rewardFees(t.tx, facts);
  }
  return fees;
}

/**
 * writeInternalTransfers adds a batch's transfers; its other rows are written (ascending generations), its GA calls
 * too (the ga area derives before the transfers, in the same transaction: the backfill's fees read the same rows).
 */
export async function writeInternalTransfers(
  db: Queryable,
  gens: readonly GenerationRows[],
  rules: TransferRules,
): Promise<void> {
  if (gens.length === 0) return;
  const range = batchRange(gens);
  // most batches hold no GA transaction: no read
  const gaTxs = gens.some((g) => g.transactions.some((t) => hasGaCall(t.tx)));
  const gaCalls: GaOutcomes = new Map(
    (gaTxs ? await gaCallOutcomes(db, range) : []).map((c) => [
      position(c.height, c.microIndex, c.txIndex),
      {
        gasUsed: c.gasUsed === null ? null : BigInt(c.gasUsed),
        ok: c.returnType === null ? null : c.returnType === 'ok',
      },
    ]),
  );
  await addGenerationFees(
    db,
    gens.map((g) => ({ height: g.keyBlock.height, fees: generationFees(g, gaCalls) })),
  );
  await deriveTransfersOfStored(
    db,
    gens.filter((g) => g.continuesAt === undefined).map((g) => g.keyBlock.height),
    { from: range.from, to: range.to },
    rules,
  );
}

/**
 * deriveTransfersOfStored adds the transfers of heights whose rows and generation fees are stored: the
 * rewards and genesis accounts of `newKeyBlocks` (ascending) and what the stored rows of `range` imply
 * (name fees, oracle rewards and refunds), the auctions' refunds and locks from every claim and bid, the contracts'
 * AENS.claim among them (auction-transfers.ts, the balances' rule: the int_calls area, which writes those after this
 * area, has it derive again where they change it). The loader calls it for each batch, the backfill for stored heights.
 */
export async function deriveTransfersOfStored(
  db: Queryable,
  newKeyBlocks: readonly number[],
  range: { readonly from: number; readonly to: number },
  rules: TransferRules,
): Promise<void> {
  const paying = newKeyBlocks.flatMap((height) => {
    const closer = rewardedGeneration(rules.rewards, height);
    return closer === undefined ? [] : [{ height, closer }];
  });
  // a key block enters a new protocol when the one before it has another version (both are stored)
  const forkCheck = rules.hardForks.size > 0 ? newKeyBlocks.flatMap((h) => (h > 0 ? [h - 1, h] : [])) : [];
  const inputs = await rewardInputs(db, [
    ...new Set([...paying.flatMap((p) => [p.closer - 1, p.closer]), ...forkCheck]),
  ]);
  const rows: InternalTransferRow[] = [];
  const keyLevel = { microIndex: -1, txIndex: -1, refTxHash: '' };
  for (const { height, closer } of paying) {
    const opener = inputs.get(closer - 1);
    const closing = inputs.get(closer);
    if (!opener || !closing) continue;
    for (const t of blockRewards(rules.rewards, opener, closing, opener.fees))
      rows.push({ height, ...keyLevel, kind: t.kind, accountId: t.account, amount: t.amount });
  }
  if (newKeyBlocks.includes(0))
    for (const a of rules.genesisAccounts)
      rows.push({ height: 0, ...keyLevel, kind: 'accounts_roma', accountId: a.account, amount: a.amount });
  if (rules.hardForks.size > 0) {
    for (const height of newKeyBlocks) {
      const previous = inputs.get(height - 1)?.version;
      const current = inputs.get(height)?.version;
      if (previous === undefined || current === undefined) continue;
      for (const c of forkCredits(rules.hardForks, previous, current))
        rows.push({ height, ...keyLevel, kind: c.kind, accountId: c.account, amount: c.amount });
    }
  }
  const auctions = { from: range.from, to: range.to, fromMicro: -1 };
  const events = (await auctionEvents(db, auctions)).map((e) => ({ ...e, nameFee: BigInt(e.nameFee) }));
  for (const { account, txHash, ...t } of auctionTransfers(events, auctions))
    rows.push({ ...t, accountId: account, refTxHash: txHash });
  await insertInternalTransfers(db, rows);
  await deriveInternalTransfers(db, range.from, range.to);
}
