/**
 * @module The database's readiness kept aside (issue 89): under a burst a ping's rows wait for their turn of the event
 * loop behind the pages rendered before them, so a probe that pinged itself answered only after its 2 s bound, as late
 * as a kubelet's timeout, and a loaded pod left its Service. A probe answers the last ready judgement at once and
 * starts the next one when it is older than REFRESH_MS, so a database gone away or too slow on an idle server is 503
 * from the probe after the ping that found it; a not-ready judgement is never answered from memory (it is judged
 * anew), so a server whose database came back is ready at its next probe.
 */
import type { Readiness } from './readiness.ts';

/** REFRESH_MS: the age from which a probe starts a new judgement (the kubelet probes every few seconds). */
export const REFRESH_MS = 250;

/** KeptReadiness keeps the last judgement of `judge`, which never rejects (one in flight at a time); no timer. */
export class KeptReadiness {
  readonly #judge: () => Promise<Readiness>;
  #kept: { readonly readiness: Readiness; readonly atMs: number } | undefined;
  #judging: Promise<Readiness> | undefined;

  constructor(judge: () => Promise<Readiness>) {
    this.#judge = judge;
  }

  /**
   * current is the last judgement when it was ready, starting the next when it is old; else (the first probe, or the
   * database not ready) a new judgement, so a server back is ready at its next probe however long ago the last was.
   */
  async current(): Promise<Readiness> {
    if (this.#kept === undefined || !this.#kept.readiness.ready) return this.#refresh();
    if (Date.now() - this.#kept.atMs >= REFRESH_MS) void this.#refresh();
    return this.#kept.readiness;
  }

  #refresh(): Promise<Readiness> {
    this.#judging ??= this.#judge().then((readiness) => {
      this.#kept = { readiness, atMs: Date.now() };
      this.#judging = undefined;
      return readiness;
    });
    return this.#judging;
  }
}
