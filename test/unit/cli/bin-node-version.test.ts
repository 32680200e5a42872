/**
 * @module Issue 44: `bin/mdw.js` on a Node older than 24 says which Node it needs and how to get it (it failed with
 * ERR_UNKNOWN_FILE_EXTENSION ".ts"). The older Node is this one, told it is 20 before the script runs, and (issue 59)
 * a real older Node where the machine has one: a static import of an export it lacks failed before the check.
 */
import { expect } from 'chai';
import { execFile, execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

const MDW = new URL('../../../bin/mdw.js', import.meta.url).pathname;

function runAs(version: string): Promise<{ code: number; stderr: string }> {
  const pretend = `data:text/javascript,Object.defineProperty(process.versions,'node',{value:'${version}'})`;
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', pretend, MDW, '-V'], (err, _stdout, stderr) =>
      resolve({ code: err ? Number(err.code ?? 1) : 0, stderr }),
    );
  });
}

/** olderNode is a node binary on PATH (or the system's) older than 24, with its version; undefined when none. */
function olderNode(): { path: string; version: string } | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/usr/local/bin'];
  for (const dir of dirs.filter(Boolean)) {
    const path = join(dir, 'node');
    try {
      accessSync(path, constants.X_OK);
      const version = execFileSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
      if (Number(version.split('.')[0]) < 24) return { path, version };
    } catch {
      // not there or not runnable: the next one
    }
  }
  return undefined;
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

  it("stops at once on the machine's own older Node too, whose node:module lacks what 24 has", function () {
    const node = olderNode();
    if (!node) this.skip();
    let failed: { status: number; stderr: string } | undefined;
    try {
      execFileSync(node.path, [MDW, '--version'], { encoding: 'utf8', stdio: 'pipe' });
    } catch (err) {
      failed = err as { status: number; stderr: string };
    }
    expect(failed?.status).to.equal(1);
    expect(failed?.stderr).to.contain(`mdw needs Node 24 or newer; this is Node ${node.version}`);
    expect(failed?.stderr).not.to.contain('SyntaxError');
  });

  it('runs on Node 24', async () => {
    expect((await runAs('24.21.0')).code).to.equal(0);
  });
});
