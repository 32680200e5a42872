/**
 * @module Issue 44: `bin/mdw.js` on a Node older than 24 says which Node it needs and how to get it (it failed with
 * ERR_UNKNOWN_FILE_EXTENSION ".ts"). The older Node is this one, told it is 20 before the script runs.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';

const MDW = new URL('../../../bin/mdw.js', import.meta.url).pathname;

function runAs(version: string): Promise<{ code: number; stderr: string }> {
  const pretend = `data:text/javascript,Object.defineProperty(process.versions,'node',{value:'${version}'})`;
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', pretend, MDW, '-V'], (err, _stdout, stderr) =>
      resolve({ code: err ? Number(err.code ?? 1) : 0, stderr }),
    );
  });
}

describe('bin/mdw.js on an older Node', function () {
  this.timeout(30_000);

  it('stops at once, naming the Node it needs and `make node`', async () => {
    const { code, stderr } = await runAs('20.20.2');
    expect(code).to.equal(1);
    expect(stderr).to.contain('mdw needs Node 24 or newer; this is Node 20.20.2');
    expect(stderr).to.contain('make node');
    expect(stderr).not.to.contain('ERR_UNKNOWN_FILE_EXTENSION');
  });

  it('runs on Node 24', async () => {
    expect((await runAs('24.21.0')).code).to.equal(0);
  });
});
