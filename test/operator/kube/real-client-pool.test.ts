/**
 * @module The real KubeClient's connections: its requests share a pool over TLS, which follows the TLS material the
 * KubeConfig gives. client-node 2.0.1 gives each request an undici Agent of its own, and so a TCP and TLS connection of
 * its own (PooledAuthentication in real-client.ts).
 */
import { expect } from 'chai';
import { once } from 'node:events';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { KubeConfig } from '@kubernetes/client-node';
import type { KubeClient } from '../../../src/operator/kube/client.ts';
import { createKubeClient } from '../../../src/operator/kube/real-client.ts';
import { makeCerts, type ClusterCerts } from '../../control-plane/certs.ts';

/** answer is a tiny API server's: ConfigMap's discovery, and an empty ConfigMap list for the rest. */
function answer(url: string | undefined): string {
  const resources = [{ name: 'configmaps', kind: 'ConfigMap', namespaced: true, singularName: '', verbs: [] }];
  return url === '/api/v1'
    ? JSON.stringify({ kind: 'APIResourceList', groupVersion: 'v1', resources })
    : JSON.stringify({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: {}, items: [] });
}

describe('createKubeClient over TLS', () => {
  let server: Server;
  let connections: number;
  let kc: KubeConfig;
  /** watches the server holds open until the test ends them; with none, a watch's answer ends at once */
  let held: ServerResponse[] | undefined;

  before(async () => {
    // self-signed for localhost and 127.0.0.1, its own CA
    const cert = fileURLToPath(new URL('../../support/tls/localhost.crt', import.meta.url));
    const key = readFileSync(new URL('../../support/tls/localhost.key', import.meta.url));
    server = createServer({ cert: readFileSync(cert), key }, (req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url?.includes('watch=true') !== true) res.end(answer(req.url));
      else if (held === undefined) res.end();
      else {
        res.flushHeaders();
        held.push(res);
      }
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

  /** watchUntilDone watches ConfigMaps until the watch ends. */
  async function watchUntilDone(kube: KubeClient): Promise<void> {
    const { promise, resolve, reject } = Promise.withResolvers<void>();
    const watch = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', resourceVersion: '1' };
    await kube.watch(
      watch,
      () => undefined,
      (err) => (err === undefined ? resolve() : reject(err)),
    );
    return promise;
  }

  it('watches over the same pool: a watch that ended leaves its connection to the next', async () => {
    held = undefined;
    connections = 0;
    const kube = createKubeClient(kc);
    await kube.list('v1', 'ConfigMap', 'default');
    for (let i = 0; i < 5; i++) await watchUntilDone(kube);
    await kube.list('v1', 'ConfigMap', 'default');
    // 7 before: one for each watch, the others for the discovery and the lists
    expect(connections).to.be.at.most(2);
  });

  it('answers the other requests while watches hold connections', async () => {
    held = [];
    connections = 0;
    const kube = createKubeClient(kc);
    const watches = [];
    for (let i = 0; i < 3; i++) {
      const watch = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'default', resourceVersion: '1' };
      watches.push(
        await kube.watch(
          watch,
          () => undefined,
          () => undefined,
        ),
      );
    }
    while (held.length < 3) await new Promise((resolve) => setTimeout(resolve, 10));
    // each watch's answer keeps a connection busy (HTTP/1.1): the lists go over others
    for (let i = 0; i < 20; i++) await kube.list('v1', 'ConfigMap', 'default', {});
    expect(connections).to.be.within(4, 5);
    for (const w of watches) w.stop();
    for (const res of held) res.end();
  });
});

describe('createKubeClient over TLS with a client certificate', () => {
  let dir: string;
  let certs: ClusterCerts;
  let server: Server;
  let kc: KubeConfig;
  /** the client certificate's CN of each request, in order */
  let clients: string[];
  const sockets: TLSSocket[] = [];

  /** useClient puts a client certificate where the kubeconfig names it, as a rotation rewrites the files. */
  function useClient(name: 'admin' | 'controllerManager'): void {
    copyFileSync(certs[`${name}Cert`], join(dir, 'client.crt'));
    copyFileSync(certs[`${name}Key`], join(dir, 'client.key'));
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mdw-kube-pool-'));
    certs = makeCerts(dir);
    // the API server's way: a client certificate its CA signed is required, and names the user
    const tls = {
      cert: readFileSync(certs.serverCert),
      key: readFileSync(certs.serverKey),
      ca: readFileSync(certs.caCert),
      requestCert: true,
      rejectUnauthorized: true,
    };
    server = createServer(tls, (req, res) => {
      clients.push(String((req.socket as TLSSocket).getPeerCertificate().subject.CN));
      res.setHeader('content-type', 'application/json');
      res.end(answer(req.url));
    });
    server.on('secureConnection', (socket: TLSSocket) => sockets.push(socket));
    // longer than the test: a connection that ends was ended by the client
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    kc = new KubeConfig();
    kc.loadFromOptions({
      clusters: [
        { name: 'c', server: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, caFile: certs.caCert },
      ],
      users: [{ name: 'u', certFile: join(dir, 'client.crt'), keyFile: join(dir, 'client.key') }],
      contexts: [{ name: 'x', cluster: 'c', user: 'u', namespace: 'default' }],
      currentContext: 'x',
    });
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('presents the new certificate once it changes, and closes the connections of the old one', async () => {
    clients = [];
    useClient('admin');
    const kube = createKubeClient(kc);
    await kube.list('v1', 'ConfigMap', 'default');
    await kube.list('v1', 'ConfigMap', 'default');
    const before = sockets.length;
    // By rotating the client certificate, as a cert-manager renewal or an exec plugin does
    useClient('controllerManager');
    await kube.list('v1', 'ConfigMap', 'default');
    await kube.list('v1', 'ConfigMap', 'default');
    expect(clients).to.deep.equal([
      'mdw-test-admin', // discovery
      'mdw-test-admin',
      'mdw-test-admin',
      'system:kube-controller-manager',
      'system:kube-controller-manager',
    ]);
    // the old pool is closed: its connections end at once, not after a minute idle
    const ended = Date.now();
    await Promise.all(sockets.slice(0, before).map((s) => (s.destroyed ? undefined : once(s, 'close'))));
    expect(Date.now() - ended).to.be.below(5_000);
    expect(sockets.length - before, 'connections of the new certificate').to.be.within(1, 2);
  });
});
