/** @module The fake API server's injected failures: calls that throw an API error or a crash at a chosen step. */
import type { KubeError, ObjectRef } from './client.ts';

/** FakeVerb names every KubeClient call the fake can record or fail. */
export type FakeVerb =
  'get' | 'list' | 'watch' | 'apply' | 'create' | 'replace' | 'patchStatus' | 'patchMerge' | 'delete' | 'createEvent';

/** FailureRule makes matching calls throw error, `times` times (Infinity: until cleared). */
export interface FailureRule {
  verb?: FakeVerb;
  kind?: string;
  name?: string;
  error: KubeError;
  times?: number;
}

/** FailureRules holds the rules in the order they were added; the first that matches a call fails it. */
export class FailureRules {
  #rules: Array<FailureRule & { times: number }> = [];

  /** add makes matching calls throw rule.error, once by default. */
  add(rule: FailureRule): void {
    this.#rules.push({ ...rule, times: rule.times ?? 1 });
  }

  /** clear removes every rule. */
  clear(): void {
    this.#rules = [];
  }

  /** check throws the error of the first rule matching the call (and uses one of its times up). */
  check(verb: FakeVerb, ref: ObjectRef): void {
    const rule = this.#rules.find(
      (r) =>
        (r.verb === undefined || r.verb === verb) &&
        (r.kind === undefined || r.kind === ref.kind) &&
        (r.name === undefined || r.name === ref.name),
    );
    if (rule === undefined) return;
    rule.times -= 1;
    if (rule.times <= 0) this.#rules = this.#rules.filter((r) => r !== rule);
    throw rule.error;
  }
}
