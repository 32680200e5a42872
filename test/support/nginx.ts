/**
 * @module A real nginx, the machine's own (Debian's package), in front of a test's server: started on a loopback port
 * with a configuration written to a temporary directory, in nginx's default proxy configuration (no proxy_* setting:
 * proxy_http_version 1.0, buffering on, the client's TE removed), as an operator's first `proxy_pass` is.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { freePort } from '../../src/cli/free-port.ts';

/** A running nginx: its URL, and stop. */
export interface Nginx {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  stop(): Promise<void>;
}

/** nginxBinary is the path of the machine's nginx (also under the sbin directories a non-root PATH lacks), if any. */
export function nginxBinary(): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  return dirs
    .filter((dir) => dir !== '')
    .map((dir) => join(dir, 'nginx'))
    .find((path) => existsSync(path));
}

/** The temporary files' directives, each left out where the build lacks its module (nginx-light lacks some). */
const TEMP_PATHS = {
  client_body_temp_path: undefined,
  proxy_temp_path: 'proxy',
  fastcgi_temp_path: 'fastcgi',
  uwsgi_temp_path: 'uwsgi',
  scgi_temp_path: 'scgi',
} as const;

/** config is an nginx.conf proxying every path on 127.0.0.1:`port` to `upstream`, its files under `dir`. */
function config(dir: string, port: number, upstream: string, built: string): string {
  const temps = Object.entries(TEMP_PATHS)
    .filter(([, module]) => module === undefined || !built.includes(`--without-http_${module}_module`))
    .map(([directive]) => `  ${directive} ${join(dir, directive)};`);
  // one process in the foreground: no user to switch to, nothing left behind when the test ends it
  return `daemon off;
master_process off;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 64; }
http {
  access_log off;
${temps.join('\n')}
  server {
    listen 127.0.0.1:${port};
    location / { proxy_pass ${upstream}; }
  }
}
`;
}

/** startNginx runs the machine's nginx (nginxBinary: the caller skips without one) in front of `upstream`. */
export async function startNginx(upstream: string): Promise<Nginx> {
  const binary = nginxBinary();
  if (!binary) throw new Error('nginx is not installed');
  const built = execFileSync(binary, ['-V'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).toString();
  const dir = await mkdtemp(join(tmpdir(), 'mdw-nginx-'));
  // a port found free may be taken before nginx binds it: another is tried
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const conf = join(dir, 'nginx.conf');
    await writeFile(conf, config(dir, port, upstream, built));
    const child = spawn(binary, ['-p', dir, '-e', join(dir, 'error.log'), '-c', conf], { stdio: 'ignore' });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    if (await listening(port, exited)) {
      return {
        url: `http://127.0.0.1:${port}`,
        stop: async () => {
          await stopChild(child, exited);
          await rm(dir, { recursive: true, force: true });
        },
      };
    }
    const log = await readFile(join(dir, 'error.log'), 'utf8').catch(() => '');
    await stopChild(child, exited);
    if (attempt === 3 || !log.includes('Address already in use')) {
      await rm(dir, { recursive: true, force: true });
      throw new Error(`nginx did not start: ${log.trim()}`);
    }
  }
}

/** listening resolves true once the port takes connections, false when nginx exited first (or after 10 s). */
async function listening(port: number, exited: Promise<number | null>): Promise<boolean> {
  let gone = false;
  void exited.then(() => (gone = true));
  for (const until = Date.now() + 10_000; !gone && Date.now() < until;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  await exited;
}
