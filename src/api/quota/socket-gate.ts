/**
 * @module The websocket's gate with API keys on: a handshake's key (X-API-Key or apikey=) or address, checked as a
 * request's, takes one of its tier's websocket connections, and ae_mdw's sockets take its subscriptions one by one.
 */
import type { IncomingMessage } from 'node:http';
import { AppError } from '../../base/errors.ts';
import type { SocketGate } from '../../events/ws-server.ts';
import type { ApiAccess } from './api-access.ts';
import { apikeyParameter, presentedKey } from './key-text.ts';

/** socketGate is the gate of a started ApiAccess. */
export function socketGate(access: ApiAccess): SocketGate {
  return {
    admit(req: IncomingMessage) {
      try {
        const caller = access.caller(
          presentedKey(req.headers['x-api-key'], apikeyParameter(req.url)),
          req.socket.remoteAddress,
          req.headers['x-forwarded-for'],
        );
        const release = access.hold(caller, 'websocketConnections');
        // the subscriptions it holds, given back last first (each release is the one hold's)
        const releases: (() => void)[] = [];
        const allowance = {
          take: (): boolean => {
            try {
              releases.push(access.hold(caller, 'subscriptions'));
              return true;
            } catch {
              return false;
            }
          },
          give: (count: number): void => {
            for (let i = 0; i < count; i++) releases.pop()?.();
          },
        };
        return { release, allowance };
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        const headers: Record<string, string> = err.status === 429 ? { 'Retry-After': '1' } : {};
        return { refused: { status: err.status, message: err.message, headers } };
      }
    },
  };
}
