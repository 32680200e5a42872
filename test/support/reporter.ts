/**
 * @module Mocha's spec reporter plus one plain closing line, `N passed, N failed, N skipped`, which
 * CI reads to tell a run that tested something from one that ran nothing.
 */
import Mocha from 'mocha';

const { EVENT_RUN_END } = Mocha.Runner.constants;

export default class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    runner.once(EVENT_RUN_END, () => {
      const stats = runner.stats;
      if (stats) console.log(`\n${stats.passes} passed, ${stats.failures} failed, ${stats.pending} skipped`);
    });
  }
}
