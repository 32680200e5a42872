/** @module Argument routing for the mdw binary. Pure. */

/**
 * routeArgv maps `mdw -p -s` (the seed's form, no subcommand) to the hidden `run` command,
 * `-V` to `--version`, and leaves subcommands, `--help` and `--version` to oclif.
 */
export function routeArgv(args: readonly string[], commands: readonly string[]): string[] {
  const first = args[0];
  if (first === undefined || first === '--help' || first === '-h') return ['run', '--help'];
  if (first === '-V' || first === '--version') return ['--version'];
  // a command, or the topic of one (`db` of `db:usage`, which oclif spells `mdw db usage`)
  if (commands.some((c) => c === first || c.startsWith(`${first}:`))) return [...args];
  return ['run', ...args];
}
