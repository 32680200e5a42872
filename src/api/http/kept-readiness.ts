/**
 * @module The database's readiness kept aside (issue 89): under a burst a ping's rows wait for their turn of the event
 * loop behind the pages rendered before them, so a probe that pinged itself answered only after its 2 s bound, as late
 * as a kubelet's timeout, and a loaded pod left its Service. A probe answers the last judgement at once and starts the
 * next one when it is older than REFRESH_MS, so a database gone away or too slow on an idle server is 503 one probe later.
 */
import type { Readiness } from './readiness.ts';

/** REFRESH_MS: the age from which a probe starts a new judgement (the kubelet probes every few seconds). */
export const REFRESH_MS = 250;

/** KeptReadiness keeps the last judgement of `judge`, which never rejects (one in flight at a time); it holds no timer. */
export class KeptReadiness {
  readonly #judge: () => Promise<Readiness>;
  #kept: { readonly readiness: Readiness; readonly atMs: number } | undefined;
  #judging: Promise<Readiness> | undefined;

  constructor(judge: () => Promise<Readiness>) {
    this.#judge = judge;
  }

  /** current is the last judgement (the first probe waits for it), starting the next when it is old. */
  async current(): Promise<Readiness> {
    if (this.#kept === undefined) return this.#refresh();
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
