/**
 * @module The balances area (migration 1007): the AE balances of the accounts stored heights touched, as the node's
 * state has them. No rule of ours computes a balance (fees, rewards, amounts, deposits, refunds, locks: the node
 * applies them all); each account a range of heights touched is asked once, in the state after the range's last
 * block, and stored at the last height of the range that touched it. Nothing between that height and the range's end
 * changed the account, so the row is its balance after that height as well, and a rollback that deletes heights
 * leaves each account's latest row its balance at the new top.
 */
import { LOCKED_COINS_ACCOUNT } from '../../chain/derived-ids.ts';
import { reprefix } from '../../chain/encoding.ts';
import { idOfKey } from '../../chain/id-key.ts';
import type { Queryable } from '../../db/connection/pool.ts';
import { storedLink } from '../../db/queries/block-hashes.ts';
import { replaceBalances, touchedAccounts, type BalanceRow } from '../../db/writes/account-balances.ts';
import type { NodeClient } from '../../node/client.ts';
import { NodeError } from '../../node/errors.ts';
import { mapLimit } from '../map-limit.ts';
import type { HeightRange } from '../../db/writes/heights.ts';

/** What the area asks the node: an account's balance after a block (or at its top). */
export type BalanceReader = Pick<NodeClient, 'accountBalance'>;

/** Balances asked at once: the node set bounds the requests in flight; this bounds the promises waiting for it. */
const IN_FLIGHT = 64;

/**
 * deriveBalances stores the balances of the accounts heights from..to touched (from micro block `fromMicro` of
 * `from` on: −1 for whole generations), read from the node after the last stored block of `to`. A node that no
 * longer holds that state (410, garbage-collected) is asked for its top's: the account's later heights store their
 * own rows as the populator reaches them, so its latest row is exact once the stored chain is at the node's top.
 */
export async function deriveBalances(db: Queryable, node: BalanceReader, range: HeightRange): Promise<void> {
  const link = await storedLink(db, range.to);
  if (!link) return;
  const after = link.lastMicroHash ?? link.keyHash;
  const touched = new Map<string, number>();
  for (const t of await touchedAccounts(db, range, LOCKED_COINS_ACCOUNT)) {
    const id = t.id ?? reprefix(idOfKey(t.key!), 'ak');
    touched.set(id, Math.max(t.height, touched.get(id) ?? t.height));
  }
  const accounts = [...touched.keys()];
  const balances = await mapLimit(accounts, IN_FLIGHT, (id) =>
    node.accountBalance(id, after).catch((err: unknown) => {
      if (err instanceof NodeError && err.gone) return node.accountBalance(id);
      throw err;
    }),
  );
  const rows: BalanceRow[] = accounts.flatMap((accountId, i) => {
    const balance = balances[i];
    return balance === undefined ? [] : [{ height: touched.get(accountId)!, accountId, balance }];
  });
  await replaceBalances(db, range, rows);
}
