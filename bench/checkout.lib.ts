/**
 * @module The older code a benchmark compares the working tree with (bench/populator-ab.ts): a commit's files
 * extracted beside the repository (`git archive`, no worktree registered), with this checkout's node_modules when they
 * hold every package the commit's package-lock.json pins, else its own from `npm ci`.
 */
import { execFileSync, execSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * newestRelease is the version of CHANGELOG.md's newest release: its first `## ` heading that is not "Unreleased".
 * Pure.
 */
export function newestRelease(changelog: string): string {
  const heading = changelog
    .split('\n')
    .filter((line) => line.startsWith('## '))
    .map((line) => line.slice(3).trim())
    .find((title) => title.toLowerCase() !== 'unreleased');
  if (heading === undefined) throw new Error('CHANGELOG.md names no release');
  return heading;
}

/** the packages a package-lock.json (v2/v3) pins: path in node_modules → version */
type LockPackages = Readonly<Record<string, { readonly version?: string }>>;

/**
 * lockCovers is true when every package `older` pins is in `newer` at the same version: the newer checkout's
 * node_modules can then run the older code as its own would. Pure.
 */
export function lockCovers(older: LockPackages, newer: LockPackages): boolean {
  return Object.entries(older).every(([path, pkg]) => path === '' || newer[path]?.version === pkg.version);
}

const lockPackages = (text: string): LockPackages => (JSON.parse(text) as { packages?: LockPackages }).packages ?? {};

/**
 * releaseCommit is the commit of the newest release CHANGELOG.md names: its tag (`v<version>` or `<version>`) if
 * there is one, else the newest commit whose CHANGELOG.md has that release as its first section (the release as cut,
 * before an "Unreleased" section opened above it).
 */
export function releaseCommit(repo: string): { version: string; commit: string } {
  const git = (...args: string[]): string => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' }).trim();
  const version = newestRelease(readFileSync(join(repo, 'CHANGELOG.md'), 'utf8'));
  for (const tag of [`v${version}`, version]) {
    try {
      return { version, commit: git('rev-parse', '--verify', '--quiet', `${tag}^{commit}`) };
    } catch {
      // no such tag
    }
  }
  // The first section changes only in commits that change a heading line (or merges, which `-G` does not look
  // into): only those are read. Each other commit has the first section of the next such commit below it.
  const headingChanges = new Set(git('log', '--format=%H', '-G^## ', '--', 'CHANGELOG.md').split('\n'));
  let newer: string | undefined; // the newest commit since the last heading change met, walking back
  for (const line of git('log', '--format=%H %P', '--', 'CHANGELOG.md').split('\n')) {
    const [commit, ...parents] = line.split(' ') as [string, ...string[]];
    newer ??= commit;
    if (!headingChanges.has(commit) && parents.length < 2) continue;
    const first = git('show', `${commit}:CHANGELOG.md`)
      .split('\n')
      .find((l) => l.startsWith('## '));
    if (first?.slice(3).trim() === version) return { version, commit: newer };
    newer = undefined;
  }
  throw new Error(`no commit has release ${version} at the top of CHANGELOG.md (tag it v${version})`);
}

/** An older commit's files ready to run, removed by `remove`. */
export interface Checkout {
  readonly dir: string;
  readonly commit: string;
  remove(): void;
}

/** extractCommit writes `ref`'s files into a temporary directory and gives it node_modules (see the module). */
export function extractCommit(repo: string, ref: string): Checkout {
  const commit = execFileSync('git', ['-C', repo, 'rev-parse', '--verify', `${ref}^{commit}`], {
    encoding: 'utf8',
  }).trim();
  const dir = mkdtempSync(join(tmpdir(), `mdw-${commit.slice(0, 8)}-`));
  const remove = (): void => rmSync(dir, { recursive: true, force: true });
  try {
    execSync(`git -C '${repo}' archive ${commit} | tar -x -C '${dir}'`, { stdio: ['ignore', 'ignore', 'inherit'] });
    const own = lockPackages(readFileSync(join(repo, 'package-lock.json'), 'utf8'));
    const theirs = lockPackages(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
    if (lockCovers(theirs, own)) symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'));
    else execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  } catch (err) {
    remove();
    throw err;
  }
  return { dir, commit, remove };
}
