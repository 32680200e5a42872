/**
 * @module Operations run by graphql-jit, compiled once per document shape. graphql-js's executor interprets a document
 * field by field on every request (each field's arguments, path and resolve info built anew, the result of
 * null-prototype objects that V8's JSON writer takes on its slow path); a compiled operation is straight code that
 * builds plain objects. A client writing its cursor or hash into the query sends a new text per page, so the string
 * literals its shape blanks (document-shape.ts) are compiled as variables, `$__s0`, `$__s1`, … in the text's order,
 * and each request gives their values. A shape is compiled the second time it is seen (a compilation costs some
 * executions: a query run once is not worth one). graphql-js executes the rest: a shape seen once, a literal that
 * cannot be a variable (a variable's default), and an operation selecting more than COMPILED_FIELDS_MAX fields with
 * its fragments spread. A compilation takes time and heap in proportion to those fields (graphql-jit writes code for
 * every path: 0.07 ms and 0.6 kB a field, Node 24), so the bound keeps a hostile client's distinct shapes, each sent
 * twice, at 18 ms and 160 kB a compilation, and the kept compilations are bounded by their heap (COMPILED_BYTES).
 */
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import {
  getOperationAST,
  Kind,
  parseType,
  visit,
  type DocumentNode,
  type SelectionSetNode,
  type GraphQLSchema,
  type StringValueNode,
  type VariableDefinitionNode,
} from 'graphql';
import { LRUCache } from 'lru-cache';
import { fragmentsOf } from './cost.ts';
import type { CheckedDocument } from './document-cache.ts';
import type { BlankedLiteral } from './document-shape.ts';

/** What a compiled operation takes: its context and its variables, the client's and the literals'. */
export type CompiledRun = (context: unknown, variables: Record<string, unknown>) => ReturnType<CompiledQuery['query']>;

/** COMPILED_BYTES: the heap the kept compilations may hold (a page with its blocks' takes some 35 kB) */
const COMPILED_BYTES = 16 * 1024 * 1024;
/** FIELD_BYTES: a compiled field's heap, code and closures (0.5–0.6 kB measured), with room */
const FIELD_BYTES = 1024;
/** SEEN_BYTES: the texts of the shapes remembered as seen once, awaiting their second request (a text is up to 32 KiB) */
const SEEN_BYTES = 4 * 1024 * 1024;
/** COMPILED_FIELDS_MAX: the most fields, its fragments spread, an operation may select to be compiled */
const COMPILED_FIELDS_MAX = 256;
/** LITERAL_PREFIX: the variables standing for literals; a name with two leading underscores is the language's own */
const LITERAL_PREFIX = '__s';

/** CompiledOperations compiles hot shapes' operations and runs them with their literals as variables. */
export class CompiledOperations {
  readonly #schema: GraphQLSchema;
  /** by operation name and shape: the compiled operation, or false where the shape cannot be compiled */
  readonly #compiled = new LRUCache<string, { readonly query: CompiledQuery | false; readonly bytes: number }>({
    maxSize: COMPILED_BYTES,
    sizeCalculation: (entry) => entry.bytes,
  });
  readonly #seen = new LRUCache<string, true>({
    maxSize: SEEN_BYTES,
    sizeCalculation: (_value, key) => key.length + 1,
  });

  constructor(schema: GraphQLSchema) {
    this.#schema = schema;
  }

  /**
   * runner is the compiled operation of a valid document, bound to its literals' values, or undefined where graphql-js
   * is to execute it (a shape seen for the first time, or one that does not compile).
   */
  runner({ document, shape }: CheckedDocument, operationName: string | undefined): CompiledRun | undefined {
    const key = `${operationName ?? ''}\n${shape.text}`;
    let compiled = this.#compiled.get(key);
    if (compiled === undefined) {
      if (!this.#seen.has(key)) {
        this.#seen.set(key, true);
        return undefined;
      }
      compiled = this.#compile(document, shape.literals, operationName);
      this.#compiled.set(key, compiled);
      this.#seen.delete(key);
    }
    if (compiled.query === false) return undefined;
    const { query } = compiled.query;
    const literals = shape.literals;
    return (context, variables) => query(undefined, context, withLiterals(variables, literals));
  }

  #compile(
    document: DocumentNode,
    literals: readonly BlankedLiteral[],
    operationName: string | undefined,
  ): { readonly query: CompiledQuery | false; readonly bytes: number } {
    const refused = { query: false, bytes: 1 } as const;
    const operation = getOperationAST(document, operationName);
    if (!operation) return refused;
    const fields = spreadFields(document, operation.selectionSet, COMPILED_FIELDS_MAX);
    if (fields > COMPILED_FIELDS_MAX) return refused;
    const parameterized = literalsAsVariables(document, literals, operationName);
    if (!parameterized) return refused;
    const query = compileQuery(this.#schema, parameterized, operationName);
    return isCompiledQuery(query) ? { query, bytes: FIELD_BYTES * (fields + 1) } : refused;
  }
}

/** withLiterals is the client's variables and the literals' values as theirs. */
function withLiterals(
  variables: Record<string, unknown>,
  literals: readonly BlankedLiteral[],
): Record<string, unknown> {
  if (literals.length === 0) return variables;
  const all = { ...variables };
  literals.forEach((l, i) => (all[`${LITERAL_PREFIX}${i}`] = l.node.value));
  return all;
}

/**
 * literalsAsVariables is the document of the named operation (the others left out) with each blanked literal a
 * variable of its input type, defined by the operation; undefined where one cannot be (a variable's default value) or
 * a variable's name is taken. Pure.
 */
export function literalsAsVariables(
  document: DocumentNode,
  literals: readonly BlankedLiteral[],
  operationName: string | undefined,
): DocumentNode | undefined {
  const operation = getOperationAST(document, operationName);
  if (!operation) return undefined;
  if (literals.some((l) => l.inDefault)) return undefined;
  if (operation.variableDefinitions?.some((d) => d.variable.name.value.startsWith(LITERAL_PREFIX))) return undefined;
  const index = new Map<StringValueNode, number>(literals.map((l, i) => [l.node, i]));
  const definitions: VariableDefinitionNode[] = literals.map((l, i) => ({
    kind: Kind.VARIABLE_DEFINITION,
    variable: { kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: `${LITERAL_PREFIX}${i}` } },
    type: parseType(String(l.type)),
  }));
  const kept = {
    ...document,
    definitions: document.definitions.filter((d) => d.kind !== Kind.OPERATION_DEFINITION || d === operation),
  };
  return visit(kept, {
    StringValue(node) {
      const i = index.get(node);
      return i === undefined
        ? undefined
        : { kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: `${LITERAL_PREFIX}${i}` } };
    },
    OperationDefinition(node) {
      return { ...node, variableDefinitions: [...(node.variableDefinitions ?? []), ...definitions] };
    },
  });
}

/**
 * spreadFields is how many fields a selection selects with its fragments spread where they are spread, counted up to
 * past `max` (each fragment counted once, however often it is spread). Pure.
 */
export function spreadFields(document: DocumentNode, selectionSet: SelectionSetNode, max: number): number {
  const fragments = fragmentsOf(document);
  const counted = new Map<string, number>();
  const count = (set: SelectionSetNode): number => {
    let fields = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) fields += 1 + (selection.selectionSet ? count(selection.selectionSet) : 0);
      else if (selection.kind === Kind.INLINE_FRAGMENT) fields += count(selection.selectionSet);
      else {
        const name = selection.name.value;
        let spread = counted.get(name);
        if (spread === undefined) {
          const fragment = fragments.get(name);
          spread = fragment ? count(fragment.selectionSet) : 0;
          counted.set(name, spread);
        }
        fields += spread;
      }
      // past the bound the exact count does not matter, and a chain of fragments doubles it at every link
      if (fields > max) return max + 1;
    }
    return fields;
  };
  return count(selectionSet);
}
