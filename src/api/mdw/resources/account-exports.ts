/**
 * @module An account's whole history for export: /v3/accounts/{id}/transactions/export and …/activities/export read
 * their request (the filters of the lists they walk, the walk's direction, a row limit under the cap, the cursor to
 * resume after) into a walk over the very lists /v3/transactions?account= and /v3/accounts/{id}/activities page.
 */
import type { ExportLimits } from '../../../config/middleware.ts';
import { activityList, activityScopes } from './activities.ts';
import { exportPages, type ExportPlan, type ExportRow, type InTurn } from './export-walk.ts';
import { v3BadRequest } from './mdw-errors.ts';
import { one, parseId, parsePaging, type Scope } from './mdw-params.ts';
import type { List } from './list.ts';
import type { Query } from './page.ts';
import type { ResourceRequest, V3Env } from './resource.ts';
import { positionBounds } from './scope-bounds.ts';
import { transactionList, transactionSummaryList, TX_SCOPES } from './transactions.ts';
import { parseTxFilter } from './tx-query.ts';

/** A prepared export: its walk, started in the turns `inTurn` hands out. */
export type AccountExport = (inTurn: InTurn) => AsyncGenerator<readonly ExportRow[], boolean>;

/** The ids an account's history is read of (those /v3/accounts/{id}/activities takes). */
const ACCOUNT_PREFIXES = ['ak', 'ct', 'ok', 'ch', 'nm', 'oq'] as const;

/** Parameters of every export beside a list's filters. */
const EXPORT_PARAMS = ['scope', 'direction', 'limit', 'after'];

/**
 * What an export's rows are: the list's items whole (NDJSON), or summaries with the fields the CSV columns read, where
 * the list has cheaper ones (a transaction's without its signatures, `encoded_tx` and call).
 */
export type ExportItems = 'whole' | 'summaries';

/**
 * transactionsExport: the transactions naming the id in any field, as /v3/transactions?account=<id> lists them
 * (`type`, `type_group`, `scope` gen/time/txi, `direction`).
 */
export async function transactionsExport(
  { pool }: V3Env,
  req: ResourceRequest,
  limits: ExportLimits,
  items: ExportItems,
): Promise<AccountExport> {
  const id = parseId(req.params.id, ACCOUNT_PREFIXES);
  const { scope, plan } = exportPlan(req.query, ['type', 'type_group'], TX_SCOPES, limits);
  const { types } = parseTxFilter({ type: req.query.type, type_group: req.query.type_group });
  const filter = { types, ids: [{ id, matches: [] }], ...(await positionBounds(pool, scope)) };
  return items === 'summaries'
    ? listExport(transactionSummaryList(pool, filter), plan)
    : listExport(transactionList(pool, filter), plan);
}

/**
 * activitiesExport: the id's feed, as /v3/accounts/{id}/activities lists it (`type`, `owned_only`, `scope`,
 * `direction`); its items whole in either format.
 */
export async function activitiesExport(env: V3Env, req: ResourceRequest, limits: ExportLimits): Promise<AccountExport> {
  parseId(req.params.id, ACCOUNT_PREFIXES);
  const { scope, plan } = exportPlan(req.query, ['type', 'owned_only'], activityScopes(req), limits);
  return listExport(await activityList(env, req, scope), plan);
}

/** listExport is the walk of `list` as `plan` says, its cursor to resume after checked with the list's codec first. */
function listExport<K, R>(list: List<K, R>, plan: ExportPlan): AccountExport {
  list.cursor.decode(plan.after);
  return (inTurn) => exportPages(list, plan, inTurn);
}

/**
 * exportPlan reads what every export takes: the list's own `filters` (any other parameter is a 400), `scope` and
 * `direction` as the list reads them, `limit` (rows, at most the cap; the cap by default) and `after` (the cursor of the
 * row to resume after; the caller checks it with its list's codec). A list's `cursor` and `rev` are refused: an export
 * resumes after a row, never at one.
 */
function exportPlan(
  query: Query,
  filters: readonly string[],
  scopes: readonly Scope['type'][],
  limits: ExportLimits,
): { scope: Scope | undefined; plan: ExportPlan } {
  for (const name of Object.keys(query))
    if (!name.startsWith('_') && !filters.includes(name) && !EXPORT_PARAMS.includes(name))
      throw v3BadRequest(`invalid query: ${name}=${one(query[name]) ?? ''}`);
  const paging = parsePaging(
    { limit: one(query.limit) ?? String(limits.maxRows), direction: query.direction, scope: query.scope },
    { maxLimit: limits.maxRows, scopes },
  );
  return {
    scope: paging.scope,
    plan: { direction: paging.direction, after: one(query.after), maxRows: paging.limit, pageRows: limits.pageRows },
  };
}
