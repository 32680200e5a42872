/**
 * @module How an export writes its rows: CSV (RFC 4180: CRLF lines, a field quoted when it holds a quote, comma, CR or
 * LF, a quote doubled) with the columns of docs/api-v3.md, "Exports", or NDJSON (one JSON object a line: the list's own
 * item with its `cursor`). Integers exact in both. Pure.
 */
import { isJsonObject, stringifyJson, type Json } from '../../../chain/json.ts';
import { innerTx } from '../../../chain/tx-fields.ts';
import type { ExportRow } from '../resources/export-walk.ts';

/** How an export ended: whether it reached the list's end, else the cursor of its last row, to resume after. */
export interface ExportEnd {
  readonly complete: boolean;
  readonly resumeAfter?: string;
}

/**
 * An export's format: its content type, the text before the rows, a page of rows as text, and its end as the last
 * record of the body (for a client that takes no trailers: export-routes.ts).
 */
export interface ExportFormat {
  readonly contentType: string;
  readonly head: string;
  page(rows: readonly ExportRow[]): string;
  end(end: ExportEnd): string;
}

/** endTrailers is the end as the HTTP trailers say it: `Export-Complete`, and `Export-Resume-After` when incomplete. */
export function endTrailers({ complete, resumeAfter }: ExportEnd): Record<string, string> {
  return {
    'Export-Complete': String(complete),
    ...(resumeAfter === undefined ? {} : { 'Export-Resume-After': resumeAfter }),
  };
}

type JsonObject = { readonly [key: string]: Json };

/** The fields a transaction's first party is read from, in order (the first one it has). */
const SENDER_FIELDS = ['sender_id', 'caller_id', 'owner_id', 'account_id', 'from_id', 'initiator_id', 'ga_id'];
/** The fields its counterparty is read from, in order. */
const RECIPIENT_FIELDS = [
  'recipient_id',
  'contract_id',
  'oracle_id',
  'name_id',
  'channel_id',
  'responder_id',
  'to_id',
  'commitment_id',
];

/** TRANSACTION_COLUMNS: the CSV columns of a transactions export. */
export const TRANSACTION_COLUMNS = [
  'cursor',
  'height',
  'micro_index',
  'time',
  'block_hash',
  'hash',
  'type',
  'inner_type',
  'sender',
  'recipient',
  'amount',
  'fee',
  'nonce',
] as const;

/** ACTIVITY_COLUMNS: the CSV columns of an activities export. */
export const ACTIVITY_COLUMNS = [
  'cursor',
  'height',
  'time',
  'block_hash',
  'type',
  'hash',
  'tx_type',
  'sender',
  'recipient',
  'amount',
  'fee',
  'contract',
] as const;

/** csvField is one value as an RFC 4180 field: exact integers, text quoted where it must be, nothing for null. */
export function csvField(value: Json | undefined): string {
  if (value === undefined || value === null) return '';
  // most fields of a row: an integer, never quoted
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  const text = typeof value === 'string' ? value : typeof value === 'object' ? stringifyJson(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** csvLine is a record of fields, CRLF-terminated. */
export function csvLine(values: readonly (Json | undefined)[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** The last time isoTime wrote: the rows of a micro block, one after the other in an export, share theirs. */
let lastTime: { ms: number; iso: string } = { ms: 0, iso: new Date(0).toISOString() };

/** isoTime is a time in milliseconds as ISO 8601 UTC, or nothing when there is none. */
function isoTime(ms: Json | undefined): string | undefined {
  if (typeof ms !== 'number') return undefined;
  if (ms !== lastTime.ms) lastTime = { ms, iso: new Date(ms).toISOString() };
  return lastTime.iso;
}

function firstOf(tx: JsonObject, fields: readonly string[]): Json | undefined {
  for (const f of fields) {
    const v = tx[f];
    if (v !== undefined && v !== null) return v;
  }
  return undefined;
}

/** parties are a tx's sender, recipient, amount and nonce, read of the tx a wrapper carries where it carries one. */
function parties(outer: JsonObject): { inner: JsonObject | undefined; values: (Json | undefined)[] } {
  // a wrapper carries a signed tx, {signatures, tx}, and may carry another wrapper: the parties are the innermost tx's
  let inner: JsonObject | undefined;
  for (let next = innerTx(outer); next; next = innerTx(next)) inner = next;
  const own = inner ?? outer;
  return { inner, values: [firstOf(own, SENDER_FIELDS), firstOf(own, RECIPIENT_FIELDS), own.amount] };
}

/** transactionCsv is a row of a transactions export: a /v3 Transaction. */
export function transactionCsv(cursor: string, t: JsonObject): string {
  const tx = (isJsonObject(t.tx) ? t.tx : {}) as JsonObject;
  const { inner, values } = parties(tx);
  return csvLine([
    cursor,
    t.block_height,
    t.micro_index,
    isoTime(t.micro_time),
    t.block_hash,
    t.hash,
    tx.type,
    inner?.type,
    ...values,
    tx.fee,
    tx.nonce ?? inner?.nonce,
  ]);
}

/**
 * activityCsv is a row of an activities export: a transaction's (its own or a swap's) read as a transactions export
 * reads it, a transfer of AE or of a token by its `amount`, `sender_id`, `recipient_id` and the hash of the transaction
 * it comes of.
 */
export function activityCsv(cursor: string, a: JsonObject): string {
  const payload = (isJsonObject(a.payload) ? a.payload : {}) as JsonObject;
  const transaction = (
    isJsonObject(payload.tx) && typeof payload.tx.hash === 'string' ? payload.tx : payload
  ) as JsonObject;
  const head = [cursor, a.height, isoTime(a.block_time), a.block_hash, a.type];
  if (isJsonObject(transaction.tx) && typeof transaction.hash === 'string') {
    const tx = transaction.tx as JsonObject;
    const { values } = parties(tx);
    const amount = payload === transaction ? values[2] : (payload.amount ?? values[2]);
    return csvLine([...head, transaction.hash, tx.type, values[0], values[1], amount, tx.fee, undefined]);
  }
  // a name's claim carries its tx without a hash, a transfer its parties and amount
  const [sender, recipient, amount] = isJsonObject(payload.tx) ? parties(payload.tx).values : [];
  return csvLine([
    ...head,
    payload.tx_hash ?? payload.source_tx_hash ?? payload.ref_tx_hash ?? payload.call_tx_hash,
    payload.source_tx_type ?? payload.ref_tx_type,
    payload.sender_id ?? sender,
    payload.recipient_id ?? recipient,
    payload.amount ?? payload.token_id ?? amount,
    undefined,
    payload.contract_id,
  ]);
}

/** csvFormat is CSV with a header of `columns` and each row written by `row`. */
export function csvFormat(columns: readonly string[], row: (cursor: string, item: JsonObject) => string): ExportFormat {
  return {
    contentType: 'text/csv; charset=utf-8; header=present',
    head: csvLine(columns),
    page: (rows) => rows.map((r) => row(r.cursor, r.item)).join(''),
    end: csvEnd,
  };
}

/**
 * csvEnd is the end as a CSV record of one field, the trailers' text after a `#` (`#Export-Complete: false;
 * Export-Resume-After: 10-0-2`): no row's first field (a cursor) starts with `#`, and readers that skip comment lines
 * (pandas' `comment='#'`, R's `comment.char`) skip it.
 */
function csvEnd(end: ExportEnd): string {
  const text = Object.entries(endTrailers(end))
    .map(([name, value]) => `${name}: ${value}`)
    .join('; ');
  return csvLine([`#${text}`]);
}

/** NDJSON: each row the list's item with its cursor first, one line each. */
export const NDJSON: ExportFormat = {
  contentType: 'application/x-ndjson',
  head: '',
  page: (rows) => rows.map(ndjsonLine).join(''),
  // a row's line starts with its `cursor`; the end's has none
  end: ({ complete, resumeAfter }) =>
    `${JSON.stringify({ export_complete: complete, ...(resumeAfter === undefined ? {} : { export_resume_after: resumeAfter }) })}\n`,
};

/**
 * ndjsonLine is `{cursor, ...item}` as one line of JSON, the item's text spliced after the cursor's member rather than
 * the item copied (an item has no `cursor` of its own).
 */
function ndjsonLine({ cursor, item }: ExportRow): string {
  const json = stringifyJson(item);
  const head = `{"cursor":${JSON.stringify(cursor)}`;
  return json === '{}' ? `${head}}\n` : `${head},${json.slice(1)}\n`;
}
