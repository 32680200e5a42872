/** @module The shape table of ae_mdw's DEX swaps (render-dex.ts). */
import { big, id, int, nullable, object, shape, str } from '../shape-table.ts';

export const DEX_SWAP = shape(
  { openapi: 'DexSwap', graphql: ['Swap'] },
  {
    caller: id('ak'),
    to_account: id('ak'),
    from_token: nullable(str),
    to_token: nullable(str),
    from_contract: id('ct'),
    to_contract: id('ct'),
    from_amount: big,
    to_amount: big,
    from_decimals: nullable(int),
    to_decimals: nullable(int),
    amounts: object({ amount0_in: big, amount1_in: big, amount0_out: big, amount1_out: big }),
    action: { kind: 'string', enum: ['BUY', 'SELL', 'SWAP'] },
    tx_hash: id('th'),
    log_idx: int,
    micro_time: int,
    height: int,
  },
);
