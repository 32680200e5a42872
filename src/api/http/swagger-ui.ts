/**
 * @module Swagger UI over our OpenAPI documents (SWAGGER_SITES: ae_mdw's at /mdw/swagger and /mdw/v3/swagger, ours at
 * /middleware/swagger), its files read from the swagger-ui-dist package we depend on: no CDN, nothing fetched.
 */
import { Router } from './router.ts';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ApiContext, ApiState } from './state.ts';
import { IMMUTABLE } from './middleware/cache-headers.ts';
import {
  DIST_FILES,
  INITIALIZER,
  INITIALIZER_FILE,
  SWAGGER_SITES,
  swaggerPage,
  type FileTags,
  type SwaggerSite,
} from './swagger-page.ts';

/** One answer: its bytes, type, ETag, and the `?v=` under which a browser may keep it for good (none: revalidate). */
interface Asset {
  readonly body: string | Buffer;
  readonly type: string;
  readonly etag: string;
  readonly tag?: string;
}

/** The package's folder, where `npm ci --omit=dev` puts it (in the image too: it is a production dependency). */
const DIST_DIR = dirname(fileURLToPath(import.meta.resolve('swagger-ui-dist/package.json')));

const INITIALIZER_ETAG = etagOf(INITIALIZER);
const INITIALIZER_ASSET = {
  body: INITIALIZER,
  type: 'text/javascript; charset=utf-8',
  etag: INITIALIZER_ETAG,
  tag: INITIALIZER_ETAG.slice(1, 13),
} as const satisfies Asset;

/** swaggerUiRoutes serves each site's page at its path (with or without a trailing slash, and as `index.html`) and the files beneath it. */
export function swaggerUiRoutes(sites: readonly SwaggerSite[] = SWAGGER_SITES): Router<ApiState> {
  const dist = new DistFiles(DIST_DIR);
  const pages = new Map<string, Asset>();
  const page = async (site: SwaggerSite, trailingSlash: boolean): Promise<Asset> => {
    const key = `${site.path}${trailingSlash ? '/' : ''}`;
    let asset = pages.get(key);
    if (!asset) {
      const tags: FileTags = { dist: await dist.version(), initializer: INITIALIZER_ASSET.tag };
      const html = swaggerPage(site, trailingSlash, tags);
      asset = { body: html, type: 'text/html; charset=utf-8', etag: etagOf(html) };
      pages.set(key, asset);
    }
    return asset;
  };
  const router = new Router<ApiState>();
  for (const site of sites) {
    router.get(site.path, async (ctx) => send(ctx, await page(site, ctx.path.endsWith('/'))));
    router.get(`${site.path}/:file`, async (ctx, next) => {
      const file = ctx.params.file!;
      const asset =
        file === 'index.html'
          ? await page(site, true)
          : file === INITIALIZER_FILE
            ? INITIALIZER_ASSET
            : await dist.file(file);
      // anything else under the page is the API's own 404 (ae_mdw's shape under /mdw)
      if (!asset) return next();
      send(ctx, asset);
    });
  }
  return router;
}

/** DistFiles reads the package's files on first use and keeps them (about 2 MB, the source maps only if asked for). */
class DistFiles {
  readonly #dir: string;
  readonly #files = new Map<string, Promise<Asset>>();
  #version: Promise<string> | undefined;

  constructor(dir: string) {
    this.#dir = dir;
  }

  /** version is the package's version: the `?v=` of its files. */
  version(): Promise<string> {
    this.#version ??= readFile(join(this.#dir, 'package.json'), 'utf8').then(
      (text) => (JSON.parse(text) as { version: string }).version,
    );
    return this.#version;
  }

  /** file is one of DIST_FILES, undefined for any other name. */
  file(name: string): Promise<Asset | undefined> {
    const type = DIST_FILES.get(name);
    if (type === undefined) return Promise.resolve(undefined);
    let asset = this.#files.get(name);
    if (!asset) {
      asset = Promise.all([readFile(join(this.#dir, name)), this.version()]).then(([body, tag]) => ({
        body,
        type,
        etag: etagOf(body),
        tag,
      }));
      // a failed read is tried again by the next request rather than remembered
      asset.catch(() => this.#files.delete(name));
      this.#files.set(name, asset);
    }
    return asset;
  }
}

/**
 * send answers with `asset`: kept by the browser for good when asked for under its current `?v=` (the page's
 * links), else revalidated by its ETag (304 when unchanged), as the pages always are.
 */
function send(ctx: ApiContext, asset: Asset): void {
  ctx.status = 200;
  ctx.type = asset.type;
  ctx.set('ETag', asset.etag);
  ctx.set('Cache-Control', asset.tag !== undefined && ctx.query.v === asset.tag ? IMMUTABLE : 'no-cache');
  ctx.set('X-Content-Type-Options', 'nosniff');
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  ctx.body = asset.body;
}

function etagOf(body: string | Buffer): string {
  return `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}
