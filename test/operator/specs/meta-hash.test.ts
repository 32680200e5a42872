/** @module Table tests of names, selectors and input hashes. */
import { expect } from 'chai';
import {
  boundedName,
  childName,
  labelValue,
  schemaName,
  serverPodSelector,
  selectorFor,
  writerLeaseName,
} from '../../../src/operator/specs/meta.ts';
import { canonicalJson, hashInputs, inputHashOf, isUpToDate, withInputHash } from '../../../src/operator/specs/hash.ts';
import { buildServerDeployment } from '../../../src/operator/specs/server-deployment.ts';
import { aMiddleware, contextOf } from './fixtures.ts';

describe('boundedName', () => {
  const long = 'a'.repeat(70);
  const cases: { parts: string[]; expected?: string }[] = [
    { parts: ['mainnet', 'server', 'g1'], expected: 'mainnet-server-g1' },
    { parts: ['x'.repeat(63)], expected: 'x'.repeat(63) },
    { parts: [long, 'server', 'g1'] },
    { parts: [long, 'server', 'g2'] },
  ];
  for (const c of cases) {
    it(`keeps ${c.parts.join('-').slice(0, 20)}… within 63 characters`, () => {
      const name = boundedName(c.parts);
      expect(name.length).to.be.at.most(63);
      if (c.expected) expect(name).to.equal(c.expected);
      else expect(name).to.match(/^a+-[0-9a-f]{8}$/);
    });
  }
  it('gives different long names different hash suffixes', () => {
    expect(boundedName([long, 'server', 'g1'])).not.to.equal(boundedName([long, 'server', 'g2']));
  });
  it('never ends the cut part with a dash', () => {
    expect(boundedName(['a'.repeat(53), '-b'.repeat(10)])).not.to.match(/--/);
  });
});

describe('names and selectors', () => {
  const mw = aMiddleware();
  it('names children after the instance', () => {
    expect(childName(mw, 'populator', 'g3')).to.equal('mainnet-populator-g3');
    expect(writerLeaseName(mw, 3)).to.equal('mainnet-writer-g3');
    expect(labelValue('y'.repeat(100))).to.have.length(63);
  });
  it('puts generation g in schema <prefix><g> (by default its own, <name>_g)', () => {
    expect(schemaName(contextOf(mw).spec, 7)).to.equal('mainnet_g7');
  });
  it('selects one generation only when asked, and never on descriptive labels', () => {
    expect(selectorFor(mw, 'server')).not.to.have.property('middleware.aeternity.io/generation');
    expect(selectorFor(mw, 'server', 2)).to.include({ 'middleware.aeternity.io/generation': '2' });
    expect(Object.keys(selectorFor(mw, 'server', 2))).not.to.include('app.kubernetes.io/managed-by');
  });
  it('renders status.selector sorted, so it is stable', () => {
    expect(serverPodSelector(mw, 4)).to.equal(
      'app.kubernetes.io/component=server,app.kubernetes.io/instance=mainnet,app.kubernetes.io/name=aeternity-middleware,' +
        'middleware.aeternity.io/generation=4',
    );
  });
});

describe('input hash', () => {
  it('ignores key order and undefined members', () => {
    expect(hashInputs({ a: 1, b: [1, { c: 2, d: undefined }] })).to.equal(hashInputs({ b: [1, { c: 2 }], a: 1 }));
    expect(canonicalJson({ b: 1, a: 2 })).to.equal('{"a":2,"b":1}');
  });
  it('changes with the content', () => {
    expect(hashInputs({ a: 1 })).not.to.equal(hashInputs({ a: 2 }));
  });
  it('is unaffected by a stale hash annotation already on the object', () => {
    const desired = buildServerDeployment(contextOf(aMiddleware()), 1);
    expect(withInputHash(desired)).to.deep.equal(desired);
  });
  it('tells an unchanged child from a changed or foreign one', () => {
    const desired = buildServerDeployment(contextOf(aMiddleware()), 1);
    const scaled = buildServerDeployment(contextOf(aMiddleware({ server: { replicas: 5 } })), 1);
    expect(isUpToDate(desired, desired)).to.equal(true);
    expect(isUpToDate(desired, scaled)).to.equal(false);
    expect(isUpToDate(undefined, desired)).to.equal(false);
    expect(inputHashOf({ ...desired, metadata: { name: 'x' } })).to.equal(undefined);
  });
});
