/** @module validateMiddleware and validateUpdate against a table of bad specs, cross-checked with the CRD schema (ajv). */
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { formatProblems, validateMiddleware, validateUpdate } from '../../../src/operator/api/validation.ts';
import type { Middleware, MiddlewareSpec } from '../../../src/operator/api/middleware-types.ts';
import { aFullMiddleware, aMiddleware } from '../specs/fixtures.ts';
import { middlewareSchemaProblems } from '../specs/kube-schema.ts';
import { middlewareOpenApiSchema } from '../../../src/operator/api/crd.ts';
import type { JsonSchema } from '../../../src/operator/api/crd-schema.ts';

const repo = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));
const withSpec = (spec: Record<string, unknown>): Middleware => aMiddleware(spec as Partial<MiddlewareSpec>);
const withReplicas = (readReplicas: Record<string, unknown>): Middleware =>
  withSpec({ database: { urlSecretRef: { name: 'mdw-db', key: 'url' }, readReplicas } });

describe('validateMiddleware', () => {
  it('accepts the minimal and the full fixture, and the CRD schema agrees', () => {
    for (const mw of [aMiddleware(), aFullMiddleware()]) {
      expect(validateMiddleware(mw)).to.deep.equal([]);
      expect(middlewareSchemaProblems(mw)).to.deep.equal([]);
    }
  });

  it('accepts the shipped examples (mainnet, a hyperchain), which are identical in the repository and the chart', () => {
    const examples = readdirSync(repo('examples')).sort();
    expect(examples).to.include.members(['middleware.yaml', 'hyperchain.yaml']);
    expect(readdirSync(repo('charts/aeternity-middleware-operator/examples')).sort()).to.deep.equal(examples);
    for (const file of examples) {
      const text = readFileSync(repo(`examples/${file}`), 'utf8');
      expect(readFileSync(repo(`charts/aeternity-middleware-operator/examples/${file}`), 'utf8'), file).to.equal(text);
      const example = parse(text) as unknown;
      expect(validateMiddleware(example), file).to.deep.equal([]);
      expect(middlewareSchemaProblems(example), file).to.deep.equal([]);
    }
  });

  // celOnly: the CRD enforces it with an x-kubernetes-validations rule that ajv does not evaluate.
  const cases: { name: string; mw: unknown; path: string; celOnly?: boolean }[] = [
    { name: 'no node URL', mw: withSpec({ nodeUrls: [] }), path: 'spec.nodeUrls' },
    { name: 'a non-http node URL', mw: withSpec({ nodeUrls: ['ftp://node'] }), path: 'spec.nodeUrls[0]' },
    { name: 'a missing database', mw: withSpec({ database: undefined }), path: 'spec.database' },
    {
      name: 'a secret ref without key',
      mw: withSpec({ database: { urlSecretRef: { name: 'db' } } }),
      path: 'spec.database.urlSecretRef.key',
    },
    {
      name: 'an upper-case schema prefix',
      mw: withSpec({ database: { urlSecretRef: { name: 'db', key: 'u' }, schemaPrefix: 'Mdw' } }),
      path: 'spec.database.schemaPrefix',
    },
    {
      name: 'a storage capacity that is no Kubernetes quantity',
      mw: withSpec({ database: { urlSecretRef: { name: 'db', key: 'u' }, storageCapacity: '500GB' } }),
      path: 'spec.database.storageCapacity',
    },
    {
      name: 'read replicas from a CNPG cluster whose name is no DNS label',
      mw: withReplicas({ cnpg: { cluster: 'PG_main' } }),
      path: 'spec.database.readReplicas.cnpg.cluster',
    },
    {
      name: 'read replicas from a CNPG cluster without its name',
      mw: withReplicas({ cnpg: { credentialsSecretName: 'pg-app' } }),
      path: 'spec.database.readReplicas.cnpg.cluster',
    },
    {
      name: 'read replica URLs in plain text instead of a Secret key',
      mw: withReplicas({ urlsSecretRef: 'postgres://reader:pw@replica:5432/mdw' }),
      path: 'spec.database.readReplicas.urlsSecretRef',
    },
    {
      name: 'a read replica Secret ref without key',
      mw: withReplicas({ urlsSecretRef: { name: 'replicas' } }),
      path: 'spec.database.readReplicas.urlsSecretRef.key',
    },
    {
      name: 'a replica lag bound of 0 seconds',
      mw: withReplicas({ urlsSecretRef: { name: 'replicas', key: 'urls' }, maxLagSeconds: 0 }),
      path: 'spec.database.readReplicas.maxLagSeconds',
    },
    {
      name: 'read replicas from both a CNPG cluster and a Secret',
      mw: withReplicas({ cnpg: { cluster: 'pg' }, urlsSecretRef: { name: 'replicas', key: 'urls' } }),
      path: 'spec.database.readReplicas',
      celOnly: true,
    },
    {
      name: 'read replicas from nowhere',
      mw: withReplicas({ maxLagSeconds: 30 }),
      path: 'spec.database.readReplicas',
      celOnly: true,
    },
    {
      name: 'a trusted proxy that is a host name',
      mw: withSpec({ server: { trustedProxies: ['ingress-nginx'] } }),
      path: 'spec.server.trustedProxies[0]',
    },
    {
      name: 'a trusted network with a prefix beyond 32 bits of IPv4',
      mw: withSpec({ server: { trustedProxies: ['10.0.0.0/8', '10.0.0.0/40'] } }),
      path: 'spec.server.trustedProxies[1]',
      celOnly: true, // the CRD's pattern checks the characters only (1.29 has no isCIDR): the operator refuses it
    },
    {
      name: 'a server variable without a name',
      mw: withSpec({ server: { env: [{ value: 'x' }] } }),
      path: 'spec.server.env[0].name',
    },
    {
      name: 'a server variable whose name has a space',
      mw: withSpec({ server: { env: [{ name: 'CORS ORIGINS', value: '*' }] } }),
      path: 'spec.server.env[0].name',
    },
    {
      name: 'a server variable with a value that is a number',
      mw: withSpec({ server: { env: [{ name: 'API_CACHE_MAX_BYTES', value: 0 }] } }),
      path: 'spec.server.env[0].value',
    },
    {
      name: 'a server variable given a value and a source',
      mw: withSpec({
        server: { env: [{ name: 'CORS_ORIGINS', value: '*', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }] },
      }),
      path: 'spec.server.env[0]',
      celOnly: true,
    },
    {
      name: 'a server variable from two sources',
      mw: withSpec({
        server: {
          env: [
            {
              name: 'CORS_ORIGINS',
              valueFrom: { secretKeyRef: { name: 's', key: 'k' }, configMapKeyRef: { name: 'c', key: 'k' } },
            },
          ],
        },
      }),
      path: 'spec.server.env[0].valueFrom',
      celOnly: true,
    },
    {
      name: 'a server variable from a Secret without its key',
      mw: withSpec({ server: { env: [{ name: 'CORS_ORIGINS', valueFrom: { secretKeyRef: { name: 's' } } }] } }),
      path: 'spec.server.env[0].valueFrom.secretKeyRef.key',
    },
    {
      name: 'a server variable set twice',
      mw: withSpec({
        server: {
          env: [
            { name: 'CORS_ORIGINS', value: '*' },
            { name: 'CORS_ORIGINS', value: 'x' },
          ],
        },
      }),
      path: 'spec.server.env[1].name',
      celOnly: true, // the list is a map keyed by name: the API server refuses the repeat
    },
    {
      name: "the servers' DATABASE_URL in spec.server.env",
      mw: withSpec({ server: { env: [{ name: 'DATABASE_URL', value: 'postgres://elsewhere/mdw' }] } }),
      path: 'spec.server.env[0].name',
      celOnly: true,
    },
    {
      name: "the populator's NODE_OPTIONS in spec.populator.env",
      mw: withSpec({ populator: { env: [{ name: 'NODE_OPTIONS', value: '--max-old-space-size=4096' }] } }),
      path: 'spec.populator.env[0].name',
      celOnly: true,
    },
    { name: 'negative replicas', mw: withSpec({ server: { replicas: -1 } }), path: 'spec.server.replicas' },
    { name: 'fractional replicas', mw: withSpec({ server: { replicas: 1.5 } }), path: 'spec.server.replicas' },
    {
      name: 'an unknown Service type',
      mw: withSpec({ server: { http: { type: 'ExternalName' } } }),
      path: 'spec.server.http.type',
    },
    { name: 'port 0', mw: withSpec({ server: { websocket: { port: 0 } } }), path: 'spec.server.websocket.port' },
    {
      name: 'an ingress without host',
      mw: withSpec({ server: { ingress: { className: 'nginx' } } }),
      path: 'spec.server.ingress.host',
    },
    { name: 'a bad log level', mw: withSpec({ logLevel: 'verbose' }), path: 'spec.logLevel' },
    { name: 'a root /v3 of neither API', mw: withSpec({ server: { rootV3: 'both' } }), path: 'spec.server.rootV3' },
    { name: 'fork window 0', mw: withSpec({ forkWindow: 0 }), path: 'spec.forkWindow' },
    {
      name: 'a negative server shutdown delay',
      mw: withSpec({ server: { shutdownDelaySeconds: -1 } }),
      path: 'spec.server.shutdownDelaySeconds',
    },
    {
      name: 'a server shutdown delay over 10 minutes, more than SHUTDOWN_DELAY_MS takes',
      mw: withSpec({ server: { shutdownDelaySeconds: 601 } }),
      path: 'spec.server.shutdownDelaySeconds',
    },
    {
      name: 'a server shutdown delay in milliseconds or with a unit',
      mw: withSpec({ server: { shutdownDelaySeconds: '5s' } }),
      path: 'spec.server.shutdownDelaySeconds',
    },
    {
      name: 'no drain after a switch: the servers it leaves would go while clients still reach them',
      mw: withSpec({ promotion: { switchDrainSeconds: 0 } }),
      path: 'spec.promotion.switchDrainSeconds',
    },
    {
      name: 'a drain after a switch over an hour',
      mw: withSpec({ promotion: { switchDrainSeconds: 3601 } }),
      path: 'spec.promotion.switchDrainSeconds',
    },
    {
      name: 'a drain after a switch as a duration',
      mw: withSpec({ promotion: { switchDrainSeconds: '30s' } }),
      path: 'spec.promotion.switchDrainSeconds',
    },
    {
      name: 'batches of 0 transactions',
      mw: withSpec({ populator: { batchTransactions: 0 } }),
      path: 'spec.populator.batchTransactions',
    },
    {
      name: 'batches of 10^7 transactions',
      mw: withSpec({ populator: { batchTransactions: 10_000_000 } }),
      path: 'spec.populator.batchTransactions',
    },
    { name: 'paused as a string', mw: withSpec({ paused: 'yes' }), path: 'spec.paused' },
    {
      name: 'a bad interval',
      mw: withSpec({ metrics: { serviceMonitor: { interval: '30 seconds' } } }),
      path: 'spec.metrics.serviceMonitor.interval',
    },
    { name: 'a reload without id', mw: withSpec({ reload: { strategy: 'BlueGreen' } }), path: 'spec.reload.id' },
    { name: 'malformed heights', mw: withSpec({ reload: { id: 'r1', heights: '1-' } }), path: 'spec.reload.heights' },
    {
      name: 'an unknown strategy',
      mw: withSpec({ reload: { id: 'r1', strategy: 'Rolling' } }),
      path: 'spec.reload.strategy',
    },
    {
      name: 'retainPrevious as a count',
      mw: withSpec({ reload: { id: 'r1', retainPrevious: '2' } }),
      path: 'spec.reload.retainPrevious',
    },
    {
      name: 'a name that is no DNS label',
      mw: { ...aMiddleware(), metadata: { name: '9-Lives' } },
      path: 'metadata.name',
      celOnly: true,
    },
    {
      name: 'a snapshot with both a URL and a volume',
      mw: withSpec({
        bootstrap: { snapshot: { url: 'https://snapshots.example/s/', volume: { claimName: 'snaps' } } },
      }),
      path: 'spec.bootstrap.snapshot',
      celOnly: true,
    },
    {
      name: 'a snapshot with no source',
      mw: withSpec({ bootstrap: { snapshot: {} } }),
      path: 'spec.bootstrap.snapshot',
      celOnly: true,
    },
    {
      name: 'a snapshot URL that is not http(s)',
      mw: withSpec({ bootstrap: { snapshot: { url: 's3://bucket/mainnet' } } }),
      path: 'spec.bootstrap.snapshot.url',
    },
    {
      name: 'a snapshot path out of its volume',
      mw: withSpec({ bootstrap: { snapshot: { volume: { claimName: 'snaps', path: 'a/../../etc' } } } }),
      path: 'spec.bootstrap.snapshot.volume.path',
    },
    {
      name: 'a snapshot volume without its claim',
      mw: withSpec({ reload: { id: 'r1', snapshot: { volume: { path: 'a' } } } }),
      path: 'spec.reload.snapshot.volume.claimName',
    },
    {
      name: 'an InPlace reload with a snapshot',
      mw: withSpec({
        reload: { id: 'r1', strategy: 'InPlace', heights: '1', snapshot: { url: 'https://snapshots.example/s/' } },
      }),
      path: 'spec.reload',
      celOnly: true,
    },
    {
      name: 'InPlace without heights',
      mw: withSpec({ reload: { id: 'r1', strategy: 'InPlace' } }),
      path: 'spec.reload',
      celOnly: true,
    },
    {
      name: 'both PDB forms',
      mw: withSpec({ server: { pdb: { minAvailable: 1, maxUnavailable: 1 } } }),
      path: 'spec.server.pdb',
      celOnly: true,
    },
    {
      name: 'autoscaling min above max',
      mw: withSpec({ server: { replicas: 3, autoscaling: { minReplicas: 4, maxReplicas: 3 } } }),
      path: 'spec.server.autoscaling',
      celOnly: true,
    },
  ];
  for (const c of cases) {
    it(`rejects ${c.name} at ${c.path}`, () => {
      const problems = validateMiddleware(c.mw);
      expect(
        problems.map((p) => p.path),
        formatProblems(problems),
      ).to.include(c.path);
      const schema = middlewareSchemaProblems(c.mw);
      if (c.celOnly) expect(schema, 'left to CEL').to.deep.equal([]);
      else expect(schema, 'the CRD schema rejects it too').not.to.deep.equal([]);
    });
  }

  it('names the field that sets a variable the operator manages, in the operator and in the CRD rule alike', () => {
    const problems = validateMiddleware(
      withSpec({
        server: {
          env: [
            { name: 'CORS_ORIGINS', value: '*' },
            { name: 'NODE_URLS', value: 'http://a:3013,http://b:3013' },
            { name: 'TRUSTED_PROXIES', value: '10.0.0.0/8' },
          ],
        },
        populator: { env: [{ name: 'PORT', value: '9090' }] },
      }),
    );
    expect(formatProblems(problems)).to.equal(
      [
        'spec.server.env[1].name: NODE_URLS is set by the operator from spec.nodeUrls: set that instead',
        'spec.server.env[2].name: TRUSTED_PROXIES is set by the operator from spec.server.trustedProxies: set that instead',
        "spec.populator.env[0].name: PORT is set by the operator (the containers' ports; spec.server.http.port sets the Service's) and cannot be changed",
      ].join('\n'),
    );
    // the CRD's rule lists the same names, and its messageExpression writes the same sentences (evaluated here by
    // hand: `self.name + ' <prefix> ' + {<a JSON object>}[self.name]`)
    const spec = (middlewareOpenApiSchema().properties as Record<string, JsonSchema>).spec!;
    for (const role of ['server', 'populator']) {
      const roleSchema = (spec.properties as Record<string, JsonSchema>)[role]!;
      const items = (roleSchema.properties as Record<string, JsonSchema>).env!.items as JsonSchema;
      const [managed] = items['x-kubernetes-validations'] as { rule: string; messageExpression: string }[];
      const listed = JSON.parse(/\[.*\]/.exec(managed!.rule)![0]) as string[];
      const expression = /^self\.name \+ '( [^']+ )' \+ (\{.*\})\[self\.name\]$/.exec(managed!.messageExpression)!;
      const reasons = JSON.parse(expression[2]!) as Record<string, string>;
      expect(listed).to.deep.equal(Object.keys(reasons));
      for (const name of listed) {
        const mw = withSpec({ [role]: { env: [{ name, value: 'x' }] } });
        expect(validateMiddleware(mw).map((p) => p.message)).to.deep.equal([`${name}${expression[1]}${reasons[name]}`]);
      }
    }
  });

  // issue 43 item 6: the HPA owns replicas; the spec's range may move away from the replicas it has not set yet
  it('accepts raising autoscaling.minReplicas above replicas, in the operator and in the CRD (no rule on spec.server)', () => {
    const mw = withSpec({ server: { replicas: 2, autoscaling: { minReplicas: 5, maxReplicas: 10 } } });
    expect(validateMiddleware(mw)).to.deep.equal([]);
    const server = (middlewareOpenApiSchema().properties as Record<string, JsonSchema>).spec!.properties as Record<
      string,
      JsonSchema
    >;
    expect(server.server!['x-kubernetes-validations']).to.equal(undefined);
  });

  it('says the bounds of a server shutdown delay, which SHUTDOWN_DELAY_MS shares', () => {
    expect(formatProblems(validateMiddleware(withSpec({ server: { shutdownDelaySeconds: 601 } })))).to.equal(
      'spec.server.shutdownDelaySeconds: must be between 0 and 600',
    );
    expect(validateMiddleware(withSpec({ server: { shutdownDelaySeconds: 0 } }))).to.deep.equal([]);
  });

  it('reports every problem at once', () => {
    const problems = validateMiddleware(withSpec({ nodeUrls: ['x'], logLevel: 'loud', forkWindow: -1 }));
    expect(problems.map((p) => p.path)).to.have.members(['spec.nodeUrls[0]', 'spec.logLevel', 'spec.forkWindow']);
    expect(formatProblems(problems)).to.match(/^spec\.nodeUrls\[0\]: must match/);
  });

  it('rejects what is not a Middleware at all', () => {
    expect(validateMiddleware(null)).to.deep.equal([{ path: '', message: 'must be an object' }]);
    expect(
      validateMiddleware({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a' } }).map((p) => p.path),
    ).to.have.members(['apiVersion', 'kind', 'spec']);
  });
});

describe('validateUpdate', () => {
  const before = aMiddleware({ reload: { id: 'r1', strategy: 'InPlace', heights: '1-10' } });
  it('allows ordinary changes and a new reload id', () => {
    expect(
      validateUpdate(before, aMiddleware({ server: { replicas: 4 }, reload: { id: 'r2', heights: '5' } })),
    ).to.deep.equal([]);
  });
  it('keeps a schema prefix once set: neither changed nor removed (unset, the Middleware would take its default)', () => {
    const withPrefix = (schemaPrefix?: string) =>
      aMiddleware({
        database: { urlSecretRef: { name: 'mdw-db', key: 'url' }, schemaPrefix },
        reload: before.spec.reload,
      });
    const paths = (a: ReturnType<typeof withPrefix>, b: ReturnType<typeof withPrefix>) =>
      validateUpdate(a, b).map((p) => p.path);
    expect(paths(withPrefix('mdw_g'), withPrefix('other_g'))).to.deep.equal(['spec.database.schemaPrefix']);
    expect(paths(withPrefix('mdw_g'), withPrefix(undefined))).to.deep.equal(['spec.database.schemaPrefix']);
    expect(paths(withPrefix('mdw_g'), withPrefix('mdw_g'))).to.deep.equal([]);
    // set on a Middleware that had none: the operator compares it with the prefix its status recorded
    expect(paths(withPrefix(undefined), withPrefix('mainnet_g'))).to.deep.equal([]);
  });
  it('refuses to change a running reload under the same id', () => {
    const after = aMiddleware({ reload: { id: 'r1', strategy: 'InPlace', heights: '1-20' } });
    expect(validateUpdate(before, after).map((p) => p.path)).to.deep.equal(['spec.reload']);
  });
  it("refuses to change or remove a reload's snapshot under the same id, not under a new one", () => {
    const from = (url?: string) =>
      aMiddleware({ reload: { id: 'r1', ...(url === undefined ? {} : { snapshot: { url } }) } });
    const old = from('https://snapshots.example/a/');
    expect(validateUpdate(old, from('https://snapshots.example/a/'))).to.deep.equal([]);
    expect(validateUpdate(old, from('https://snapshots.example/b/')).map((p) => p.path)).to.deep.equal(['spec.reload']);
    expect(validateUpdate(old, from()).map((p) => p.path)).to.deep.equal(['spec.reload']);
    expect(validateUpdate(from(), from('https://snapshots.example/b/')).map((p) => p.path)).to.deep.equal([
      'spec.reload',
    ]);
    const renewed = aMiddleware({ reload: { id: 'r2', snapshot: { url: 'https://snapshots.example/b/' } } });
    expect(validateUpdate(old, renewed)).to.deep.equal([]);
  });
});
