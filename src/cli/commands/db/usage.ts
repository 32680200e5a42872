/** @module `mdw db usage`: the database's size and its data generation schemas, for the operator's Jobs. */
import { writeFileSync } from 'node:fs';
import { Command, Flags } from '@oclif/core';
import { configFromEnv } from '../../env.ts';

/** TERMINATION_MESSAGE_LIMIT: Kubernetes keeps at most 4096 bytes of a container's termination message. */
const TERMINATION_MESSAGE_LIMIT = 4096;

export default class DbUsage extends Command {
  static override summary = "Report the database's size and its data generation schemas as JSON.";
  static override description =
    "Prints one JSON line: the binary's version and newest migration, databaseBytes (pg_database_size) and, for every schema named <prefix><N>, its bytes, whether it is migrated, its newest applied migration, its top stored height, and the owner (owner_uid, owner_name) and network_id it records (null before migration 1010). The operator runs it in a Job before a blue/green reload (free-space check) and when a Middleware without status adopts its generation, and to check an image before it rolls it; --termination-log hands the answer to the operator through the container's termination message.";
  static override examples = [
    'mdw db usage',
    'mdw db usage --schema-prefix mdw_g --termination-log /dev/termination-log',
  ];
  static override flags = {
    'schema-prefix': Flags.string({ description: 'prefix of the generation schemas', default: 'mdw_g' }),
    'termination-log': Flags.string({
      description: 'also write the JSON to this file (a container termination message)',
    }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(DbUsage);
    const cfg = configFromEnv();
    const { databaseUsage } = await import('../../../db/schema/usage.ts');
    const json = JSON.stringify(await databaseUsage(cfg.databaseUrl, flags['schema-prefix']));
    this.log(json);
    const path = flags['termination-log'];
    if (path === undefined) return;
    if (Buffer.byteLength(json) > TERMINATION_MESSAGE_LIMIT)
      this.error(`the report (${Buffer.byteLength(json)} bytes) exceeds a termination message's 4096 bytes`, {
        exit: 1,
      });
    writeFileSync(path, json);
  }
}
