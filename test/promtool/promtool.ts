/**
 * @module Prometheus' promtool, built by build.sh from the Go module proxy into a cache outside the clone (as the
 * control plane is): `promtool test rules` evaluates the chart's alerts on input series as Prometheus would.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { stringify } from 'yaml';

const run = promisify(execFile);
const HERE = new URL('.', import.meta.url).pathname;

/** promtoolBin is the built promtool, or undefined when build.sh has not run here. */
export function promtoolBin(): string | undefined {
  const version = /^PROMETHEUS_VERSION=(\S+)$/m.exec(readFileSync(join(HERE, 'versions'), 'utf8'))?.[1] ?? '';
  const cache = process.env.MDW_PROMTOOL_CACHE ?? join(homedir(), '.cache', 'mdw-promtool');
  const bin = join(cache, `prometheus-${version}`, 'bin', 'promtool');
  return existsSync(bin) ? bin : undefined;
}

/** withPromtool registers the suite when promtool is built here, and says in one line that it skipped otherwise. */
export function withPromtool(title: string, suite: (this: Mocha.Suite, promtool: string) => void): void {
  const bin = promtoolBin();
  if (bin === undefined) {
    console.log(`${title}: skipped, no promtool built here (make promtool)`);
    return;
  }
  describe(title, function () {
    suite.call(this, bin);
  });
}

/** One test of `promtool test rules`: input series (promtool's expanding notation) and the alerts expected when. */
export interface RuleTest {
  readonly name: string;
  /** the step between two values of a series (a scrape interval) */
  readonly interval: string;
  readonly input_series: readonly { series: string; values: string }[];
  readonly alert_rule_test: readonly {
    eval_time: string;
    alertname: string;
    exp_alerts: readonly { exp_labels: Record<string, string> }[];
  }[];
}

type Groups = readonly { name: string; rules: readonly Record<string, unknown>[] }[];

/**
 * testRules runs `promtool test rules` on `groups` (a PrometheusRule's spec.groups, their annotations left out: the
 * tests judge when alerts fire, not their text), rules evaluated every `evaluationInterval`, and resolves to promtool's
 * output; it rejects with that output when a test fails.
 */
export function testRules(
  promtool: string,
  groups: Groups,
  tests: readonly RuleTest[],
  evaluationInterval: string,
): Promise<string> {
  const bare = groups.map((g) => ({ ...g, rules: g.rules.map(({ annotations: _a, ...rule }) => rule) }));
  const spec = { rule_files: ['rules.yaml'], evaluation_interval: evaluationInterval, tests };
  return promtoolOn(promtool, { 'rules.yaml': { groups: bare }, 'tests.yaml': spec }, ['test', 'rules', 'tests.yaml']);
}

/** checkRules runs `promtool check rules` on whole rule groups (annotations' templates included); rejects on a problem. */
export function checkRules(promtool: string, groups: Groups): Promise<string> {
  return promtoolOn(promtool, { 'rules.yaml': { groups } }, ['check', 'rules', 'rules.yaml']);
}

/** promtoolOn writes `files` as YAML into a directory of its own and runs promtool there with `args`. */
async function promtoolOn(promtool: string, files: Record<string, unknown>, args: string[]): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'mdw-promtool-'));
  try {
    for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), stringify(content));
    const { stdout, stderr } = await run(promtool, args, { cwd: dir, maxBuffer: 1 << 24 });
    return stdout + stderr;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`promtool ${args.join(' ')} failed:\n${e.stdout ?? ''}${e.stderr ?? e.message}`, { cause: err });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
