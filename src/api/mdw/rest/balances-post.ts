/**
 * @module POST /v3/accounts/balances (issue 76): up to 100 accounts' AE balances at one height in one request, a row
 * of the route table that answers itself (its JSON body read, 16 KiB at most).
 */
import { BALANCES_MAX, postAccountsBalances } from '../resources/ae-balances.ts';
import { jsonBody } from './json-body.ts';
import { sendAnswer } from './mdw-respond.ts';
import type { V3Handled } from './operation.ts';

const body = jsonBody('16kb');
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export const BALANCES_POST: V3Handled = {
  method: 'POST',
  path: '/accounts/balances',
  operationId: 'PostAccountsBalances',
  reads: true,
  summary: `Up to ${BALANCES_MAX} accounts' AE balances at a height (default: the stored top), each with its last change`,
  params: [],
  body: {
    type: 'object',
    required: ['accounts'],
    additionalProperties: false,
    properties: {
      accounts: { type: 'array', minItems: 1, maxItems: BALANCES_MAX, items: { type: 'string', pattern: '^(ak|ct)_' } },
      height: { type: 'integer', minimum: 0 },
    },
  },
  responses: {
    '200': {
      description: 'OK',
      content: { 'application/json': { schema: { type: 'array', items: ref('AeBalance') } } },
    },
    '400': { description: 'Bad input', content: { 'application/json': { schema: ref('Error') } } },
  },
  handle: (ctx, env) => body(ctx, async () => sendAnswer(ctx, await postAccountsBalances(env, ctx.request.body), {})),
};
