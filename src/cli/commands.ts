/** @module Every mdw command, by name (oclif's explicit command discovery). */
import Root from './commands/root.ts';
import Migrate from './commands/migrate.ts';
import Devnode from './commands/devnode.ts';
import Dev from './commands/dev.ts';

export const COMMANDS = {
  run: Root,
  migrate: Migrate,
  devnode: Devnode,
  dev: Dev,
};
