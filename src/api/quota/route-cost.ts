/**
 * @module What a request costs in quota units: 1 for a plain request, more for one that reads much (an export, a page
 * of many items, a deep offset). A GraphQL document's cost is charged by its endpoint once measured. Pure.
 */
import { isExportPath } from '../mdw/rest/export-routes.ts';
import { COST_PER_TURN } from '../mdw/graphql/cost.ts';

/** EXPORT_COST: an export streams up to EXPORT_MAX_ROWS rows; it counts as this many requests at its start. */
export const EXPORT_COST = 20;

/** ITEMS_PER_UNIT: a page of up to this many items is one unit (the size of ae_mdw's largest page). */
const ITEMS_PER_UNIT = 100;

/** DEEP_PAGE: a `page` number from which a request costs one more unit per this many pages (an offset read). */
const DEEP_PAGE = 10;

/**
 * routeCost is a request's cost from its path (without /mdw) and query: an export EXPORT_COST; else one unit per
 * ITEMS_PER_UNIT of its `limit`, and one more per DEEP_PAGE pages of its `page` (the original API's offsets).
 */
export function routeCost(path: string, query: { readonly limit?: unknown; readonly page?: unknown }): number {
  if (isExportPath(path)) return EXPORT_COST;
  const limit = wholeNumber(query.limit);
  const page = wholeNumber(query.page);
  return Math.max(1, Math.ceil(limit / ITEMS_PER_UNIT)) + Math.floor(page / DEEP_PAGE);
}

/** graphqlUnits is a GraphQL operation's cost (cost.ts) in units: a page of 100 objects is one, as on REST. */
export function graphqlUnits(cost: number): number {
  return Math.max(1, Math.ceil(cost / COST_PER_TURN));
}

function wholeNumber(value: unknown): number {
  const text = Array.isArray(value) ? value[0] : value;
  const n = typeof text === 'string' && /^\d{1,9}$/.test(text) ? Number(text) : 0;
  return n;
}
