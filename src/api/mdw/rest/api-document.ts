/** @module The OpenAPI 3 document of our /v3 (served at /v3/api), with response schemas, built from one table. Pure. */
import { isPage, type Answers, type LiteralSchema } from '../resources/resource.ts';
import type { ArrayOf, ParamName, V3Handled, V3Operation } from './operation.ts';
import type { Shape } from '../../../shapes/shape-table.ts';
import { LIMITS } from '../resources/mdw-params.ts';
import { MDW_COMPAT_VERSION } from '../resources/status-source.ts';
import { V3_EXPORTS, V3_HANDLED, V3_SHAPES } from './operations.ts';
import { exportPaths } from './export-operations.ts';
import { openApiComponents, openApiObject } from './openapi-shapes.ts';
import { WEALTH_ENTRY } from '../../../shapes/v3/shapes-tx.ts';
import { TOP_MINER_24H } from '../../../shapes/v3/shapes-stats.ts';

const int = { type: 'integer' } as const;
const str = { type: 'string' } as const;

function object(required: Record<string, unknown>, extra = true): Record<string, unknown> {
  return { type: 'object', required: Object.keys(required), properties: required, additionalProperties: extra };
}

/**
 * SCHEMAS: the answers' shapes (the fields we guarantee; more may follow), generated from their shape tables
 * (the route table's, operations.ts), and the answers that are not one object: errors, counts, unions and plain arrays.
 */
export const V3_SCHEMAS: Record<string, unknown> = {
  Error: object({ error: str }, false),
  OpenApi: object({ openapi: str, paths: { type: 'object' } }),
  /** a bare integer; `{"data": n}` for one micro block (`mb_hash`), as ae_mdw answers (its spec says integer only) */
  TransactionsCount: { oneOf: [int, object({ data: int }, false)] },
  /** per type and field; with `type` or `type_group` a bare number, as ae_mdw answers (its spec says object only) */
  AccountTransactionsCount: { oneOf: [object({ total: int }), int] },
  /** ae_mdw's history items: a NameEvent, or a registration's expiry */
  NameHistoryItem: {
    oneOf: [{ $ref: '#/components/schemas/NameEvent' }, object({ active_from: int, expired_at: int })],
  },
  /** ae_mdw's /wealth: a plain array, the richest accounts first */
  Wealth: { type: 'array', items: openApiObject(WEALTH_ENTRY.fields) },
  TopMiners24h: { type: 'array', items: openApiObject(TOP_MINER_24H.fields) },
  ...openApiComponents(V3_SHAPES),
};

/**
 * v3ApiDocument is the document served at /v3/api: the operations of the route table (operations.ts), its exports, and
 * its routes that answer themselves (the webhooks API), each under its path and method.
 */
export function v3ApiDocument(operations: readonly V3Operation[], revision: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations)
    paths[op.path] = {
      get: entry(op, {
        '200': { description: 'OK', content: { 'application/json': { schema: responseSchema(op.resource.answers) } } },
        '400': { description: 'Bad input', content: { 'application/json': { schema: ref('Error') } } },
        ...(op.params.some((p) => p.startsWith('path:'))
          ? { '404': { description: 'Not found', content: { 'application/json': { schema: ref('Error') } } } }
          : {}),
      }),
    };
  Object.assign(paths, exportPaths(V3_EXPORTS));
  for (const route of V3_HANDLED)
    paths[route.path] = {
      ...paths[route.path],
      [(route.method ?? 'GET').toLowerCase()]: entry(route, handledResponses(route)),
    };
  return {
    openapi: '3.0.3',
    info: {
      title: 'æternity middleware, ae_mdw /v3 compatible',
      version: MDW_COMPAT_VERSION,
      description: `ae_mdw ${MDW_COMPAT_VERSION}'s /v3 as served by this middleware (build ${revision}).`,
    },
    servers: [{ url: '/v3' }],
    paths,
    components: { schemas: V3_SCHEMAS },
  };
}

/** entry is a route's OpenAPI operation: its id, summary, parameters, request body where it takes one, responses. */
function entry(route: V3Operation | V3Handled, responses: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const body = 'body' in route ? route.body : undefined;
  const bodySchema = body && ref(schemaName(body));
  return {
    operationId: route.operationId,
    summary: route.summary,
    parameters: route.params.map(parameter),
    ...(bodySchema ? { requestBody: { required: true, content: { 'application/json': { schema: bodySchema } } } } : {}),
    responses,
  };
}

/** handledResponses are a handled route's responses: its answer's status and schema, and its errors'. */
function handledResponses({ answer, errors }: V3Handled): Record<string, unknown> {
  const responses: Record<string, unknown> = {
    [answer.status]:
      'answers' in answer
        ? { description: answer.description, content: { 'application/json': { schema: answerSchema(answer.answers) } } }
        : { description: answer.description },
  };
  for (const [status, description] of Object.entries(errors))
    responses[status] = { description, content: { 'application/json': { schema: ref('Error') } } };
  return responses;
}

/** answerSchema is the JSON schema of an answer or of an unpaged list of a shape's objects. */
function answerSchema(answers: Answers | ArrayOf): Record<string, unknown> {
  return typeof answers === 'object' && 'array' in answers
    ? { type: 'array', items: ref(schemaName(answers.array)) }
    : responseSchema(answers);
}

/** responseSchema is the JSON schema of an answer, page envelopes written out. */
export function responseSchema(response: Answers): Record<string, unknown> {
  if (response === 'integer') return { type: 'integer' };
  if (!isPage(response)) return ref(schemaName(response));
  const link = { type: 'string', nullable: true };
  return {
    type: 'object',
    required: ['data', 'next', 'prev'],
    properties: { data: { type: 'array', items: ref(schemaName(response.page)) }, next: link, prev: link },
  };
}

/** schemaName is the component of a shape (its OpenAPI name) or of a literal schema. */
function schemaName(of: Shape | LiteralSchema): string {
  if (typeof of === 'string') return of;
  if (!of.openapi) throw new Error(`an answer's shape has no OpenAPI name: ${Object.keys(of.fields).join(', ')}`);
  return of.openapi;
}

function ref(name: string): Record<string, unknown> {
  return { $ref: `#/components/schemas/${name}` };
}

function parameter(p: ParamName): Record<string, unknown> {
  if (p.startsWith('path:')) return { name: p.slice(5), in: 'path', required: true, schema: str };
  if (p.startsWith('query:')) return { name: p.slice(6), in: 'query', required: false, schema: str };
  const schemas: Record<string, Record<string, unknown>> = {
    limit: { type: 'integer', minimum: 1, maximum: LIMITS.max, default: LIMITS.default },
    cursor: str,
    direction: { type: 'string', enum: ['forward', 'backward'], default: 'backward' },
    rev: { type: 'string', enum: ['1'] },
    scope: { type: 'string', pattern: '^((gen|time|txi|epoch):\\d+(-\\d+)?|transaction:th_\\w+(-th_\\w+)?)$' },
  };
  if (p === 'statsLimit')
    return { name: 'limit', in: 'query', required: false, schema: { ...schemas.limit, maximum: 1000 } };
  return { name: p, in: 'query', required: false, schema: schemas[p] };
}
