/** @module `mdw webhooks delete <id>`: a hook and its deliveries gone, whoever owns it. */
import { Args, Command } from '@oclif/core';
import { withWebhooksAdmin } from '../../admin-run.ts';

export default class WebhooksDelete extends Command {
  static override summary = 'Delete a webhook by id, with its deliveries.';
  static override description =
    "As DELETE /mdw/v3/webhooks/{id} by its owner, for any hook: a revoked key's, which its owner can no longer reach. A delivery under way ends with its attempt.";
  static override examples = ['mdw webhooks delete wh_5b0e…'];
  static override args = { id: Args.string({ description: 'the hook id (wh_…)', required: true }) };

  async run(): Promise<void> {
    const { args } = await this.parse(WebhooksDelete);
    await withWebhooksAdmin(this, async (cfg, log, { remove }) => {
      if (!(await remove(cfg, log, args.id))) this.error(`no webhook ${args.id}`, { exit: 1 });
      this.log(`deleted ${args.id}`);
    });
  }
}
