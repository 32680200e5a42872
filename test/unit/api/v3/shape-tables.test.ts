import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import {
  buildSchema,
  graphql,
  GraphQLObjectType,
  GraphQLSchema,
  isObjectType,
  lexicographicSortSchema,
  printType,
  type GraphQLNamedType,
  isSpecifiedScalarType,
} from 'graphql';
import { V3_SCHEMAS } from '../../../../src/api/mdw/rest/api-document.ts';
import { EPOCH_REPORT_SCHEMA } from '../../../../src/api/status/current-epoch.ts';
import { openApiComponents, openApiField } from '../../../../src/api/mdw/rest/openapi-shapes.ts';
import { SCHEMA } from '../../../../src/api/mdw/graphql/schema.ts';
import { V3_SHAPES } from '../../../../src/api/mdw/rest/operations.ts';
import { graphqlTypeName, shapeType } from '../../../../src/api/mdw/graphql/shape-types.ts';
import {
  asGraphQL,
  big,
  camelName,
  id,
  int,
  list,
  nullable,
  object,
  only,
  shape,
  str,
  type ShapeValue,
} from '../../../../src/shapes/shape-table.ts';

/**
 * The /v3/api components and the GraphQL schema of main 91f676c, before the shapes were declared once
 * (test/fixtures/v3-shapes): every component and type it had is generated equal from the tables now. Key order and
 * the order of `required` and of a type's fields are not compared (neither API gives them a meaning).
 */
const FIXTURES = new URL('../../../fixtures/v3-shapes/', import.meta.url);
const OLD_COMPONENTS = JSON.parse(readFileSync(new URL('components-91f676c.json', FIXTURES), 'utf8')) as Record<
  string,
  unknown
>;
const OLD_SCHEMA = buildSchema(readFileSync(new URL('schema-91f676c.graphql', FIXTURES), 'utf8'));

/** canonical sorts objects' keys and `required` lists. */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => [k, k === 'required' && Array.isArray(v) ? [...(v as string[])].sort() : canonical(v)]),
  );
}

function printed(sorted: GraphQLSchema, name: string): string | undefined {
  const type: GraphQLNamedType | undefined = sorted.getType(name) ?? undefined;
  return type && printType(type);
}

/**
 * CHANGED: the components changed on purpose since 91f676c, each as the change made to 91f676c's (issue 45): /v3/stats
 * answers `validators_count` instead of `miners_count` on a hyperchain, so neither is required; /v3/status shows a
 * hyperchain's current epoch (`mdw_epoch`, absent on another chain), (issue 59) whether the node answered it
 * (`mdw_node_reachable`), and the AEX-9 tokens read from their state (`mdw_aex9_state_tokens`, issue 58); (issue 76)
 * ContractCall is ae_mdw's internal call, whose `function` is always named and whose `internal_tx` is the node's
 * transaction the operation amounts to (no `arguments`): the calls held as transactions moved to ContractCallTransaction;
 * /v3/status says which calls no dry-run told (`mdw_incomplete_areas`); (issue 87) what the populator's start-up probe
 * found its nodes allow (`mdw_node_gaps`); (issue 88) the indexes and tables a catch-up from genesis builds at the
 * top (`mdw_deferred_builds`), and the stored heights the populator's start reloads (`mdw_pending_repairs`).
 */
/** a node of /v3/status's mdw_node_gaps (issue 87): its findings, each on, off or unknown, its gaps and configuration */
const FINDINGS = ['dry_run', 'internal_dry_run', 'debug_endpoints', 'gas_cap', 'dry_run_time_limit', 'state_history'];
const NODE_GAPS_NODE = {
  type: 'object',
  additionalProperties: false,
  required: ['node', ...FINDINGS, 'gaps', 'config'],
  properties: {
    node: { type: 'integer' },
    ...Object.fromEntries(FINDINGS.map((f) => [f, { type: 'string', enum: ['on', 'off', 'unknown'] }])),
    gaps: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['area', 'because'],
        properties: { area: { type: 'string' }, because: { type: 'array', items: { type: 'string' } } },
      },
    },
    config: { type: 'string' },
  },
};

const CHANGED: Readonly<Record<string, (old: Record<string, unknown>) => Record<string, unknown>>> = {
  ContractCall: (old) => {
    const properties = old.properties as Record<string, Record<string, unknown>>;
    const { nullable: _nullable, ...fname } = properties.function!;
    const internal = properties.internal_tx!;
    const { arguments: _arguments, ...internalProperties } = internal.properties as Record<string, unknown>;
    return {
      ...old,
      properties: {
        ...properties,
        function: fname,
        internal_tx: { ...internal, properties: internalProperties, required: ['type'] },
      },
    };
  },
  Stats: (old) => ({
    ...old,
    required: (old.required as string[]).filter((key) => key !== 'miners_count'),
    properties: { ...(old.properties as object), validators_count: { type: 'integer' } },
  }),
  Status: (old) => ({
    ...old,
    required: [
      ...(old.required as string[]),
      'mdw_node_reachable',
      'mdw_aex9_state_tokens',
      'mdw_incomplete_areas',
      'mdw_deferred_builds',
      'mdw_pending_repairs',
      'mdw_node_gaps',
    ],
    properties: {
      ...(old.properties as object),
      mdw_epoch: EPOCH_REPORT_SCHEMA,
      mdw_node_reachable: { type: 'boolean' },
      mdw_aex9_state_tokens: { type: 'integer' },
      mdw_incomplete_areas: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          properties: Object.fromEntries(
            ['area', 'calls', 'first_height', 'last_height', 'reason'].map((k) => [
              k,
              { type: k === 'area' || k === 'reason' ? 'string' : 'integer' },
            ]),
          ),
          required: ['area', 'calls', 'first_height', 'last_height', 'reason'],
        },
      },
      mdw_deferred_builds: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          properties: Object.fromEntries(['name', 'kind', 'state', 'since'].map((k) => [k, { type: 'string' }])),
          required: ['kind', 'name', 'since', 'state'],
        },
      },
      mdw_pending_repairs: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          properties: Object.fromEntries(
            ['repair', 'stage', 'heights', 'first_height', 'last_height'].map((k) => [
              k,
              { type: k === 'repair' || k === 'stage' ? 'string' : 'integer' },
            ]),
          ),
          required: ['first_height', 'heights', 'last_height', 'repair', 'stage'],
        },
      },
      mdw_node_gaps: {
        type: 'object',
        nullable: true,
        additionalProperties: false,
        required: ['probed_at', 'gaps', 'nodes'],
        properties: {
          probed_at: { type: 'string' },
          gaps: { type: 'array', items: { type: 'string' } },
          nodes: { type: 'array', items: NODE_GAPS_NODE },
        },
      },
    },
  }),
};

/** ADDED_FIELDS: the GraphQL fields added on purpose since 91f676c, by type (issue 45's `validatorsCount`). */
const ADDED_FIELDS: Readonly<Record<string, readonly string[]>> = { Stats: ['  validatorsCount: Int'] };

describe('shape tables', () => {
  it("generate every /v3/api component of 91f676c's document equal (or changed as CHANGED says)", () => {
    for (const [name, schema] of Object.entries(OLD_COMPONENTS)) {
      const expected = CHANGED[name]?.(schema as Record<string, unknown>) ?? schema;
      expect(canonical(V3_SCHEMAS[name]), name).to.deep.equal(canonical(expected));
    }
  });

  it("generate every GraphQL type of 91f676c's schema equal (the query type: every field it had)", () => {
    const sortedNew = lexicographicSortSchema(SCHEMA);
    const sortedOld = lexicographicSortSchema(OLD_SCHEMA);
    for (const type of Object.values(OLD_SCHEMA.getTypeMap())) {
      // an SDL cannot redefine graphql-js's own scalars (our Int is one of ae_mdw's): scalars.test checks them
      if (type.name.startsWith('__') || isSpecifiedScalarType(type)) continue;
      if (type.name === 'RootQueryType' && isObjectType(type)) {
        const query = sortedNew.getQueryType()!.getFields();
        for (const [field, config] of Object.entries(type.getFields())) {
          expect(query[field]?.type.toString(), field).to.equal(config.type.toString());
          expect(
            query[field]!.args.map((a) => `${a.name}: ${a.type.toString()}`),
            field,
          ).to.deep.equal(config.args.map((a) => `${a.name}: ${a.type.toString()}`));
        }
        continue;
      }
      const added = new Set(ADDED_FIELDS[type.name] ?? []);
      const now = printed(sortedNew, type.name)
        ?.split('\n')
        .filter((line) => !added.has(line))
        .join('\n');
      expect(now, type.name).to.equal(printed(sortedOld, type.name));
    }
  });

  it('map each JSON type to its OpenAPI schema', () => {
    expect(openApiField(int)).to.deep.equal({ type: 'integer' });
    expect(openApiField(id('ak'))).to.deep.equal({ type: 'string', pattern: '^ak_' });
    expect(openApiField(nullable(str))).to.deep.equal({ type: 'string', nullable: true });
    expect(openApiField(big)).to.deep.equal({
      oneOf: [{ type: 'integer' }, { type: 'string', pattern: '^-?[0-9]+$' }],
    });
    // null goes with the bare integer: a JSON integer or its text, or null
    expect(openApiField(nullable(big))).to.deep.equal({
      oneOf: [
        { type: 'integer', nullable: true },
        { type: 'string', pattern: '^-?[0-9]+$' },
      ],
    });
    expect(openApiField(list(str))).to.deep.equal({ type: 'array', items: { type: 'string' } });
    expect(openApiField(object({ a: int }, true))).to.deep.equal({
      type: 'object',
      required: ['a'],
      properties: { a: { type: 'integer' } },
      additionalProperties: false,
    });
  });

  it('map each JSON type to its GraphQL type, where the table gives none', () => {
    expect(graphqlTypeName(int)).to.equal('Int');
    expect(graphqlTypeName(big)).to.equal('BigInt');
    expect(graphqlTypeName(list(int))).to.equal('[Int]');
    expect(graphqlTypeName(list())).to.equal('[JSON]');
    expect(graphqlTypeName(object({ a: int }))).to.equal('JSON');
    expect(graphqlTypeName(asGraphQL('Int', big))).to.equal('Int');
    expect(camelName('last_24hs_transactions')).to.equal('last24hsTransactions');
    expect(camelName('micro_block_index')).to.equal('microBlockIndex');
  });

  it("lists a field only in its API, and a GraphQL field reads its REST key (or the table's `from`)", async () => {
    const s = shape(
      { openapi: 'Thing', graphql: ['Thing', 'SameThing'] },
      {
        block_height: int,
        rest_only: only('openapi', str),
        gql_only: only('graphql', str),
        synced: { ...only('graphql', str), from: 'block_height' },
      },
    );
    const component = openApiComponents([s]).Thing as { required: string[] };
    expect(component.required).to.deep.equal(['block_height', 'rest_only']);
    expect(shapeType(s, {}, 'SameThing').name).to.equal('SameThing');
    expect(() => shapeType(s)).to.throw(/no GraphQL name/);
    const thing = shapeType(s, {}, 'Thing');
    expect(Object.keys(thing.getFields())).to.deep.equal(['blockHeight', 'gqlOnly', 'synced']);
    // a GraphQL name's type is made once: the same table gives it again, another table or other fields are refused
    expect(shapeType(s, {}, 'Thing')).to.equal(thing);
    const other = { ...s, fields: { block_height: int } };
    expect(() => shapeType(other, {}, 'Thing')).to.throw(/made once/);
    expect(() => shapeType(s, { more: { type: thing } }, 'Thing')).to.throw(/made once/);
    const run = new GraphQLSchema({
      query: new GraphQLObjectType({
        name: 'Query',
        fields: { thing: { type: thing, resolve: () => ({ block_height: 7, gql_only: 'x', rest_only: 'r' }) } },
      }),
    });
    const answer = await graphql({ schema: run, source: '{ thing { blockHeight gqlOnly synced } }' });
    expect(answer).to.deep.equal({ data: { thing: { blockHeight: 7, gqlOnly: 'x', synced: '7' } } });
  });

  it("answers an NFT's `owner` in GraphQL with the REST answer's owner_id (91f676c answered null)", async () => {
    const { AEX141_TOKEN_DETAIL } = await import('../../../../src/shapes/v3/shapes-aex141.ts');
    const Aex141TokenWithMetadata = shapeType(AEX141_TOKEN_DETAIL);
    const detail = { contract_id: 'ct_x', owner_id: 'ak_owner', token_id: 3, metadata: null };
    const run = new GraphQLSchema({
      query: new GraphQLObjectType({
        name: 'Query',
        fields: { token: { type: Aex141TokenWithMetadata, resolve: () => detail } },
      }),
    });
    const answer = await graphql({ schema: run, source: '{ token { owner contractId tokenId } }' });
    expect(answer).to.deep.equal({ data: { token: { owner: 'ak_owner', contractId: 'ct_x', tokenId: 3 } } });
  });

  it('has one table per OpenAPI and GraphQL name', () => {
    const openapi = V3_SHAPES.flatMap((s) => (s.openapi ? [s.openapi] : []));
    const graphqlNames = V3_SHAPES.flatMap((s) => s.graphql ?? []);
    expect(new Set(openapi).size).to.equal(openapi.length);
    expect(new Set(graphqlNames).size).to.equal(graphqlNames.length);
    for (const s of V3_SHAPES) expect(Object.keys(s.fields).length, s.openapi).to.be.above(0);
  });

  it("type a renderer's object by its table: every field the component lists, of its JSON type", () => {
    const swap = { caller: 'ak_a', amount: 1n, fee: null, hidden: 'x' };
    const table = shape(
      { openapi: 'Swap' },
      { caller: id('ak'), amount: big, fee: nullable(int), hidden: only('graphql', str) },
    );
    const { hidden: _hidden, ...rest } = swap;
    const typed: ShapeValue<typeof table> = rest;
    // the keys the type asks for are the component's
    expect(Object.keys(typed)).to.deep.equal((openApiComponents([table]).Swap as { required: string[] }).required);
    // @ts-expect-error a field the component lists is missing
    const missing: ShapeValue<typeof table> = { caller: 'ak_a', amount: 1n };
    // @ts-expect-error a field of another JSON type
    const wrong: ShapeValue<typeof table> = { caller: 'ak_a', amount: 'one', fee: null };
    expect([missing, wrong]).to.have.length(2);
  });
});
