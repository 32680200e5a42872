/**
 * @module POST /v3/accounts/balances (issue 76): up to 100 accounts' AE balances at one height in one request, a row
 * of the route table that answers itself (its JSON body read, 16 KiB at most).
 */
import { AE_BALANCE, BALANCES_MAX, BALANCES_QUERY } from '../../../shapes/v3/shapes-balances.ts';
import { postAccountsBalances } from '../resources/ae-balances.ts';
import { jsonBody } from './json-body.ts';
import { sendAnswer } from './mdw-respond.ts';
import type { V3Handled } from './operation.ts';

const body = jsonBody('16kb');

export const BALANCES_POST: V3Handled = {
  method: 'POST',
  path: '/accounts/balances',
  operationId: 'PostAccountsBalances',
  reads: true,
  summary: `Up to ${BALANCES_MAX} accounts' AE balances at a height (default: the stored top), each with its last change`,
  params: [],
  body: BALANCES_QUERY,
  answer: { status: 200, description: 'OK', answers: { array: AE_BALANCE } },
  errors: { 400: 'Bad input' },
  handle: (ctx, env) => body(ctx, async () => sendAnswer(ctx, await postAccountsBalances(env, ctx.request.body), {})),
};
