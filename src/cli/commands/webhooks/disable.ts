/** @module `mdw webhooks disable <id>`: a hook sent nothing more, whoever owns it, with the reason its owner sees. */
import { Args, Command, Flags } from '@oclif/core';
import { withWebhooksAdmin } from '../../admin-run.ts';

export default class WebhooksDisable extends Command {
  static override summary = 'Disable a webhook by id, with a reason.';
  static override description =
    'The senders send it nothing more from their next attempt on, and the populator writes it no deliveries; its owner sees `enabled: false` and the reason, and enables it again with PATCH /mdw/v3/webhooks/{id} {"enabled": true} (or `replay`).';
  static override examples = ['mdw webhooks disable wh_5b0e… --reason "receiver abuse report #42"'];
  static override args = { id: Args.string({ description: 'the hook id (wh_…)', required: true }) };
  static override flags = {
    reason: Flags.string({ description: 'why, as its owner reads it', default: 'disabled by the operator' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(WebhooksDisable);
    await withWebhooksAdmin(this, async (cfg, log, { disable }) => {
      if (!(await disable(cfg, log, args.id, flags.reason))) this.error(`no webhook ${args.id}`, { exit: 1 });
      this.log(`disabled ${args.id}`);
    });
  }
}
