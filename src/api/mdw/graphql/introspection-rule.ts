/**
 * @module A validation rule bounding a document's introspection fields (`__schema`, `__type`). Each answers a large
 * part of the schema (`__schema { types { fields { name } } }` is 15 kB) and cost.ts leaves introspection out, so 700
 * aliases of one were a 10 MB answer holding the event loop for seconds. graphql-js's own rule bounds their depth
 * only. A fragment is counted once where it is written: it runs at most once per selection, and only the query type
 * has these fields, so the count bounds what runs. `__typename` is free.
 */
import { GraphQLError, type ASTVisitor, type ValidationContext, type ValidationRule } from 'graphql';

/** MAX_INTROSPECTION_FIELDS: more than a client's introspection query asks (GraphiQL's asks one `__schema`). */
export const MAX_INTROSPECTION_FIELDS = 10;

export const IntrospectionCountRule: ValidationRule = (context: ValidationContext): ASTVisitor => {
  let count = 0;
  return {
    Field(node) {
      if (node.name.value !== '__schema' && node.name.value !== '__type') return;
      count++;
      if (count === MAX_INTROSPECTION_FIELDS + 1)
        context.reportError(
          new GraphQLError(
            `more than ${MAX_INTROSPECTION_FIELDS} introspection fields (__schema, __type) in one document`,
            { nodes: node },
          ),
        );
    },
  };
};
