/**
 * @module The shape of a GraphQL document: its text with the content of every string literal given where a `String`
 * is expected blanked. Such a literal's content never decides whether the document is valid (graphql-js's String
 * takes any string literal), so documents of one shape validate alike: a client that writes its cursor or hash into
 * the query (a new text per page) is validated once per shape, not once per request (validation cost ten times the
 * parse). Pure.
 */
import {
  getNullableType,
  GraphQLString,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLSchema,
} from 'graphql';

/** shapeOf is the query's text with every string literal whose input type is String written as `""`. */
export function shapeOf(schema: GraphQLSchema, query: string, document: DocumentNode): string {
  const typeInfo = new TypeInfo(schema);
  const literals: { start: number; end: number }[] = [];
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      StringValue(node) {
        const type = typeInfo.getInputType();
        if (node.loc && type && getNullableType(type) === GraphQLString) literals.push(node.loc);
      },
    }),
  );
  if (literals.length === 0) return query;
  // the literals in the text's order, each cut out of it
  literals.sort((a, b) => a.start - b.start);
  let shape = '';
  let at = 0;
  for (const { start, end } of literals) {
    shape += `${query.slice(at, start)}""`;
    at = end;
  }
  return shape + query.slice(at);
}
