/**
 * @module The arithmetic of the benches that count instructions (bench/instructions.lib.ts,
 * bench/postgres-count.lib.ts): a cost per transaction from two chains' counts, and the counted server's backends
 * told apart by their application names in its log, each net of the postmaster's count.
 */
import { expect } from 'chai';
import pino from 'pino';
import { logWarnings, ownPerTransaction, perUnit } from '../../../bench/instructions.lib.ts';
import { backendApplications, loadInstructions, netByApplication } from '../../../bench/postgres-count.lib.ts';

describe('bench instruction counts', () => {
  it('perUnit is the difference of the counts over the difference of the units: what both runs share cancels', () => {
    // a start of 5 G, then 1 M a transaction
    const run = (txs: number): { count: number; units: number } => ({ count: 5e9 + 1e6 * txs, units: txs });
    expect(perUnit(run(2000), run(8000))).to.equal(1e6);
    expect(() => perUnit(run(10), run(10))).to.throw(RangeError);
  });

  it('ownPerTransaction is the populator per transaction, PostgreSQL per transaction and their sum', () => {
    const counts = { populator: [7e9, 13e9], postgres: [1.2e9, 4.8e9] };
    expect(ownPerTransaction(counts, [2000, 8000])).to.deep.equal({
      populator: 1e6,
      postgres: 600e3,
      own: 1.6e6,
    });
  });

  it("logWarnings are a child's warnings and errors as pino wrote them, its report and infos left out", () => {
    let out = 'syncing\n';
    const log = pino({ level: 'info' }, { write: (line: string) => void (out += line) });
    log.info('caught up with the node');
    log.warn({ err: 'socket hang up', kind: 'step' }, 'populator step failed; retrying');
    log.error({ err: new Error('connection terminated') }, 'writer lost');
    out += '{"seconds":1,"nodeRequests":6537}\n';
    expect(logWarnings(out)).to.deep.equal([
      'populator step failed; retrying: socket hang up',
      'writer lost: connection terminated',
    ]);
  });

  it('backendApplications reads each backend from the connection log, "" where a client set no name', () => {
    const log = [
      '100|LOG:  database system is ready to accept connections',
      '201|LOG:  connection received: host=127.0.0.1 port=40000',
      '201|LOG:  connection authorized: user=postgres database=chain application_name=mdw-populator',
      '202|LOG:  connection authorized: user=postgres database=chain',
      '203|LOG:  connection authorized: user=postgres database=postgres application_name=mdw-bench-setup',
      '204|LOG:  connection received: host=127.0.0.1 port=40002',
    ].join('\n');
    expect([...backendApplications(log)]).to.deep.equal([
      [201, 'mdw-populator'],
      [202, ''],
      [203, 'mdw-bench-setup'],
    ]);
  });

  it('netByApplication sums backends net of the postmaster, never below 0, and leaves other processes out', () => {
    const apps = new Map([
      [201, 'mdw-populator'],
      [202, 'mdw-populator'],
      [203, ''],
    ]);
    // 100 is the postmaster, 150 the checkpointer (no connection): neither is a backend
    const counts = new Map([
      [100, 18],
      [150, 500],
      [201, 118],
      [202, 48],
      [203, 10],
    ]);
    expect([...netByApplication(apps, counts, 18)]).to.deep.equal([
      ['mdw-populator', 130],
      ['', 0],
    ]);
  });

  it("loadInstructions sums every backend but the bench's own", () => {
    const sums = new Map([
      ['mdw-populator', 700],
      ['', 40],
      ['mdw-bench-setup', 5],
      ['mdw-bench-check', 3],
    ]);
    expect(loadInstructions(sums)).to.equal(740);
  });
});
