/** @module Builds the populator Deployment (`mdw -p`) of one data generation: the schema's only writer. Pure. */
import type { V1Deployment } from '@kubernetes/client-node';
import type { Built, BuildContext } from './meta.ts';
import { Component, childMeta, childName, generationSuffix, labelsFor, selectorFor, writerLeaseName } from './meta.ts';
import { downwardEnv, httpProbe, middlewareContainer, podTemplate } from './pod.ts';
import { withInputHash } from './hash.ts';

/**
 * PopulatorOptions: `heights` makes the populator reload those heights (`-H`) before it follows the
 * chain; `stopped` scales it to zero, so an in-place `-H` Job can take the schema's single-writer lock.
 */
export interface PopulatorOptions {
  readonly heights?: string | undefined;
  readonly stopped?: boolean | undefined;
}

/**
 * POPULATOR_NODE_OPTIONS are the V8 settings of populator pods. Node sizes V8's heap from the memory it sees, a pod's
 * limit, and V8 the young generation from the heap: a limited pod gets smaller semi-spaces than the 32 MiB V8 takes on
 * a large machine. The populator keeps batches alive while it fetches and prepares the next, and with 8 MiB it
 * scavenged them five times as often, its main thread pausing twice as long per transaction; larger than 32 MiB gained
 * nothing (measured with bench/indexer.ts; the git history of docs/benchmarks.md).
 */
export const POPULATOR_NODE_OPTIONS = '--max-semi-space-size=32';

/** populatorDeploymentName is `<name>-populator-g<N>`. */
export function populatorDeploymentName(ctx: BuildContext, generation: number): string {
  return childName(ctx.mw, Component.populator, generationSuffix(generation));
}

/**
 * buildPopulatorDeployment runs exactly one populator with strategy Recreate, so a rollout stops the old writer
 * before the new one starts; WRITER_LEASE_NAME names the Lease it must hold while writing (two never write one schema).
 */
export function buildPopulatorDeployment(
  ctx: BuildContext,
  generation: number,
  opts: PopulatorOptions = {},
): Built<V1Deployment> {
  const labels = labelsFor(ctx.mw, Component.populator, generation);
  const args = [
    ...(opts.heights === undefined ? ['-p'] : ['-p', '-H', opts.heights]),
    // the sender beside the populator: one per generation, under its writer Lease (docs/webhooks.md)
    ...(ctx.spec.webhooks.enabled ? ['--webhooks'] : []),
  ];
  const container = middlewareContainer(ctx, {
    args,
    generation,
    resources: ctx.spec.populator.resources,
    ports: true,
    // /healthz answers while the event loop runs; readiness is not used (no Service sends it traffic). A populator
    // waits for its writer Lease and migrations before it listens: the startup probe gives it 5 minutes, after which
    // the liveness probe takes over (without it, a slow start would be killed as a hung process).
    startupProbe: httpProbe('/healthz', 10, 30),
    livenessProbe: httpProbe('/healthz', 10, 6),
    extraEnv: [
      { name: 'WRITER_LEASE_NAME', value: writerLeaseName(ctx.mw, generation) },
      { name: 'NODE_OPTIONS', value: POPULATOR_NODE_OPTIONS },
      ...downwardEnv(),
      // the user's own last: validation keeps them off every name above (managed-env.ts)
      ...ctx.spec.populator.env,
    ],
  });
  return withInputHash({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: childMeta(ctx, populatorDeploymentName(ctx, generation), labels),
    spec: {
      replicas: opts.stopped === true ? 0 : 1,
      selector: { matchLabels: selectorFor(ctx.mw, Component.populator, generation) },
      strategy: { type: 'Recreate' },
      template: podTemplate(ctx, labels, container, ctx.spec.populator.scheduling, { kubeApiAccess: true }),
    },
  });
}
