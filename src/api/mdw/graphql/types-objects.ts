/**
 * @module The GraphQL object types over what the chain holds that have fields of ours beyond their shape table (the
 * others are made where a query field names their shape: shapeType(TABLE) in queries-objects.ts).
 */
import { shapeType } from './shape-types.ts';
import { ORACLE_QUERY, ORACLE_RESPONSE } from '../../../shapes/v3/shapes-oracles.ts';

/** ae_mdw's OracleQuery: the query's response as an object of its own (the REST answer's `response`). */
export const OracleQuery = shapeType(ORACLE_QUERY, { response: { type: shapeType(ORACLE_RESPONSE) } });
