/** @module `mdw webhooks show <id>`: one hook, whoever owns it, with its latest deliveries. */
import { Args, Command } from '@oclif/core';
import { withWebhooksAdmin } from '../../admin-run.ts';

export default class WebhooksShow extends Command {
  static override summary = 'Show a webhook by id, with its owner and its latest deliveries.';
  static override description =
    'Prints one JSON object: the hook as GET /mdw/v3/webhooks/{id} shows it (never its secret), its owner key id, and its 10 latest deliveries, newest first, as GET …/deliveries lists them (status, attempts, last error).';
  static override examples = ['mdw webhooks show wh_5b0e…'];
  static override args = { id: Args.string({ description: 'the hook id (wh_…)', required: true }) };

  async run(): Promise<void> {
    const { args } = await this.parse(WebhooksShow);
    await withWebhooksAdmin(this, async (cfg, log, { hookShown }) => {
      const shown = await hookShown(cfg, log, args.id);
      if (shown === undefined) this.error(`no webhook ${args.id}`, { exit: 1 });
      this.log(JSON.stringify(shown));
    });
  }
}
