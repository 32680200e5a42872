/**
 * @module ae_mdw's GraphQL schema (1.107): every query field of the tables, each answered by its /v3 operation, and
 * `account`, which no operation answers (account.ts).
 */
import { GraphQLObjectType, GraphQLSchema, type GraphQLFieldConfigMap } from 'graphql';
import { accountField } from './account.ts';
import type { GraphQLContext } from './context.ts';
import { fieldConfig, type QueryField } from './fields.ts';
import {
  ACCOUNT_QUERIES,
  BLOCK_QUERIES,
  STATS_QUERIES,
  STATUS_QUERIES,
  TRANSACTION_QUERIES,
  WEALTH_QUERIES,
} from './queries-chain.ts';
import {
  AEX141_QUERIES,
  AEX9_QUERIES,
  CHANNEL_QUERIES,
  CONTRACT_QUERIES,
  DEX_QUERIES,
  NAME_QUERIES,
  ORACLE_QUERIES,
} from './queries-objects.ts';
import { HYPERCHAIN_QUERIES } from './queries-hyperchain.ts';

/** QUERY_FIELDS: every query field by name. */
export const QUERY_FIELDS: Readonly<Record<string, QueryField>> = {
  ...ACCOUNT_QUERIES,
  ...BLOCK_QUERIES,
  ...CONTRACT_QUERIES,
  ...NAME_QUERIES,
  ...STATS_QUERIES,
  ...STATUS_QUERIES,
  ...TRANSACTION_QUERIES,
  ...CHANNEL_QUERIES,
  ...AEX9_QUERIES,
  ...AEX141_QUERIES,
  ...ORACLE_QUERIES,
  ...DEX_QUERIES,
  ...WEALTH_QUERIES,
  ...HYPERCHAIN_QUERIES,
};

/** SCHEMA: the schema, built once. */
export const SCHEMA = new GraphQLSchema({
  query: new GraphQLObjectType<unknown, GraphQLContext>({
    name: 'RootQueryType',
    fields: () => {
      const fields: GraphQLFieldConfigMap<unknown, GraphQLContext> = {};
      for (const [name, field] of Object.entries(QUERY_FIELDS)) fields[name] = fieldConfig(name, field);
      return { ...fields, account: accountField };
    },
  }),
});
