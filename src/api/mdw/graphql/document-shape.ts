/**
 * @module The shape of a GraphQL document: its text with the content of every string literal given where a `String`
 * is expected blanked. Such a literal's content never decides whether the document is valid (graphql-js's String
 * takes any string literal), so documents of one shape validate alike: a client that writes its cursor or hash into
 * the query (a new text per page) is validated once per shape, not once per request (validation cost ten times the
 * parse). Documents of one shape also run alike, those literals given as variables: they are compiled once per shape
 * (compiled-operations.ts). Pure.
 */
import {
  getNullableType,
  GraphQLString,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type StringValueNode,
} from 'graphql';

/** A string literal a shape blanks: where it is, and the input type it is given as. */
export interface BlankedLiteral {
  readonly node: StringValueNode;
  readonly type: GraphQLInputType;
  /** in a variable's default value, which must be a literal: no variable can stand for it */
  readonly inDefault: boolean;
}

/** A document's shape: its text with the blanked literals written as `""`, and those literals in the text's order. */
export interface DocumentShape {
  readonly text: string;
  readonly literals: readonly BlankedLiteral[];
}

/** shapeOf is the query's text with every string literal whose input type is String written as `""`. */
export function shapeOf(schema: GraphQLSchema, query: string, document: DocumentNode): DocumentShape {
  const typeInfo = new TypeInfo(schema);
  const literals: BlankedLiteral[] = [];
  let inDefault = false;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      VariableDefinition: {
        enter: () => void (inDefault = true),
        leave: () => void (inDefault = false),
      },
      StringValue(node) {
        const type = typeInfo.getInputType();
        if (node.loc && type && getNullableType(type) === GraphQLString) literals.push({ node, type, inDefault });
      },
    }),
  );
  if (literals.length === 0) return { text: query, literals };
  // the literals in the text's order, each cut out of it
  literals.sort((a, b) => a.node.loc!.start - b.node.loc!.start);
  let text = '';
  let at = 0;
  for (const { node } of literals) {
    text += `${query.slice(at, node.loc!.start)}""`;
    at = node.loc!.end;
  }
  return { text: text + query.slice(at), literals };
}
