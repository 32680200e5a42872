/**
 * @module `mdw dev`'s ports: each chosen before its listener starts (choosePort), a default another process holds
 * moved and recorded for the banner, a port the user gave that is taken an exit 2 naming its setting. The command
 * chooses the HTTP API's and the websocket's first of all, before it loads the environment and its parts (the server,
 * the populator, the devnode: about a CPU-second of modules): a start refused for its `--port` loads none of them.
 */
import { Errors } from '@oclif/core';
import { DEFAULTS } from '../../config/defaults.ts';
import { DEV_DEFAULTS, type Config } from '../../config/middleware.ts';
import { choosePort, PortInUseError, type PortChoice } from '../free-port.ts';
import type { BannerFacts } from './banner.ts';

/** DevPorts chooses the ports of one `mdw dev`, keeping the defaults it moved for the banner. */
export class DevPorts {
  readonly moved: BannerFacts['movedPorts'][number][] = [];

  /** choose is the port for one listener on `on`; one that cannot be had is the user's to fix: exit 2 with the reason. */
  async choose(choice: PortChoice, on: string): Promise<number> {
    const chosen = await choosePort(on, choice).catch((err: unknown) => {
      throw new Errors.CLIError(err instanceof PortInUseError ? err.message : String(err), { exit: 2 });
    });
    if (chosen.replaced) this.moved.push({ setting: choice.setting, from: choice.port, to: chosen.port });
    return chosen.port;
  }
}

/** DevListeners are the server's settings for its two ports, and the ports chooser the rest of the start goes on with. */
export interface DevListeners {
  /** HTTP_HOST, PORT and WEBSOCKET_ADDRESS */
  readonly settings: Readonly<Record<string, string>>;
  readonly ports: DevPorts;
}

/** chooseListeners chooses the HTTP API's port (--port, PORT) and the websocket's (--websocket, WEBSOCKET_ADDRESS). */
export async function chooseListeners(
  options: { readonly host: string; readonly port?: number; readonly websocket?: string },
  base: Config,
): Promise<DevListeners> {
  const ports = new DevPorts();
  const httpPort = await ports.choose(
    {
      setting: options.port === undefined ? 'PORT' : '--port',
      port: base.port,
      explicit: options.port !== undefined || base.port !== DEFAULTS.PORT,
    },
    options.host,
  );
  const { host } = base.websocket;
  const wsPort = await ports.choose(
    {
      setting: options.websocket === undefined ? 'WEBSOCKET_ADDRESS' : '--websocket',
      port: base.websocket.port,
      explicit: options.websocket !== undefined || `${host}:${base.websocket.port}` !== DEV_DEFAULTS.WEBSOCKET_ADDRESS,
    },
    host,
  );
  return {
    settings: {
      HTTP_HOST: options.host,
      PORT: String(httpPort),
      WEBSOCKET_ADDRESS: `${host.includes(':') ? `[${host}]` : host}:${wsPort}`,
    },
    ports,
  };
}
