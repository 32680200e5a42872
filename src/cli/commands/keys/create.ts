/** @module `mdw keys create`: a new API key, printed once. */
import { Command, Flags } from '@oclif/core';
import { withKeysAdmin } from '../../admin-run.ts';

export default class KeysCreate extends Command {
  static override summary = 'Create an API key of a tier and print it (the only time it is shown).';
  static override description =
    'Stores the SHA-256 of a new random key in the schema DATABASE_SCHEMA names, with its name and tier (API_TIERS_FILE, or the defaults anonymous, free, pro). Servers with API_KEYS=on take it within API_KEYS_REFRESH_MS. Prints one JSON line: {id, key, name, tier}; --quiet prints the key alone.';
  static override examples = ['mdw keys create --name acme-exchange --tier pro', 'mdw keys create --name ci --quiet'];
  static override flags = {
    name: Flags.string({ description: 'who the key is for (shown in `mdw keys list`)', required: true }),
    tier: Flags.string({ description: 'the tier of its quotas', default: 'free' }),
    quiet: Flags.boolean({ description: 'print the key alone' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(KeysCreate);
    await withKeysAdmin(this, async (cfg, log, { createKey }) => {
      const created = await createKey(cfg, log, flags.name, flags.tier);
      this.log(flags.quiet ? created.key : JSON.stringify(created));
    });
  }
}
