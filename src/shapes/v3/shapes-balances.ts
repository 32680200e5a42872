/** @module The shape tables of an account's AE balance at a height and the changes that made it (issue 76). */
import { big, bool, id, int, nullable, object, shape, str } from '../shape-table.ts';

/** a change of an account's AE balance: where, when, why, by how much, and the balance after it */
const CHANGE = {
  height: int,
  micro_index: nullable(int),
  tx_index: nullable(int),
  time: int,
  kind: str,
  tx_hash: nullable(id('th')),
  delta: big,
  balance: big,
  unexplained: bool,
};

export const AE_BALANCE_CHANGE = shape(
  { openapi: 'AeBalanceChange', graphql: ['AeBalanceChange'] },
  { account: id('ak'), ...CHANGE },
);

export const AE_BALANCE = shape(
  { openapi: 'AeBalance', graphql: ['AeBalance'] },
  { account: id('ak'), height: int, balance: big, last_change: nullable(object(CHANGE)) },
);
