/** @module The generated CRD: checked-in copies, Kubernetes schema, structural-schema rules, subresources, columns. */
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { buildCrd, CRD_FILE, middlewareOpenApiSchema } from '../../../src/operator/api/crd.ts';
import type { JsonSchema } from '../../../src/operator/api/crd-schema.ts';
import { renderChartCrdTemplate, renderChartRulesTemplate, renderCrdFile } from '../../../src/operator/specs/manifests.ts';
import { expectGoldenText } from '../specs/golden.ts';
import { kubeSchemaProblems } from '../specs/kube-schema.ts';

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
      specReplicasPath: '.spec.server.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector',
    });
  });

  it('prints Ready, Active generation, Height, Lag, Replicas and Age', () => {
    const names = version?.additionalPrinterColumns?.map((c) => c.name);
    expect(names).to.include.members(['Ready', 'Active', 'Height', 'Lag', 'Replicas', 'Age']);
  });

  it('is structural: every node has a type (or is int-or-string), and every default satisfies its own node', () => {
    const problems: string[] = [];
    walk(middlewareOpenApiSchema(), '', (node, path) => {
      if (node.type === undefined && node['x-kubernetes-int-or-string'] !== true) problems.push(`${path}: no type`);
      if (node.default !== undefined && node.type === 'integer' && typeof node.default !== 'number') problems.push(`${path}: bad default`);
      if (node.default !== undefined && Array.isArray(node.enum) && !node.enum.includes(node.default)) problems.push(`${path}: default not in enum`);
      if (typeof node.default === 'string' && typeof node.pattern === 'string' && !new RegExp(node.pattern).test(node.default)) {
        problems.push(`${path}: default does not match pattern`);
      }
    });
    expect(problems).to.deep.equal([]);
  });

  it('declares CEL rules for immutability and mutual exclusion, and keys conditions by type', () => {
    const spec = middlewareOpenApiSchema().properties as Record<string, JsonSchema>;
    const rules = JSON.stringify(spec.spec);
    expect(rules).to.include('self == oldSelf');
    expect(rules).to.include("self.strategy != 'InPlace' || has(self.heights)");
    expect(rules).to.include('!(has(self.minAvailable) && has(self.maxUnavailable))');
    const status = spec.status as { properties: Record<string, JsonSchema> };
    expect(status.properties.conditions).to.include({ 'x-kubernetes-list-type': 'map' });
  });
});

function walk(node: JsonSchema, path: string, visit: (n: JsonSchema, p: string) => void): void {
  visit(node, path || '/');
  for (const [key, child] of Object.entries((node.properties ?? {}) as Record<string, JsonSchema>)) walk(child, `${path}.${key}`, visit);
  if (node.items) walk(node.items as JsonSchema, `${path}[]`, visit);
  if (typeof node.additionalProperties === 'object') walk(node.additionalProperties as JsonSchema, `${path}{}`, visit);
}
