/**
 * @module http-proxy 1.18.1 (unmaintained since 2020; koa-proxies forwards through it) copies its options with
 * `util._extend`, deprecated since Node 22 (DEP0060), so every server process printed Node's warning at the first
 * request it forwarded. http-proxy reads the function once, when it loads: imported before koa-proxies (proxy.ts),
 * this module puts the same shallow copy in its place, without the warning. Nothing else here calls it.
 */
import util from 'node:util';

/** extend is what util._extend does: the own enumerable keys of `source` set on `target`, which it returns. */
function extend<T extends object>(target: T, source: unknown): T {
  return source !== null && typeof source === 'object' ? Object.assign(target, source) : target;
}

(util as { _extend?: unknown })._extend = extend;
