/** @module The query parameters of ae_mdw's statistics series, with its error texts. Pure. */
import { INTERVALS, parseIsoDate, type IntervalBy } from '../../../chain/stats-intervals.ts';
import { v3BadRequest } from './mdw-errors.ts';
import type { Query } from './page.ts';
import { one } from './mdw-params.ts';
import { nodeTxType } from './tx-query.ts';

/** What a series request asks for. */
export interface SeriesQuery {
  readonly by: IntervalBy;
  /** days of the first and last interval starts asked for */
  readonly minDay: number | undefined;
  readonly maxDay: number | undefined;
  /** the node's transaction type (`tx_type`) */
  readonly txType: string | undefined;
  /** `type` of /stats/blocks and /stats/miners/top */
  readonly blockType: 'key' | 'micro' | undefined;
}

/** Parameters the paging reads (and the ones every request may carry). */
const PAGING = new Set(['limit', 'direction', 'cursor', 'scope', 'rev', 'int-as-string']);

/**
 * parseSeriesQuery reads `interval_by`, `min_start_date`, `max_start_date` and the endpoint's own
 * `extra` parameters; any other parameter is ae_mdw's `invalid query: name=value`.
 */
export function parseSeriesQuery(query: Query, extra: readonly ('tx_type' | 'type')[] = []): SeriesQuery {
  for (const [name, value] of Object.entries(query)) {
    if (name.startsWith('_') || PAGING.has(name) || value === undefined) continue;
    if (name === 'interval_by' || name === 'min_start_date' || name === 'max_start_date') continue;
    if ((extra as readonly string[]).includes(name)) continue;
    throw v3BadRequest(`invalid query: ${name}=${one(value)}`);
  }
  const byText = one(query.interval_by) ?? 'day';
  if (!(INTERVALS as readonly string[]).includes(byText)) throw v3BadRequest(`invalid query: ${byText}`);
  const date = (name: string): number | undefined => {
    const text = one(query[name]);
    if (text === undefined) return undefined;
    const day = parseIsoDate(text);
    if (day === undefined) throw v3BadRequest(`invalid query: ${name}=${text}`);
    return day;
  };
  const typeText = one(query.type);
  if (typeText !== undefined && typeText !== 'key' && typeText !== 'micro')
    throw v3BadRequest(`invalid query: type=${typeText}`);
  const txTypeText = one(query.tx_type);
  return {
    by: byText as IntervalBy,
    minDay: date('min_start_date'),
    maxDay: date('max_start_date'),
    txType: txTypeText === undefined ? undefined : nodeTxType(txTypeText),
    blockType: typeText,
  };
}
