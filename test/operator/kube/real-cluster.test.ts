/**
 * @module The KubeClient contract against a real cluster (kind, minikube …). Not run by `make test`: it registers
 * nothing unless KUBE_CONTRACT_NAMESPACE is set. Run it with
 *   KUBECONFIG=~/.kube/config KUBE_CONTRACT_NAMESPACE=mdw-contract npx mocha --timeout 120000 \
 *     test/operator/kube/real-cluster.test.ts
 * It creates the namespace and the test CRD (widgets.contract.mdw.test) when missing and leaves both behind.
 */
import { loadKubeConfig, createKubeClient } from '../../../src/operator/kube/real-client.ts';
import type { KubeObject } from '../../../src/operator/kube/client.ts';
import { CONTRACT_CRD, eventually, runKubeClientContract } from './contract.ts';

const namespace = process.env.KUBE_CONTRACT_NAMESPACE;

if (namespace !== undefined && namespace !== '') {
  const kube = createKubeClient(loadKubeConfig({ kubeconfig: process.env.KUBECONFIG }));
  let prepared = false;
  runKubeClientContract('real cluster', async () => {
    if (!prepared) {
      await kube.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }, 'mdw-contract');
      await kube.apply(CONTRACT_CRD, 'mdw-contract');
      await eventually(async () => {
        const crd = await kube.get<KubeObject & { status?: { conditions?: Array<{ type: string; status: string }> } }>({
          apiVersion: CONTRACT_CRD.apiVersion,
          kind: CONTRACT_CRD.kind,
          name: CONTRACT_CRD.metadata.name,
        });
        if (!(crd?.status?.conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True')) {
          throw new Error('CRD not established yet');
        }
      }, 60_000);
      prepared = true;
    }
    return { client: kube, namespace };
  });
}
