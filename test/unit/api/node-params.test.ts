import { expect } from 'chai';
import { answerKey } from '../../../src/api/http/middleware/cached-answers.ts';
import { intAsStringParam } from '../../../src/api/http/node-params.ts';

describe("the node's /v3 int-as-string parameter", () => {
  it('reads true and false in any case, a bare flag as true, and absence as false', () => {
    expect(intAsStringParam('')).to.equal(false);
    expect(intAsStringParam('limit=1')).to.equal(false);
    expect(intAsStringParam('int-as-string=true')).to.equal(true);
    expect(intAsStringParam('a=b&int-as-string=TrUe')).to.equal(true);
    expect(intAsStringParam('int-as-string=false')).to.equal(false);
    expect(intAsStringParam('int-as-string')).to.equal(true);
    expect(intAsStringParam('int%2Das%2Dstring=%74rue')).to.equal(true);
  });
  it('takes the first occurrence, as the node does', () => {
    expect(intAsStringParam('int-as-string=false&int-as-string=true')).to.equal(false);
    expect(intAsStringParam('int-as-string=x&int-as-string=true')).to.deep.equal({ invalid: 'x' });
  });
  it('refuses anything else with its text, decoded', () => {
    expect(intAsStringParam('int-as-string=1')).to.deep.equal({ invalid: '1' });
    expect(intAsStringParam('int-as-string=')).to.deep.equal({ invalid: '' });
    expect(intAsStringParam('int-as-string=tr+ue')).to.deep.equal({ invalid: 'tr ue' });
    expect(intAsStringParam('int-as-string=%zz')).to.deep.equal({ invalid: '%zz' });
  });
});

describe('answerKey: where a cached node answer is kept in memory', () => {
  it('keys /v2 by path alone, the query being no part of its answer', () => {
    expect(answerKey('/v2/key-blocks/height/3', 'int-as-string=true', true)).to.equal('/v2/key-blocks/height/3');
  });
  it("keys the node's /v3 by path and int-as-string, and keeps nothing for a refused flag", () => {
    expect(answerKey('/v3/key-blocks/height/3', '', true)).to.equal('/v3/key-blocks/height/3');
    expect(answerKey('/v3/key-blocks/height/3', 'int-as-string=false&x=1', true)).to.equal('/v3/key-blocks/height/3');
    expect(answerKey('/v3/key-blocks/height/3', 'int-as-string=TRUE', true)).to.equal(
      '/v3/key-blocks/height/3?int-as-string',
    );
    expect(answerKey('/v3/key-blocks/height/3', 'int-as-string=no', true)).to.equal(undefined);
  });
  it('keeps nothing of ae_mdw (ROOT_V3=mdw) or of any other path', () => {
    expect(answerKey('/v3/key-blocks/height/3', '', false)).to.equal(undefined);
    expect(answerKey('/mdw/v3/key-blocks', '', true)).to.equal(undefined);
    expect(answerKey('/middleware/status', '', true)).to.equal(undefined);
  });
});
