/**
 * @module `make cluster`: a real control plane and a node agent on loopback until Ctrl-C, for trying the chart and the
 * operator by hand (`helm install … --set image.repository=mdw-checkout,image.tag=dev`). Prints the kubeconfig.
 */
import { controlPlaneBin } from './control-plane.ts';
import { IMAGE, startRealCluster } from './cluster.ts';

const bin = controlPlaneBin();
if (bin === undefined) {
  console.error('no control plane built here: run `make control-plane` first (Go and its module proxy needed)');
  process.exit(2);
}
const cluster = await startRealCluster(bin, { keep: true });
console.log(`API server   ${cluster.plane.url}
KUBECONFIG   ${cluster.plane.adminKubeconfig}   (the cluster admin)
logs         ${cluster.plane.dir}   (etcd, kube-apiserver, kube-controller-manager, audit.log, pods/)
image        pods of ${IMAGE} run as processes of this checkout; Services are reached through ${cluster.proxy.url}
Ctrl-C stops it.`);
const stop = () => {
  void cluster.stop().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
