/** @module Builds the optional Ingress in front of the stable Service. Pure. */
import type { V1HTTPIngressPath, V1Ingress } from '@kubernetes/client-node';
import type { Built, BuildContext } from './meta.ts';
import { Component, childMeta, childName, labelsFor } from './meta.ts';
import { PORT_NAME } from './pod.ts';
import { stableServiceName } from './services.ts';
import { withInputHash } from './hash.ts';

/** buildIngress routes the host to the stable Service (websocketPath, when set, to its websocket port); undefined without spec.server.ingress. */
export function buildIngress(ctx: BuildContext): Built<V1Ingress> | undefined {
  const ingress = ctx.spec.server.ingress;
  if (!ingress) return undefined;
  const backend = (port: string) => ({ service: { name: stableServiceName(ctx), port: { name: port } } });
  const paths: V1HTTPIngressPath[] = [];
  if (ingress.websocketPath !== undefined) {
    paths.push({ path: ingress.websocketPath, pathType: 'Prefix', backend: backend(PORT_NAME.websocket) });
  }
  paths.push({ path: '/', pathType: 'Prefix', backend: backend(PORT_NAME.http) });
  const metadata = childMeta(ctx, childName(ctx.mw), labelsFor(ctx.mw, Component.server));
  if (ingress.annotations) metadata.annotations = { ...ingress.annotations };
  return withInputHash({
    apiVersion: 'networking.k8s.io/v1',
    kind: 'Ingress',
    metadata,
    spec: {
      ...(ingress.className !== undefined ? { ingressClassName: ingress.className } : {}),
      rules: [{ host: ingress.host, http: { paths } }],
      ...(ingress.tlsSecretName !== undefined
        ? { tls: [{ hosts: [ingress.host], secretName: ingress.tlsSecretName }] }
        : {}),
    },
  });
}
