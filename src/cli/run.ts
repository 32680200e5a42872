/** @module Entry point of the mdw binary. */
import { execute } from '@oclif/core';
import { COMMANDS } from './commands.ts';
import { routeArgv } from './route.ts';

await execute({ args: routeArgv(process.argv.slice(2), Object.keys(COMMANDS)), dir: import.meta.url });
