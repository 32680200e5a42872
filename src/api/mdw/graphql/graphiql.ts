/**
 * @module GraphiQL at /mdw/graphiql: its page and the standalone builds it runs on, served from the installed packages
 * (graphiql 3's UMD build, the last line that ships one, on React 18's), never from a CDN. Each file is read once.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

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

/** A file to answer with: its body and media type. */
export interface GraphiqlFile {
  readonly body: string | Buffer;
  readonly type: string;
}

/** graphiqlFile is the page (`/graphiql`) or an asset of it (`/graphiql/<name>`), or undefined for another path. */
export async function graphiqlFile(path: string): Promise<GraphiqlFile | undefined> {
  if (path === '/graphiql') return { body: PAGE, type: 'text/html; charset=utf-8' };
  const asset = path.startsWith('/graphiql/') ? ASSETS[path.slice('/graphiql/'.length)] : undefined;
  if (!asset) return undefined;
  const key = `${asset.pkg}/${asset.file}`;
  let body = contents.get(key);
  if (!body) {
    body = readFile(join(dirname(require.resolve(`${asset.pkg}/package.json`)), asset.file));
    contents.set(key, body);
  }
  return { body: await body, type: asset.type };
}
