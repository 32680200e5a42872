/**
 * @module The /v3 route table's own matcher: a parameterless route by one map lookup, any other among only the routes
 * whose static directory the path begins with, never by a scan of the whole table. Its templates (`/v3/names/:id`)
 * match as @koa/router's did: a parameter is one non-empty segment (percent-decoded), any case, an ending slash or
 * none, and the first route of the table that matches is the one. Pure.
 */

/** A route as the index takes it: its template under /v3 (`/v3/names/:id`) and what answers it. */
export interface IndexedRoute<R> {
  readonly template: string;
  readonly route: R;
}

/** The route a request found, with its template (the request metrics' label) and its parameters, decoded. */
export interface RouteMatch<R> extends IndexedRoute<R> {
  readonly params: Record<string, string>;
}

interface Compiled<R> extends IndexedRoute<R> {
  readonly pattern: RegExp;
  readonly names: readonly string[];
}

/**
 * RouteIndex finds the route of a GET (or HEAD) request. Parameterless routes no earlier route shadows are one map
 * lookup (the path in lower case, with its ending slash or not); the others are tried in the table's order among the
 * routes whose static directory (`/v3/micro-blocks/` for `/v3/micro-blocks/:hash/txs`) is one of the path's.
 */
export class RouteIndex<R> {
  readonly #exact = new Map<string, Compiled<R>>();
  readonly #byDirectory = new Map<string, readonly Compiled<R>[]>();

  constructor(routes: readonly IndexedRoute<R>[]) {
    const compiled = routes.map(compile);
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

  /** templates are the routes' templates, in the table's order. */
  get templates(): string[] {
    return [...new Set([...this.#byDirectory.values()].flat().map((r) => r.template))];
  }

  /** match is the route of `method` and `path`, or undefined: only GET and HEAD have routes. */
  match(method: string, path: string): RouteMatch<R> | undefined {
    if (method !== 'GET' && method !== 'HEAD') return undefined;
    const exact = this.#exact.get(path.toLowerCase());
    if (exact) return { template: exact.template, route: exact.route, params: {} };
    for (const candidate of this.#candidates(path)) {
      const found = candidate.pattern.exec(path);
      if (!found) continue;
      const params: Record<string, string> = {};
      candidate.names.forEach((name, i) => (params[name] = decoded(found[i + 1]!)));
      return { template: candidate.template, route: candidate.route, params };
    }
    return undefined;
  }

  /** #candidates are the routes of the longest of `path`'s directories that has any, the path itself included. */
  #candidates(path: string): readonly Compiled<R>[] {
    const lower = `${path.toLowerCase()}/`;
    for (let end = lower.lastIndexOf('/'); end >= 0; end = lower.lastIndexOf('/', end - 1)) {
      const found = this.#byDirectory.get(lower.slice(0, end + 1));
      if (found || end === 0) return found ?? [];
    }
    return [];
  }
}

/** compile makes a template's pattern: its static text as it is, each `:name` one segment. */
function compile<R>(route: IndexedRoute<R>): Compiled<R> {
  const names: string[] = [];
  const source = route.template
    .split(/(:\w+)/)
    .map((part) => {
      if (!part.startsWith(':')) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(part.slice(1));
      return '([^/]+)';
    })
    .join('');
  return { ...route, pattern: new RegExp(`^${source}/?$`, 'i'), names };
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
