import { expect } from 'chai';
import { spawnSync } from 'node:child_process';

const PROCESS_METRICS = new URL('../../../src/cli/process-metrics.ts', import.meta.url).href;

describe('survivesUnhandledRejections(log, registry)', () => {
  it('logs and counts a rejection nobody handled, and the process runs on (Node alone would exit 1)', () => {
    const script = `
      import pino from 'pino';
      import prom from 'prom-client';
      import { survivesUnhandledRejections } from ${JSON.stringify(PROCESS_METRICS)};
      const registry = new prom.Registry();
      survivesUnhandledRejections(pino(), registry);
      Promise.reject(new Error('a background refresh failed'));
      setTimeout(async () => {
        console.log(await registry.getSingleMetricAsString('mdw_unhandled_rejections_total'));
      }, 50);
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: new URL('../../..', import.meta.url).pathname,
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).to.equal(0);
    const logLine = run.stdout.split('\n').find((l) => l.includes('unhandled promise rejection'));
    expect(JSON.parse(logLine!)).to.include({ level: 50 });
    expect(JSON.parse(logLine!).err.message).to.equal('a background refresh failed');
    expect(run.stdout).to.match(/^mdw_unhandled_rejections_total 1$/m);
  });
});
