/**
 * @module The streamed exports (export-routes.ts) as /v3/api documents them, from their rows of the route table
 * (operations.ts): their paths, parameters, the two media types an export answers in, its trailers and its refusals.
 * Pure.
 */
import type { V3Export } from './operation.ts';

const str = { type: 'string' } as const;
const error = { description: '', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
const retryAfter = {
  'Retry-After': { description: 'seconds to wait before asking again', schema: { type: 'integer' } },
};

/** query is an optional query parameter. */
function query(name: string, description: string, schema: Record<string, unknown> = str): Record<string, unknown> {
  return { name, in: 'query', required: false, description, schema };
}

/** exportPaths are the /v3/api document's paths of the exports (docs/api-v3.md, "Exports"), from their rows. */
export function exportPaths(exports: readonly V3Export[]): Record<string, Record<string, unknown>> {
  return Object.fromEntries(exports.map((op) => [op.path, { get: exportOperation(op) }]));
}

function exportOperation(op: V3Export): Record<string, unknown> {
  return {
    operationId: op.operationId,
    summary: `An id's whole ${op.list} list streamed as CSV or NDJSON (by Accept), resumable after any row`,
    parameters: [
      { name: 'id', in: 'path', required: true, schema: str },
      ...op.filters.map((f) => query(f, `as ${op.list} takes it`)),
      query('scope', `as ${op.list} takes it`),
      query('direction', 'the walk; a scope from high to low walks backward', {
        type: 'string',
        enum: ['forward', 'backward'],
        default: 'backward',
      }),
      query('limit', 'rows sent at most: the server’s EXPORT_MAX_ROWS at most, and by default', {
        type: 'integer',
        minimum: 1,
      }),
      query('after', 'the cursor of the row to resume after (each row carries its own)'),
    ],
    responses: {
      '200': {
        description:
          'The rows, streamed; then Export-Complete (true: the list’s end; false: the row cap or the export’s ' +
          'lifetime) and, when false, Export-Resume-After: as trailers to an HTTP/1.1 request with TE: trailers, else ' +
          'as the body’s last record (CSV: `#Export-Complete: false; Export-Resume-After: <cursor>`, NDJSON: ' +
          '`{"export_complete":false,"export_resume_after":"<cursor>"}`). A transfer broken off, or a body without its ' +
          'end, was cut short.',
        headers: {
          Trailer: { description: 'Export-Complete, Export-Resume-After (with trailers only)', schema: str },
          'Export-End': { description: 'where the end is: trailers, or body (its last record)', schema: str },
          'Content-Disposition': { description: 'attachment, named after the id and the list', schema: str },
        },
        content: {
          'text/csv': { schema: { ...str, description: `RFC 4180 with a header line: ${op.columns.join(', ')}` } },
          'application/x-ndjson': {
            schema: {
              ...str,
              description: `one JSON object a line: \`cursor\` then the list’s item (components/schemas/${op.item})`,
            },
          },
        },
      },
      '400': { ...error, description: 'Bad input: an id, filter, scope, limit or cursor the list refuses' },
      '406': { ...error, description: 'An Accept that allows neither text/csv nor application/x-ndjson' },
      '503': { ...error, description: 'The server is busy, or EXPORT_MAX_RUNNING exports stream', headers: retryAfter },
    },
  };
}
