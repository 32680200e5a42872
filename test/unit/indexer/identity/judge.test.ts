import { expect } from 'chai';
import { judgeDrop, judgeIdentity, type JudgeInput } from '../../../../src/indexer/identity/judge.ts';
import type { RecordedIdentity } from '../../../../src/db/queries/schema-identity.ts';

const MAIN = { url: 'http://main:3013', networkId: 'ae_mainnet', genesisHash: 'kh_main' };
const TEST = { url: 'http://test:3013', networkId: 'ae_uat', genesisHash: 'kh_test' };
const NOBODY = { uid: undefined, name: undefined };
const OURS = { uid: 'uid-a', name: 'prod/mainnet' };
const RECORDED: RecordedIdentity = {
  networkId: 'ae_mainnet',
  genesisHash: 'kh_main',
  ownerUid: 'uid-a',
  ownerName: 'prod/mainnet',
};

function input(over: Partial<JudgeInput> & { identity?: RecordedIdentity; storedGenesis?: string }): JudgeInput {
  const { identity, storedGenesis, ...rest } = over;
  return {
    schema: 'mdw_g1',
    facts: { applied: ['1010_schema_identity'], identity, storedGenesis, holdsConfiguration: false },
    nodes: [MAIN],
    owner: OURS,
    writes: true,
    ...rest,
  };
}

describe('judgeIdentity', () => {
  it('records the chain and the owner on a new schema, once a node told its chain', () => {
    expect(judgeIdentity(input({}))).to.deep.equal({ record: RECORDED });
  });

  it('records nothing new on a schema that holds all of it, and nothing for a reader', () => {
    expect(judgeIdentity(input({ identity: RECORDED }))).to.deep.equal({ record: undefined });
    expect(judgeIdentity(input({ writes: false }))).to.deep.equal({ record: undefined });
  });

  it('refuses a node of another network, naming both chains and the variable', () => {
    const verdict = judgeIdentity(input({ identity: RECORDED, nodes: [TEST], writes: false }));
    expect(verdict.refused).to.equal(
      'schema "mdw_g1" holds network ae_mainnet (genesis kh_main), but node http://test:3013 serves network ae_uat ' +
        '(genesis kh_test); fix NODE_URL, or DATABASE_SCHEMA to a schema of that chain',
    );
  });

  it('refuses nodes that serve different chains among themselves, even on a new schema', () => {
    const verdict = judgeIdentity(input({ nodes: [MAIN, TEST] }));
    expect(verdict.refused).to.match(
      /^the nodes serve different chains: node http:\/\/main:3013 .* http:\/\/test:3013/,
    );
    expect(verdict.refused).to.contain('NODE_URL and NODE_URLS');
  });

  it('refuses the same network id with another genesis (a devnet reset)', () => {
    const other = { ...MAIN, genesisHash: 'kh_reset' };
    expect(judgeIdentity(input({ identity: RECORDED, nodes: [other] })).refused).to.contain('genesis kh_reset');
  });

  it('adopts the node on a schema from before the identity when its stored genesis agrees, and refuses otherwise', () => {
    expect(judgeIdentity(input({ storedGenesis: 'kh_main', owner: NOBODY }))).to.deep.equal({
      record: { networkId: 'ae_mainnet', genesisHash: 'kh_main', ownerUid: null, ownerName: null },
    });
    expect(judgeIdentity(input({ storedGenesis: 'kh_main', nodes: [TEST] })).refused).to.equal(
      'schema "mdw_g1" holds a chain whose key block at height 0 is kh_main, but node http://test:3013 serves ' +
        'network ae_uat (genesis kh_test); fix NODE_URL, or DATABASE_SCHEMA to a schema of that chain',
    );
  });

  it("refuses another Middleware's schema to every role, naming both owners", () => {
    const other = { uid: 'uid-b', name: 'prod/testnet' };
    for (const writes of [true, false]) {
      expect(judgeIdentity(input({ identity: RECORDED, owner: other, writes })).refused).to.equal(
        'schema "mdw_g1" belongs to Middleware prod/mainnet (uid uid-a), not to prod/testnet (uid uid-b) ' +
          '(MIDDLEWARE_UID) that runs this; give this Middleware its own DATABASE_SCHEMA (its own schema prefix)',
      );
    }
  });

  it('lets a binary without an owner read an owned schema but not write into it', () => {
    expect(judgeIdentity(input({ identity: RECORDED, owner: NOBODY, writes: false }))).to.deep.equal({
      record: undefined,
    });
    expect(judgeIdentity(input({ identity: RECORDED, owner: NOBODY })).refused).to.contain(
      'runs without MIDDLEWARE_UID: it may read and verify an owned schema but not write into it',
    );
  });

  it('claims an unowned schema for the Middleware that writes it, keeping its chain', () => {
    const unowned = { ...RECORDED, ownerUid: null, ownerName: null };
    expect(judgeIdentity(input({ identity: unowned }))).to.deep.equal({ record: RECORDED });
  });

  it('checks only the owner when no node answered (a server whose node is away)', () => {
    expect(judgeIdentity(input({ identity: RECORDED, nodes: [], writes: false }))).to.deep.equal({ record: undefined });
    expect(judgeIdentity(input({ nodes: [], owner: NOBODY }))).to.deep.equal({ record: undefined });
  });
});

describe('judgeDrop', () => {
  it("refuses to drop another Middleware's schema, naming both", () => {
    expect(judgeDrop('mdw_g1', RECORDED, { uid: 'uid-b', name: 'prod/testnet' })).to.equal(
      'schema "mdw_g1" belongs to Middleware prod/mainnet (uid uid-a), not to prod/testnet (uid uid-b) ' +
        '(MIDDLEWARE_UID) that would drop it: nothing dropped; check DATABASE_SCHEMA (the schema prefix)',
    );
  });

  it('lets the owner drop its schema, anyone drop an unowned or absent one, and a drop by hand through', () => {
    expect(judgeDrop('mdw_g1', RECORDED, OURS)).to.equal(undefined);
    expect(judgeDrop('mdw_g1', { ...RECORDED, ownerUid: null, ownerName: null }, OURS)).to.equal(undefined);
    expect(judgeDrop('mdw_g1', undefined, OURS)).to.equal(undefined);
    expect(judgeDrop('mdw_g1', RECORDED, NOBODY)).to.equal(undefined);
  });
});
