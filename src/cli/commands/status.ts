/** @module `mdw status <name>`: a Middleware's phase, generations, heights and conditions. */
import { Args, Command } from '@oclif/core';
import { AppError } from '../../base/errors.ts';
import { loadKubeSettings } from '../../config/cluster.ts';
import { kubeClientFor, kubeFlags } from '../kube-flags.ts';

export default class Status extends Command {
  static override summary = "Show a Middleware resource's conditions, data generations and heights.";
  static override examples = ['mdw status mainnet -n mdw'];
  static override args = { name: Args.string({ description: 'name of the Middleware', required: true }) };
  static override flags = { ...kubeFlags };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Status);
    try {
      const { describeStatus } = await import('../../operator/admin.ts');
      process.stdout.write(
        await describeStatus(await kubeClientFor(flags, loadKubeSettings(process.env)), {
          namespace: flags.namespace,
          name: args.name,
        }),
      );
    } catch (err) {
      if (err instanceof AppError) this.error(err.message, { exit: 1 });
      throw err;
    }
  }
}
