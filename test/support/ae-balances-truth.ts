/**
 * @module The AE balances of a devnode chain's accounts after a generation, as its state has them: the oracle of the
 * balances area's rows.
 */
import { reprefix } from '../../src/chain/encoding.ts';
import type { Chain } from '../../src/devnode/chain.ts';
import type { Queryable } from '../../src/db/connection/pool.ts';
import { lastChangeAt, WHOLE_GENERATION } from '../../src/db/queries/balance-changes.ts';

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
 * `heights`, with the chain's state there: the differences, one line each (none: equal).
 */
export async function aeBalancesApart(db: Queryable, chain: Chain, heights: readonly number[]): Promise<string[]> {
  const accounts = [...devnodeBalances(chain, chain.height).keys()];
  const apart: string[] = [];
  for (const height of heights) {
    const expected = devnodeBalances(chain, height);
    const derived = await Promise.all(
      accounts.map(async (id) => {
        const last = await lastChangeAt(db, id, { height, microIndex: WHOLE_GENERATION });
        return last === undefined ? 0n : BigInt(last.balance);
      }),
    );
    for (const [i, id] of accounts.entries())
      if (derived[i] !== (expected.get(id) ?? 0n))
        apart.push(`${id} at ${height}: ${derived[i]} ≠ ${expected.get(id)}`);
  }
  return apart;
}

/**
 * unexplainedChanges are the stored changes of `accounts` that no rule told, the node's balance placing them after
 * their block (`unexplained`): one line each, "account at height" (none: every change told by the rules).
 */
export async function unexplainedChanges(db: Queryable, accounts: readonly string[]): Promise<string[]> {
  const { rows } = await db.query<{ account_id: string; height: number }>(
    "SELECT account_id, height FROM account_balance_changes WHERE kind = 'unexplained' AND account_id = ANY($1)",
    [accounts],
  );
  return rows.map((r) => `${r.account_id} at ${r.height}`);
}
