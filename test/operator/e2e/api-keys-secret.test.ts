/**
 * @module Issue 77: the servers' API keys from a Secret (spec.api.keysSecretRef) on the fake API server. The server
 * Deployment mounts the Secret's key as the file API_KEYS_FILE names, whole (no subPath: the kubelet rewrites such a
 * file when the Secret changes), and a change of the Secret rolls nothing: the servers reread the file live
 * (test/integration/api/api-keys.test.ts runs that part on real servers).
 */
import { expect } from 'chai';
import type { V1Deployment, V1Secret } from '@kubernetes/client-node';
import { parseKeysFile } from '../../../src/api/quota/keys-file.ts';
import { keyIdOf, keySha256 } from '../../../src/api/quota/key-text.ts';
import type { Built } from '../../../src/operator/specs/meta.ts';
import { Harness, exampleMiddleware } from './harness.ts';

const SERVER = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'chain', name: 'mainnet-server-g1' };
const POPULATOR = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'chain', name: 'mainnet-populator-g1' };
const SECRET = { apiVersion: 'v1', kind: 'Secret', namespace: 'chain', name: 'api-keys' };
const TIERS = new Set(['anonymous', 'free', 'pro']);

describe('spec.api.keysSecretRef (operator, fake API server)', () => {
  it("mounts the Secret's keys file into the servers, and a change of the Secret reaches them without a rollout", async () => {
    const h = new Harness();
    const keys = (entries: object[]) => ({ 'keys.json': JSON.stringify(entries) });
    await h.kube.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'chain' } });
    await h.kube.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'api-keys', namespace: 'chain' },
      stringData: keys([{ name: 'exchange', tier: 'pro', key: 'mdw_exchange_key_000001' }]),
    });
    const mw = exampleMiddleware();
    await h.apply({ ...mw, spec: { ...mw.spec, api: { keysSecretRef: { name: 'api-keys', key: 'keys.json' } } } });
    h.probe.set('mainnet', 100, 0);
    await h.settle();

    const server = h.kube.peek<Built<V1Deployment>>(SERVER)!;
    const pod = server.spec!.template.spec!;
    const container = pod.containers[0]!;
    const file = container.env!.find((e) => e.name === 'API_KEYS_FILE')!.value!;
    const mount = container.volumeMounts!.find((m) => file.startsWith(`${m.mountPath}/`))!;
    expect(mount).to.include({ readOnly: true });
    // a subPath mount is never updated by the kubelet: the live reload needs the directory mounted
    expect(mount).not.to.have.property('subPath');
    const volume = pod.volumes!.find((v) => v.name === mount.name)!;
    expect(volume.secret).to.deep.include({ secretName: 'api-keys' });
    const item = volume.secret!.items!.find((i) => `${mount.mountPath}/${i.path}` === file)!;
    expect(item.key).to.equal('keys.json');
    // the populator has no use for the keys
    const populator = h.kube.peek<Built<V1Deployment>>(POPULATOR)!;
    expect(JSON.stringify(populator.spec!.template)).not.to.contain('api-keys');

    // what the kubelet projects at that path is the file the servers take (keys-file.ts, as KeyRing reads it)
    const projected = (): string => {
      const secret = h.kube.peek(SECRET) as V1Secret;
      const data = secret.data?.[item.key];
      return data === undefined ? secret.stringData![item.key]! : Buffer.from(data, 'base64').toString('utf8');
    };
    const idsIn = (text: string): string[] => {
      const parsed = parseKeysFile(text, TIERS);
      if ('problems' in parsed) throw new Error(parsed.problems.join('; '));
      return parsed.map((k) => k.id);
    };
    expect(idsIn(projected())).to.deep.equal([keyIdOf(keySha256('mdw_exchange_key_000001'))]);

    // a key added to the Secret: the Deployment stays as it was (no new pods), the file the servers reread has it
    const before = structuredClone(server);
    const edited = keys([
      { name: 'exchange', tier: 'pro', key: 'mdw_exchange_key_000001' },
      { name: 'wallet', tier: 'free', key: 'mdw_wallet_key_00000002' },
    ])['keys.json'];
    h.kube.userPatch(SECRET, { data: { 'keys.json': Buffer.from(edited).toString('base64') } });
    await h.settle();
    expect(h.kube.peek<Built<V1Deployment>>(SERVER)!.spec!.template).to.deep.equal(before.spec!.template);
    expect(idsIn(projected())).to.have.length(2);
  });
});
