import { expect } from 'chai';
import { GraphQLObjectType, GraphQLSchema, GraphQLString, parse, specifiedRules, validate } from 'graphql';
import {
  IntrospectionCountRule,
  MAX_INTROSPECTION_FIELDS,
} from '../../../../src/api/mdw/graphql/introspection-rule.ts';

const schema = new GraphQLSchema({
  query: new GraphQLObjectType({ name: 'Query', fields: { hash: { type: GraphQLString } } }),
});

function errors(source: string): string[] {
  return validate(schema, parse(source), [...specifiedRules, IntrospectionCountRule]).map((e) => e.message);
}

const aliases = (n: number, field: string, prefix = 'a') =>
  Array.from({ length: n }, (_, i) => `${prefix}${i}: ${field}`).join(' ');

describe('GraphQL introspection fields bounded per document (introspection-rule.ts)', () => {
  it("lets a client's introspection query and a few type lookups through", () => {
    expect(errors('{ __schema { types { name fields { name } } } __typename hash }')).to.deep.equal([]);
    expect(errors(`{ ${aliases(MAX_INTROSPECTION_FIELDS, '__type(name: "Query") { name }')} }`)).to.deep.equal([]);
  });

  it('refuses more, aliased or written in fragments, once', () => {
    const refused = `more than ${MAX_INTROSPECTION_FIELDS} introspection fields (__schema, __type) in one document`;
    expect(errors(`{ ${aliases(700, '__schema { types { name } }')} }`)).to.deep.equal([refused]);
    const spread = `{ ...A ...B } fragment A on Query { ${aliases(6, '__schema { queryType { name } }')} }`;
    expect(
      errors(`${spread} fragment B on Query { ${aliases(5, '__type(name: "Query") { name }', 'b')} }`),
    ).to.deep.equal([refused]);
  });

  it('leaves __typename free', () => {
    expect(errors(`{ ${aliases(700, '__typename')} }`)).to.deep.equal([]);
  });
});
