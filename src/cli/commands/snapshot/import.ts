/** @module `mdw snapshot import <dir>`: a snapshot into an empty schema, checked against the node. */
import { Args, Command, Flags } from '@oclif/core';
import { createLogger } from '../../../base/log.ts';
import { exitIfAway, exitIfRefused, exitOnAppError } from '../../refusal.ts';
import { configFromEnv } from '../../env.ts';

export default class SnapshotImport extends Command {
  static override summary =
    'Restore a snapshot into an empty schema, check it against the node, and leave it for the populator.';
  static override description =
    "Refuses a snapshot of another network than NODE_URL's node or of a migration newer than this binary's, and a schema that is not empty; checks every part's SHA-256; migrates the schema to the snapshot's level, restores the tables over four connections whose transactions commit together, applies this binary's newer migrations, then compares the top block and sampled heights (-v's comparison) and sampled accounts' AE balances with the node. Exits 1 on a difference. `mdw -p` then goes on from the snapshot's top. See docs/operations.md, \"Starting from a snapshot\".";
  static override examples = [
    'mdw snapshot import /backups/mainnet-2026-11-28',
    'mdw snapshot import ./snap --schema mdw_g4 --heights 1000 --accounts 1000',
  ];
  static override args = {
    dir: Args.string({ description: 'the snapshot directory (mdw snapshot export)', required: true }),
  };
  static override flags = {
    schema: Flags.string({ description: 'schema to restore into, which must be empty (overrides DATABASE_SCHEMA)' }),
    heights: Flags.integer({ description: 'heights besides the top compared with the node', default: 100, min: 0 }),
    accounts: Flags.integer({
      description: "accounts whose AE balance is compared with the node's",
      default: 100,
      min: 1,
    }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(SnapshotImport);
    const cfg = configFromEnv({ DATABASE_SCHEMA: flags.schema });
    const { log, flush } = createLogger(cfg, 'snapshot');
    const { importSnapshot } = await import('../../../indexer/maintenance/snapshot-import.ts');
    const report = await importSnapshot({ cfg, log, out: (line) => this.log(line) }, args.dir, {
      heights: flags.heights,
      accounts: flags.accounts,
    }).catch((err: unknown) => {
      exitIfRefused(this, err);
      exitIfAway(this, err);
      exitOnAppError(this, err, 1);
      throw err;
    });
    const { manifest, ms } = report;
    this.log(
      `imported ${args.dir} into schema ${cfg.databaseSchema}: height ${manifest.top.height} (${manifest.top.hash}), ` +
        `migration ${manifest.migrations.at(-1)}` +
        (report.migrated.length > 0 ? ` then ${report.migrated.join(', ')}` : '') +
        `; checksums ${Math.round(ms.verify)} ms, restore ${Math.round(ms.restore)} ms, ` +
        `${report.heightsChecked} heights and ${report.accountsChecked} accounts compared with the node in ${Math.round(ms.check)} ms: ` +
        `${report.differences} difference(s)`,
    );
    flush();
    if (report.differences > 0) this.exit(1);
  }
}
