/**
 * @module ae_mdw's `account` query field: an account's AE balance, as its balances table holds it (ours: migration
 * 1007's, which /v3/wealth ranks). It has no /v3 operation, in ae_mdw either. `creationTime` stays null, as ae_mdw
 * answers it: neither keeps when an account came to be (a genesis allocation or a reward names no transaction).
 * Contracts' balances are not kept (the balances area ranks accounts): a `ct_` id is refused as any other non-account.
 */
import { GraphQLNonNull, GraphQLString, type GraphQLFieldConfig } from 'graphql';
import { accountBalance } from '../../../db/queries/wealth.ts';
import { v3NotFound } from '../resources/mdw-errors.ts';
import { parseId } from '../resources/mdw-params.ts';
import type { GraphQLContext, RestObject } from './context.ts';
import { shapeType } from './shape-types.ts';
import { big, int, shape, str } from '../../../shapes/shape-table.ts';

/** GraphQL's alone: no /v3 operation answers it */
export const Account = shapeType(shape({ graphql: ['Account'] }, { id: str, balance: big, creation_time: int }));

export const accountField: GraphQLFieldConfig<unknown, GraphQLContext> = {
  type: Account,
  description: "An account's AE balance",
  args: { id: { type: new GraphQLNonNull(GraphQLString) } },
  async resolve(_source, { id }: { id: string }, { env, deadline }): Promise<RestObject> {
    const account = parseId(id, ['ak']);
    deadline.check();
    const balance = await accountBalance(env.pool, account);
    if (balance === undefined) throw v3NotFound(account);
    return { id: account, balance: BigInt(balance), creation_time: null };
  },
};
