/** @module A little chain traffic for `make dev`: spends, an oracle round trip and a name claim. */
import type { Logger } from '../../base/log.ts';
import type { Role } from '../../base/roles.ts';
import { parseJson, stringifyJson } from '../../chain/json.ts';

export interface TrafficOptions {
  readonly externalUrl: string;
  readonly internalUrl: string;
  readonly networkId: string;
  /** At least two funded accounts. */
  readonly accounts: readonly { publicKey: string; secretKey: string }[];
  readonly intervalMs: number;
  readonly log: Logger;
}

const FEE = 20_000_000_000_000n;

/**
 * startTraffic posts one step of a fixed script every interval, through the node's own builders
 * and POST /v2/transactions, signing with aepp-sdk as a wallet would. A failed step is logged and
 * retried on the next tick: traffic must never stop the dev environment.
 */
export function startTraffic(opts: TrafficOptions): Role {
  const [alice, bob] = opts.accounts;
  if (!alice || !bob) throw new Error('traffic needs two accounts');
  const script = new Script(opts, alice, bob);
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = running
      .then(() => (stopped ? undefined : script.step()))
      .catch((err: Error) => opts.log.debug({ err: err.message }, 'traffic step failed'));
  }, opts.intervalMs);
  return {
    name: 'traffic',
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

class Script {
  readonly #opts: TrafficOptions;
  readonly #alice: { publicKey: string; secretKey: string };
  readonly #bob: { publicKey: string; secretKey: string };
  #tick = 0;
  #preclaimHeight: number | undefined;
  #claimed = false;
  readonly #salt = 7_000_000 + Math.floor(Math.random() * 1_000_000);
  // 13 characters or more before .chain: shorter names go to auction on the real chain (the devnode has none).
  readonly #name = `devtraffic${Date.now().toString(36)}.chain`;

  constructor(
    opts: TrafficOptions,
    alice: { publicKey: string; secretKey: string },
    bob: { publicKey: string; secretKey: string },
  ) {
    this.#opts = opts;
    this.#alice = alice;
    this.#bob = bob;
  }

  async step(): Promise<void> {
    this.#tick += 1;
    await this.#spend();
    if (this.#tick % 3 === 0) await this.#oracle();
    if (this.#tick % 4 === 0) await this.#nameClaim();
  }

  async #spend(): Promise<void> {
    const amount = BigInt(1 + (this.#tick % 1000)) * 1_000_000_000_000n;
    await this.#post(this.#alice, 'transactions/spend', {
      sender_id: this.#alice.publicKey,
      recipient_id: this.#bob.publicKey,
      amount,
      fee: FEE,
      payload: `tick ${this.#tick}`,
    });
  }

  /** Registers Bob's oracle once, then alternates between asking it and answering open queries. */
  async #oracle(): Promise<void> {
    const oracleId = `ok_${this.#bob.publicKey.slice(3)}`;
    const oracle = await this.#get(`${this.#opts.externalUrl}/v2/oracles/${oracleId}`);
    if (!oracle.ok) {
      await this.#post(this.#bob, 'oracles/register', {
        account_id: this.#bob.publicKey,
        query_format: 'city',
        response_format: 'temperature',
        query_fee: 1000,
        oracle_ttl: { type: 'delta', value: 5000 },
        fee: FEE,
      });
      return;
    }
    const { oracle_queries: queries } = (await this.#get(`${this.#opts.externalUrl}/v2/oracles/${oracleId}/queries`))
      .body as { oracle_queries?: { id: string; response: string }[] };
    const open = queries?.find((q) => q.response === 'or_Xfbg4g==');
    if (open) {
      await this.#post(this.#bob, 'oracles/respond', {
        oracle_id: oracleId,
        query_id: open.id,
        response: `${10 + (this.#tick % 20)}C`,
        response_ttl: { type: 'delta', value: 100 },
        fee: FEE,
      });
    } else {
      await this.#post(this.#alice, 'oracles/query', {
        sender_id: this.#alice.publicKey,
        oracle_id: oracleId,
        query: 'Berlin',
        query_fee: 1000,
        query_ttl: { type: 'delta', value: 100 },
        response_ttl: { type: 'delta', value: 100 },
        fee: FEE,
      });
    }
  }

  /** Preclaims one name, then claims it once a key block has been mined since. */
  async #nameClaim(): Promise<void> {
    if (this.#claimed) return;
    const { height } = (await this.#get(`${this.#opts.externalUrl}/v2/key-blocks/current/height`)).body as {
      height: number;
    };
    if (this.#preclaimHeight === undefined) {
      const { commitment_id } = (
        await this.#get(`${this.#opts.internalUrl}/v2/debug/names/commitment-id?name=${this.#name}&salt=${this.#salt}`)
      ).body as { commitment_id: string };
      await this.#post(this.#alice, 'names/preclaim', { account_id: this.#alice.publicKey, commitment_id, fee: FEE });
      this.#preclaimHeight = height;
    } else if (height > this.#preclaimHeight + 1) {
      await this.#post(this.#alice, 'names/claim', {
        account_id: this.#alice.publicKey,
        name: this.#name,
        name_salt: this.#salt,
        fee: FEE,
      });
      this.#claimed = true;
      this.#opts.log.info({ name: this.#name }, 'traffic claimed a name');
    }
  }

  async #post(signer: { secretKey: string }, builder: string, body: Record<string, unknown>): Promise<void> {
    const built = await this.#send(`${this.#opts.internalUrl}/v2/debug/${builder}`, body);
    // imported at the first step, after the banner: aepp-sdk's 500 modules were 0.4 CPU-s of every start, with --no-traffic too
    const { MemoryAccount } = await import('@aeternity/aepp-sdk');
    const account = new MemoryAccount(signer.secretKey as `sk_${string}`);
    const signed = await account.signTransaction((built as { tx: `tx_${string}` }).tx, {
      networkId: this.#opts.networkId,
    });
    await this.#send(`${this.#opts.externalUrl}/v2/transactions`, { tx: signed });
  }

  async #send(url: string, body: unknown): Promise<unknown> {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stringifyJson(body),
    });
    const parsed = parseJson(await res.text());
    if (!res.ok) throw new Error(`${url}: ${res.status} ${stringifyJson(parsed)}`);
    return parsed;
  }

  async #get(url: string): Promise<{ ok: boolean; body: unknown }> {
    const res = await fetch(url);
    return { ok: res.ok, body: parseJson(await res.text()) };
  }
}
