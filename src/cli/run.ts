/** @module Entry point of the mdw binary. */
import { needsOwnGroup, runInOwnGroup } from './own-group.ts';

const args = process.argv.slice(2);
// `mdw dev` starts its group's process before oclif and the commands load: this one only forwards signals, and
// loading them here cost each start about 0.2 CPU-s for nothing
if (needsOwnGroup(args)) process.exit(await runInOwnGroup(args));
const [{ execute }, { COMMANDS }, { routeArgv }] = await Promise.all([
  import('@oclif/core'),
  import('./commands.ts'),
  import('./route.ts'),
]);
await execute({ args: routeArgv(args, Object.keys(COMMANDS)), dir: import.meta.url });
