/** @module /v3/contracts: a contract's creation, its calls (the ones the chain holds as transactions) and their event logs. */
import { eventTopic } from '../../../chain/event-topic.ts';
import { storedCreatedIds } from '../../../chain/tx-fields.ts';
import type { Pool } from '../../../db/connection/pool.ts';
import { callsPage } from '../../../db/queries/contract-calls.ts';
import { aexnTypes, contractCreation, logsPage, type LogKey } from '../../../db/queries/contracts.ts';
import { transactionPositions, transactionsPage, type TxFilter } from '../../../db/queries/transaction-filter.ts';
import type { TxPosition } from '../../../db/queries/positions.ts';
import type { TxRow } from '../../../db/queries/transactions.ts';
import { LOG_CURSOR, POSITION_CURSOR } from './cursors.ts';
import { v3BadRequest } from './mdw-errors.ts';
import { listPage } from './list.ts';
import { oneObject, page, resource, type Item, type ResourceRequest } from './resource.ts';
import { ALL_HEIGHTS, one, parseBoolean, parseId, parsePaging, rejectUnknown, type Paging } from './mdw-params.ts';
import { positionBounds } from './scope-bounds.ts';
import {
  contractCallObject,
  contractLogObject,
  contractObject,
  internalCallObject,
} from '../../../shapes/v3/render-contracts.ts';
import { internalCallsPage, type InternalCallFilter } from '../../../db/queries/internal-calls.ts';
import { CONTRACT, CONTRACT_CALL, CONTRACT_CALL_TX, CONTRACT_LOG } from '../../../shapes/v3/shapes-contracts.ts';

const CALL_PARAMS: ReadonlySet<string> = new Set(['contract_id', 'contract', 'caller_id', 'function']);
const INTERNAL_CALL_PARAMS: ReadonlySet<string> = new Set(['contract_id', 'contract', 'function']);

const WHOLE_CHAIN = {
  from: { height: 0, microIndex: 0, txIndex: 0 },
  to: { height: ALL_HEIGHTS.last, microIndex: ALL_HEIGHTS.last, txIndex: ALL_HEIGHTS.last },
};

/**
 * getContractCalls: ae_mdw's internal calls (migration 1097), of a contract (a query parameter, or the path's for
 * /contracts/{id}/calls: the calls its own calls made) and a function (`Chain.spend`…), in chain order.
 */
export const getContractCalls = resource(page(CONTRACT_CALL), async ({ pool }, req) => {
  const { paging, filter } = await callFilter(pool, req, INTERNAL_CALL_PARAMS);
  return listPage(paging, {
    cursor: LOG_CURSOR,
    read: (window) => internalCallsPage(pool, filter, window),
    key: (c): LogKey => c,
    render: (rows) => rows.map((c) => internalCallObject(c)),
  });
});

/**
 * getContractCallTransactions: contract calls the chain holds as transactions, of a contract (a query parameter, or
 * the path's for /contracts/{id}/call-transactions), a caller, a function.
 */
export const getContractCallTransactions = resource(page(CONTRACT_CALL_TX), async ({ pool }, req) => {
  const { paging, filter: calls } = await callFilter(pool, req, CALL_PARAMS);
  const caller = one(req.query.caller_id);
  const filter = { ...calls, callerId: caller === undefined ? undefined : parseId(caller, ['ak', 'ct']) };
  return listPage(paging, {
    cursor: POSITION_CURSOR,
    read: (window) => callsPage(pool, filter, window),
    key: (c): TxPosition => c,
    render: (rows) => rows.map((c) => contractCallObject(c)),
  });
});

/**
 * callFilter reads what both lists of calls take (any parameter beyond `known` is a 400): the scope (`gen`, `txi`),
 * the contract (the path's, or a query parameter) and the function.
 */
async function callFilter(
  pool: Pool,
  req: ResourceRequest,
  known: ReadonlySet<string>,
): Promise<{ paging: Paging; filter: InternalCallFilter }> {
  const paging = parsePaging(req.query, { scopes: ['gen', 'txi'] });
  rejectUnknown(req.query, known);
  const contract = pathOrQueryContract(req);
  const fname = one(req.query.function);
  if (fname === '') throw v3BadRequest('invalid query: function=');
  const filter = {
    contractId: contract === undefined ? undefined : parseId(contract, ['ct']),
    function: fname,
    ...WHOLE_CHAIN,
    ...(await positionBounds(pool, paging.scope)),
  };
  return { paging, filter };
}

/** pathOrQueryContract is the contract a list is narrowed to: the path's, else `contract_id` or `contract`. */
function pathOrQueryContract(req: ResourceRequest): string | undefined {
  return req.params.id ?? one(req.query.contract_id) ?? one(req.query.contract);
}

/** getContractLogs: event logs of contract calls, of a contract (as getContractCalls) and an event name. */
export const getContractLogs = resource(page(CONTRACT_LOG), async ({ pool }, req) => {
  const paging = parsePaging(req.query);
  const contract = pathOrQueryContract(req);
  const contractId = contract === undefined ? undefined : parseId(contract, ['ct']);
  const event = one(req.query.event);
  const aexnArgs = parseBoolean(one(req.query['aexn-args']), 'aexn-args') ?? false;
  // an event is its name's blake2b as topic 0, which the node prints as a decimal integer
  const topic0 = event === undefined ? undefined : eventTopic(event);
  const filter = {
    contractId,
    topic0,
    ...(paging.scope ? { first: paging.scope.first, last: paging.scope.last } : {}),
  };
  return listPage(paging, {
    cursor: LOG_CURSOR,
    read: (window) => logsPage(pool, filter, window),
    key: (l) => ({ height: l.height, microIndex: l.microIndex, txIndex: l.txIndex, logIdx: l.logIdx }),
    render: (rows) => rows.map((l) => contractLogObject(l, aexnArgs)),
  });
});

/** getContracts: the contracts created by ContractCreateTx and GAAttachTx, newest first, as ae_mdw lists them. */
export const getContracts = resource(page(CONTRACT), async ({ pool }, req) => {
  const paging = parsePaging(req.query, { scopes: ['gen', 'txi'] });
  rejectUnknown(req.query, new Set());
  const filter: TxFilter = {
    types: ['ContractCreateTx', 'GAAttachTx'],
    ids: [],
    ...(await positionBounds(pool, paging.scope)),
  };
  return listPage(paging, {
    cursor: POSITION_CURSOR,
    read: (window) => transactionsPage(pool, filter, window),
    key: (t): TxPosition => t,
    render: (rows) => createdContracts(pool, rows),
    readKeys: (window) => transactionPositions(pool, filter, window),
  });
});

/** createdContracts renders creations as Contracts, their standards read once for the page. */
async function createdContracts(pool: Pool, rows: readonly TxRow[]): Promise<Item[]> {
  const ids = rows.map((t) => storedCreatedIds(t.tx, t.createdId).contract_id ?? '');
  const standards = await aexnTypes(pool, ids);
  return rows.map((t, i) =>
    contractObject({
      contractId: ids[i]!,
      blockHash: t.microBlockHash,
      txHash: t.hash,
      txType: t.txType,
      tx: t.tx,
      aexnType: standards.get(ids[i]!) ?? null,
    }),
  );
}

/** getContract: a contract and its creation. */
export const getContract = oneObject(CONTRACT, (p) => parseId(p.id, ['ct']), contractCreation, contractObject);
