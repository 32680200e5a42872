/** @module The shape tables of ae_mdw's oracles, their queries, responses and extensions (resources/oracles.ts). */
import { asGraphQL, big, bool, id, int, nullable, obj, object, only, shape, str } from '../shape-table.ts';
import { SOURCE_TX_EVENT } from './field-groups.ts';

export const ORACLE = shape(
  { openapi: 'Oracle', graphql: ['Oracle'] },
  {
    oracle: id('ok'),
    active: bool,
    active_from: int,
    expire_height: int,
    approximate_expire_time: int,
    register_time: int,
    register_tx_hash: str,
    format: object({ query: nullable(str), response: nullable(str) }),
    // an exact amount, declared an integer in ae_mdw's OpenAPI and a BigInt in its GraphQL
    query_fee: asGraphQL('BigInt', nullable(int)),
    register: nullable(obj),
  },
);

/** the fields a query and its response share */
const exchange = {
  query_id: str,
  oracle_id: str,
  height: int,
  block_hash: str,
  source_tx_hash: str,
  block_time: only('graphql', int),
  source_tx_type: only('graphql', str),
  fee: only('graphql', big),
  nonce: only('graphql', int),
  response_ttl: only('graphql', obj),
  ttl: only('graphql', int),
};

export const ORACLE_QUERY = shape(
  { openapi: 'OracleQuery', graphql: ['OracleQuery'] },
  {
    ...exchange,
    sender_id: str,
    query: str,
    query_fee: only('graphql', big),
    query_ttl: only('graphql', obj),
  },
);

export const ORACLE_RESPONSE = shape(
  { openapi: 'OracleResponse', graphql: ['OracleResponse'] },
  { ...exchange, response: str },
);

export const ORACLE_EXTEND = shape(
  { openapi: 'OracleExtend', graphql: ['OracleExtend'] },
  { height: int, ...SOURCE_TX_EVENT },
);
