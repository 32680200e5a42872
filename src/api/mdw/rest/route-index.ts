/**
 * @module The /v3 route table's own matcher: a parameterless route by one map lookup, any other among only the routes
 * whose static directory the path begins with, never by a scan of the whole table. Its templates (`/v3/names/:id`)
 * match as @koa/router's did: a parameter is one non-empty segment (percent-decoded), any case, an ending slash or
 * none, and the first template of the table that matches is the path's; its routes, one a method, are the path's.
 * Pure.
 */

/** A route as the index takes it: its method (GET when none), its template under /v3 (`/v3/names/:id`), its answer. */
export interface IndexedRoute<R> {
  readonly method?: string;
  readonly template: string;
  readonly route: R;
}

/** The route a request found, with its template (the request metrics' label) and its parameters, decoded. */
export interface RouteMatch<R> {
  readonly template: string;
  readonly route: R;
  readonly params: Record<string, string>;
}

/** A template's pattern, and its routes by method. */
interface Compiled<R> {
  readonly template: string;
  readonly pattern: RegExp;
  readonly names: readonly string[];
  readonly routes: Map<string, R>;
}

/** A path the index found: its template's routes and its parameters. */
interface FoundPath<R> {
  readonly compiled: Compiled<R>;
  readonly params: Record<string, string>;
}

/**
 * RouteIndex finds the route of a request. Parameterless templates no earlier one shadows are one map lookup (the path
 * in lower case, with its ending slash or not); the others are tried in the table's order among the templates whose
 * static directory (`/v3/micro-blocks/` for `/v3/micro-blocks/:hash/txs`) is one of the path's.
 */
export class RouteIndex<R> {
  readonly #exact = new Map<string, Compiled<R>>();
  readonly #byDirectory = new Map<string, readonly Compiled<R>[]>();

  constructor(routes: readonly IndexedRoute<R>[]) {
    const byTemplate = new Map<string, Compiled<R>>();
    for (const { method = 'GET', template, route } of routes) {
      const compiled = byTemplate.get(template) ?? compile<R>(template);
      if (compiled.routes.has(method)) throw new Error(`two routes of ${method} ${template}`);
      compiled.routes.set(method, route);
      byTemplate.set(template, compiled);
    }
    const compiled = [...byTemplate.values()];
    compiled.forEach((route, i) => {
      if (route.names.length > 0) return;
      const path = route.template.toLowerCase();
      if (compiled.some((other, j) => j < i && other.pattern.test(path))) return;
      for (const key of [path, `${path}/`]) if (!this.#exact.has(key)) this.#exact.set(key, route);
    });
    const directories = compiled.map((r) => staticDirectory(r.template));
    for (const directory of new Set(directories))
      this.#byDirectory.set(
        directory,
        compiled.filter((_, i) => directory.startsWith(directories[i]!)),
      );
  }

  /** templates are the routes' templates, once each, in the table's order. */
  get templates(): string[] {
    return [...new Set([...this.#byDirectory.values()].flat().map((r) => r.template))];
  }

  /** match is the route of `method` (a HEAD's is its GET's) and `path`, or undefined. */
  match(method: string, path: string): RouteMatch<R> | undefined {
    const found = this.#find(path);
    const route = found?.compiled.routes.get(method === 'HEAD' ? 'GET' : method);
    if (found === undefined || route === undefined) return undefined;
    return { template: found.compiled.template, route, params: found.params };
  }

  /** methods are those `path` is answered to, in the table's order (HEAD after GET); none for a path of no route. */
  methods(path: string): string[] {
    return [...(this.#find(path)?.compiled.routes.keys() ?? [])].flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m]));
  }

  /** #find is the first template of the table that matches `path`, with the path's parameters. */
  #find(path: string): FoundPath<R> | undefined {
    const exact = this.#exact.get(path.toLowerCase());
    if (exact) return { compiled: exact, params: {} };
    for (const candidate of this.#candidates(path)) {
      const found = candidate.pattern.exec(path);
      if (!found) continue;
      const params: Record<string, string> = {};
      candidate.names.forEach((name, i) => (params[name] = decoded(found[i + 1]!)));
      return { compiled: candidate, params };
    }
    return undefined;
  }

  /** #candidates are the templates of the longest of `path`'s directories that has any, the path itself included. */
  #candidates(path: string): readonly Compiled<R>[] {
    const lower = `${path.toLowerCase()}/`;
    for (let end = lower.lastIndexOf('/'); end >= 0; end = lower.lastIndexOf('/', end - 1)) {
      const found = this.#byDirectory.get(lower.slice(0, end + 1));
      if (found || end === 0) return found ?? [];
    }
    return [];
  }
}

/** compile makes a template's pattern: its static text as it is, each `:name` one segment; no routes yet. */
function compile<R>(template: string): Compiled<R> {
  const names: string[] = [];
  const source = template
    .split(/(:\w+)/)
    .map((part) => {
      if (!part.startsWith(':')) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(part.slice(1));
      return '([^/]+)';
    })
    .join('');
  return { template, pattern: new RegExp(`^${source}/?$`, 'i'), names, routes: new Map() };
}

/** decoded is a parameter percent-decoded, or as it came when it is no valid encoding (as the router did). */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * staticDirectory is a template's text before its first parameter, up to its last `/`, in lower case; a template
 * without one is a directory of its own (it matches its path, with an ending slash too).
 */
export function staticDirectory(template: string): string {
  const dynamic = template.indexOf(':');
  const text = (dynamic < 0 ? `${template}/` : template.slice(0, dynamic)).toLowerCase();
  return text.slice(0, text.lastIndexOf('/') + 1);
}
