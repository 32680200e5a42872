/**
 * @module The node's internal `GET /debug/token-supply/height/{h}`: where the chain's aettos are at a height, by the
 * node's categories (aec_chain:sum_tokens_at_height), from the devnode's state. The devnode pays a key block's reward
 * at once and burns fees, so its `pending_rewards` are 0; `locked` is what the locked-coins account holds: the name
 * fees and channels' leftovers locked there, as the node locks them.
 */
import { LOCKED_COINS_ACCOUNT } from '../../chain/derived-ids.ts';
import { reprefix } from '../../chain/encoding.ts';
import type { Chain } from '../chain.ts';
import type { WorldState } from '../store/state.ts';
import { HttpError, ok, validationError, type Route, type RouteRequest } from './http.ts';
import { jsonInt } from '../tx-codec.ts';
import { readNodeHeight } from '../../chain/node-height.ts';

/** TokenSupply is the node's categories of the chain's aettos. */
export interface TokenSupply {
  readonly accounts: bigint;
  readonly auctions: bigint;
  readonly channels: bigint;
  readonly contract_oracles: bigint;
  readonly contracts: bigint;
  readonly locked: bigint;
  readonly oracle_queries: bigint;
  readonly oracles: bigint;
  readonly pending_rewards: bigint;
  readonly total: bigint;
}

/**
 * tokenSupply sorts a state's aettos into the node's categories: a contract's account under `contracts` (an oracle
 * too under `contract_oracles`), an oracle's under `oracles`, the locked account's under `locked`, the others under
 * `accounts`; the bids of running auctions, the channels' amounts and the fees of unanswered queries apart. Pure.
 */
export function tokenSupply(state: WorldState): TokenSupply {
  let [accounts, contracts, contractOracles, oracles, locked] = [0n, 0n, 0n, 0n, 0n];
  for (const [id, account] of state.accounts.entries()) {
    const isContract = state.contracts.get(reprefix(id, 'ct')) !== undefined;
    const isOracle = state.oracles.get(reprefix(id, 'ok')) !== undefined;
    if (id === LOCKED_COINS_ACCOUNT) locked += account.balance;
    else if (isContract && isOracle) contractOracles += account.balance;
    else if (isContract) contracts += account.balance;
    else if (isOracle) oracles += account.balance;
    else accounts += account.balance;
  }
  let [auctions, channels, queries] = [0n, 0n, 0n];
  for (const [, auction] of state.auctions.entries()) auctions += auction.bid;
  for (const [, channel] of state.channels.entries()) channels += channel.amount;
  for (const [, query] of state.queries.entries()) if (query.response === undefined) queries += query.fee;
  const parts = { accounts, auctions, channels, contract_oracles: contractOracles, contracts, locked };
  const rest = { oracle_queries: queries, oracles, pending_rewards: 0n };
  const total = [...Object.values(parts), ...Object.values(rest)].reduce((a, b) => a + b, 0n);
  return { ...parts, ...rest, total };
}

/** supplyAt answers for the state after the key block at the path's height. */
function supplyAt(chain: Chain, req: RouteRequest) {
  const read = readNodeHeight(req.params[0]!);
  if ('error' in read) throw validationError('height', read.error, read.data);
  // not recorded: the devnode answers a height past its top as its generations do
  const kb = read.height <= BigInt(chain.height) ? chain.keyBlocks[Number(read.height)] : undefined;
  if (!kb) throw new HttpError(404, 'Chain too short');
  const supply = tokenSupply(chain.stateAfter(kb.hash)!);
  return ok(Object.fromEntries(Object.entries(supply).map(([k, v]) => [k, jsonInt(v)])));
}

/** tokenSupplyRoutes is the read under /v2 (alsoUnderV3 adds /v3), on the internal port. */
export function tokenSupplyRoutes(chain: Chain): Route[] {
  return [{ method: 'GET', path: '/v2/debug/token-supply/height/:height', handler: (req) => supplyAt(chain, req) }];
}
