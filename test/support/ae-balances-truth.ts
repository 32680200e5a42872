/**
 * @module The AE balances of a devnode chain's accounts after a generation, as its state has them: the oracle of the
 * balances area's rows.
 */
import { reprefix } from '../../src/chain/encoding.ts';
import type { Chain } from '../../src/devnode/chain.ts';
import type { Queryable } from '../../src/db/connection/pool.ts';
import {
  changesPage,
  lastChangeAt,
  WHOLE_GENERATION,
  type BalanceChange,
  type ChangeKey,
} from '../../src/db/queries/balance-changes.ts';

/**
 * devnodeBalances are the chain's accounts (contracts' accounts and the locked-coins account, where the name fees are
 * locked as the node locks them, included; contracts' under their `ak_` form) and their balances after generation
 * `height`.
 */
export function devnodeBalances(chain: Chain, height: number): Map<string, bigint> {
  const gen = chain.keyBlocks[height]!;
  const state = chain.stateAfter(gen.micro.at(-1)?.hash ?? gen.hash)!;
  return new Map([...state.accounts.entries()].map(([id, a]) => [id, a.balance]));
}

/** devnodeContractAccounts are the accounts (`ak_`) of the contracts the chain holds at its top. */
export function devnodeContractAccounts(chain: Chain): Set<string> {
  return new Set([...chain.state.contracts.entries()].map(([id]) => reprefix(id, 'ak')));
}

/**
 * aeBalancesApart compares the balance the stored changes give each account the chain knows at its top, after each of
 * `heights`, with the chain's state there: the differences, one line each (none: equal). Each account's changes are
 * read once, in order, as its history's pages serve them (changesPage), the balance after a height being the last one
 * at or below it; and the one probe a balance route makes (lastChangeAt) after the highest. A probe per account and
 * height instead cost balances-name-locks (490 heights) about 6 CPU s, its own and PostgreSQL's, each time.
 */
export async function aeBalancesApart(db: Queryable, chain: Chain, heights: readonly number[]): Promise<string[]> {
  if (heights.length === 0) return [];
  const accounts = [...devnodeBalances(chain, chain.height).keys()];
  const highest = Math.max(...heights);
  const histories = await Promise.all(accounts.map((id) => storedHistory(db, id, highest)));
  const apart: string[] = [];
  for (const height of heights) {
    const expected = devnodeBalances(chain, height);
    for (const [i, id] of accounts.entries()) {
      const derived = balanceAfter(histories[i]!, height);
      if (derived !== (expected.get(id) ?? 0n)) apart.push(`${id} at ${height}: ${derived} ≠ ${expected.get(id)}`);
    }
  }
  const probed = await Promise.all(
    accounts.map((id) => lastChangeAt(db, id, { height: highest, microIndex: WHOLE_GENERATION })),
  );
  for (const [i, id] of accounts.entries()) {
    const served = probed[i] === undefined ? 0n : BigInt(probed[i]!.balance);
    const stored = balanceAfter(histories[i]!, highest);
    if (served !== stored) apart.push(`${id} at ${highest}: ${served} served, ${stored} in its history`);
  }
  return apart;
}

const PAGE = 1000;

/** storedHistory is an account's stored changes up to height `last`, in order (changesPage's pages, walked forward). */
async function storedHistory(db: Queryable, account: string, last: number): Promise<BalanceChange[]> {
  const changes: BalanceChange[] = [];
  for (let from: ChangeKey | undefined; ;) {
    const page = await changesPage(db, { account, heights: { first: 0, last } }, { walk: 'forward', from, n: PAGE });
    changes.push(...page);
    if (page.length < PAGE) return changes;
    const end = page.at(-1)!;
    // the next key after the page's last: keys are unique, `from` inclusive
    from = { height: end.height, microIndex: end.microIndex, txIndex: end.txIndex, seq: end.seq + 1 };
  }
}

/** balanceAfter is the balance after generation `height` of an account's ordered changes: its last at or below it. */
function balanceAfter(history: readonly BalanceChange[], height: number): bigint {
  let lo = 0;
  let hi = history.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (history[mid]!.height <= height) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? 0n : BigInt(history[lo - 1]!.balance);
}

/**
 * unexplainedChanges are the stored changes of `accounts` (every account when not given) that no rule told, the node's
 * balance placing them after their block (`unexplained`): one line each, "account at height" (none: every change
 * told by the rules).
 */
export async function unexplainedChanges(db: Queryable, accounts?: readonly string[]): Promise<string[]> {
  const { rows } = await db.query<{ account_id: string; height: number }>(
    `SELECT account_id, height FROM account_balance_changes
      WHERE kind = 'unexplained' AND ($1::text[] IS NULL OR account_id = ANY($1))`,
    [accounts ?? null],
  );
  return rows.map((r) => `${r.account_id} at ${r.height}`);
}
