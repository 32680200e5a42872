/** @module Tests of the -H height list parser. */
import { expect } from 'chai';
import { parseHeights, contiguousRuns, MAX_HEIGHTS, runsText } from '../../../src/indexer/sync/heights.ts';
import { AppError, ErrorCode } from '../../../src/base/errors.ts';

function failure(list: string): AppError {
  try {
    parseHeights(list);
  } catch (err) {
    return err as AppError;
  }
  throw new Error(`expected ${list} to be rejected`);
}

describe('parseHeights(list)', () => {
  it('expands singles and inclusive ranges, sorted and de-duplicated', () => {
    expect(parseHeights('1,3-4,6,100-103')).to.deep.equal([1, 3, 4, 6, 100, 101, 102, 103]);
    expect(parseHeights('5, 2-3 ,3,0')).to.deep.equal([0, 2, 3, 5]);
    expect(parseHeights('7-7')).to.deep.equal([7]);
  });

  for (const list of ['', ',', '1,,2', 'a', '1-', '-1', '3-1', '1.5', '1-2-3', '99999999999']) {
    it(`rejects ${JSON.stringify(list)} with CLI_BAD_HEIGHTS and status 400`, () => {
      const err = failure(list);
      expect(err).to.be.instanceOf(AppError);
      expect(err.code).to.equal(ErrorCode.CLI_BAD_HEIGHTS);
      expect(err.status).to.equal(400);
      expect(err.message).to.be.a('string').and.not.equal('');
    });
  }

  it('caps the expanded size', () => {
    expect(failure(`0-${MAX_HEIGHTS}`).message).to.match(/more than/);
  });
});

describe('contiguousRuns(heights)', () => {
  it('groups sorted heights into runs', () => {
    expect(contiguousRuns([1, 2, 3, 5, 7, 8])).to.deep.equal([
      [1, 3],
      [5, 5],
      [7, 8],
    ]);
    expect(contiguousRuns([])).to.deep.equal([]);
  });
});

describe('runsText(heights)', () => {
  it('writes a list as its runs, which parseHeights reads back to the same list (a reload is resumed by it)', () => {
    for (const list of ['0-5000,5010', '7', '1,3-4,6,100-103']) {
      const heights = parseHeights(list);
      expect(runsText(heights)).to.equal(list);
      expect(parseHeights(runsText(heights))).to.deep.equal(heights);
    }
    // two spellings of one list are one list
    expect(runsText(parseHeights('5,4,3'))).to.equal(runsText(parseHeights('3-5')));
  });
});
