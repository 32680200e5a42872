/** @module Serves the OpenAPI document of our API at /middleware/api. */
import { Router } from '../http/router.ts';
import type { ApiState } from '../http/state.ts';
import { openApiDocument } from './legacy-openapi.ts';

/** openApiRoutes registers GET /middleware/api. */
export function openApiRoutes(version: string): Router {
  const router = new Router<ApiState>();
  router.get('/middleware/api', (ctx) => {
    ctx.body = openApiDocument(version);
  });
  return router;
}
