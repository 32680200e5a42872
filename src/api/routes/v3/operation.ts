/**
 * @module What the OpenAPI document of /v3 says of one operation. Types only, below both halves of the document
 * (api-document.ts and stats-document.ts, whose statistics it includes).
 */

/** A parameter: paging ones by name (`statsLimit` is the statistics' larger `limit`), others as `path:` or `query:`. */
export type ParamName =
  'limit' | 'statsLimit' | 'cursor' | 'direction' | 'rev' | 'scope' | `path:${string}` | `query:${string}`;

/** One operation: path (without /v3, as ae_mdw's spec writes it), ae_mdw's operationId, parameters and answer. */
export interface V3Operation {
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly params: readonly ParamName[];
  /** the schema of the answer: a component name, `Page<Name>` for a page of it, or `integer` */
  readonly response: string;
}
