/** @module Middleware queries over contracts: all, calls with decoded arguments and results, transactions, source verification. */
import { Router } from '../../http/router.ts';
import type { ApiState } from '../../http/state.ts';
import { bodyParser } from '../../http/body-parser.ts';
import { isJsonObject, type Json } from '../../../chain/json.ts';
import { innerTx } from '../../../chain/tx-fields.ts';
import {
  allContracts,
  contractCreateTx,
  contractTransactions,
  creationTransactionJson,
} from '../../../db/queries/contracts.ts';
import { contractCalls } from '../../../db/queries/contract-calls.ts';
import { badRequest, notFound } from '../../../base/errors.ts';
import { createCompilerClient } from '../../../node/compiler.ts';
import { parseId, parseLimitPage, parseText } from '../legacy-params.ts';
import { jsonArrayText, sendJson, sendJsonText, type RouteDeps } from '../../http/route-deps.ts';

/** MAX_SOURCE_BYTES bounds a verification request body. */
const MAX_SOURCE_BYTES = 1024 * 1024;

/** contractRoutes registers compilers, contracts/all, calls, transactions and verify. */
export function contractRoutes(deps: RouteDeps): Router {
  const { pool, cfg } = deps;
  const router = new Router<ApiState>({ prefix: '/middleware' });
  const compiler =
    cfg.compilerUrl === undefined
      ? undefined
      : createCompilerClient(cfg.compilerUrl, cfg.nodeTimeoutMs, deps.metrics.outbound);

  router.get('/compilers', async (ctx) => {
    if (!compiler) return sendJson(ctx, { error: 'no compiler available' });
    sendJson(ctx, { compilers: [await compiler.version()] });
  });

  router.get('/contracts/all', async (ctx) => {
    const rows = await allContracts(pool, parseLimitPage(ctx.query));
    sendJson(
      ctx,
      rows.map((c) => ({ contract_id: c.contractId, transaction_hash: c.createTxHash, block_height: c.height })),
    );
  });

  router.get('/contracts/calls/address/:address', async (ctx) => {
    const contractId = parseId(ctx.params.address, ['ct'], 'address');
    const rows = await contractCalls(pool, contractId, parseLimitPage(ctx.query));
    sendJson(
      ctx,
      rows.map((c) => ({
        transaction_id: c.txHash,
        contract_id: c.contractId,
        caller_id: c.callerId,
        function: c.function,
        arguments: { function: c.function, arguments: c.arguments },
        callinfo: c.callInfo,
        // the node had garbage-collected it: callinfo, return_type stay null, the call is there all the same
        call_info_pruned: c.callInfoPruned,
        result: c.result,
        return_type: isJsonObject(c.callInfo) ? (c.callInfo.return_type ?? null) : null,
        return_value: c.result,
        decode_error: c.decodeError,
      })),
    );
  });

  router.get('/contracts/transactions/address/:address', async (ctx) => {
    const contractId = parseId(ctx.params.address, ['ct'], 'address');
    sendJsonText(
      ctx,
      jsonArrayText(await contractTransactions(pool, contractId, parseLimitPage(ctx.query)), 'transactions'),
    );
  });

  router.get('/contracts/transactions/creation/address/:address', async (ctx) => {
    const contractId = parseId(ctx.params.address, ['ct'], 'address');
    const created = await creationTransactionJson(pool, contractId);
    if (!created) throw notFound(`contract ${contractId} is not known`);
    sendJsonText(ctx, created.json, created.height);
  });

  router.post('/contracts/verify', bodyParser({ enableTypes: ['json'], jsonLimit: MAX_SOURCE_BYTES }), async (ctx) => {
    const body: unknown = ctx.request.body;
    if (!isJsonObject(body)) throw badRequest('the body must be a JSON object {contract_id, source, compiler}');
    const contractId = parseId(stringField(body, 'contract_id'), ['ct'], 'contract_id');
    const source = parseText(stringField(body, 'source'), 'source', MAX_SOURCE_BYTES);
    const version = parseText(stringField(body, 'compiler'), 'compiler', 64);
    if (!compiler) return sendJson(ctx, { error: 'no compiler available' });
    if (version !== (await compiler.version())) return sendJson(ctx, { error: 'invalid compiler version' });
    const code = await createCode(deps, contractId);
    const bytecode = await compiler.compile(source, version);
    if (bytecode === undefined) return sendJson(ctx, { error: 'unable to compile the contract' });
    sendJson(ctx, { verified: bytecode === code });
  });

  return router;
}

function stringField(body: { [key: string]: Json }, key: string): string | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw badRequest(`${key} must be a string`);
  return value;
}

/** createCode is the bytecode the contract was created with (inside a GA or paying-for wrapper too). */
async function createCode(deps: RouteDeps, contractId: string): Promise<string> {
  const tx = await contractCreateTx(deps.pool, contractId);
  const outer = tx !== undefined && isJsonObject(tx) ? tx : undefined;
  const create = outer && (innerTx(outer) ?? outer);
  if (!create || typeof create.code !== 'string') throw notFound(`contract ${contractId} is not known`);
  return create.code;
}
