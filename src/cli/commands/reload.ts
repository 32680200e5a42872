/** @module `mdw reload <name>`: request, promote or roll back a reload of a Middleware's data. */
import { Args, Command, Flags } from '@oclif/core';
import { AppError } from '../../base/errors.ts';
import { ReloadStrategy } from '../../operator/api/spec-values.ts';
import { loadKubeSettings } from '../../config/cluster.ts';
import { kubeClientFor, kubeFlags } from '../kube-flags.ts';

export default class Reload extends Command {
  static override summary = "Ask the operator to reload a Middleware's chain data (blue/green or in place).";
  static override examples = [
    'mdw reload mainnet --strategy BlueGreen',
    'mdw reload mainnet --strategy BlueGreen --no-auto-promote   # then: mdw reload mainnet --promote',
    'mdw reload mainnet --strategy InPlace --heights 100-200,305',
    'mdw reload mainnet --rollback',
  ];
  static override args = { name: Args.string({ description: 'name of the Middleware', required: true }) };
  static override flags = {
    ...kubeFlags,
    strategy: Flags.string({
      description:
        'BlueGreen builds a new data generation beside the serving one; InPlace reloads heights of the active one',
      options: Object.values(ReloadStrategy),
      default: ReloadStrategy.BlueGreen,
    }),
    heights: Flags.string({ char: 'H', description: 'heights as -H takes them (required for InPlace)' }),
    'auto-promote': Flags.boolean({
      description: 'switch to the new generation as soon as it is synced',
      default: true,
      allowNo: true,
    }),
    'retain-previous': Flags.string({
      description: 'how long to keep the previous generation for a rollback, e.g. 6h',
    }),
    id: Flags.string({ description: 'reload id (default: reload-<timestamp>)' }),
    force: Flags.boolean({ description: 'replace a reload that is still running' }),
    promote: Flags.boolean({
      description: 'approve a synced generation waiting for promotion',
      exclusive: ['rollback', 'heights'],
    }),
    rollback: Flags.boolean({
      description: 'switch back to the retained previous generation',
      exclusive: ['promote', 'heights'],
    }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Reload);
    const { promoteReload, requestReload, rollbackReload } = await import('../../operator/admin.ts');
    const kube = await kubeClientFor(flags, loadKubeSettings(process.env));
    const target = { namespace: flags.namespace, name: args.name };
    try {
      if (flags.promote) {
        const { id } = await promoteReload(kube, target);
        this.log(`reload ${id} approved: the stable Service switches to the new generation`);
      } else if (flags.rollback) {
        const { id, generation } = await rollbackReload(kube, target);
        this.log(`rollback requested (${id}): the stable Service switches back to generation ${generation}`);
      } else {
        const { id } = await requestReload(kube, {
          ...target,
          strategy: flags.strategy as ReloadStrategy,
          autoPromote: flags['auto-promote'],
          ...(flags.heights ? { heights: flags.heights } : {}),
          ...(flags['retain-previous'] ? { retainPrevious: flags['retain-previous'] } : {}),
          ...(flags.id ? { id: flags.id } : {}),
          force: flags.force,
        });
        this.log(`reload ${id} requested; follow it with: mdw status ${args.name} -n ${flags.namespace}`);
      }
    } catch (err) {
      if (err instanceof AppError) this.error(err.message, { exit: err.status === 400 ? 2 : 1 });
      throw err;
    }
  }
}
