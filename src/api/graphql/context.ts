/** @module What every GraphQL resolver of a request is given: the /v3 handlers' environment and the request's loaders. */
import type { V3Env } from '../routes/v3/operation.ts';
import type { Loaders } from './loaders.ts';

export interface GraphQLContext {
  readonly env: V3Env;
  /** batch what the items of a page need: one read per page, never one per item */
  readonly loaders: Loaders;
}
