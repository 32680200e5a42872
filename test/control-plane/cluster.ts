/**
 * @module The real test cluster: the control plane, the service proxy and a node agent running this checkout's
 * `bin/mdw.js` as the middleware's image. `make cluster` runs one by hand; the real tier's tests start their own.
 */
import { fileURLToPath } from 'node:url';
import { ControlPlane } from './control-plane.ts';
import { NodeAgent } from './node-agent.ts';
import { KubeRest } from './rest.ts';
import { ServiceProxy } from './service-proxy.ts';

/** IMAGE is the image name the agent runs as this checkout: the chart and the Middlewares of the real tier name it. */
export const IMAGE_REPOSITORY = 'mdw-checkout';
export const IMAGE_TAG = 'dev';
export const IMAGE = `${IMAGE_REPOSITORY}:${IMAGE_TAG}`;

/** CHECKOUT is the repository's root, whose bin/mdw.js the pods run. */
export const CHECKOUT = fileURLToPath(new URL('../../', import.meta.url));

/** RealCluster is a started cluster; stop() ends every process it started. */
export interface RealCluster {
  plane: ControlPlane;
  rest: KubeRest;
  proxy: ServiceProxy;
  agent: NodeAgent;
  stop(): Promise<void>;
}

/** startRealCluster starts the control plane from bin, then the service proxy and one node agent. */
export async function startRealCluster(bin: string, opts: { keep?: boolean } = {}): Promise<RealCluster> {
  const plane = new ControlPlane({ bin, keep: opts.keep });
  await plane.start();
  const rest = new KubeRest(plane.url, plane.certs);
  const proxy = new ServiceProxy(rest);
  await proxy.start();
  const agent = new NodeAgent({
    plane,
    rest,
    nodeName: 'node-1',
    checkout: CHECKOUT,
    runsImage: (image) => image === IMAGE,
    proxyUrl: proxy.url,
  });
  await agent.start();
  return {
    plane,
    rest,
    proxy,
    agent,
    stop: async () => {
      await agent.stop();
      await proxy.stop();
      await rest.close();
      await plane.stop();
    },
  };
}
