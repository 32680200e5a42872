/** @module A free loopback port, for a server that needs a number before it starts (the embedded PostgreSQL). */
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
