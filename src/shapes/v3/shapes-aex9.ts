/** @module The shape tables of ae_mdw's AEX-9 tokens, balances and transfers (render-aex9.ts). */
import { big, id, int, nullable, shape, str } from '../shape-table.ts';
import { TOKEN_CONTRACT, TRANSFER_PLACE } from './field-groups.ts';

export const AEX9_COUNT = shape({ openapi: 'Aex9Count', closed: true }, { data: int });

export const AEX9_TOKEN = shape(
  { openapi: 'Aex9Response', graphql: ['Aex9Contract'] },
  {
    name: str,
    symbol: str,
    decimals: nullable(int),
    ...TOKEN_CONTRACT,
    initial_supply: big,
    event_supply: big,
    holders: int,
    logs_count: int,
  },
);

/** a balance of a token and the block it was read at */
const balanceAt = { contract_id: id('ct'), block_hash: id('mh'), height: int, amount: big };

export const AEX9_CONTRACT_BALANCE = shape(
  { openapi: 'Aex9ContractBalanceResponse', graphql: ['Aex9ContractBalance'] },
  { ...balanceAt, account_id: id('ak'), last_tx_hash: id('th'), last_log_idx: int },
);

/** an account that never held the token has a null amount */
const accountAmount = { account: id('ak'), amount: { ...big, nullable: true }, contract: id('ct') };

export const AEX9_ACCOUNT_BALANCE = shape({ openapi: 'Aex9AccountBalance', graphql: ['Aex9Balance'] }, accountAmount);

export const AEX9_BALANCE_HISTORY_ITEM = shape(
  { openapi: 'Aex9BalanceHistoryItem', graphql: ['Aex9BalanceHistoryItem'] },
  { ...accountAmount, height: int },
);

export const AEX9_BALANCE = shape(
  { openapi: 'Aex9BalanceResponse', graphql: ['Aex9AccountBalance'] },
  {
    ...balanceAt,
    tx_hash: id('th'),
    tx_index: nullable(int),
    tx_type: str,
    decimals: nullable(int),
    token_symbol: str,
    token_name: str,
  },
);

export const AEX9_TRANSFER = shape(
  { openapi: 'Aex9Transfer', graphql: ['Aex9Transfer'] },
  {
    sender: id('ak'),
    recipient: id('ak'),
    amount: big,
    contract_id: id('ct'),
    ...TRANSFER_PLACE,
  },
);
