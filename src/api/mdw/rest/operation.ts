/**
 * @module One /v3 route as the route table (operations.ts) declares it: its method and path, what the /v3/api document
 * says of it and what answers it (an operation's resource, an export's stream, or a handler of its own).
 */
import { isPage, type Answers, type Resource, type V3Env } from '../resources/resource.ts';
import type { Shape } from '../../../shapes/shape-table.ts';
import type { ApiContext } from '../../http/state.ts';

/** A parameter: paging ones by name (`statsLimit` is the statistics' larger `limit`), others as `path:` or `query:`. */
export type ParamName =
  'limit' | 'statsLimit' | 'cursor' | 'direction' | 'rev' | 'scope' | `path:${string}` | `query:${string}`;

/** The methods of the table's routes; a HEAD is answered as its path's GET. */
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** What every row names: its method (GET when none), its path (without /v3, as ae_mdw's spec writes it), its id. */
interface V3Row {
  readonly method?: Method;
  readonly path: string;
  readonly operationId: string;
}

/** One operation answered by a resource's value: ae_mdw's operationId, parameters, answer. */
export interface V3Operation extends V3Row {
  readonly summary: string;
  readonly params: readonly ParamName[];
  /** what answers it, and with what (`resource.answers`: its shape, `page(Shape)` for a list, or a literal schema) */
  readonly resource: Resource;
  /** an answer no client may keep (the status moves with every block) */
  readonly noStore?: boolean;
}

/**
 * An export: a route whose answer is an account's whole list streamed as CSV or NDJSON (export-routes.ts), its
 * /v3/api entry written from this row (export-operations.ts).
 */
export interface V3Export extends V3Row {
  /** the list it streams: export-routes.ts walks it and writes its CSV */
  readonly export: 'transactions' | 'activities';
  /** the list's item, the NDJSON line's (components/schemas) */
  readonly item: 'Transaction' | 'Activity';
  /** the list route it exports whole, as the document names it */
  readonly list: string;
  readonly filters: readonly string[];
  readonly columns: readonly string[];
}

/** A list of a shape's objects, unpaged (POST /accounts/balances: one per account asked). */
export interface ArrayOf {
  readonly array: Shape;
}

/** What a handled route answers when it succeeds: its status and shape (`answers`), or 204 and nothing. */
export type HandledAnswer =
  | { readonly status: 200 | 201 | 202; readonly description: string; readonly answers: Answers | ArrayOf }
  | { readonly status: 204; readonly description: string };

/** The errors a handled route answers beyond the table's own (a 400 for bad input is every body's), each with when. */
export type HandledErrors = Readonly<Partial<Record<400 | 401 | 404, string>>>;

/**
 * A route that answers the request itself, as the webhooks API's do (a JSON body read, a write on `env.primary`, a
 * 201, 202 or 204): its handler, never in the admission's line nor kept by a client (Cache-Control: no-store), and
 * what its /v3/api entry says, in shapes (shapes-webhooks.ts). One that only `reads` (POST /accounts/balances: a body
 * too long for a query) waits its turn in the line and takes `int-as-string` as an operation does.
 */
export interface V3Handled extends V3Row {
  readonly summary: string;
  readonly params: readonly ParamName[];
  /** the shape of the request's JSON body, where it takes one */
  readonly body?: Shape;
  readonly answer: HandledAnswer;
  readonly errors: HandledErrors;
  readonly reads?: true;
  readonly handle: (ctx: ApiContext, env: V3Env, params: Readonly<Record<string, string>>) => Promise<void>;
}

/** A route of the table: an operation answered by its resource's value, an export, or a route with its handler. */
export type V3Route = V3Operation | V3Export | V3Handled;

/** isExport is whether a route's answer is a stream. */
export function isExport(route: V3Route): route is V3Export {
  return 'export' in route;
}

/** isHandled is whether a route answers the request itself. */
export function isHandled(route: V3Route): route is V3Handled {
  return 'handle' in route;
}

/** answerShapes are the shapes the operations answer with (a page's items too), once each, in the order of first use. */
export function answerShapes(operations: readonly V3Operation[]): Shape[] {
  const shapes = new Set<Shape>();
  for (const { resource } of operations) {
    const answer = isPage(resource.answers) ? resource.answers.page : resource.answers;
    if (typeof answer !== 'string') shapes.add(answer);
  }
  return [...shapes];
}

/** handledShapes are the shapes the handled routes read and answer (bodies, answers, a page's or a list's items). */
export function handledShapes(routes: readonly V3Handled[]): Shape[] {
  const shapes = new Set<Shape>();
  for (const { body, answer } of routes) {
    if (body) shapes.add(body);
    if (!('answers' in answer)) continue;
    const of = answer.answers;
    const shape = typeof of === 'object' && 'array' in of ? of.array : isPage(of) ? of.page : of;
    if (typeof shape !== 'string') shapes.add(shape);
  }
  return [...shapes];
}

/** PAGED: the parameters of every list; SCOPED: of a list that also takes a range. */
export const PAGED: readonly ParamName[] = ['limit', 'cursor', 'direction', 'rev'];
export const SCOPED: readonly ParamName[] = [...PAGED, 'scope'];

/** routerPath is an operation's path as the router writes it (`{id}` as `:id`). */
export function routerPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}
