/**
 * @module @koa/router, required rather than imported (as node-http.ts requires node:http): its ES module imports
 * node:http, whose ESM facade reads the WebSocket, CloseEvent and MessageEvent getters and so loads Node's bundled
 * undici, about 0.06 CPU-s at each `mdw -s` start for nothing; its CommonJS build requires node:http instead. Every
 * route module takes Router from here, so one copy of the package serves them all.
 */
import { createRequire } from 'node:module';
import type KoaRouter from '@koa/router';
import type { DefaultContext, DefaultState } from 'koa';

export const Router = createRequire(import.meta.url)('@koa/router') as typeof KoaRouter;
export type Router<S = DefaultState, C = DefaultContext> = KoaRouter<S, C>;
