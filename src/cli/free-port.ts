/** @module Ports for `mdw dev`: a free loopback port, and a default port that is taken traded for a free one. */
import { createServer } from 'node:net';

/** freePort asks the kernel for an unused loopback port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** isPortFree tells whether `host:port` can be listened on now (false when another process holds it). */
export function isPortFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', (err: NodeJS.ErrnoException) =>
      err.code === 'EADDRINUSE' || err.code === 'EACCES' ? resolve(false) : reject(err),
    );
    srv.listen(port, host, () => srv.close(() => resolve(true)));
  });
}

/** PortChoice is one listener's port: which setting names it, and whether the user gave it. */
export interface PortChoice {
  /** the flag or variable a user sets it with (`--node-port`, `PORT`), for the messages */
  readonly setting: string;
  readonly port: number;
  /** given by the user: when taken, that is an error, never a silent move */
  readonly explicit: boolean;
}

/** PortInUseError names the setting whose port another process holds. */
export class PortInUseError extends Error {
  override readonly name = 'PortInUseError';
}

/**
 * choosePort is the port to listen on: a default that another process holds is replaced by a free one (so `make dev`
 * starts on a busy machine), a port the user gave that is taken fails naming its setting; 0 stays 0 (any free port,
 * the listener's own choice). `replaced` says when the default was moved, for the banner.
 */
export async function choosePort(host: string, choice: PortChoice): Promise<{ port: number; replaced: boolean }> {
  if (choice.port === 0 || (await isPortFree(host, choice.port))) return { port: choice.port, replaced: false };
  if (choice.explicit) {
    throw new PortInUseError(
      `port ${choice.port} (${choice.setting}) is in use by another process: give another port, or 0 for any free one`,
    );
  }
  return { port: await freePort(), replaced: true };
}
