/** @module Issue 14 item 10: every node of the CRD's schema has a description, generated from the types' doc comments. */
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { middlewareOpenApiSchema, schemaPaths } from '../../../src/operator/api/crd.ts';
import type { JsonSchema } from '../../../src/operator/api/crd-schema.ts';
import { expectGoldenText } from '../specs/golden.ts';
import { fieldDocsFromTypes, renderFieldDocs } from './field-docs-source.ts';

const FIELD_DOCS = fileURLToPath(new URL('../../../src/operator/api/field-docs.ts', import.meta.url));

describe('field descriptions of the CRD (kubectl explain)', function () {
  this.timeout(60_000); // the TypeScript compiler reads the types

  it('are generated from the doc comments of middleware-types.ts (UPDATE_GOLDEN=1 regenerates)', async () => {
    const paths = new Set(schemaPaths(middlewareOpenApiSchema()));
    expectGoldenText(FIELD_DOCS, await renderFieldDocs(fieldDocsFromTypes(paths), FIELD_DOCS));
  });

  it('describe every node of the schema', () => {
    const schema = middlewareOpenApiSchema();
    const missing = schemaPaths(schema).filter((path) => {
      let node: JsonSchema | undefined = schema;
      for (const step of path.match(/\.[^.[{]+|\[\]|\{\}/g) ?? []) {
        if (step === '[]') node = node?.items as JsonSchema | undefined;
        else if (step === '{}') node = node?.additionalProperties as JsonSchema | undefined;
        else node = (node?.properties as Record<string, JsonSchema> | undefined)?.[step.slice(1)];
      }
      return typeof node?.description !== 'string' || node.description === '';
    });
    // the root's metadata takes no description: the API server refuses one there (it serves metadata's own schema)
    expect(missing).to.deep.equal(['.metadata']);
  });
});
