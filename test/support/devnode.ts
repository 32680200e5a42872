/** @module A test's devnode whose chain is generated at its start: on ports of the kernel's choice, mining nothing. */
import pino from 'pino';
import { startDevnode, type Devnode, type DevnodeOptions } from '../../src/devnode/index.ts';
import type { Logger } from '../../src/base/log.ts';

/**
 * startGeneratedDevnode starts a devnode with the chain `generate` describes, on free ports, that mines nothing by
 * itself and seals what is posted at once; `options` adds to or overrides that (accounts, hard forks, pacing).
 */
export function startGeneratedDevnode(
  generate: NonNullable<DevnodeOptions['generate']>,
  options: Omit<DevnodeOptions, 'generate'> = {},
  log: Logger = pino({ level: 'silent' }),
): Promise<Devnode> {
  return startDevnode({ port: 0, internalPort: 0, mine: false, microBlockIntervalMs: 0, ...options, generate }, log);
}
