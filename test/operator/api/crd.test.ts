/** @module The generated CRD: checked-in copies, Kubernetes schema, structural-schema rules, subresources, columns. */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildCrd, CRD_FILE, middlewareOpenApiSchema } from '../../../src/operator/api/crd.ts';
import type { JsonSchema } from '../../../src/operator/api/crd-schema.ts';
import {
  renderChartCrdTemplate,
  renderChartRulesTemplate,
  renderCrdFile,
} from '../../../src/operator/specs/manifests.ts';
import { expectGoldenText } from '../specs/golden.ts';
import { kubeSchemaProblems, middlewareSchemaProblems } from '../specs/kube-schema.ts';
import { ConditionType } from '../../../src/operator/api/middleware-types.ts';
import type { MiddlewareStatus } from '../../../src/operator/api/middleware-types.ts';
import { aMiddleware } from '../specs/fixtures.ts';

const repo = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));
const CHART = 'charts/aeternity-middleware-operator';

describe('Middleware CRD', () => {
  const crd = buildCrd();
  const version = crd.spec.versions[0];

  it('is checked in, generated, at crds/ and in the chart (UPDATE_GOLDEN=1 regenerates)', () => {
    expectGoldenText(repo(CRD_FILE), renderCrdFile());
    expectGoldenText(repo(`${CHART}/templates/crds/middlewares.yaml`), renderChartCrdTemplate());
    expectGoldenText(repo(`${CHART}/templates/_rules.tpl`), renderChartRulesTemplate());
  });

  it('is a valid apiextensions.k8s.io/v1 CustomResourceDefinition', async () => {
    expect(await kubeSchemaProblems(crd)).to.deep.equal([]);
  });

  it('serves v1alpha1, namespaced, with short name mdw', () => {
    expect(crd.metadata.name).to.equal('middlewares.middleware.aeternity.io');
    expect(crd.spec.scope).to.equal('Namespaced');
    expect(crd.spec.names.shortNames).to.deep.equal(['mdw']);
    expect(version).to.include({ name: 'v1alpha1', served: true, storage: true });
  });

  it('has status and scale subresources, scale at .spec.server.replicas with a selector', () => {
    expect(version?.subresources?.status).to.deep.equal({});
    expect(version?.subresources?.scale).to.deep.equal({
      specReplicasPath: '.spec.server.replicas',
      statusReplicasPath: '.status.replicas',
      labelSelectorPath: '.status.selector',
    });
  });

  it('prints Ready, Active generation, Height, Lag, Replicas and Age', () => {
    const names = version?.additionalPrinterColumns?.map((c) => c.name);
    expect(names).to.include.members(['Ready', 'Active', 'Height', 'Lag', 'Replicas', 'Age']);
  });

  it('prints the reload state, Synced and Paused with -o wide only (priority 1)', () => {
    const wide = Object.fromEntries(
      (version?.additionalPrinterColumns ?? []).filter((c) => c.priority === 1).map((c) => [c.name, c.jsonPath]),
    );
    expect(wide).to.deep.include({
      Reload: '.status.reload.state',
      Synced: '.status.conditions[?(@.type=="Synced")].status',
      Paused: '.status.conditions[?(@.type=="ReconciliationPaused")].status',
    });
  });

  it('is structural: every node has a type (or is int-or-string), and every default satisfies its own node', () => {
    const problems: string[] = [];
    walk(middlewareOpenApiSchema(), '', (node, path) => {
      if (node.type === undefined && node['x-kubernetes-int-or-string'] !== true) problems.push(`${path}: no type`);
      if (node.default !== undefined && node.type === 'integer' && typeof node.default !== 'number')
        problems.push(`${path}: bad default`);
      if (node.default !== undefined && Array.isArray(node.enum) && !node.enum.includes(node.default))
        problems.push(`${path}: default not in enum`);
      if (
        typeof node.default === 'string' &&
        typeof node.pattern === 'string' &&
        !new RegExp(node.pattern).test(node.default)
      ) {
        problems.push(`${path}: default does not match pattern`);
      }
    });
    expect(problems).to.deep.equal([]);
  });

  it('is documented: docs/operator-crd.md names every spec field', () => {
    const docs = readFileSync(repo('docs/operator-crd.md'), 'utf8');
    const spec = (middlewareOpenApiSchema().properties as Record<string, JsonSchema>).spec as {
      properties: Record<string, unknown>;
    };
    for (const field of Object.keys(spec.properties)) expect(docs, field).to.include(`\`${field}`);
  });

  it('writes CEL rules that only name fields of the schema node they sit on', () => {
    const problems: string[] = [];
    walk(middlewareOpenApiSchema(), '', (node, path) => {
      for (const { rule } of (node['x-kubernetes-validations'] ?? []) as { rule: string }[]) {
        for (const [, chain] of rule.matchAll(/\b(?:self|oldSelf)((?:\.[A-Za-z_]\w*)+)/g)) {
          const fields = (chain ?? '')
            .split('.')
            .slice(1)
            .filter((f) => !['size', 'matches'].includes(f));
          if (fields[0] === 'metadata' && ['name', 'generateName'].includes(fields[1] ?? '')) continue;
          let at: JsonSchema | undefined = node;
          for (const field of fields) at = (at?.properties as Record<string, JsonSchema> | undefined)?.[field];
          if (!at) problems.push(`${path}: ${rule} names ${fields.join('.')}`);
        }
      }
    });
    expect(problems).to.deep.equal([]);
  });

  it('accepts a status with every field the types declare (types and schema agree)', () => {
    const status: Required<MiddlewareStatus> = {
      observedGeneration: 4,
      phase: 'Reindexing',
      activeGeneration: 1,
      pendingGeneration: 2,
      previousGeneration: 0,
      previousExpiresAt: '2026-11-21T06:00:00Z',
      height: 900000,
      nodeHeight: 900002,
      lag: 2,
      replicas: 2,
      readyReplicas: 2,
      selector: 'app.kubernetes.io/instance=mainnet',
      schemaPrefix: 'mainnet_g',
      operand: { image: 'ghcr.io/aeternity/mdw:0.2.0', version: '0.2.0', newestMigration: '1010_schema_identity' },
      conditions: Object.values(ConditionType).map((type) => ({
        type,
        status: 'True',
        reason: 'Ok',
        message: '',
        observedGeneration: 4,
        lastTransitionTime: '2026-11-21T00:00:00Z',
      })),
      reload: {
        id: 'r1',
        strategy: 'BlueGreen',
        generation: 2,
        state: 'CatchingUp',
        startedAt: '2026-11-21T00:00:00Z',
        syncedSince: '2026-11-21T01:00:00Z',
        height: 10,
        nodeHeight: 12,
        lag: 2,
        completedAt: '2026-11-21T02:00:00Z',
        message: 'm',
        fromGeneration: 1,
        heights: '0-12',
        promotedAt: '2026-11-21T01:30:00Z',
        cleanupGeneration: 1,
        outcome: 'Completed',
        snapshot: { url: 'https://snapshots.example/mainnet/' },
      },
      bootstrap: {
        generation: 1,
        snapshot: { volume: { claimName: 'snapshots', path: 'mainnet-2026-11-28' } },
        state: 'Restored',
        message: 'restored',
        startedAt: '2026-11-20T00:00:00Z',
        completedAt: '2026-11-20T00:10:00Z',
      },
    };
    expect(middlewareSchemaProblems({ ...aMiddleware(), status })).to.deep.equal([]);
    expect(middlewareSchemaProblems({ ...aMiddleware(), status: { ...status, phase: 'Sleeping' } })).not.to.deep.equal(
      [],
    );
  });

  it('declares CEL rules for immutability and mutual exclusion, and keys conditions by type', () => {
    const spec = middlewareOpenApiSchema().properties as Record<string, JsonSchema>;
    const rules = JSON.stringify(spec.spec);
    expect(rules).to.include('self.schemaPrefix == oldSelf.schemaPrefix');
    expect(rules).to.include("self.strategy != 'InPlace' || has(self.heights)");
    expect(rules).to.include('!(has(self.minAvailable) && has(self.maxUnavailable))');
    const status = spec.status as { properties: Record<string, JsonSchema> };
    expect(status.properties.conditions).to.include({ 'x-kubernetes-list-type': 'map' });
  });
});

function walk(node: JsonSchema, path: string, visit: (n: JsonSchema, p: string) => void): void {
  visit(node, path || '/');
  for (const [key, child] of Object.entries((node.properties ?? {}) as Record<string, JsonSchema>))
    walk(child, `${path}.${key}`, visit);
  if (node.items) walk(node.items as JsonSchema, `${path}[]`, visit);
  if (typeof node.additionalProperties === 'object') walk(node.additionalProperties as JsonSchema, `${path}{}`, visit);
}
