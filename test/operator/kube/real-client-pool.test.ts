/**
 * @module The real KubeClient's connections: its requests share a pool over TLS. client-node 2.0.1 gives each request
 * an undici Agent of its own, and so a TCP and TLS connection of its own (PooledAuthentication in real-client.ts).
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import { createKubeClient } from '../../../src/operator/kube/real-client.ts';

describe('createKubeClient over TLS', () => {
  let server: Server;
  let connections: number;
  let kc: KubeConfig;

  before(async () => {
    // self-signed for localhost and 127.0.0.1, its own CA
    const cert = fileURLToPath(new URL('../../support/tls/localhost.crt', import.meta.url));
    const key = readFileSync(new URL('../../support/tls/localhost.key', import.meta.url));
    server = createServer({ cert: readFileSync(cert), key }, (req, res) => {
      res.setHeader('content-type', 'application/json');
      const resources = [{ name: 'configmaps', kind: 'ConfigMap', namespaced: true, singularName: '', verbs: [] }];
      if (req.url === '/api/v1') res.end(JSON.stringify({ kind: 'APIResourceList', groupVersion: 'v1', resources }));
      else res.end(JSON.stringify({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: {}, items: [] }));
    });
    server.on('secureConnection', () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [{ name: 'c', server: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, caFile: cert }],
      users: [{ name: 'u', token: 'a-token' }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u', namespace: 'default' }],
      currentContext: 'x',
    });
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('sends its requests over the connections it keeps, not a TLS handshake each', async () => {
    connections = 0;
    const kube = createKubeClient(kc);
    for (let i = 0; i < 20; i++) await kube.list('v1', 'ConfigMap', 'default');
    // the discovery of ConfigMap's path, then 20 lists (21 connections before): the pool opens a second connection when
    // a request goes out while the first connection's answer is still being read, then both serve the rest
    expect(connections).to.be.at.most(2);
  });
});
