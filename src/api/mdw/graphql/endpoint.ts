/**
 * @module ae_mdw's GraphQL endpoint, /mdw/graphql (GET, HEAD as GET, or POST; JSON or form), and GraphiQL at
 * /mdw/graphiql. A document's text is bounded before it is parsed (document-bounds.ts), and a request refused for it
 * or for its form (no query, variables that are no object, a body too large) is a 4xx with `errors`. An operation is
 * parsed, validated and measured (depth and cost: cost.ts) before anything is read; every GraphQL error of a document
 * is answered 200 with `errors`, as ae_mdw does. A failure of the server's own (the database away, overload) is
 * thrown on to the error boundary, which answers it as for any /v3 request (503), never as a GraphQL error.
 */
import { bodyParser } from '../../http/body-parser.ts';
import { execute, getOperationAST, GraphQLError, type ExecutionResult } from 'graphql';
import type Koa from 'koa';
import { jsonBytes } from '../../../chain/json-bytes.ts';
import { AppError, ErrorCode } from '../../../base/errors.ts';
import { Deadline, type Admission } from '../../http/admission.ts';
import type { V3Env } from '../resources/resource.ts';
import type { ApiContext, ApiMiddleware } from '../../http/state.ts';
import { COST_PER_TURN, fragmentsOf, measure, QUERY_LIMITS } from './cost.ts';
import { documentProblem } from './document-bounds.ts';
import { CompiledOperations } from './compiled-operations.ts';
import { checkedDocument } from './document-cache.ts';
import { graphiqlFile } from './graphiql.ts';
import { GRAPHQL_ROUTE, OperationLabels } from './operation-labels.ts';
import { requestLoaders } from './loaders.ts';
import { SCHEMA } from './schema.ts';

/** The methods /graphql answers: a HEAD as its GET, as every GET of the server. */
const ALLOWED = ['GET', 'HEAD', 'POST'];

/** MAX_BODY: the largest request body (a query and its variables). */
const MAX_BODY = '64kb';

/** A GraphQL request as the client sent it. */
interface GraphQLRequest {
  readonly query: unknown;
  readonly variables: unknown;
  readonly operationName: unknown;
}

/**
 * graphqlApi answers /graphql and /graphiql (paths under /mdw, the prefix taken off) and passes other paths on.
 * A HEAD is answered as its GET, without the body; anything else than GET, HEAD and POST is 405. An operation runs
 * in the admission of ae_mdw's requests (when there is one), weighing a turn per COST_PER_TURN of its cost, and gives
 * up at its deadline (a 503 as any refusal for load).
 */
export function graphqlApi(env: V3Env, admission?: Admission): ApiMiddleware {
  const body = bodyParser({ enableTypes: ['json', 'form'], jsonLimit: MAX_BODY, formLimit: MAX_BODY });
  const admitted: Admit = admission
    ? (work, cost, arrivedAt) => admission.run(work, cost / COST_PER_TURN, arrivedAt)
    : (work) => work(NO_DEADLINE);
  const labels = new OperationLabels();
  const compiled = new CompiledOperations(SCHEMA);
  return async function graphqlApi(ctx, next) {
    if (ctx.path !== '/graphql') return serveGraphiql(ctx, next);
    const arrivedAt = ctx.state.arrivedAt ?? performance.now();
    // the request's own refusals (4xx) are answered in GraphQL's shape, `{errors: [{message}]}`
    ctx.state.graphql = true;
    ctx.state.route = GRAPHQL_ROUTE;
    if (!ALLOWED.includes(ctx.method)) {
      ctx.set('Allow', ALLOWED.join(', '));
      throw new AppError(ErrorCode.API_BAD_REQUEST, 405, `method not allowed: ${ctx.method}`);
    }
    let request: Partial<GraphQLRequest> = ctx.query;
    if (ctx.method === 'POST') {
      await body(ctx, async () => {});
      request = (ctx.request as { body?: Partial<GraphQLRequest> }).body ?? {};
    }
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'application/json';
    const operation: Operation = {
      admitted: (work, cost) => {
        // with API keys on, the document's cost beyond the unit its request paid counts against its quota (429 past it)
        // a page of 100 objects is one unit, as on REST
        const more = Math.ceil(cost / COST_PER_TURN) - 1;
        if (more > 0) ctx.state.quota?.charge(more);
        return admitted(work, cost, arrivedAt);
      },
      named: (name) => (ctx.state.route = labels.label(name)),
      compiled,
    };
    // the scalars wrote their bigints as raw JSON: no walk over the result's every field; written in pieces, as a
    // page with its blocks is more text than V8 writes fast as one string (json-bytes.ts)
    ctx.body = jsonBytes(await run(request, env, ctx.method !== 'POST', operation));
  };
}

async function serveGraphiql(ctx: ApiContext, next: Koa.Next): Promise<void> {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
  const file = await graphiqlFile(ctx.path);
  if (!file) return next();
  // a label per file of GraphiQL's, a bounded set
  ctx.state.route = `/mdw${ctx.path}`;
  ctx.type = file.type;
  ctx.set('Cache-Control', ctx.path === '/graphiql' ? 'no-cache' : 'public, max-age=86400');
  ctx.body = file.body;
}

/** Admit runs an operation's execution of a cost in its turns, with its deadline, from the request's arrival. */
type Admit = (
  work: (deadline: Deadline) => Promise<ExecutionResult>,
  cost: number,
  arrivedAt: number,
) => Promise<ExecutionResult>;

/** NO_DEADLINE: an app without an admission (a test's) runs every operation to its end. */
const NO_DEADLINE = new Deadline(Infinity);

/** What a request's operation is told once it is known and measured, before it runs. */
interface Operation {
  /** runs its execution in its turns (Admit, from the request's arrival) */
  readonly admitted: (work: (deadline: Deadline) => Promise<ExecutionResult>, cost: number) => Promise<ExecutionResult>;
  /** hears its name (or that it has none): the request's route label */
  readonly named: (name: string | undefined) => void;
  /** the operations of hot shapes, compiled */
  readonly compiled: CompiledOperations;
}

/** run answers one request: errors of the request itself as `{errors}`, the operation's result otherwise. */
async function run(
  request: Partial<GraphQLRequest>,
  env: V3Env,
  viaGet: boolean,
  { admitted, named, compiled }: Operation,
): Promise<ExecutionResult> {
  const { query, operationName } = request;
  if (typeof query !== 'string' || query === '') throw badRequest('a GraphQL request needs a `query`');
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string')
    throw badRequest('`operationName` must be a string');
  const variables = variablesOf(request.variables);
  const problem = documentProblem(query);
  if (problem) throw badRequest(problem);
  const checked = checkedDocument(query);
  if (!('document' in checked)) return { errors: checked };
  const { document } = checked;
  const operation = getOperationAST(document, operationName ?? undefined);
  if (!operation) return { errors: [new GraphQLError('no operation of that name in the document')] };
  if (viaGet && operation.operation !== 'query') return { errors: [new GraphQLError('GET takes queries only')] };
  const { depth, cost } = measure(operation, SCHEMA.getQueryType()!, fragmentsOf(document), variables);
  if (depth > QUERY_LIMITS.depth)
    return { errors: [limitError(`query depth ${depth} exceeds the limit ${QUERY_LIMITS.depth}`)] };
  if (cost > QUERY_LIMITS.cost)
    return {
      errors: [limitError(`query cost ${cost} exceeds the limit ${QUERY_LIMITS.cost}: ask for fewer items or fields`)],
    };
  named(operation.name?.value);
  const runner = compiled.runner(checked, operationName ?? undefined);
  const result = await admitted(async (deadline) => {
    const contextValue = { env, loaders: requestLoaders(env.pool, deadline), deadline };
    if (runner) return runner(contextValue, variables);
    return execute({
      schema: SCHEMA,
      document,
      variableValues: variables,
      operationName: operationName ?? undefined,
      contextValue,
    });
  }, cost);
  // graphql-js's order, which graphql-jit's result does not keep
  return result.errors?.length ? { errors: result.errors.map(fieldError), data: result.data } : { data: result.data };
}

/** variablesOf reads `variables`: an object, or its JSON text (GET and form requests). */
function variablesOf(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null || value === '') return {};
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw badRequest('`variables` is no JSON object');
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw badRequest('`variables` is no JSON object');
  return parsed as Record<string, unknown>;
}

/**
 * fieldError keeps a field's GraphQL error and a resource's input error (its 4xx, as the REST answer has it); any other
 * failure is the server's, thrown on so the request is answered as the error boundary answers it.
 */
function fieldError(error: GraphQLError): GraphQLError {
  const cause = error.originalError;
  if (cause === undefined || cause instanceof GraphQLError) return error;
  if (cause instanceof AppError && cause.status < 500) {
    const answered = new GraphQLError(cause.message, {
      nodes: error.nodes,
      path: error.path,
      extensions: { code: cause.status === 404 ? 'NOT_FOUND' : 'BAD_USER_INPUT', status: cause.status },
    });
    // graphql-jit's errors carry their locations, not the nodes they are computed from
    return error.nodes ? answered : Object.assign(answered, { locations: error.locations });
  }
  throw cause;
}

function limitError(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'QUERY_TOO_COMPLEX' } });
}

function badRequest(message: string): AppError {
  return new AppError(ErrorCode.API_BAD_REQUEST, 400, message);
}
