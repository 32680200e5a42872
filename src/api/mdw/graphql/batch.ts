/**
 * @module Fields whose objects the items of a page share (a transaction's `block`, a block's `keyBlock`), read in one
 * batch per page before the page's items are completed. A loaded field's resolver then answers each item with its
 * object at once: a promise per item (DataLoader's, and graphql-js's per object waiting on it) cost more than the
 * items' own fields.
 */
import {
  getNamedType,
  isObjectType,
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLFieldConfig,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type SelectionSetNode,
} from 'graphql';
import type { BatchLoader } from './batch-loader.ts';
import type { GraphQLContext, Loaders, RestObject } from './context.ts';

/** How a loaded field finds its object: the key of its source, and the request's loader of such keys. */
interface Batch<K> {
  readonly key: (source: RestObject) => K;
  readonly loader: (loaders: Loaders) => BatchLoader<K, RestObject>;
}

/** loadedField is a field answered by a batch loader; a page's `data` (preloaded) reads its objects in one batch. */
export function loadedField<K>(
  type: GraphQLObjectType<RestObject, GraphQLContext>,
  description: string,
  batch: Batch<K>,
): GraphQLFieldConfig<RestObject, GraphQLContext> {
  return {
    type,
    description,
    extensions: { batch },
    // an item without a key (a pending transaction has no block) has no object
    resolve(source, _args, { loaders }) {
      const key = batch.key(source);
      return key === undefined || key === null ? null : batch.loader(loaders).load(key);
    },
  };
}

/**
 * preloaded is a page's items once the loaded fields the query selects of them are read, one batch per field (and
 * then the loaded fields selected of those objects, a block's keyBlock, one batch each).
 */
export async function preloaded(
  items: readonly unknown[],
  type: GraphQLObjectType,
  info: GraphQLResolveInfo,
  loaders: Loaders,
): Promise<readonly unknown[]> {
  await preload(items, type, info.fieldNodes, info.fragments, loaders);
  return items;
}

async function preload(
  items: readonly unknown[],
  type: GraphQLObjectType,
  nodes: readonly FieldNode[],
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
  loaders: Loaders,
): Promise<void> {
  const fields = type.getFields();
  const selected = new Map<string, FieldNode[]>();
  for (const node of nodes) if (node.selectionSet) collect(node.selectionSet, fragments, selected);
  const sources = items.filter((item): item is RestObject => typeof item === 'object' && item !== null);
  await Promise.all(
    [...selected].map(async ([name, subNodes]) => {
      const field = fields[name];
      const batch = field?.extensions.batch as Batch<unknown> | undefined;
      const objectType = field && getNamedType(field.type);
      if (!batch || !isObjectType(objectType)) return;
      const loader = batch.loader(loaders);
      const keys = [...new Set(sources.map((source) => batch.key(source)))].filter(
        (k) => k !== undefined && k !== null,
      );
      await loader.loadAll(keys);
      await preload(
        keys.map((key) => loader.read(key)),
        objectType,
        subNodes,
        fragments,
        loaders,
      );
    }),
  );
}

/** collect adds the fields a selection set asks for (in its fragments too; directives aside) by field name. */
function collect(
  set: SelectionSetNode,
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
  into: Map<string, FieldNode[]>,
  seen = new Set<string>(),
): void {
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      const name = selection.name.value;
      into.set(name, [...(into.get(name) ?? []), selection]);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      collect(selection.selectionSet, fragments, into, seen);
    } else if (!seen.has(selection.name.value)) {
      // a fragment spread, each fragment once (validation refuses cycles; a repeat adds nothing)
      seen.add(selection.name.value);
      const fragment = fragments[selection.name.value];
      if (fragment) collect(fragment.selectionSet, fragments, into, seen);
    }
  }
}
