/** @module Issue 38: each Middleware's schemas under a prefix of its own, and those that ran on `mdw_g` keep it. */
import { expect } from 'chai';
import type { Middleware } from '../../../src/operator/api/middleware-types.ts';
import { PATTERNS } from '../../../src/operator/api/patterns.ts';
import {
  LEGACY_SCHEMA_PREFIX,
  defaultSchemaPrefix,
  schemaPrefixChange,
  schemaPrefixOf,
} from '../../../src/operator/api/schema-prefix.ts';
import { aMiddleware } from '../specs/fixtures.ts';

const withPrefix = (schemaPrefix: string | undefined, status?: Middleware['status']): Middleware => ({
  ...aMiddleware({ database: { urlSecretRef: { name: 'mdw-db', key: 'url' }, schemaPrefix } }),
  ...(status === undefined ? {} : { status }),
});

describe('defaultSchemaPrefix', () => {
  it("is the name's own, a PostgreSQL identifier of at most 53 characters, distinct for distinct names", () => {
    expect(defaultSchemaPrefix('mainnet')).to.equal('mainnet_g');
    expect(defaultSchemaPrefix('ae-uat-2')).to.equal('ae_uat_2_g');
    const long = (c: string) => `a${'-b'.repeat(29)}${c}`; // 61 characters, differing at the end only
    const [x, y] = [defaultSchemaPrefix(long('x')), defaultSchemaPrefix(long('y'))];
    for (const p of [x, y]) {
      expect(p).to.match(new RegExp(PATTERNS.schemaPrefix));
      expect(p.length).to.be.at.most(53);
    }
    expect(x).to.not.equal(y);
  });
});

describe('schemaPrefixOf', () => {
  it('takes the spec, else the recorded one, else mdw_g for a Middleware that already served, else its own', () => {
    expect(schemaPrefixOf(withPrefix('custom_'))).to.equal('custom_');
    expect(schemaPrefixOf(withPrefix(undefined, { schemaPrefix: 'mainnet_g', activeGeneration: 2 }))).to.equal(
      'mainnet_g',
    );
    // a Middleware the previous operator ran (its default was mdw_g, and it recorded no prefix) keeps its schemas
    expect(schemaPrefixOf(withPrefix(undefined, { activeGeneration: 3 }))).to.equal(LEGACY_SCHEMA_PREFIX);
    expect(schemaPrefixOf(withPrefix(undefined))).to.equal('mainnet_g');
  });
  it('refuses a spec prefix other than the one its schemas live under', () => {
    expect(schemaPrefixChange(withPrefix('other_g', { schemaPrefix: 'mdw_g' }))).to.contain('live under mdw_g');
    expect(schemaPrefixChange(withPrefix('mdw_g', { schemaPrefix: 'mdw_g' }))).to.equal(undefined);
    expect(schemaPrefixChange(withPrefix(undefined, { schemaPrefix: 'mdw_g' }))).to.equal(undefined);
  });
});
