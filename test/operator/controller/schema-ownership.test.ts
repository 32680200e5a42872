/** @module Issue 38: whose schema is whose on a shared database, and which Middleware is refused (pure). */
import { expect } from 'chai';
import type { Middleware } from '../../../src/operator/api/middleware-types.ts';
import type { SchemaReport } from '../../../src/operator/controller/database-report.ts';
import {
  collisionOf,
  ownershipOf,
  prefixesOverlap,
  sharesDatabase,
} from '../../../src/operator/controller/schema-ownership.ts';
import { aMiddleware } from '../specs/fixtures.ts';

/** mw is a Middleware named `name` created at `minute`, on Secret `secret`, with `schemaPrefix` (unset: its own). */
function mw(name: string, minute: number, schemaPrefix?: string, secret = 'mdw-db'): Middleware {
  const m = aMiddleware(
    {
      database: { urlSecretRef: { name: secret, key: 'url' }, ...(schemaPrefix === undefined ? {} : { schemaPrefix }) },
    },
    name,
  );
  const creationTimestamp = new Date(Date.UTC(2026, 0, 1, 0, minute));
  return { ...m, metadata: { ...m.metadata, uid: `uid-${name}`, creationTimestamp } };
}

function schema(name: string, owner?: { uid: string; name: string }): SchemaReport {
  return {
    name,
    generation: Number(/\d+$/.exec(name)?.[0]),
    bytes: 1,
    migrated: true,
    height: 10,
    ...(owner === undefined ? {} : { owner_uid: owner.uid, owner_name: owner.name }),
  };
}

describe('prefixesOverlap', () => {
  it('is true when one schema name is a generation of both prefixes', () => {
    expect(prefixesOverlap('mdw_g', 'mdw_g')).to.equal(true);
    expect(prefixesOverlap('mdw_g', 'mdw_g1')).to.equal(true); // mdw_g12 is generation 12 and generation 2
    expect(prefixesOverlap('mdw_g1', 'mdw_g')).to.equal(true);
    expect(prefixesOverlap('mdw_g', 'mdw_gx')).to.equal(false);
    expect(prefixesOverlap('mainnet_g', 'testnet_g')).to.equal(false);
    expect(prefixesOverlap('main_g', 'main_g_g')).to.equal(false);
  });
});

describe('collisionOf', () => {
  it('refuses the later of two Middlewares on one database Secret whose prefixes overlap, never the first', () => {
    const first = mw('mainnet', 1, 'mdw_g');
    const second = mw('testnet', 2, 'mdw_g');
    const all = [first, second];
    expect(collisionOf(second, all)?.metadata.name).to.equal('mainnet');
    expect(collisionOf(first, all)).to.equal(undefined);
    expect(collisionOf(mw('testnet', 2, 'mdw_g1'), [first])?.metadata.name).to.equal('mainnet');
  });
  it('lets Middlewares with their own prefixes, or on other databases, be', () => {
    const first = mw('mainnet', 1);
    expect(collisionOf(mw('testnet', 2), [first])).to.equal(undefined);
    expect(collisionOf(mw('testnet', 2, 'mdw_g', 'other-db'), [mw('mainnet', 1, 'mdw_g')])).to.equal(undefined);
    expect(sharesDatabase(mw('a', 1, undefined, 'x'), mw('b', 1, undefined, 'x'))).to.equal(true);
  });
  it('breaks a tie of creation times by name, so both agree on who came first', () => {
    const [a, b] = [mw('alpha', 1, 'mdw_g'), mw('beta', 1, 'mdw_g')];
    expect(collisionOf(b, [a, b])?.metadata.name).to.equal('alpha');
    expect(collisionOf(a, [a, b])).to.equal(undefined);
  });
});

describe('ownershipOf', () => {
  const me = mw('mainnet', 1, 'mdw_g');
  it('reads the owner the schema records', () => {
    expect(ownershipOf(schema('mdw_g1', { uid: 'uid-mainnet', name: 'chain/mainnet' }), me, [me]).kind).to.equal('own');
    const theirs = ownershipOf(schema('mdw_g1', { uid: 'uid-testnet', name: 'chain/testnet' }), me, [me]);
    expect(theirs).to.deep.equal({ kind: 'other', owner: 'chain/testnet (uid uid-testnet)' });
  });
  it('takes a schema of its own name whose owner no longer lives (re-created, restored) as its own', () => {
    const former = schema('mdw_g1', { uid: 'uid-gone', name: 'chain/mainnet' });
    expect(ownershipOf(former, me, [me]).kind).to.equal('own');
    // but not when that uid is another live Middleware's
    const live = { ...mw('mainnet', 0, 'mdw_g', 'other-db'), metadata: { ...me.metadata, uid: 'uid-gone' } };
    expect(ownershipOf(former, me, [me, live]).kind).to.equal('other');
  });
  it('takes a schema that records no owner as its own only when no other Middleware of the database could have made it', () => {
    expect(ownershipOf(schema('mdw_g1'), me, [me]).kind).to.equal('own');
    expect(ownershipOf(schema('mdw_g1'), me, [me, mw('testnet', 2, 'testnet_g')]).kind).to.equal('own');
    const unknown = ownershipOf(schema('mdw_g1'), me, [me, mw('testnet', 2, 'mdw_g')]);
    expect(unknown.kind).to.equal('unknown');
    expect(unknown.kind === 'unknown' && unknown.why).to.contain('chain/testnet');
  });
});
