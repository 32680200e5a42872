/**
 * @module Swagger UI's page over one of our OpenAPI documents, and the script that starts it. Every link is relative
 * to the page, so a proxy in front may serve it under any prefix. Pure.
 */

/** A Swagger UI page: where it is served and the OpenAPI document it shows. */
export interface SwaggerSite {
  /** the page, without a trailing slash (served with one too); its files are served beneath it */
  readonly path: string;
  /** the document, relative to the folder that holds the page (`/mdw/` for `/mdw/swagger`) */
  readonly document: string;
  readonly title: string;
}

/**
 * SWAGGER_SITES: ae_mdw's API where ae_mdw serves its Swagger UI, and where the explorer's footer links it
 * (`<MIDDLEWARE_URL>/swagger`, its MIDDLEWARE_URL being `<gateway>/mdw/v3`); and ours.
 */
export const SWAGGER_SITES: readonly SwaggerSite[] = [
  { path: '/mdw/swagger', document: 'v3/api', title: "ae_mdw's API (/mdw/v3)" },
  { path: '/mdw/v3/swagger', document: 'api', title: "ae_mdw's API (/mdw/v3)" },
  { path: '/middleware/swagger', document: 'api', title: 'Middleware API (/middleware)' },
];

/** DIST_FILES: the swagger-ui-dist files a page loads (and the source maps a browser's tools ask for), by content type. */
export const DIST_FILES: ReadonlyMap<string, string> = new Map([
  ['swagger-ui.css', 'text/css; charset=utf-8'],
  ['index.css', 'text/css; charset=utf-8'],
  ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
  ['swagger-ui-standalone-preset.js', 'text/javascript; charset=utf-8'],
  ['favicon-32x32.png', 'image/png'],
  ['favicon-16x16.png', 'image/png'],
  ['swagger-ui.css.map', 'application/json'],
  ['swagger-ui-bundle.js.map', 'application/json'],
  ['swagger-ui-standalone-preset.js.map', 'application/json'],
]);

/** INITIALIZER_FILE is our own start script, served beside the package's files in place of its petstore example. */
export const INITIALIZER_FILE = 'swagger-initializer.js';

/**
 * INITIALIZER starts Swagger UI on the document the page names (a script file, not inline, so a page under a strict
 * Content-Security-Policy still runs). No validator: the default would send our document to an outside service.
 */
export const INITIALIZER = `window.addEventListener('load', function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: new URL(root.dataset.url, document.baseURI).href,
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
    layout: 'StandaloneLayout',
  });
});
`;

/** What the page's links carry as `?v=`, so that a browser may keep each file until its content changes. */
export interface FileTags {
  /** swagger-ui-dist's version, for its files */
  readonly dist: string;
  /** a digest of INITIALIZER */
  readonly initializer: string;
}

/**
 * swaggerPage is the HTML of `site`'s page as asked for with a trailing slash (`/mdw/swagger/`: links relative to
 * the page's own folder) or without (`/mdw/swagger`: relative to its parent, the files under `swagger/`).
 */
export function swaggerPage(site: SwaggerSite, trailingSlash: boolean, tags: FileTags): string {
  const files = trailingSlash ? './' : `${site.path.slice(site.path.lastIndexOf('/') + 1)}/`;
  const documentUrl = trailingSlash ? `../${site.document}` : site.document;
  const dist = (name: string): string => `${files}${name}?v=${encodeURIComponent(tags.dist)}`;
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>${escapeHtml(site.title)}</title>
    <link rel="stylesheet" type="text/css" href="${dist('swagger-ui.css')}">
    <link rel="stylesheet" type="text/css" href="${dist('index.css')}">
    <link rel="icon" type="image/png" href="${dist('favicon-32x32.png')}" sizes="32x32">
    <link rel="icon" type="image/png" href="${dist('favicon-16x16.png')}" sizes="16x16">
  </head>
  <body>
    <div id="swagger-ui" data-url="${escapeHtml(documentUrl)}"></div>
    <script src="${dist('swagger-ui-bundle.js')}" charset="utf-8"></script>
    <script src="${dist('swagger-ui-standalone-preset.js')}" charset="utf-8"></script>
    <script src="${files}${INITIALIZER_FILE}?v=${tags.initializer}" charset="utf-8"></script>
  </body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
