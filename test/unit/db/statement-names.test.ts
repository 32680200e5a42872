import { expect } from 'chai';
import { StatementNames } from '../../../src/db/connection/statement-names.ts';

describe('StatementNames', () => {
  it('gives the same text the same name and different texts different names', () => {
    const names = new StatementNames('mdw_x', 8);
    const a = names.nameOf('SELECT 1');
    const b = names.nameOf('SELECT 2');
    expect(a)
      .to.be.a('string')
      .and.match(/^mdw_x_/);
    expect(b).to.be.a('string').and.not.equal(a);
    expect(names.nameOf('SELECT 1')).to.equal(a);
  });

  it('names at most `max` texts: later ones run unnamed, named ones keep their names', () => {
    const names = new StatementNames('mdw_x', 2);
    const first = names.nameOf('SELECT 1');
    const second = names.nameOf('SELECT 2');
    expect(names.nameOf('SELECT 3')).to.equal(undefined);
    expect(names.nameOf('SELECT 4')).to.equal(undefined);
    expect([names.nameOf('SELECT 1'), names.nameOf('SELECT 2')]).to.deep.equal([first, second]);
  });

  it('keeps the names of two instances apart by their prefixes', () => {
    const [a, b] = [new StatementNames('mdw_a', 4), new StatementNames('mdw_b', 4)];
    expect(a.nameOf('SELECT 1')).to.not.equal(b.nameOf('SELECT 1'));
  });
});
