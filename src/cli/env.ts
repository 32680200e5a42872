/** @module The CLI's one read of the environment, with a user-facing error for bad values. */
import { Errors } from '@oclif/core';
import { ConfigError } from '../config/env-reader.ts';
import { loadConfig, type Config } from '../config/middleware.ts';

/**
 * configFromEnv loads the configuration or exits with status 2 and every problem listed. `overrides` win over the
 * environment (flags); `defaults` stand in for DEFAULTS where the environment leaves a variable unset.
 */
export function configFromEnv(
  overrides: Readonly<Record<string, string | undefined>> = {},
  defaults: Parameters<typeof loadConfig>[1] = {},
): Config {
  try {
    return loadConfig({ ...process.env, ...withoutUndefined(overrides) }, defaults);
  } catch (err) {
    if (err instanceof ConfigError) throw new Errors.CLIError(err.message, { exit: 2 });
    throw err;
  }
}

function withoutUndefined(values: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter((e): e is [string, string] => e[1] !== undefined));
}
