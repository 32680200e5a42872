/** @module `mdw snapshot export <dir>`: a synced schema into a snapshot directory, while its populator runs. */
import { Args, Command, Flags } from '@oclif/core';
import { createLogger } from '../../../base/log.ts';
import { exitIfAway, exitIfRefused, exitOnAppError } from '../../refusal.ts';
import { configFromEnv } from '../../env.ts';

export default class SnapshotExport extends Command {
  static override summary = 'Write a consistent, compressed, checksummed snapshot of a schema into a directory.';
  static override description =
    'Reads every table of the schema in one REPEATABLE READ transaction (the populator goes on writing meanwhile), each into <dir>/<table>.copy.zst (COPY text, zstd) with its SHA-256, then <dir>/manifest.json: the chain (network id, genesis hash), the top block, the migration level, the mdw version, the parts and the SHA-256 of the whole. API keys, webhooks and their deliveries stay out. Needs no node. See docs/operations.md, "Starting from a snapshot".';
  static override examples = [
    'mdw snapshot export /backups/mainnet-2026-11-28',
    'mdw snapshot export --schema mdw_g3 ./snap',
  ];
  static override args = {
    dir: Args.string({ description: 'the directory to write (created; refused when not empty)', required: true }),
  };
  static override flags = {
    schema: Flags.string({ description: 'schema to export (overrides DATABASE_SCHEMA)' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(SnapshotExport);
    const cfg = configFromEnv({ DATABASE_SCHEMA: flags.schema });
    const { log, flush } = createLogger(cfg, 'snapshot');
    const { exportSnapshot } = await import('../../../indexer/maintenance/snapshot-export.ts');
    const started = performance.now();
    const manifest = await exportSnapshot({ cfg, log }, args.dir).catch((err: unknown) => {
      exitIfRefused(this, err);
      exitIfAway(this, err);
      exitOnAppError(this, err, 1);
      throw err;
    });
    const sum = (key: 'bytes' | 'rawBytes'): number => manifest.parts.reduce((n, p) => n + p[key], 0);
    this.log(
      `exported schema ${cfg.databaseSchema} at height ${manifest.top.height} (${manifest.top.hash}) into ${args.dir}: ` +
        `${manifest.parts.length} tables, ${sum('bytes')} bytes (${sum('rawBytes')} before compression), ` +
        `${Math.round(performance.now() - started)} ms`,
    );
    flush();
  }
}
