/** @module The shape tables of ae_mdw's names, auctions, their history and pointees (render-names.ts). */
import { big, bool, id, int, list, nullable, obj, object, only, shape, str } from '../shape-table.ts';
import { SOURCE_TX_EVENT } from './field-groups.ts';

/**
 * a name's fee: an exact amount past 2^53 (ae_mdw's example is 134626900000000000000), so a big integer; ae_mdw's OpenAPI
 * declares it a bare integer, its GraphQL a BigInt
 */
const nameFee = nullable({ ...big, schema: { type: 'integer' } });

export const NAME = shape(
  { openapi: 'Name', graphql: ['Name'] },
  {
    active: bool,
    hash: id('nm'),
    name: str,
    active_from: int,
    approximate_activation_time: int,
    approximate_expire_time: nullable(int),
    expire_height: nullable(int),
    pointers: list(),
    auction: nullable(obj),
    auction_timeout: int,
    ownership: object({ current: str, original: str }),
    name_fee: nameFee,
    revoke: nullable(obj),
    claims_count: int,
    type: only('graphql', str),
  },
);

export const AUCTION = shape(
  { openapi: 'Auction', graphql: ['Auction'] },
  {
    name: str,
    activation_time: int,
    auction_end: int,
    approximate_expire_time: int,
    name_fee: nameFee,
    claims_count: int,
    last_bid: nullable(obj),
  },
);

const nameEvent = { active_from: int, height: int, internal_source: bool, ...SOURCE_TX_EVENT };

/** ae_mdw's GraphQL names a name's claims, updates and transfers apart; they are one answer */
export const NAME_EVENT = shape(
  { openapi: 'NameEvent', graphql: ['NameClaim', 'NameUpdate', 'NameTransfer'] },
  nameEvent,
);

/** a history item of GraphQL: a NameEvent, or a registration's expiry (the document's NameHistoryItem is their union) */
export const NAME_HISTORY = shape({ graphql: ['NameHistory'] }, { ...nameEvent, expired_at: int });

export const POINTEE = shape(
  { openapi: 'Pointee', graphql: ['Pointee'] },
  {
    active: bool,
    name: str,
    key: str,
    block_height: int,
    block_time: int,
    ...SOURCE_TX_EVENT,
  },
);
