/**
 * @module POST /v3/accounts/balances (issue 76): up to 100 accounts' AE balances at one height in one request, beside
 * the route table's GET operations (operations.ts), with its own entry in the /v3/api document.
 */
import { bodyParser } from '@koa/bodyparser';
import type Koa from 'koa';
import { BALANCES_MAX, postAccountsBalances } from '../resources/ae-balances.ts';
import type { V3Env } from '../resources/resource.ts';
import { sendAnswer } from './mdw-respond.ts';

/** BALANCES_POST_PATH: the route's path without /v3. */
export const BALANCES_POST_PATH = '/accounts/balances';

/** isBalancesPost tells whether a request (its path under /mdw, without it) is this route's. */
export const isBalancesPost = (ctx: Koa.Context): boolean =>
  ctx.method === 'POST' && /^\/v3\/accounts\/balances\/?$/i.test(ctx.path);

const body = bodyParser({ enableTypes: ['json'], jsonLimit: '16kb' });

/** answerBalancesPost answers the route: its JSON body read (16 KiB at most), the balances written. */
export async function answerBalancesPost(ctx: Koa.Context, env: V3Env): Promise<void> {
  await body(ctx, async () => sendAnswer(ctx, await postAccountsBalances(env, ctx.request.body), {}));
}

/** balancesPostPath is the route's entry in the /v3/api document. */
export function balancesPostPath(): Record<string, Record<string, unknown>> {
  const error = { description: 'Bad input', content: { 'application/json': { schema: ref('Error') } } };
  return {
    [BALANCES_POST_PATH]: {
      post: {
        operationId: 'PostAccountsBalances',
        summary: `Up to ${BALANCES_MAX} accounts' AE balances at a height (default: the stored top), each with its last change`,
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['accounts'],
                additionalProperties: false,
                properties: {
                  accounts: {
                    type: 'array',
                    minItems: 1,
                    maxItems: BALANCES_MAX,
                    items: { type: 'string', pattern: '^ak_' },
                  },
                  height: { type: 'integer', minimum: 0 },
                },
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'OK',
            content: { 'application/json': { schema: { type: 'array', items: ref('AeBalance') } } },
          },
          '400': error,
        },
      },
    },
  };
}

function ref(name: string): Record<string, unknown> {
  return { $ref: `#/components/schemas/${name}` };
}
