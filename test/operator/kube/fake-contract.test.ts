/** @module Runs the KubeClient contract against FakeKube. */
import { FakeKube } from '../../../src/operator/kube/fake.ts';
import { runKubeClientContract } from './contract.ts';

runKubeClientContract('FakeKube', async () => {
  const fake = new FakeKube();
  return { client: fake, namespace: 'contract', compact: () => fake.compact() };
});
