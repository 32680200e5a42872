/** @module What the service says of itself: its sync status, and the document of its routes. */
import { resource } from './resource.ts';
import { STATUS } from './status-shape.ts';

/** getStatus: the sync status, from memory. */
export const getStatus = resource(STATUS, async ({ status }) => {
  return status.current();
});

/** getApi: the OpenAPI document of the routes, its base where it was asked for (/mdw/v3, or the root /v3 with ROOT_V3=mdw). */
export const getApi = resource('OpenApi', async ({ apiDocument }, { servedAt }) => {
  return { ...apiDocument, servers: [{ url: servedAt ?? '/mdw/v3' }] };
});
