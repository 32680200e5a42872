/** @module What the service says of itself: its sync status, and the document of its routes. */
import type { Json } from '../../../chain/json.ts';
import type { ResourceRequest, V3Env } from './resource.ts';

/** getStatus: the sync status, from memory. */
export async function getStatus({ status }: V3Env): Promise<Json> {
  return status.current();
}

/** getApi: the OpenAPI document of the routes, its base where it was asked for (/mdw/v3, or the root /v3 with ROOT_V3=mdw). */
export async function getApi({ apiDocument }: V3Env, { servedAt }: ResourceRequest): Promise<Json> {
  return { ...apiDocument, servers: [{ url: servedAt ?? '/mdw/v3' }] };
}
