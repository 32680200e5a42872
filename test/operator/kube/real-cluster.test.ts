/**
 * @module The KubeClient contract against a real API server: the control plane `make control-plane` builds (started
 * here, on loopback), whenever it is built; or a cluster of yours (kind, minikube …) with
 *   KUBECONFIG=~/.kube/config KUBE_CONTRACT_NAMESPACE=mdw-contract npx mocha --timeout 120000 \
 *     test/operator/kube/real-cluster.test.ts
 * which creates the namespace and the test CRD (widgets.contract.mdw.test) when missing and leaves both behind.
 */
import { loadKubeConfig, createKubeClient } from '../../../src/operator/kube/real-client.ts';
import type { KubeClient, KubeObject } from '../../../src/operator/kube/client.ts';
import { ControlPlane, controlPlaneBin } from '../../control-plane/control-plane.ts';
import { KubeRest } from '../../control-plane/rest.ts';
import { CONTRACT_CRD, eventually, runKubeClientContract } from './contract.ts';

const yours = process.env.KUBE_CONTRACT_NAMESPACE;
const bin = controlPlaneBin();

/**
 * prepare makes the namespace and the contract's CRD, and waits until the CRD is served. The CRD goes as plain JSON:
 * the client library's serializer knows CustomResourceDefinition and drops the fields whose JSON names differ from
 * its own (`x-kubernetes-preserve-unknown-fields`, `default`), which the operator never writes.
 */
async function prepare(kube: KubeClient, namespace: string, installCrd: () => Promise<unknown>): Promise<void> {
  await kube.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }, 'mdw-contract');
  await installCrd();
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
}

if (yours !== undefined && yours !== '') {
  const kube = createKubeClient(loadKubeConfig({ kubeconfig: process.env.KUBECONFIG }));
  let prepared: Promise<void> | undefined;
  runKubeClientContract('your cluster', async () => {
    // `kubectl apply -f` the CRD first (see contract.ts): a present CRD is left as it is
    prepared ??= prepare(kube, yours, async () => {});
    await prepared;
    return { client: kube, namespace: yours };
  });
} else if (bin !== undefined) {
  const plane = new ControlPlane({ bin });
  let started: Promise<KubeClient> | undefined;
  const start = async (): Promise<KubeClient> => {
    await plane.start();
    const kube = createKubeClient(plane.kubeConfig());
    const rest = new KubeRest(plane.url, plane.certs);
    await prepare(kube, 'mdw-contract', () =>
      rest.call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', CONTRACT_CRD),
    );
    await rest.close();
    return kube;
  };
  describe('a real API server (make control-plane)', function () {
    this.timeout(120_000);
    after(() => plane.stop());
    runKubeClientContract('real API server', async () => {
      started ??= start();
      return { client: await started, namespace: 'mdw-contract' };
    });
  });
} else {
  console.log('KubeClient contract on a real API server: skipped, no control plane built here (make control-plane)');
}
