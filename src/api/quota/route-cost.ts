/**
 * @module What a request costs in quota units at its start: 1 for a plain request, more for one that reads much (a
 * page of many items, a deep offset). An export and a GraphQL document charge their own cost once known
 * (export-routes.ts, graphql/endpoint.ts). Pure.
 */

/** EXPORT_COST: an export streams up to EXPORT_MAX_ROWS rows; it counts as this many requests at its start. */
export const EXPORT_COST = 20;

/** ITEMS_PER_UNIT: a page of up to this many items is one unit (the size of ae_mdw's largest page). */
const ITEMS_PER_UNIT = 100;

/** DEEP_PAGE: a `page` number from which a request costs one more unit per this many pages (an offset read). */
const DEEP_PAGE = 10;

/**
 * routeCost is a request's cost from its query: one unit per ITEMS_PER_UNIT of its `limit`, and one more per DEEP_PAGE
 * pages of its `page` (the original API's offsets).
 */
export function routeCost(query: { readonly limit?: unknown; readonly page?: unknown }): number {
  const limit = wholeNumber(query.limit);
  const page = wholeNumber(query.page);
  return Math.max(1, Math.ceil(limit / ITEMS_PER_UNIT)) + Math.floor(page / DEEP_PAGE);
}

function wholeNumber(value: unknown): number {
  const text = Array.isArray(value) ? value[0] : value;
  return typeof text === 'string' && /^\d{1,9}$/.test(text) ? Number(text) : 0;
}
