/** @module `mdw webhooks list`: every hook (or one key's) with its state and pending deliveries, never a secret. */
import { Command, Flags } from '@oclif/core';
import { withWebhooksAdmin } from '../../admin-run.ts';

export default class WebhooksList extends Command {
  static override summary = 'List the webhooks: id, owner key, state, pending deliveries, url.';
  static override description =
    'Every hook of the schema DATABASE_SCHEMA names, whoever owns it, oldest first: one line per hook, tab-separated (--json: one JSON line per hook, as GET /mdw/v3/webhooks/{id} shows it, with its owner). The owner is the API key id that created it (`-` for a hook of no key, WEBHOOKS_ANONYMOUS); a disabled hook says why (a revoked key, retries run out, disabled by its owner or here).';
  static override examples = ['mdw webhooks list', 'mdw webhooks list --owner key_0f3a9c2e71b4d856 --json'];
  static override flags = {
    owner: Flags.string({ description: 'only the hooks of this API key id (key_…)' }),
    json: Flags.boolean({ description: 'one JSON object per line' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(WebhooksList);
    await withWebhooksAdmin(this, async (cfg, log, { hookList, hookLine, ownedHookJson }) => {
      for (const h of await hookList(cfg, log, flags.owner))
        this.log(flags.json ? JSON.stringify(ownedHookJson(h)) : hookLine(h));
    });
  }
}
