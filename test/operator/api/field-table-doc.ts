/**
 * @module Dev-time generator of docs/operator-crd.md's "Every field" table from the field table (spec-fields.ts): one
 * row per field with its type, default, bounds, the variables it sets and its description.
 */
import type { Field } from '../../../src/operator/api/field.ts';

/** FIELD_TABLE_BEGIN and FIELD_TABLE_END enclose the generated table in the page. */
export const FIELD_TABLE_BEGIN =
  '<!-- field table: generated from src/operator/api/spec-fields.ts; UPDATE_GOLDEN=1 -->';
export const FIELD_TABLE_END = '<!-- end of field table -->';

/** renderFieldTable is the markdown table of every field under `field`, paths relative to `spec`. */
export function renderFieldTable(field: Field): string {
  const rows = fieldRows(field, 'spec').slice(1);
  return [
    '| field | type | default | bounds | sets | description |',
    '|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ].join('\n');
}

/** replaceFieldTable writes the table between the markers of page. */
export function replaceFieldTable(page: string, table: string): string {
  const begin = page.indexOf(FIELD_TABLE_BEGIN);
  const end = page.indexOf(FIELD_TABLE_END);
  if (begin < 0 || end < begin) throw new Error('the page has no field table markers');
  return `${page.slice(0, begin + FIELD_TABLE_BEGIN.length)}\n\n${table}\n\n${page.slice(end)}`;
}

function fieldRows(field: Field, path: string, required = false): string[][] {
  const s = field.schema;
  const row = [
    `\`${path}\``,
    typeName(field),
    s.default === undefined ? (required ? 'required' : '') : `\`${JSON.stringify(s.default)}\``,
    bounds(field),
    (field.env ?? []).map((e) => `\`${e}\``).join(', '),
    field.doc ?? '',
  ];
  const children = Object.entries(field.properties ?? {}).flatMap(([k, f]) =>
    fieldRows(f, `${path}.${k}`, field.required?.includes(k) ?? false),
  );
  const items = field.items ? fieldRows(field.items, `${path}[]`) : [];
  const values = field.values ? fieldRows(field.values, `${path}{}`) : [];
  return [row, ...children, ...items, ...values];
}

function typeName(field: Field): string {
  const s = field.schema;
  if (s['x-kubernetes-int-or-string'] === true) return 'int or string';
  if (s['x-kubernetes-preserve-unknown-fields'] === true) return 'object (kept whole)';
  if (Array.isArray(s.enum)) return s.enum.map((v) => `\`${String(v)}\``).join(', ');
  if (s.type === 'array') return 'list';
  if (s.type === 'object' && field.values) return 'map';
  return String(s.type);
}

function bounds(field: Field): string {
  const s = field.schema;
  const out: string[] = [];
  if (typeof s.minimum === 'number') out.push(`${s.minimum}–${String(s.maximum)}`);
  if (typeof s.minItems === 'number') out.push(`≥ ${s.minItems} items`);
  if (typeof s.maxItems === 'number') out.push(`≤ ${s.maxItems} items`);
  if (typeof s.maxLength === 'number') out.push(`≤ ${s.maxLength} characters`);
  if (typeof s.pattern === 'string') out.push(`\`${s.pattern}\``);
  if (s['x-kubernetes-list-type'] === 'set') out.push('a set');
  if (s['x-kubernetes-list-type'] === 'map')
    out.push(`keyed by ${(s['x-kubernetes-list-map-keys'] as string[]).join(', ')}`);
  out.push(...field.rules.map((r) => r.message));
  return out.join('; ');
}

function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ');
}
