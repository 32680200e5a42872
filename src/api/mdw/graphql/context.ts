/** @module What every GraphQL resolver of a request is given: the /v3 resources' environment and the request's loaders. */
import type { Json } from '../../../chain/json.ts';
import type { Deadline } from '../../http/admission.ts';
import type { V3Env } from '../resources/resource.ts';
import type { BatchLoader } from './batch-loader.ts';

/** A REST object (an item of a /v3 answer) as the resolvers pass it on. */
export type RestObject = { readonly [key: string]: Json };

/** The batch loaders of a request (loaders.ts): the blocks a page's items point at. */
export interface Loaders {
  readonly microBlock: BatchLoader<string, RestObject>;
  readonly keyBlock: BatchLoader<number, RestObject>;
}

export interface GraphQLContext {
  readonly env: V3Env;
  /** batch what the items of a page need: one read per page, never one per item */
  readonly loaders: Loaders;
  /** checked before every read: past it the request is given up (503), its answer too late to wait for */
  readonly deadline: Deadline;
}
