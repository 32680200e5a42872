/**
 * @module What the indexer does when no node holds a contract call's info any more (every node in NODE_URLS
 * answered 410, as nodes with garbage collection do below their GC height): the call is stored without it,
 * marked `call_info_pruned`, counted, and said once per run, so a long sync from pruning nodes neither stalls
 * nor floods the log.
 */
import type prom from 'prom-client';
import type { Logger } from '../../base/log.ts';

/** PrunedCallInfos counts the calls stored without call info and logs the first one of the run. */
export class PrunedCallInfos {
  readonly #log: Logger;
  readonly #counter: prom.Counter | undefined;
  #count = 0;

  constructor(log: Logger, counter?: prom.Counter) {
    this.#log = log;
    this.#counter = counter;
  }

  /** count is how many calls this run stored without their call info. */
  get count(): number {
    return this.#count;
  }

  /** record notes one call stored without call info (pass as LoaderDeps.onCallInfoGone). */
  readonly record = (txHash: string, height: number): void => {
    this.#count++;
    this.#counter?.inc();
    if (this.#count === 1) {
      this.#log.warn(
        { txHash, height },
        'no node holds this call info any more (410: garbage-collected state); contract calls without it are ' +
          'stored with call_info_pruned = true and counted in mdw_indexer_call_info_pruned_total; ' +
          'reload their heights (-H) from an archive node to fill them in',
      );
    }
  };
}
