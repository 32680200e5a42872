/**
 * @module One /v3 operation as the route table (operations.ts) declares it: what the /v3/api document says of it
 * and the resource that answers it.
 */
import type { Resource } from '../resources/resource.ts';

/** A parameter: paging ones by name (`statsLimit` is the statistics' larger `limit`), others as `path:` or `query:`. */
export type ParamName =
  'limit' | 'statsLimit' | 'cursor' | 'direction' | 'rev' | 'scope' | `path:${string}` | `query:${string}`;

/** One GET operation: path (without /v3, as ae_mdw's spec writes it), ae_mdw's operationId, parameters, answer. */
export interface V3Operation {
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly params: readonly ParamName[];
  /** the schema of the answer: a component name, `Page<Name>` for a page of it, or `integer` */
  readonly response: string;
  readonly resource: Resource;
  /** an answer no client may keep (the status moves with every block) */
  readonly noStore?: boolean;
}

/** PAGED: the parameters of every list; SCOPED: of a list that also takes a range. */
export const PAGED: readonly ParamName[] = ['limit', 'cursor', 'direction', 'rev'];
export const SCOPED: readonly ParamName[] = [...PAGED, 'scope'];

/** routerPath is an operation's path as the router writes it (`{id}` as `:id`). */
export function routerPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}
