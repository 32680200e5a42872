/** @module `mdw migrate`: apply migrations and exit (the operator's migration Job), or show/drop them. */
import { Command, Flags } from '@oclif/core';
import { createLogger } from '../../base/log.ts';
import { AppError } from '../../base/errors.ts';
import { exitIfAway, exitIfRefused } from '../refusal.ts';
import { configFromEnv } from '../env.ts';

export default class Migrate extends Command {
  static override summary = 'Apply database migrations to the schema and exit.';
  static override examples = [
    'mdw migrate',
    'mdw migrate --status',
    'mdw migrate --schema mdw_g2',
    'mdw migrate --drop --schema mdw_g1',
  ];
  static override flags = {
    status: Flags.boolean({ description: 'list migrations and whether each is applied; change nothing' }),
    schema: Flags.string({ description: 'schema to migrate (overrides DATABASE_SCHEMA)' }),
    drop: Flags.boolean({
      description:
        'drop the schema and everything in it, and its `-v --full` scratch (retiring a blue/green data generation)',
      exclusive: ['status'],
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Migrate);
    const cfg = configFromEnv({ DATABASE_SCHEMA: flags.schema });
    const { log, flush } = createLogger(cfg, 'migrate');
    const { migrate, migrationStatus } = await import('../../db/schema/migrator.ts');
    const target = { databaseUrl: cfg.databaseUrl, schema: cfg.databaseSchema, configSchema: cfg.databaseConfigSchema };
    if (flags.drop) {
      if (cfg.databaseSchema === 'public') this.error('refusing to drop the public schema', { exit: 2 });
      // another Middleware's live schema is never dropped, whatever asked for it (docs/operations.md, "Chain identity")
      const { guardDrop } = await import('../../indexer/identity/guard.ts');
      await guardDrop(cfg, log).catch((err: unknown) => {
        exitIfRefused(this, err);
        throw err;
      });
      // pg through db/schema/admin.ts only here: every command's module is loaded for any command, --help included
      const { dropSchema } = await import('../../db/schema/admin.ts');
      await dropSchema(cfg.databaseUrl, cfg.databaseSchema);
      this.log(`dropped schema ${cfg.databaseSchema}`);
      // with the scratch schema `-v --full` left emptied beside it (verify-scratch.ts), which no other schema uses
      const { scratchSchemaOf } = await import('../../indexer/maintenance/verify-scratch.ts');
      await dropSchema(cfg.databaseUrl, scratchSchemaOf(cfg.databaseSchema));
    } else if (flags.status) {
      for (const m of await migrationStatus(target, log)) this.log(`${m.applied ? 'applied' : 'pending'}  ${m.name}`);
    } else {
      const { guardSchema } = await import('../../indexer/identity/guard.ts');
      let applied: string[] = [];
      // another owner's or chain's schema, or one a newer version migrated, is refused before anything changes
      await guardSchema(cfg, log, {
        writes: false,
        waitForNodes: false,
        oneShot: true,
        migrate: async () => (applied = await migrate(target, log)),
      }).catch((err: unknown) => {
        // a refused history (db/schema/baseline.ts) says what to do: shown as it is, not as a crash
        exitIfRefused(this, err);
        exitIfAway(this, err);
        if (err instanceof AppError) this.error(`${err.message} (${err.code})`, { exit: 1 });
        throw err;
      });
      this.log(applied.length === 0 ? `schema ${cfg.databaseSchema} is up to date` : `applied ${applied.join(', ')}`);
    }
    flush();
  }
}
