/**
 * @module The layer order of docs/architecture.md, checked on every import of src/: no file imports a layer above
 * its own or a sibling of its row, inside src/ and inside every folder of src/ that holds folders of its own (each
 * such folder's rooms have an order of their own, which names every one of them); no files import each other in a circle, the devnode is a
 * development tool that only the CLI starts and that takes nothing of the product but chain/ and base/, chain/ is
 * pure, shapes/ takes only types from db/, and no start loads with it a package only some of its paths run (STARTS).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect } from 'chai';

const SRC = new URL('../../src/', import.meta.url).pathname;

/**
 * LAYERS, top first: each row's units (the folders of src/) may import their own files and the
 * units of every row below; units that share a row are independent of each other (no role imports another).
 */
const LAYERS: readonly (readonly string[])[] = [
  ['cli'], // the commands: they start the roles and stop them in reverse order
  ['api', 'indexer', 'operator', 'devnode'], // the roles (each keeps its own metrics.ts)
  ['events', 'webhooks'], // the websockets and the LISTEN side of the chain notification; the webhooks' sender
  ['shapes'], // pure: the JSON that answers and events carry, built from db/'s row types
  ['db', 'node'], // PostgreSQL; the nodes
  ['config'], // the environment read into typed, validated settings: the middleware's, the cluster's
  ['base', 'chain', 'types'], // nothing of the project outside themselves: base/ the process kit, chain/ pure, types/ ambient
];

/**
 * ROOMS: the folders that hold folders, each with the order of its own units (a subfolder or a file at the folder's
 * top), as LAYERS does for src/. Every unit stands in one row: a file a table does not name is refused, so a new one
 * is placed where its imports put it, the folder's helpers in the rows at the bottom.
 */
const ROOMS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  api: [
    ['server.ts'], // the server role: the app, the websockets, the cache's invalidation, started and stopped
    ['app.ts'], // the composition: the shell with both APIs mounted on it
    ['legacy', 'mdw'], // the original /middleware with the node's /v2 and /v3; ae_mdw's /mdw/v3 and GraphQL
    ['quota'], // API keys and quotas: the middleware, the websocket's gate, `mdw keys`; exports and GraphQL charge it
    ['http', 'status'], // the shell (admission, caches, encoding, Koa middleware, the proxy); what the statuses show
  ],
  'api/http': [
    ['kept-readiness.ts'], // /readyz's judgement kept for the probes, over readiness.ts's
    // what the APIs and the server mount: the shared route dependencies, the documents' page, the cache kept true to
    // the database, /readyz
    ['route-deps.ts', 'swagger-ui.ts', 'cache-invalidation.ts', 'readiness.ts'],
    ['middleware', 'proxy.ts'], // the Koa middleware of the shell; the forwarding to the node
    ['metrics.ts'], // the server's metrics
    ['admission.ts', 'node-height.ts', 'response-cache.ts'], // what the metrics read: admission, the node's top, the cache
    [
      // the helpers: a status's prompt reading, the requests' deadlines, the heap's trim, an outage's lines, the stored
      // answers' encodings, the node's /v3 parameters, ctx.state, Swagger UI's page, http-proxy's util._extend, the
      // routers' @koa/router (its CommonJS build), @koa/bodyparser loaded on first use
      'prompt-reading.ts',
      'deadlines.ts',
      'heap-trim.ts',
      'outage.ts',
      'content-encoding.ts',
      'node-params.ts',
      'state.ts',
      'swagger-page.ts',
      'util-extend.ts',
      'router.ts',
      'body-parser.ts',
    ],
    ['brief-value.ts'], // a value read at most once per short period (the prompt reading's)
  ],
  'api/legacy': [
    ['legacy-api.ts'], // the original /middleware and the node's /v2 and /v3 mounted
    ['openapi-route.ts'], // GET /middleware/api: the OpenAPI document served
    ['legacy-openapi.ts'], // the document, built from its table of operations (a route's paging among them)
    ['routes'], // the routes
    ['account-pages.ts', 'legacy-openapi-schemas.ts', 'legacy-params.ts'], // deep account pages, answers' schemas, parameters
  ],
  'api/mdw': [
    ['mdw-api.ts'], // /mdw mounted: the route table's routes (the webhooks' too) and GraphQL over the resources
    ['rest', 'graphql'], // two transports of the same resources: neither calls the other
    ['resources'], // each operation a function of (environment, parameters) returning a value
  ],
  cli: [
    ['run.ts'], // the binary's entry
    // oclif's explicit command map; the seed's flag-only form routed to the root command; `mdw dev`'s process group
    ['commands.ts', 'route.ts', 'own-group.ts'],
    ['commands'], // the commands
    ['dev'], // `mdw dev`'s environment
    ['admin-run.ts'], // what the `mdw keys` and `mdw webhooks` commands share
    [
      // what the commands share: flags, the environment's read, the process's lifecycle, metrics, -d, a refusal's exit,
      // the migrations before a start, the writer's Lease, a free port
      'account-flag.ts',
      'kube-flags.ts',
      'env.ts',
      'lifecycle.ts',
      'process-metrics.ts',
      'daemonize.ts',
      'refusal.ts',
      'ensure-schema.ts',
      'writer-lease.ts',
      'free-port.ts',
    ],
  ],
  'cli/commands': [
    // one command a file, none importing another (what two share is a file of cli/)
    [
      'db',
      'keys',
      'snapshot',
      'dev.ts',
      'devnode.ts',
      'manifests.ts',
      'migrate.ts',
      'operator.ts',
      'reload.ts',
      'root.ts',
      'status.ts',
      'webhooks',
    ],
  ],
  db: [
    ['writes'], // the populator's SQL: it may read what it writes through the queries
    ['queries'], // the read model: never imports a write
    ['schema'], // the migrations (their table, which the schema's identity reads), the writer's lock, admin, usage, snapshots
    ['connection'], // the pools, the read replicas, a statement's cancel, the chain notification, waiting for PostgreSQL
  ],
  devnode: [
    ['index.ts'], // what the CLI and the tests take
    ['devnode.ts', 'dex-setup.ts'], // the role (the node's HTTP APIs over a chain and its generator); mdw dev's DEX
    // the node's HTTP API (aehttp): the listeners' router and pacing, the handlers, the answers' bodies; blocks on a
    // schedule with the traffic makers' transactions
    ['api', 'generator.ts'],
    ['traffic'], // the traffic makers: the mix, names, channels, tokens, wrapped, hyperchain, hot spots, mainnet-like
    ['chain.ts'], // the chain: blocks, mempool, state, the rules, the hyperchain's consensus in key blocks
    // a hyperchain's consensus calls and validators' setup; the rules per transaction family (aeprimop, aens,
    // aeoracle, aechannel), the protocol's hard forks and fees
    ['hyperchain', 'rules'],
    ['contracts'], // the native contracts (the standards, the DEX, HCElection, MainStaking), the FATE contract, ACIs
    ['store'], // the chain's store (aecore): the world state, block headers, the packed transactions and micro blocks
    ['tx-codec.ts', 'random.ts'], // the one transaction codec; the seeded PRNG
    ['keys.ts', 'ids.ts'], // account keys; the registrar rule and ids
  ],
  indexer: [
    ['maintenance'], // reload, verify: the operator's commands over what is stored
    ['sync'], // the populator: the chain from the node into the database
    ['identity'], // whether a role may touch a schema at all
    ['derived'], // what is computed from written rows, per batch and for stored heights
    ['hyperchain'], // a hyperchain's epochs, validators and rewards, asked of its consensus contracts
    ['contracts'], // the node's contracts: code, decoding, AEX-N type and meta info
    ['rows'], // the rows between fetch, transform and write
    ['metrics.ts'], // the populator's metrics
  ],
  operator: [
    ['admin.ts', 'runtime'], // the operator's commands and its process: informers, leader election, work queue
    ['controller'], // reconciling: compares the desired objects with the cluster's and applies
    ['specs'], // pure builders of the Kubernetes objects of a Middleware
    ['api'], // the Middleware custom resource: its types, defaults, validation, CRD schema
    ['kube'], // the Kubernetes client port and its in-memory fake
  ],
  shapes: [
    ['v3', 'middleware.ts'], // the renderers of /v3 and of the original middleware's generations report
    ['shape-table.ts'], // the tables the components and GraphQL types are generated from
  ],
};

/** roomOffenders lists the imports inside ROOMS' folders that point up a folder's order or across one of its rows. */
function roomOffenders(files: readonly { path: string; imports: readonly string[] }[]): string[] {
  return Object.entries(ROOMS).flatMap(([folder, layers]) => {
    const inner = (path: string): string | undefined =>
      path.startsWith(`${folder}/`) ? unit(path.slice(folder.length + 1)) : undefined;
    const rowOf = (u: string): number => layers.findIndex((r) => r.includes(u));
    return files.flatMap((f) => {
      const from = inner(f.path);
      if (from === undefined || rowOf(from) < 0) return [];
      return f.imports
        .filter((i) => {
          const to = inner(i);
          return to !== undefined && to !== from && rowOf(to) >= 0 && rowOf(to) <= rowOf(from);
        })
        .map((i) => `${f.path} → ${i}`);
    });
  });
}

/**
 * parentFolders lists the folders under src/ that hold folders, found from the files' paths with every ancestor
 * folder counted: a folder with no file at its top (db/) holds folders all the same.
 */
function parentFolders(paths: readonly string[]): string[] {
  const folders = new Set(
    paths.flatMap((p) =>
      p
        .split('/')
        .slice(0, -1)
        .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
    ),
  );
  return [...folders].filter((d) => [...folders].some((e) => e.startsWith(`${d}/`))).sort();
}

/**
 * unnamedRooms lists what ROOMS leaves out among the folders that hold folders: a folder without a table, and each
 * subfolder or top file (`folder/unit`) its folder's table does not name.
 */
function unnamedRooms(paths: readonly string[]): string[] {
  return parentFolders(paths).flatMap((d) => {
    const table = ROOMS[d];
    if (table === undefined) return [`${d}/ (no table)`];
    const units = new Set(paths.filter((p) => p.startsWith(`${d}/`)).map((p) => unit(p.slice(d.length + 1))));
    return [...units].filter((u) => !table.flat().includes(u)).map((u) => `${d}/${u}`);
  });
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** projectImports lists the src/-relative files a source file imports (static, dynamic, type-only and re-exports). */
function projectImports(file: string): string[] {
  const code = readFileSync(file, 'utf8');
  const specifiers = [...code.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)].map((m) => m[1]!);
  return specifiers.map((s) => relative(SRC, resolve(dirname(file), s)));
}

/**
 * valueSpecifiers lists the specifiers (files and packages) of the import and export declarations of `code` that bring
 * values, not only types, of its imports for their effects alone, and of its requires at the top level (a constant
 * required as the module loads, as prom.ts requires prom-client's files: a require in a function is lazy).
 */
function valueSpecifiers(code: string): string[] {
  const imports = [
    ...code.matchAll(/^(?:import|export)(?!\s+type\b)[^;=(]*?\sfrom\s*'([^']+)'|^import\s*'([^']+)'/gm),
  ].map((m) => (m[1] ?? m[2])!);
  const requires = [
    ...code.matchAll(/^(?:export\s+)?const\s[^=]+=\s*(?:require|createRequire\(import\.meta\.url\))\('([^']+)'\)/gm),
  ].map((m) => m[1]!);
  return [...imports, ...requires];
}

/** packageName is the package a specifier names (`@scope/name` or `name`, without a path inside it). */
const packageName = (specifier: string): string =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** staticPackages lists the packages `entry` (src/-relative) loads with it: its value imports', followed through src/. */
function staticPackages(entry: string): Set<string> {
  const packages = new Set<string>();
  const seen = new Set<string>();
  for (let todo = [entry], file = todo.pop(); file !== undefined; file = todo.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const s of valueSpecifiers(readFileSync(join(SRC, file), 'utf8')))
      if (s.startsWith('.')) todo.push(relative(SRC, resolve(dirname(join(SRC, file)), s)));
      else if (!s.startsWith('node:')) packages.add(packageName(s));
  }
  return packages;
}

/**
 * STARTS: the packages a start must not load before it runs (its entry's static imports), since only some of its paths
 * use them, and the code on those paths imports them (an `await import`, channel-proofs.ts's require): each cost
 * every start that loaded it 0.05 to 0.4 CPU-s. Every process loads the command map, each role's start its module;
 * `mdw migrate`, `-v` and `-H` serve no metrics.
 */
const STARTS: Readonly<Record<string, readonly string[]>> = {
  'cli/commands.ts': [
    '@kubernetes/client-node',
    '@aeternity/aepp-sdk',
    '@aeternity/aepp-calldata',
    'graphql',
    'prom-client',
    'undici',
    'pg',
    'koa',
  ],
  'indexer/sync/populator.ts': ['@aeternity/aepp-sdk', 'graphql', '@kubernetes/client-node'],
  'api/server.ts': [
    '@aeternity/aepp-sdk',
    '@aeternity/aepp-calldata',
    'graphql',
    'graphql-jit',
    '@kubernetes/client-node',
  ],
  'indexer/identity/guard.ts': ['prom-client'],
  'db/schema/migrator.ts': ['prom-client'],
  'indexer/maintenance/verify.ts': ['prom-client', '@aeternity/aepp-sdk'],
  'indexer/maintenance/reload.ts': ['prom-client', '@aeternity/aepp-sdk'],
  // `mdw dev` and `mdw devnode`: the dev traffic signs with the SDK, imported at its first step
  'cli/dev/environment.ts': ['@aeternity/aepp-sdk', 'graphql', '@kubernetes/client-node'],
  'devnode/index.ts': ['@aeternity/aepp-sdk'],
};

const unit = (path: string): string => (path.includes('/') ? path.slice(0, path.indexOf('/')) : path);
const row = (u: string): number => LAYERS.findIndex((r) => r.includes(u));

/** importAllowed says whether a file of unit `from` may import one of unit `to`: its own unit, or a lower row. */
function importAllowed(from: string, to: string): boolean {
  return from === to || row(to) > row(from);
}

/** cycles lists the strongly connected components of more than one file (or a file importing itself), Tarjan's way. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

/** circleThrough names one shortest circle through the first file of a component, back to that file. */
function circleThrough(component: readonly string[], graph: ReadonlyMap<string, readonly string[]>): string[] {
  const start = component[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let v = queue.shift(); v !== undefined; v = queue.shift())
    for (const w of graph.get(v) ?? []) {
      if (w === start) {
        const path = [start];
        for (let u: string | undefined = v; u !== start && u !== undefined; u = cameFrom.get(u)) path.splice(1, 0, u);
        return [...path, start];
      }
      if (component.includes(w) && !cameFrom.has(w)) {
        cameFrom.set(w, v);
        queue.push(w);
      }
    }
  return [...component];
}

describe('layers', () => {
  const files = sourceFiles(SRC).map((f) => ({ path: relative(SRC, f), imports: projectImports(f) }));

  it('finds the imports it checks, each naming a file of src/', () => {
    const posted = files.find((f) => f.path === 'events/posted-tx.ts');
    expect(posted?.imports).to.include('chain/signed-tx.ts');
    const missing = files.flatMap((f) =>
      f.imports.filter((i) => !existsSync(join(SRC, i))).map((i) => `${f.path} → ${i}`),
    );
    expect(missing).to.deep.equal([]);
  });

  it('places every folder and top file of src/ in one row of the layers', () => {
    const units = [...new Set(files.map((f) => unit(f.path)))].sort();
    expect(units.filter((u) => row(u) < 0)).to.deep.equal([]);
    expect(LAYERS.flat().filter((u) => !units.includes(u))).to.deep.equal([]);
  });

  it('has no import that points up the layers or across a row', () => {
    const offenders = files.flatMap((f) =>
      f.imports.filter((i) => !importAllowed(unit(f.path), unit(i))).map((i) => `${f.path} → ${i}`),
    );
    expect(offenders).to.deep.equal([]);
  });

  it('has no import that points up the order of the rooms inside a folder of folders, whose table names every unit', () => {
    expect(roomOffenders(files)).to.deep.equal([]);
    const units = (folder: string): string[] => [
      ...new Set(
        files.filter((f) => f.path.startsWith(`${folder}/`)).map((f) => unit(f.path.slice(folder.length + 1))),
      ),
    ];
    for (const [folder, layers] of Object.entries(ROOMS))
      expect(
        layers.flat().filter((u) => !units(folder).includes(u)),
        `rooms of ${folder}/`,
      ).to.deep.equal([]);
    // every folder that holds folders keeps an order of its rooms, each of its folders and top files among them
    expect(unnamedRooms(files.map((f) => f.path))).to.deep.equal([]);
  });

  it('has no circle of files importing each other', () => {
    const graph = new Map(files.map((f) => [f.path, f.imports]));
    expect(cycles(graph).map((c) => circleThrough(c, graph).join(' → '))).to.deep.equal([]);
  });

  it('finds a circle, an upward import and a value import when there is one (the checks can fail)', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c', 'e']],
      ['c', ['a']],
      ['d', ['a']],
      ['e', ['e']],
    ]);
    expect(cycles(graph)).to.deep.equal([['e'], ['a', 'b', 'c']]);
    expect(circleThrough(['a', 'b', 'c'], graph)).to.deep.equal(['a', 'b', 'c', 'a']);
    expect(importAllowed('db', 'events')).to.equal(false);
    expect(importAllowed('api', 'indexer')).to.equal(false);
    expect(importAllowed('events', 'db')).to.equal(true);
    const code =
      "import type { A } from './a.ts';\nimport { b, type C } from './b.ts';\nexport { d } from './d.ts';\n" +
      "import e from '@e/e/sub';\nimport './f.ts';\nexport const g = h('from' in i ? 'x' : 'y');\n" +
      "export const J = require('j/lib/j.js') as J;\nconst k = createRequire(import.meta.url)('k');\n" +
      "function l() {\n  const m = require('m');\n}";
    expect(valueSpecifiers(code)).to.deep.equal(['./b.ts', './d.ts', '@e/e/sub', './f.ts', 'j/lib/j.js', 'k']);
    expect(packageName('@e/e/sub')).to.equal('@e/e');
    expect(packageName('graphql/language')).to.equal('graphql');
    expect(staticPackages('api/server.ts')).to.include('koa').and.to.include('prom-client').and.to.include('undici');
    const rooms = [
      { path: 'api/http/app.ts', imports: ['api/mdw/mdw-api.ts'] },
      { path: 'api/mdw/graphql/fields.ts', imports: ['api/mdw/rest/operations.ts', 'api/mdw/resources/blocks.ts'] },
      { path: 'db/queries/sync-state.ts', imports: ['db/writes/derive-backfill.ts', 'db/connection/pool.ts'] },
      { path: 'operator/api/crd.ts', imports: ['operator/specs/meta.ts', 'operator/kube/client.ts'] },
    ];
    // a folder with no file at its top is asked too: a unit its table leaves out, a folder of folders without a table
    const unnamed = ['db/queries/blocks.ts', 'db/stray/x.ts', 'db/kept.ts', 'operator/api/crd.ts', 'x/y/z/w.ts'];
    expect(parentFolders(unnamed)).to.deep.equal(['db', 'operator', 'x', 'x/y']);
    expect(unnamedRooms(unnamed)).to.deep.equal(['db/stray', 'db/kept.ts', 'x/ (no table)', 'x/y/ (no table)']);
    expect(roomOffenders(rooms)).to.deep.equal([
      'api/http/app.ts → api/mdw/mdw-api.ts',
      'api/mdw/graphql/fields.ts → api/mdw/rest/operations.ts',
      'db/queries/sync-state.ts → db/writes/derive-backfill.ts',
      'operator/api/crd.ts → operator/specs/meta.ts',
    ]);
  });

  it('lets only cli/ and devnode/ itself import devnode/, and the devnode take only chain/ and base/', () => {
    const offenders = files
      .filter((f) => !['cli', 'devnode'].includes(unit(f.path)))
      .flatMap((f) => f.imports.filter((i) => unit(i) === 'devnode').map((i) => `${f.path} → ${i}`));
    expect(offenders).to.deep.equal([]);
    // a development tool: the product's rules it follows are chain/'s (encodings, schemas), never a role's or db/'s
    const taken = files
      .filter((f) => unit(f.path) === 'devnode')
      .flatMap((f) =>
        f.imports.filter((i) => !['devnode', 'chain', 'base'].includes(unit(i))).map((i) => `${f.path} → ${i}`),
      );
    expect(taken).to.deep.equal([]);
  });

  it('keeps chain/ pure: it imports only chain/', () => {
    const offenders = files
      .filter((f) => unit(f.path) === 'chain')
      .flatMap((f) => f.imports.filter((i) => unit(i) !== 'chain').map((i) => `${f.path} → ${i}`));
    expect(offenders).to.deep.equal([]);
  });

  it('keeps shapes/ pure: no package (no Koa, no I/O), and only types from db/', () => {
    const offenders = files
      .filter((f) => unit(f.path) === 'shapes')
      .flatMap((f) => {
        const code = readFileSync(join(SRC, f.path), 'utf8');
        const packages = [...code.matchAll(/(?:from|import)\s*\(?\s*'([^.'][^']*)'/g)].map((m) => m[1]!);
        const db = valueSpecifiers(code)
          .filter((s) => s.startsWith('.'))
          .map((s) => relative(SRC, resolve(dirname(join(SRC, f.path)), s)))
          .filter((i) => unit(i) === 'db');
        return [...packages, ...db].map((i) => `${f.path} → ${i}`);
      });
    expect(offenders).to.deep.equal([]);
  });

  it("keeps each start's static imports off the packages only some of its paths run", () => {
    const offenders = Object.entries(STARTS).flatMap(([entry, unloaded]) => {
      const loaded = staticPackages(entry);
      return unloaded.filter((p) => loaded.has(p)).map((p) => `${entry} → ${p}`);
    });
    expect(offenders).to.deep.equal([]);
  });
});
