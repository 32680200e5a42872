/**
 * @module The depth and cost of a GraphQL operation, measured before it runs. Cost counts the objects an answer will
 * hold, as ae_mdw's complexity counts fields: an object is 1 plus its selections, and a field taking `limit` costs
 * `limit × its selections + 1` (the page's size as it will be read: 10 when not given, within 1..100). Unlike
 * ae_mdw's, a scalar costs nothing: it is read with its object, so a page of 100 transactions costs the same whatever
 * fields it shows, and their blocks add one per item. A scalar that is a read of its own costs 1: one of the query
 * type (a count) or one marked `extensions: { reads: true }` (Status's counts); free, a thousand aliases of one
 * count were a thousand reads. Fragments count where they are spread. Introspection
 * (`__schema`, `__type`) is left to graphql-js's own introspection depth rule. Pure.
 */
import {
  getNamedType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { LIMITS } from '../resources/mdw-params.ts';

export interface Measure {
  readonly depth: number;
  readonly cost: number;
}

/** LIMITS of one operation: deeper or costlier ones are refused before anything is read. */
export const QUERY_LIMITS = { depth: 10, cost: 1000 } as const;

/**
 * COST_PER_TURN: the cost an operation runs per turn of the admission (admission.ts), the cost of a page of 100 items,
 * which REST reads in one request of one turn: an operation of the largest cost takes ten, the whole of a default pool.
 */
export const COST_PER_TURN = 100;

interface Walk {
  readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  readonly variables: Readonly<Record<string, unknown>>;
  readonly root: GraphQLObjectType;
  /**
   * each fragment's measure under a parent type, taken once: a fragment spreading another twice, down a chain of
   * forty, would be walked 2^40 times (the event loop held for hours by one request of a few kilobytes)
   */
  readonly spreads: Map<string, Measure>;
}

/** fragmentsOf is a document's fragment definitions by name, as measure and a selection's spread count take them. */
export function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  return new Map(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
}

/**
 * measure walks an operation that passed validation (its fragments form no cycle, its fields exist). A variable
 * holding `limit` counts with its value.
 */
export function measure(
  operation: OperationDefinitionNode,
  root: GraphQLObjectType,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  variables: Readonly<Record<string, unknown>>,
): Measure {
  return selections(operation.selectionSet, root, { fragments, variables, root, spreads: new Map() });
}

function selections(set: SelectionSetNode, parent: GraphQLObjectType, walk: Walk): Measure {
  let depth = 0;
  let cost = 0;
  for (const node of set.selections) {
    let m: Measure;
    if (node.kind === Kind.FIELD) {
      if (node.name.value.startsWith('__')) continue;
      const def = parent.getFields()[node.name.value];
      const type = def && getNamedType(def.type);
      const inner = node.selectionSet && isObjectType(type) ? selections(node.selectionSet, type, walk) : undefined;
      const paged = def?.args.some((a) => a.name === 'limit') ?? false;
      const limitNode = node.arguments?.find((a) => a.name.value === 'limit')?.value;
      if (!inner) m = { depth: 1, cost: parent === walk.root || def?.extensions.reads === true ? 1 : 0 };
      else
        m = {
          depth: inner.depth + 1,
          cost: paged ? pageSize(limitNode, walk.variables) * inner.cost + 1 : inner.cost + 1,
        };
    } else if (node.kind === Kind.INLINE_FRAGMENT) {
      m = selections(node.selectionSet, parent, walk);
    } else {
      m = spread(node.name.value, parent, walk);
    }
    depth = Math.max(depth, m.depth);
    cost += m.cost;
  }
  return { depth, cost };
}

/** spread is the measure of a fragment spread where the parent is `parent`, walked once per walk. */
function spread(name: string, parent: GraphQLObjectType, walk: Walk): Measure {
  const key = `${name} ${parent.name}`;
  let m = walk.spreads.get(key);
  if (!m) {
    const fragment = walk.fragments.get(name);
    m = fragment ? selections(fragment.selectionSet, parent, walk) : { depth: 0, cost: 0 };
    walk.spreads.set(key, m);
  }
  return m;
}

/** pageSize is the size a page will be read at: the `limit` given, within 1..100, or the default. */
function pageSize(limit: ValueNode | undefined, variables: Readonly<Record<string, unknown>>): number {
  let value: unknown;
  if (limit?.kind === Kind.INT) value = Number(limit.value);
  else if (limit?.kind === Kind.VARIABLE) value = variables[limit.name.value];
  return typeof value === 'number' && Number.isFinite(value)
    ? Math.min(Math.max(Math.trunc(value), 1), LIMITS.max)
    : LIMITS.default;
}
