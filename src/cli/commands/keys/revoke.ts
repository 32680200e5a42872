/** @module `mdw keys revoke <id>`: a key refused from now on (by every server within API_KEYS_REFRESH_MS). */
import { Args, Command } from '@oclif/core';
import { withKeysAdmin } from '../../admin-run.ts';

export default class KeysRevoke extends Command {
  static override summary = 'Revoke an API key by its id.';
  static override description =
    'Servers answer the key 401 within API_KEYS_REFRESH_MS (default 2 s), and its webhooks are disabled at once (the senders send them nothing more; `mdw webhooks list --owner <id>` shows them, `mdw webhooks delete` deletes them). A key of API_KEYS_FILE is revoked by taking it out of the file; revoked here, it is valid again only if the file lists it anew after a change.';
  static override examples = ['mdw keys revoke key_0f3a9c2e71b4d856'];
  static override args = {
    id: Args.string({ description: 'the key id (key_…), as `mdw keys list` shows it', required: true }),
  };

  async run(): Promise<void> {
    const { args } = await this.parse(KeysRevoke);
    await withKeysAdmin(this, async (cfg, log, { revoke }) => {
      const hooks = await revoke(cfg, log, args.id);
      if (hooks === undefined) this.error(`no key ${args.id} in force`, { exit: 1 });
      this.log(`revoked ${args.id}; ${hooks} webhook(s) of it disabled`);
    });
  }
}
