/**
 * @module node:http, required rather than imported. An ESM import of a builtin builds its facade from every export,
 * and node:http's WebSocket, CloseEvent and MessageEvent are getters that load Node's bundled undici: about 50 ms of
 * CPU at the start of every mdw process (each command's start imports an HTTP listener), most of which never use it.
 * Required, the getters run only if something reads them. Types come from `import type` of node:http, which costs
 * nothing at run time.
 */
import { createRequire } from 'node:module';
import type * as NodeHttp from 'node:http';

export const http = createRequire(import.meta.url)('node:http') as typeof NodeHttp;
