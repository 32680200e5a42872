/**
 * @module The balances area (migrations 1007, 1100): the AE balances of the accounts stored heights touched, as the
 * node's state has them, and every change of them with its cause (balance-changes.ts), reconciled with them; a
 * contract's account as any other, but for the ranking (account_balances), which is of plain accounts. Each
 * account a range of heights touched (an account an internal call paid included) is asked once, in the state after
 * the range's last block, and stored at the last height of the range that touched it. Nothing between that height
 * and the range's end changed the account, so the row is its balance after that height as well, and a rollback that
 * deletes heights leaves each account's latest row its balance at the new top.
 */
import { reprefix } from '../../chain/encoding.ts';
import { idOfKey } from '../../chain/id-key.ts';
import type { Queryable } from '../../db/connection/pool.ts';
import { storedLink } from '../../db/queries/block-hashes.ts';
import { keyBlockAt } from '../../db/queries/blocks.ts';
import { replaceBalances, touchedAccounts, type BalanceRow } from '../../db/writes/account-balances.ts';
import type { NodeClient } from '../../node/client.ts';
import { NodeError } from '../../node/errors.ts';
import { mapLimit } from '../../base/workers.ts';
import {
  aeBalancesBefore,
  contractsAmong,
  genesisUnknown,
  lastMicroIndex,
  rangeBlocks,
  type Place,
  type RangeBlock,
} from '../../db/queries/balance-inputs.ts';
import { replaceBalanceChanges } from '../../db/writes/balance-changes.ts';
import { AFTER_BLOCK } from '../../db/queries/balance-changes.ts';
import {
  balanceChangeRows,
  readRangeDeltas,
  reconcileRange,
  type BalanceDifference,
  type PlacedDelta,
  type RangeDeltas,
  type UntoldTx,
  untoldAccounts,
} from './balance-changes.ts';
import { balanceAfter, differenceSteps, stepPlace } from './difference-steps.ts';
import type { KnownTransactions } from './written-transactions.ts';
import type { HeightRange } from '../../db/queries/height-range.ts';

/** What the area asks the node: an account's balance after a block (or at its top). */
export type BalanceReader = Pick<NodeClient, 'accountBalance'>;

/** Balances asked at once: the node set bounds the requests in flight; this bounds the promises waiting for it. */
const IN_FLIGHT = 64;

/**
 * LOCATE_READS: the node's balances one account's difference in one range may cost to locate (differenceSteps): at most
 * log2 of the range's blocks for each part of it (a batch's 30 blocks: 5; a catch-up stretch's 40 000: 16), asked in
 * as many rounds. An account in many calls no dry-run tells (a DEX pair's, over a stretch of thousands of heights) has
 * as many parts; past this bound the parts left are each placed over the blocks between two reads (the balance after
 * every block read is the node's).
 */
const LOCATE_READS = 2000;

/** What the area tells of each range besides its rows: the accounts whose derived balance was not the node's. */
export type BalanceReport = (differences: readonly BalanceDifference[], untold: readonly UntoldTx[]) => void;

/**
 * deriveBalances stores the balances of the accounts heights from..to touched (from micro block `fromMicro` of
 * `from` on: −1 for whole generations), read from the node after the last stored block of `to`, and every change of
 * their balances with its cause (balance-changes.ts), reconciled with those balances; the transactions `kept` holds
 * are not read back. A node that no longer holds that state (410, garbage-collected) is asked for its top's: the
 * account's later heights store their own rows as the populator reaches them, so its latest row is exact once the
 * stored chain is at the node's top; its changes are not reconciled there (the top's balance is not the range's end's).
 */
export async function deriveBalances(
  db: Queryable,
  node: BalanceReader,
  range: HeightRange,
  report?: BalanceReport,
  kept?: KnownTransactions,
): Promise<void> {
  const link = await storedLink(db, range.to);
  if (!link) return;
  const after = link.lastMicroHash ?? link.keyHash;
  const derived = await readRangeDeltas(db, range, kept);
  const touched = new Map<string, number>();
  const touch = (id: string, height: number): void => void touched.set(id, Math.max(height, touched.get(id) ?? height));
  // the contracts' accounts: followed and reconciled as any, but left out of account_balances (the ranking's, as
  // ae_mdw's, is of accounts alone)
  const contracts = new Set<string>();
  for (const t of await touchedAccounts(db, range)) touch(reprefix(idOfKey(t.key), 'ak'), t.height);
  // the internal transfers' accounts, from the rows the changes were derived from (touchedAccounts reads them no more)
  for (const [id, t] of derived.transferred) {
    touch(id, t.height);
    if (t.contract) contracts.add(id);
  }
  // those no transaction names as an account: one only an internal call paid (Chain.spend), a contract's account whose
  // AE a transaction or an internal call moved, or may have (a call the rules cannot tell, an AENS or oracle fee)
  const unnamed = new Set<string>();
  const other = (id: string, height: number): void => {
    if (!touched.has(id)) unnamed.add(id);
    touch(id, height);
  };
  for (const d of derived.deltas) other(d.account, d.height);
  for (const [id, height] of untoldAccounts(derived.untold)) other(id, height);
  for (const u of derived.unfollowed) other(u.account, u.height);
  const known = await contractsAmong(
    db,
    [...unnamed].map((id) => reprefix(id, 'ct')),
  );
  for (const id of known) contracts.add(reprefix(id, 'ak'));
  const accounts = [...touched.keys()];
  const exact = new Set<string>();
  const balances = await mapLimit(accounts, IN_FLIGHT, async (id) => {
    try {
      const balance = await node.accountBalance(id, after);
      exact.add(id);
      return balance;
    } catch (err) {
      if (err instanceof NodeError && err.gone) return node.accountBalance(id);
      throw err;
    }
  });
  const rows: BalanceRow[] = accounts.flatMap((accountId, i) => {
    const balance = balances[i];
    return balance === undefined || contracts.has(accountId)
      ? []
      : [{ height: touched.get(accountId)!, accountId, balance }];
  });
  await replaceBalances(db, range, rows);
  // an account the node does not know there holds nothing
  const atEnd = new Map(accounts.flatMap((id, i) => (exact.has(id) ? [[id, balances[i] ?? 0n] as const] : [])));
  const before = await aeBalancesBefore(db, range, accounts);
  const end = { height: range.to, microIndex: await lastMicroIndex(db, range.to), txIndex: AFTER_BLOCK };
  // without the genesis accounts file an account first seen here opens with what the node's balance at the range's
  // end leaves, unless the range holds what the rules cannot tell: then the node's genesis state (openingBalances)
  const inferOpening = await genesisUnknown(db);
  const rec = { before, atEnd, end, untold: derived.untold, inferOpening };
  // reconciled again as the node tells more, the rows made once, of the last
  let reconciled = reconcileRange(derived.deltas, rec);
  // an opening inferred from the range's end would take in what the range's changes lack (issue 89: an account's
  // genesis balance too high by a payment an untold call made, served until that call's height): where the rules
  // could not tell all of a range, the node's genesis state tells it; where they told all, the end's difference is it
  const openings =
    reconciled.inferred.length === 0 || derived.untold.length === 0
      ? new Map<string, bigint>()
      : await openingBalances(node, await keyBlockAt(db, 0), reconciled.inferred);
  if (openings.size > 0) reconciled = reconcileRange(derived.deltas, { ...rec, openings });
  // a difference is rare (the rules tell the rest): only then is the node asked where inside the range it arose
  let located: ReadonlyMap<string, readonly (Place & { amount: bigint })[]> = new Map();
  if (reconciled.differences.length > 0) {
    const opened = new Map([...before, ...openings]);
    const blocks = derived.blocks ?? (await rangeBlocks(db, range));
    located = await locateDifferences(node, blocks, derived, opened, reconciled.differences);
    if (located.size > 0) reconciled = reconcileRange(derived.deltas, { ...rec, openings, located });
  }
  const changes = balanceChangeRows(derived.deltas, { ...rec, openings, located }, reconciled);
  await replaceBalanceChanges(db, range, changes.rows);
  if (changes.differences.length > 0) report?.(changes.differences, derived.untold);
}

/**
 * locateDifferences asks the node, for each account whose derived balance at the range's end is not the node's, its
 * balance after a few of the range's blocks (differenceSteps' bisection; first before and after the blocks of the
 * untold transactions naming it, up to log2 of the range's blocks of them, where a legitimate difference arises: two
 * reads a step, not log2 of a catch-up stretch's blocks) and gives where each part of the difference arose; what the
 * node cannot tell (a pruned state) or the reads' bound leaves unlocated stays one part over the blocks it spans, placed at the first untold transaction there naming the account, else after the last of them.
 */
async function locateDifferences(
  node: BalanceReader,
  blocks: readonly RangeBlock[],
  derived: Pick<RangeDeltas, 'deltas' | 'untold'>,
  before: ReadonlyMap<string, bigint>,
  differences: readonly BalanceDifference[],
): Promise<Map<string, (Place & { amount: bigint })[]>> {
  if (blocks.length === 0) return new Map();
  const changes = changesOf(
    derived,
    differences.map((d) => d.accountId),
  );
  const located = new Map<string, (Place & { amount: bigint })[]>();
  const suspects = untoldBlocks(blocks, derived.untold);
  // past log2 of the blocks an account's untold blocks cost more to ask around than a bisection's step
  const maxSuspects = Math.ceil(Math.log2(blocks.length + 1));
  await mapLimit(differences, IN_FLIGHT, async ({ accountId, derived: held, node: atEnd }) => {
    const after = balanceAfter(before.get(accountId) ?? 0n, changes.get(accountId)!);
    const steps = await differenceSteps(
      blocks.length,
      atEnd - held,
      async (i) => {
        const balance = await balanceAt(node, accountId, blocks[i]!);
        return balance === undefined ? undefined : balance - after(blocks[i]!);
      },
      { maxReads: LOCATE_READS, suspects: suspects.get(accountId)?.slice(0, maxSuspects) },
    );
    located.set(
      accountId,
      steps.map((s) => ({ ...stepPlace(blocks, s, accountId, derived.untold), amount: s.amount })),
    );
  });
  return located;
}

/**
 * openingBalances are the genesis balances of accounts first seen while no genesis accounts are known: their balances
 * in the node's state at the genesis key block (0 where it knows none). An account whose genesis state the node no
 * longer holds (pruned) is left out: its whole difference at the range's end is then its opening, as before.
 */
async function openingBalances(
  node: BalanceReader,
  genesis: { hash: string } | undefined,
  accounts: readonly string[],
): Promise<Map<string, bigint>> {
  if (genesis === undefined) return new Map();
  const told = await mapLimit(accounts, IN_FLIGHT, (id) => balanceAt(node, id, genesis));
  return new Map(accounts.flatMap((id, i) => (told[i] === undefined ? [] : [[id, told[i]] as const])));
}

/** changesOf gives each account's derived changes of the range, in chain order. */
function changesOf(derived: Pick<RangeDeltas, 'deltas'>, accounts: readonly string[]): Map<string, PlacedDelta[]> {
  const changes = new Map(accounts.map((id) => [id, [] as PlacedDelta[]]));
  for (const d of derived.deltas) changes.get(d.account)?.push(d);
  return changes;
}

/** balanceAt is an account's balance in the node's state after a block (0: unknown there), undefined where pruned. */
async function balanceAt(node: BalanceReader, account: string, block: { hash: string }): Promise<bigint | undefined> {
  try {
    return (await node.accountBalance(account, block.hash)) ?? 0n;
  } catch (err) {
    if (err instanceof NodeError && err.gone) return undefined;
    throw err;
  }
}

/**
 * untoldBlocks gives, for each account an untold transaction names, the indices among `blocks` of the blocks of such
 * transactions, in chain order (`untold` is): where its difference most likely arose, asked first.
 */
function untoldBlocks(blocks: readonly RangeBlock[], untold: RangeDeltas['untold']): Map<string, number[]> {
  const index = new Map(blocks.map((b, i) => [`${b.height}:${b.microIndex}`, i]));
  const named = new Map<string, number[]>();
  for (const u of untold) {
    const i = index.get(`${u.height}:${u.microIndex}`);
    if (i === undefined) continue;
    for (const a of u.accounts) {
      const list = named.get(a) ?? named.set(a, []).get(a)!;
      if (list.at(-1) !== i) list.push(i);
    }
  }
  return named;
}
