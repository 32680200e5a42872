/** @module /v3/contracts: a contract's creation, its calls (the ones the chain holds as transactions) and their event logs. */
import type Router from '@koa/router';
import { hash } from '../../../chain/encoding.ts';
import { stringifyJson } from '../../../chain/json.ts';
import type { Pool } from '../../../db/pool.ts';
import { callsPage } from '../../../db/queries/contract-calls.ts';
import { contractCreation, logsPage } from '../../../db/queries/contracts.ts';
import type { TxPosition } from '../../../db/queries/transaction-filter.ts';
import { LOG_CURSOR, POSITION_CURSOR } from './cursors.ts';
import { v3BadRequest, v3NotFound } from './errors.ts';
import { paginate } from './page.ts';
import { ALL_HEIGHTS, one, parseId, parsePaging, rejectUnknown } from './params.ts';
import { positionBounds } from './scope-bounds.ts';
import { contractCallObject, contractLogObject, contractObject } from '../../../shapes/v3/render-contracts.ts';
import { sendPage, sendText } from './respond.ts';

const CALL_PARAMS: ReadonlySet<string> = new Set(['contract_id', 'contract', 'caller_id', 'function']);

const WHOLE_CHAIN = {
  from: { height: 0, microIndex: 0, txIndex: 0 },
  to: { height: ALL_HEIGHTS.last, microIndex: ALL_HEIGHTS.last, txIndex: ALL_HEIGHTS.last },
};

/** contractRoutes registers the contract operations on the /v3 router. */
export function contractRoutes(router: Router, pool: Pool): void {
  const logs = async (
    ctx: Parameters<Parameters<Router['get']>[1]>[0],
    contract: string | undefined,
  ): Promise<void> => {
    const paging = parsePaging(ctx.query);
    const contractId = contract === undefined ? undefined : parseId(contract, ['ct']);
    const event = one(ctx.query.event);
    // an event is its name's blake2b as topic 0, which the node prints as a decimal integer
    const topic0 =
      event === undefined ? undefined : BigInt(`0x${Buffer.from(hash(Buffer.from(event))).toString('hex')}`).toString();
    const filter = {
      contractId,
      topic0,
      ...(paging.scope ? { first: paging.scope.first, last: paging.scope.last } : {}),
    };
    const page = await paginate(
      async (walk, from, n) =>
        (await logsPage(pool, filter, walk, from, n)).map((l) => ({
          key: { height: l.height, microIndex: l.microIndex, txIndex: l.txIndex, logIdx: l.logIdx },
          item: stringifyJson(contractLogObject(l)),
        })),
      { ...paging, cursor: LOG_CURSOR.decode(paging.cursor) },
    );
    sendPage(ctx, page, LOG_CURSOR.encode);
  };

  router.get('/contracts/calls', async (ctx) => {
    const paging = parsePaging(ctx.query, { scopes: ['gen', 'txi'] });
    rejectUnknown(ctx.query, CALL_PARAMS);
    const contract = one(ctx.query.contract_id) ?? one(ctx.query.contract);
    const caller = one(ctx.query.caller_id);
    const fname = one(ctx.query.function);
    if (fname === '') throw v3BadRequest('invalid query: function=');
    const filter = {
      contractId: contract === undefined ? undefined : parseId(contract, ['ct']),
      callerId: caller === undefined ? undefined : parseId(caller, ['ak', 'ct']),
      function: fname,
      ...WHOLE_CHAIN,
      ...(await positionBounds(pool, paging.scope)),
    };
    const page = await paginate(
      async (walk, from, n) =>
        (await callsPage(pool, filter, walk, from, n)).map((c) => ({
          key: c as TxPosition,
          item: stringifyJson(contractCallObject(c)),
        })),
      { ...paging, cursor: POSITION_CURSOR.decode(paging.cursor) },
    );
    sendPage(ctx, page, POSITION_CURSOR.encode);
  });

  router.get('/contracts/logs', (ctx) => logs(ctx, one(ctx.query.contract_id) ?? one(ctx.query.contract)));

  router.get('/contracts/:id', async (ctx) => {
    const id = parseId(ctx.params.id, ['ct']);
    const c = await contractCreation(pool, id);
    if (!c) throw v3NotFound(id);
    sendText(ctx, stringifyJson(contractObject(c)));
  });
}
