/**
 * @module Test helper: a small Dockerfile parser (stages, instructions, ARG defaults), a .dockerignore matcher and a
 * production install laid out from a checkout's node_modules.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Instruction is one Dockerfile line (continuations joined), e.g. { op: 'COPY', args: '--from=build /a ./b' }. */
export interface Instruction {
  readonly op: string;
  readonly args: string;
}

/** Stage is one FROM and the instructions under it. */
export interface Stage {
  readonly image: string;
  readonly name: string | undefined;
  readonly instructions: Instruction[];
}

/** parseDockerfile splits a Dockerfile into global ARG defaults and stages, resolving ${ARG} in FROM. */
export function parseDockerfile(text: string): { args: Record<string, string>; stages: Stage[] } {
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of logicalLines(text)) {
    const match = /^(\w+)\s+(.*)$/.exec(line);
    if (!match) continue;
    const op = (match[1] ?? '').toUpperCase();
    const rest = match[2] ?? '';
    if (op === 'FROM') {
      const [image = '', as, name] = rest.split(/\s+/);
      stages.push({
        image: image.replace(/\$\{(\w+)\}/g, (_, v: string) => args[v] ?? ''),
        name: as?.toUpperCase() === 'AS' ? name : undefined,
        instructions: [],
      });
    } else if (op === 'ARG' && stages.length === 0) {
      const [key = '', value = ''] = rest.split('=');
      args[key] = value;
    } else {
      stages.at(-1)?.instructions.push({ op, args: rest });
    }
  }
  return { args, stages };
}

/** copySources are the build-context paths of a COPY (none for COPY --from=…). */
export function copySources(instruction: Instruction): { from: string | undefined; sources: string[]; dest: string } {
  const words = instruction.args.split(/\s+/);
  const from = words.find((w) => w.startsWith('--from='))?.slice('--from='.length);
  const paths = words.filter((w) => !w.startsWith('--'));
  return { from, sources: paths.slice(0, -1), dest: paths.at(-1) ?? '.' };
}

/** isIgnored tells whether a top-level path is excluded by .dockerignore patterns (exact names and trailing *). */
export function isIgnored(path: string, dockerignore: string): boolean {
  const top = path.replace(/^\.\//, '').split('/')[0] ?? '';
  return dockerignore
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .some((pattern) => {
      const regex = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
      return regex.test(top);
    });
}

function logicalLines(text: string): string[] {
  const lines: string[] = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('#') || line === '') continue;
    current += line.endsWith('\\') ? `${line.slice(0, -1)} ` : line;
    if (!line.endsWith('\\')) {
      lines.push(current);
      current = '';
    }
  }
  return lines;
}

/**
 * installProduction lays out in `dir` what `npm ci --omit=dev` installs from the lockfile in `dir`: every package the
 * lockfile does not flag `dev`, at the lockfile's own path, taken from `from` (a checkout installed from the same
 * lockfile). Hard links where the two share a file system, copies otherwise: a second install from the registry's
 * cache took 20–70 s of the test's time for the same tree.
 */
export function installProduction(dir: string, from: string): void {
  const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { dev?: boolean; optional?: boolean }>;
  };
  const kept = Object.entries(lock.packages).filter(([path, meta]) => path.startsWith('node_modules/') && !meta.dev);
  const target = join(dir, 'node_modules');
  // the folder itself, not a link to it (a worktree's node_modules may be one): the links `cp -a` would copy as they
  // are, and the pruning below would then delete the dev packages of the checkout they point to
  const source = realpathSync(join(from, 'node_modules'));
  // hard links only within one file system: across two (the test's directory in /dev/shm) `cp -al` failed on every
  // file, printing thousands of lines into the test run before the copy
  if (statSync(source).dev === statSync(dir).dev) execFileSync('cp', ['-al', source, target]);
  else cpSync(source, target, { recursive: true });
  // what npm would not have installed: dev packages, and anything npm keeps beside them (.bin, its own caches)
  const keep = new Set(kept.map(([path]) => path));
  const prune = (folder: string): void => {
    for (const entry of readdirSync(join(dir, folder), { withFileTypes: true })) {
      const path = `${folder}/${entry.name}`;
      if (entry.name.startsWith('@') && entry.isDirectory()) {
        prune(path);
        if (readdirSync(join(dir, path)).length === 0) rmSync(join(dir, path), { recursive: true });
      } else if (!keep.has(path)) rmSync(join(dir, path), { recursive: true, force: true });
      else if (existsSync(join(dir, path, 'node_modules'))) prune(`${path}/node_modules`);
    }
  };
  prune('node_modules');
  for (const [path, meta] of kept)
    if (!meta.optional && !existsSync(join(dir, path)))
      throw new Error(`${path} is in the lockfile but not in ${from}`);
}
