import { expect } from 'chai';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { freePort } from '../support/postgres.ts';
import { waitFor } from '../support/wait.ts';

const MDW = new URL('../../bin/mdw.js', import.meta.url).pathname;
const version = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

function mdw(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [MDW, ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', ...env },
    timeout: 30000,
  });
  return { status: result.status, out: result.stdout, err: result.stderr };
}

describe('mdw (the binary)', () => {
  // one start: the binary hands oclif `--version` for -V and for --version alike (routeArgv, cli-parsing.test.ts)
  it('prints its version with -V', () => {
    expect(mdw(['-V']).out).to.contain(version);
  });

  it('prints help listing the seed flags and the subcommands', () => {
    const { out, status } = mdw(['--help']);
    expect(status).to.equal(0);
    for (const flag of ['--populate', '--server', '--heights', '--verify', '--daemonize', 'migrate', 'devnode'])
      expect(out).to.contain(flag);
  });

  // the lists parseHeights refuses are its unit test's (heights.test.ts): here the binary's exit 2 before any work, for
  // a list and for one its flag parser could take for a flag
  it('rejects a malformed -H list with exit code 2 before any work', () => {
    for (const list of ['5-3', '-1']) {
      const { status, err } = mdw(['-H', list], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
      expect(status, list).to.equal(2);
      expect(err).to.match(/heights/i);
    }
  });

  it('names the bad environment variable and exits 2', () => {
    const { status, err } = mdw(['-s'], { STATUS_MAX_BLOCK_AGE: 'soon' });
    expect(status).to.equal(2);
    expect(err).to.contain('STATUS_MAX_BLOCK_AGE');
  });

  // issue 88: a directory that holds no snapshot is refused before the database or the node is asked
  it('refuses `mdw snapshot import` of a directory without a manifest, exit 1, in one line naming it', () => {
    const env = { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', NODE_URL: 'http://127.0.0.1:1' };
    const { status, err } = mdw(['snapshot', 'import', '/nonexistent/snap'], env);
    expect(status).to.equal(1);
    expect(err).to.match(/\/nonexistent\/snap: no manifest\.json .* \(MDW_SNAPSHOT_CORRUPT\)/);
  });

  // issue 59: the schema identity check waited for the database without limit in every role
  it('fails -v, -H and migrate at once, exit 1, against a database that is not there, naming it', async function () {
    this.timeout(120_000); // three starts of the binary on a loaded machine; each is bounded by mdw()'s own 30 s
    const closed = String(await freePort());
    const env = {
      DATABASE_URL: `postgres://mdw:x@127.0.0.1:${closed}/middleware`,
      NODE_URL: `http://127.0.0.1:${closed}`,
    };
    for (const args of [['-v'], ['-H', '1-2'], ['migrate']]) {
      const { status, err } = mdw(args, env); // killed after 30 s, status null, where it waited for ever
      expect(status, `${args.join(' ')}: ${err}`).to.equal(1);
      expect(err).to.match(
        /^Error: database unavailable \(identity check\): connect ECONNREFUSED .*\(MDW_DB_UNAVAILABLE\)$/m,
      );
      expect(err, 'one line, no stack').not.to.match(/\n\s+at /);
    }
  });

  it('refuses to run without a role', () => {
    const { status, err } = mdw(['-d']);
    expect(status).to.equal(2);
    expect(err).to.contain('nothing to do');
  });
});

/** the devnodes startDevnodeBinary started and not seen to exit: a case that fails before its own stop leaves none */
const running = new Set<ChildProcess>();
afterEach(() => {
  for (const child of running) child.kill('SIGKILL');
});

/** startDevnodeBinary runs `mdw devnode` with its ports free and waits for its accounts: its output so far and its external URL. */
async function startDevnodeBinary(args: string[]): Promise<{ child: ChildProcess; out: () => string; url: string }> {
  const { spawn } = await import('node:child_process');
  const child = spawn(
    process.execPath,
    [MDW, 'devnode', '--port', '0', '--internal-port', '0', '--key-block-interval', '0', ...args],
    { env: { PATH: process.env.PATH ?? '' } },
  );
  running.add(child);
  child.on('exit', () => running.delete(child));
  let out = '';
  child.stdout!.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const until = Date.now() + 20000;
  while (!/ak_\w+\s+sk_\w+/.test(out) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  const url = /external API: (http:\/\/[\d.:]+)/.exec(out)?.[1];
  expect(url, out).to.be.a('string');
  return { child, out: () => out, url: url! };
}

// one start of the binary for both (a devnode start costs about 1.4 CPU-s): it runs without --generate, and
// --node-files only adds the files it writes before its API line
describe('mdw devnode --node-files (the binary)', () => {
  it("starts without --generate, writes the chain's genesis accounts as the node's accounts file, named before the API line, serves and stops on SIGTERM", async () => {
    const { mkdtemp, readFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'mdw-node-files-'));
    try {
      const { child, out, url } = await startDevnodeBinary(['--node-files', join(dir, 'files')]);
      const text = out();
      const file = /^GENESIS_ACCOUNTS_FILE=(\S+)$/m.exec(text)?.[1];
      expect(text.indexOf(`GENESIS_ACCOUNTS_FILE=${file}`)).to.be.below(text.indexOf('external API:'));
      // the prefunded accounts it printed, each with a balance: what the middleware's GENESIS_ACCOUNTS_FILE reads
      const accounts = JSON.parse(await readFile(file!, 'utf8')) as Record<string, number>;
      // the account lines come last: those after the first may arrive after startDevnodeBinary returned on the first
      const printed = (): string[] => [...out().matchAll(/^\s+(ak_\w+)\s+sk_\w+$/gm)].map((m) => m[1]!);
      await waitFor('as many accounts printed as written', () => printed().length >= Object.keys(accounts).length);
      expect(printed().length).to.be.above(0);
      expect(Object.keys(accounts).sort()).to.deep.equal(printed().sort());
      for (const balance of Object.values(accounts)) expect(balance).to.be.above(0);
      const status = (await (await fetch(`${url}/v2/status`)).json()) as { node_version: string };
      expect(status.node_version).to.match(/devnode/);
      child.kill('SIGTERM');
      expect(await new Promise((r) => child.on('exit', r))).to.equal(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('mdw devnode --hard-forks (the binary)', () => {
  it('runs the schedule, writes the fork files for the middleware, and refuses a bad schedule with exit 2', async () => {
    const { mkdtemp, readFile, rm, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'mdw-forks-'));
    try {
      const account = 'ak_2swhLkgBPeeADxVTAVCJnZLY5NZtCFiM93JxsEaMuC59euuFRQ';
      await writeFile(
        join(dir, 'forks.json'),
        JSON.stringify({ 1: 0, 2: { height: 1, accounts: { [account]: 5 } }, 6: 2 }),
      );
      const { child, out, url } = await startDevnodeBinary([
        '--hard-forks',
        join(dir, 'forks.json'),
        '--hard-fork-files',
        join(dir, 'files'),
      ]);
      const status = (await (await fetch(`${url}/v2/status`)).json()) as { protocols: unknown };
      expect(status.protocols).to.deep.equal([
        { version: 1, effective_at_height: 0 },
        { version: 2, effective_at_height: 1 },
        { version: 6, effective_at_height: 2 },
      ]);
      const file = /MINERVA_ACCOUNTS_FILE=(\S+)/.exec(out())?.[1];
      expect(JSON.parse(await readFile(file!, 'utf8'))).to.deep.equal({ [account]: 5 });
      child.kill('SIGTERM');
      expect(await new Promise((r) => child.on('exit', r))).to.equal(0);
      await writeFile(join(dir, 'bad.json'), JSON.stringify({ 1: 0, 5: { height: 1, accounts: { [account]: 5 } } }));
      const bad = mdw(['devnode', '--port', '0', '--internal-port', '0', '--hard-forks', join(dir, 'bad.json')]);
      expect(bad.status).to.equal(2);
      expect(bad.err).to.match(/protocol 5 migrates no accounts/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
