import { expect } from 'chai';
import { isDatabaseUnavailable } from '../../../src/db/connection/errors.ts';

/** An error as pg produces it: a message and, for server errors and sockets, a code. */
function pgError(message: string, code?: string): Error {
  return Object.assign(new Error(message), code ? { code } : {});
}

describe('isDatabaseUnavailable(err)', () => {
  it('recognises a database that is away: shut down, restarting, terminated, unreachable, read-only, full', () => {
    for (const err of [
      pgError('terminating connection due to administrator command', '57P01'),
      pgError('the database system is shutting down', '57P03'),
      pgError('the database system is starting up', '57P03'),
      pgError('connection failure', '08006'),
      pgError('sorry, too many clients already', '53300'),
      pgError('cannot execute INSERT in a read-only transaction', '25006'),
      pgError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      pgError('read ECONNRESET', 'ECONNRESET'),
      pgError('Connection terminated unexpectedly'),
      pgError('timeout exceeded when trying to connect'),
      pgError('Client has encountered a connection error and is not queryable'),
    ])
      expect(isDatabaseUnavailable(err), err.message).to.equal(true);
  });

  it('follows the cause of a wrapping error', () => {
    const wrapped = new Error('reading the status failed', { cause: pgError('x', '57P01') });
    expect(isDatabaseUnavailable(wrapped)).to.equal(true);
  });

  it('leaves bugs and bad queries alone: they are 500s and must be seen', () => {
    for (const err of [
      pgError('syntax error at or near "SELEC"', '42601'),
      pgError('invalid byte sequence for encoding "UTF8": 0x00', '22021'),
      pgError('duplicate key value violates unique constraint', '23505'),
      new TypeError("Cannot read properties of undefined (reading 'height')"),
      undefined,
      'a string',
    ])
      expect(isDatabaseUnavailable(err), String(err)).to.equal(false);
  });
});
