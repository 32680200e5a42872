/** @module `mdw manifests`: the CRD, RBAC and operator Deployment as YAML for `kubectl apply -f -`. */
import { Command, Flags } from '@oclif/core';
import { VERSION } from '../../base/version.ts';

export default class Manifests extends Command {
  static override summary = 'Print the operator install (Namespace, CRD, RBAC, Deployment) as YAML.';
  static override examples = [
    'mdw manifests | kubectl apply -f -',
    'mdw manifests --namespace mdw-system --image registry.example/mdw:0.3.0 --watch-namespace mdw',
  ];
  static override flags = {
    namespace: Flags.string({ char: 'n', description: 'namespace of the operator', default: 'mdw-system' }),
    image: Flags.string({
      description: 'operator image (also the default image of every Middleware)',
      default: `ghcr.io/aeternity/mdw:${VERSION}`,
    }),
    replicas: Flags.integer({ description: 'operator replicas (leader election picks one)', default: 2, min: 1 }),
    'watch-namespace': Flags.string({
      description: 'watch only this namespace (default: all namespaces, cluster-wide RBAC)',
    }),
    'no-namespace': Flags.boolean({ description: 'do not emit the Namespace object' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Manifests);
    const { renderManifests } = await import('../../operator/specs/manifests.ts');
    process.stdout.write(
      renderManifests({
        namespace: flags.namespace,
        image: flags.image,
        replicas: flags.replicas,
        watchNamespace: flags['watch-namespace'],
        createNamespace: !flags['no-namespace'],
      }),
    );
  }
}
