/**
 * @module What the populator does with a consensus protocol it does not know (a node newer than the middleware): the
 * blocks are stored as the node gives them and read with the last known protocol's rules (chain/protocols.ts); the
 * protocol is said once per run, with the height it was first stored at, and shown in mdw_protocol_version and
 * mdw_unknown_protocol{protocol}. It never stops the chain.
 */
import type prom from 'prom-client';
import { isKnownProtocol, LATEST_KNOWN_PROTOCOL } from '../../chain/protocols.ts';
import type { Logger } from '../../base/log.ts';

/** The gauges a ProtocolWatch sets. */
export interface ProtocolGauges {
  /** the protocol of the newest key block stored */
  readonly version: prom.Gauge;
  /** 1 for each protocol stored that this middleware does not know */
  readonly unknown: prom.Gauge<'protocol'>;
}

/** A stored key block's height and protocol. */
export interface StoredProtocol {
  readonly height: number;
  readonly version: number;
}

/** ProtocolWatch hears the protocols of the key blocks the populator stores (pass as LoaderDeps.onProtocols). */
export class ProtocolWatch {
  readonly #log: Logger;
  readonly #gauges: ProtocolGauges | undefined;
  /** the unknown protocols said this run */
  readonly #said = new Set<number>();
  /** the highest height heard of: a reload of lower heights does not move the gauge back */
  #top = -1;

  constructor(log: Logger, gauges?: ProtocolGauges) {
    this.#log = log;
    this.#gauges = gauges;
  }

  /** stored notes key blocks just stored; the highest one's protocol is the chain's now. */
  readonly stored = (blocks: readonly StoredProtocol[]): void => {
    for (const { height, version } of blocks) {
      if (height >= this.#top) {
        this.#top = height;
        this.#gauges?.version.set(version);
      }
      if (isKnownProtocol(version) || this.#said.has(version)) continue;
      this.#said.add(version);
      this.#gauges?.unknown.set({ protocol: String(version) }, 1);
      this.#log.warn(
        { protocol: version, height, rules: LATEST_KNOWN_PROTOCOL },
        'the chain runs a protocol this middleware does not know: its blocks are stored as the node gives them and ' +
          'read with the last known protocol’s rules; upgrade the middleware',
      );
    }
  };
}
