/**
 * @module GraphiQL at /mdw/graphiql: its page and the standalone builds it runs on (graphiql 3's UMD build, the last
 * line that ships one, on React 18's), never from a CDN. The packages are development dependencies: the image's build
 * copies the four files into dist/graphiql/ (bundleGraphiql) and ships no React, no GraphiQL package; from src/ the
 * installed packages answer. Each file is read once.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** An asset: the package and its file, and its media type. */
interface Asset {
  readonly pkg: string;
  readonly file: string;
  readonly type: string;
}

/** ASSETS by the name the page asks for them (under /mdw/graphiql/). */
const ASSETS: Readonly<Record<string, Asset>> = {
  'react.js': { pkg: 'react', file: 'umd/react.production.min.js', type: 'text/javascript; charset=utf-8' },
  'react-dom.js': { pkg: 'react-dom', file: 'umd/react-dom.production.min.js', type: 'text/javascript; charset=utf-8' },
  'graphiql.js': { pkg: 'graphiql', file: 'graphiql.min.js', type: 'text/javascript; charset=utf-8' },
  'graphiql.css': { pkg: 'graphiql', file: 'graphiql.min.css', type: 'text/css; charset=utf-8' },
};

/** PAGE: the page; its assets and the endpoint are relative to it, so it works under any prefix the gateway gives. */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>GraphiQL · æternity middleware</title>
<link rel="stylesheet" href="graphiql/graphiql.css">
<style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body>
<div id="graphiql">Loading…</div>
<script src="graphiql/react.js"></script>
<script src="graphiql/react-dom.js"></script>
<script src="graphiql/graphiql.js"></script>
<script>
  const url = new URL('graphql', location.href).href;
  const fetcher = GraphiQL.createFetcher({ url });
  ReactDOM.createRoot(document.getElementById('graphiql')).render(React.createElement(GraphiQL, { fetcher }));
</script>
</body>
</html>
`;

const require = createRequire(import.meta.url);
const contents = new Map<string, Promise<Buffer>>();

/**
 * BUNDLED: where the image's build put the files under the names the page asks for, beside the compiled sources
 * (dist/graphiql/ for dist/api/mdw/graphql/graphiql.js). There is no such folder beside src/.
 */
const BUNDLED = fileURLToPath(new URL('../../../graphiql/', import.meta.url));
const bundled = existsSync(BUNDLED);

/** packageFile is where an asset's package holds it (a development dependency: installed where src/ runs). */
const packageFile = (asset: Asset): string => join(dirname(require.resolve(`${asset.pkg}/package.json`)), asset.file);

/** bundleGraphiql copies the page's files from their packages into `dir` (the image's build: dist/graphiql/). */
export async function bundleGraphiql(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await Promise.all(Object.entries(ASSETS).map(([name, asset]) => copyFile(packageFile(asset), join(dir, name))));
}

/** A file to answer with: its body and media type. */
export interface GraphiqlFile {
  readonly body: string | Buffer;
  readonly type: string;
}

/** graphiqlFile is the page (`/graphiql`) or an asset of it (`/graphiql/<name>`), or undefined for another path. */
export async function graphiqlFile(path: string): Promise<GraphiqlFile | undefined> {
  if (path === '/graphiql') return { body: PAGE, type: 'text/html; charset=utf-8' };
  const name = path.startsWith('/graphiql/') ? path.slice('/graphiql/'.length) : '';
  // own names only: `constructor` or `__proto__` is no asset (the object's prototype would answer for it)
  const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
  if (!asset) return undefined;
  let body = contents.get(name);
  if (!body) {
    body = readFile(bundled ? join(BUNDLED, name) : packageFile(asset));
    contents.set(name, body);
  }
  return { body: await body, type: asset.type };
}
