/** @module The shape tables of an account's AE balance at a height and the changes that made it (issue 76). */
import { big, bool, id, int, nullable, object, optional, shape, str } from '../shape-table.ts';

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
  // block_hash: the block the balance is after (the generation's last micro block, else its key block)
  { account: id('ak'), height: int, block_hash: id('(kh|mh)'), balance: big, last_change: nullable(object(CHANGE)) },
);

/** BALANCES_MAX: the accounts one POST /v3/accounts/balances asks at most. */
export const BALANCES_MAX = 100;

/** POST /accounts/balances' body: 1 to 100 accounts (or their contracts), and a height (default: the stored top) */
export const BALANCES_QUERY = shape(
  { openapi: 'AeBalancesQuery', closed: true },
  {
    accounts: {
      kind: 'array',
      schema: { type: 'array', minItems: 1, maxItems: BALANCES_MAX, items: { type: 'string', pattern: '^(ak|ct)_' } },
    },
    height: optional({ kind: 'integer', schema: { type: 'integer', minimum: 0 } }),
  },
);
