/**
 * @module The node's /v3 `?int-as-string` flag (aehttp_api_handler): every integer of an answer becomes a JSON
 * string, for clients whose JSON cannot hold 64-bit integers. /v2 has no such flag.
 */
import { integersAsStrings, parseJson, stringifyJson, type Json } from '../../chain/json.ts';
import { HttpError, type Reply, type Route, type RouteRequest } from './http.ts';

/** FLOATS are the answers' fields the node holds as floats (Status `sync_progress`): the flag leaves them numbers. */
const FLOATS = new Set(['sync_progress']);

/** intsAsStrings turns every integer of a JSON value into its decimal string, as the node's handler does. Pure. */
export function intsAsStrings(value: Json): Json {
  return integersAsStrings(value, FLOATS);
}

/**
 * intAsStringFlag reads the flag as the node's validator does (a boolean, either case; present with no value is
 * true), before the operation's own parameters; anything else fails the node's handler: an empty 500 (recorded).
 */
export function intAsStringFlag(query: URLSearchParams): boolean {
  const text = query.get('int-as-string');
  if (text === null) return false;
  if (text === '' || text.toLowerCase() === 'true') return true;
  if (text.toLowerCase() === 'false') return false;
  throw new HttpError(500, undefined);
}

/** withIntAsString gives each /v3 route the flag: its successful answers then carry integers as strings. */
export function withIntAsString(routes: readonly Route[]): Route[] {
  return routes.map((route) => {
    if (!route.path.startsWith('/v3/')) return route;
    return {
      ...route,
      handler: async (req: RouteRequest): Promise<Reply> => {
        const flag = intAsStringFlag(req.query);
        const reply = await route.handler(req);
        if (!flag || reply.status !== 200) return reply;
        return { status: reply.status, body: stringifyJson(intsAsStrings(parseJson(reply.body))) };
      },
    };
  });
}
