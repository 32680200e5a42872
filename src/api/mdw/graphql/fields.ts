/**
 * @module How a query field is declared and answered: the /v3 resource that answers it (the route's), how its
 * arguments become that resource's parameters as REST names them, and ae_mdw's paging arguments (`cursor`, `limit`,
 * `direction`, and `fromHeight`/`toHeight` on the lists that take a range) turned into the REST ones.
 */
import {
  GraphQLNonNull,
  GraphQLString,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLOutputType,
} from 'graphql';
import type { Json } from '../../../chain/json.ts';
import { LIMITS } from '../resources/mdw-params.ts';
import {
  isPage,
  ItemsPage,
  type Answer,
  type PagePosition,
  type Resource,
  type ResourceRequest,
} from '../resources/resource.ts';
import type { GraphQLContext } from './context.ts';
import { decodeCursor, encodeCursor, listTag } from './cursor.ts';
import { pageOf, type PageValue } from './object-types.ts';
import { shapeType } from './shape-types.ts';
import { DirectionEnum, IntScalar } from './scalars.ts';

/** Where an argument goes: a path parameter or a query parameter of the operation. */
export type ArgTarget = `path:${string}` | `query:${string}`;

export interface ArgSpec {
  readonly type: GraphQLInputType;
  readonly to: ArgTarget;
  readonly defaultValue?: unknown;
}

/**
 * A query field: its resource, its arguments and, for a list, whether it takes a height range. Its type is its
 * resource's shape's (`op.answers`), made once per shape (shape-types.ts).
 */
export interface QueryField {
  readonly op: Resource;
  /** a type other than the shape's: a count, a literal answer, one of a shape's several GraphQL names */
  readonly type?: GraphQLOutputType;
  readonly description: string;
  readonly args?: Readonly<Record<string, ArgSpec>>;
  /** a page of `type`: `paged` takes cursor, limit and direction, `scoped` also fromHeight and toHeight */
  readonly list?: 'paged' | 'scoped';
  /** query parameters the operation is always given (`by=deactivation` for ae_mdw's expiration order) */
  readonly fixed?: Readonly<Record<string, string>>;
  /** enum values whose REST parameter is another word, or none (`''`): ae_mdw's `expiration` is `deactivation` */
  readonly values?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** what of the REST answer the field is (a count's `{"data": n}` is n) */
  readonly pick?: (answer: Json) => Json;
}

/** Argument helpers: a required id or hash in the path, an optional query parameter. */
export const requiredString = (to: ArgTarget): ArgSpec => ({ type: new GraphQLNonNull(GraphQLString), to });
export const optionalString = (to: ArgTarget): ArgSpec => ({ type: GraphQLString, to });

/** byId is a field answering one object by its id (or hash) in the path. */
export function byId(op: Resource, description: string, to: ArgTarget = 'path:id'): QueryField {
  return { op, args: { id: requiredString(to) }, description };
}

/** pageById is a field answering a page of what belongs to an id in the path. */
export function pageById(op: Resource, description: string, to: ArgTarget = 'path:id'): QueryField {
  return { op, list: 'paged', args: { id: requiredString(to) }, description };
}

/** answerType is the GraphQL type of what a resource answers: its shape's object type (a page's items'). */
export function answerType(op: Resource): GraphQLOutputType {
  const answers = isPage(op.answers) ? op.answers.page : op.answers;
  if (typeof answers === 'string') throw new Error(`a field answering ${answers} names its type`);
  return shapeType(answers);
}

/** MAX_HEIGHT: the open end of a height range given one bound (the REST scope's largest height). */
const MAX_HEIGHT = 2 ** 31 - 1;

const PAGING_ARGS: GraphQLFieldConfigArgumentMap = {
  cursor: { type: GraphQLString, description: 'a `nextCursor` or `prevCursor` of this list' },
  limit: { type: IntScalar, description: `items per page: ${LIMITS.default} by default, kept within 1..${LIMITS.max}` },
  direction: { type: DirectionEnum, defaultValue: 'backward' },
};
const SCOPE_ARGS: GraphQLFieldConfigArgumentMap = {
  fromHeight: { type: IntScalar, description: 'lowest generation' },
  toHeight: { type: IntScalar, description: 'highest generation' },
};

/** fieldConfig builds the GraphQL field of a declaration, named `name` (its cursors' list tag). */
export function fieldConfig(name: string, field: QueryField): GraphQLFieldConfig<unknown, GraphQLContext> {
  const args: GraphQLFieldConfigArgumentMap = {};
  for (const [arg, spec] of Object.entries(field.args ?? {}))
    args[arg] = { type: spec.type, defaultValue: spec.defaultValue };
  if (field.list) Object.assign(args, PAGING_ARGS, field.list === 'scoped' ? SCOPE_ARGS : {});
  const type = field.type ?? answerType(field.op);
  return {
    type: field.list ? pageOf(type as GraphQLObjectType) : type,
    description: field.description,
    args,
    async resolve(_source, given: Record<string, unknown>, { env, deadline }) {
      deadline.check();
      if (!field.list) {
        const answer = valueOf(await field.op(env, resourceRequest(field, given, '')));
        return field.pick ? field.pick(answer) : answer;
      }
      const tag = listTag(name, given);
      return pageValue(await field.op(env, resourceRequest(field, given, tag)), tag);
    },
  };
}

/** resourceRequest maps a field's arguments to its resource's parameters, as REST names them. */
export function resourceRequest(
  field: QueryField,
  given: Readonly<Record<string, unknown>>,
  tag: string,
): ResourceRequest {
  const params: Record<string, string> = {};
  const query: Record<string, string | string[]> = { ...field.fixed };
  for (const [arg, spec] of Object.entries(field.args ?? {})) {
    const value = given[arg];
    if (value === undefined || value === null) continue;
    const [where, param] = spec.to.split(':') as ['path' | 'query', string];
    const text = Array.isArray(value) ? value.map(String) : (field.values?.[arg]?.[String(value)] ?? String(value));
    if (where === 'path') params[param] = String(text);
    else if (text !== '') query[param] = text;
  }
  if (field.list) Object.assign(query, pagingQuery(given, tag, field.list === 'scoped'));
  return { params, query };
}

/** pagingQuery is the REST paging of ae_mdw's paging arguments (a limit out of range is brought within it, as ae_mdw does). */
function pagingQuery(given: Readonly<Record<string, unknown>>, tag: string, scoped: boolean): Record<string, string> {
  const limit = typeof given.limit === 'number' ? Math.min(Math.max(given.limit, 1), LIMITS.max) : LIMITS.default;
  const direction = given.direction === 'forward' ? 'forward' : 'backward';
  const query: Record<string, string> = { limit: String(limit), direction };
  if (typeof given.cursor === 'string') {
    const { cursor, rev } = decodeCursor(tag, given.cursor);
    query.cursor = cursor;
    if (rev) query.rev = '1';
  }
  const from = given.fromHeight;
  const to = given.toHeight;
  if (scoped && (typeof from === 'number' || typeof to === 'number')) {
    const low = Math.max(0, Math.min(Number(from ?? 0), Number(to ?? MAX_HEIGHT)));
    const high = Math.min(MAX_HEIGHT, Math.max(Number(from ?? 0), Number(to ?? MAX_HEIGHT)));
    // the REST scope walks from its first bound to its second: the direction argument decides which is which
    query.scope = direction === 'forward' || low === high ? `gen:${low}-${high}` : `gen:${high}-${low}`;
  }
  return query;
}

/** pageValue is a page of a list with its positions as this list's opaque cursors. */
function pageValue(answer: Answer, tag: string): PageValue {
  if (!(answer instanceof ItemsPage)) throw new TypeError('a list field answered no page');
  const cursorOf = (position: PagePosition | undefined): string | null =>
    position ? encodeCursor(tag, position) : null;
  return { data: [...answer.items], nextCursor: cursorOf(answer.next), prevCursor: cursorOf(answer.prev) };
}

/** valueOf is the value a field that is no list answers (a list is declared with `list`, and answers pageValue). */
export function valueOf(answer: Answer): Json {
  if (answer instanceof ItemsPage) throw new TypeError('a field that is no list answered a page');
  return answer;
}

/** countOf reads a count answered as `{"data": n}` or as n. */
export function countOf(answer: Json): Json {
  return answer !== null && typeof answer === 'object' && !Array.isArray(answer) && 'data' in answer
    ? answer.data!
    : answer;
}

/** asData wraps a plain array answer as ae_mdw's GraphQL wraps it, `{data: [...]}` (no cursors). */
export function asData(answer: Json): Json {
  return { data: answer };
}
