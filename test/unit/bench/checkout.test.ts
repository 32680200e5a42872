/**
 * @module The commit a release's A/B compares with (bench/checkout.lib.ts): the newest release CHANGELOG.md names, and
 * whether the working tree's node_modules can run an older commit's code.
 */
import { expect } from 'chai';
import { lockCovers, newestRelease, releaseCommit } from '../../../bench/checkout.lib.ts';

describe('bench checkout of an older commit', () => {
  it('newestRelease is the first release heading below "Unreleased"', () => {
    expect(newestRelease('# Changelog\n\n## Unreleased\n\n- x\n\n## 0.2.0\n\n## 0.1.0\n')).to.equal('0.2.0');
    expect(newestRelease('# Changelog\n\n## 0.3.1\n\n## 0.3.0\n')).to.equal('0.3.1');
    expect(() => newestRelease('# Changelog\n\n## Unreleased\n')).to.throw('names no release');
  });

  it('lockCovers: every package the older lock pins, at the same version, in the newer one', () => {
    const newer = { '': { version: '2.0.0' }, 'node_modules/pg': { version: '8.1.0' }, 'node_modules/x': {} };
    expect(lockCovers({ '': { version: '1.0.0' }, 'node_modules/pg': { version: '8.1.0' } }, newer)).to.equal(true);
    expect(lockCovers({ 'node_modules/pg': { version: '8.0.0' } }, newer)).to.equal(false);
    expect(lockCovers({ 'node_modules/y': { version: '1.0.0' } }, newer)).to.equal(false);
  });

  it('releaseCommit finds the commit of the release this repository names', () => {
    const { version, commit } = releaseCommit(new URL('../../..', import.meta.url).pathname);
    expect(version).to.match(/^\d+\.\d+\.\d+/);
    expect(commit).to.match(/^[0-9a-f]{40}$/);
  });
});
