/** @module What the generator's transaction makers share: the chain, the random source, the accounts and small helpers. */
import type { Chain } from '../chain.ts';
import type { KeyPair } from '../keys.ts';
import type { Random } from '../random.ts';
import type { BuiltTx } from '../tx-codec.ts';

/** Maker builds one transaction valid at `height`, or undefined when it has nothing to act on. */
export type Maker = (height: number) => BuiltTx | undefined;

/** WeightedMaker is a maker and how often (relative weight) the mix picks it. */
export type WeightedMaker = readonly [weight: number, make: Maker];

/** TrafficKit is the context every maker works in; `nonce` reads the pending state (the mempool applied). */
export class TrafficKit {
  readonly chain: Chain;
  readonly rng: Random;
  readonly accounts: readonly KeyPair[];
  readonly #byAddress = new Map<string, KeyPair>();

  constructor(chain: Chain, rng: Random, accounts: readonly KeyPair[]) {
    this.chain = chain;
    this.rng = rng;
    this.accounts = accounts;
    for (const k of accounts) this.#byAddress.set(k.address, k);
  }

  /** nonce is the next nonce of an account. */
  nonce(k: KeyPair): number {
    return (this.chain.pending.accounts.get(k.address)?.nonce ?? 0) + 1;
  }

  /** fee is a fee above the seed's minimum, varied so that equal transactions differ. */
  fee(): number {
    return 20_000 + this.rng.int(0, 5000);
  }

  /** account picks one of the funded accounts. */
  account(): KeyPair {
    return this.rng.pick(this.accounts);
  }

  /** other picks a funded account other than `k`. */
  other(k: KeyPair): KeyPair {
    const i = this.accounts.indexOf(k);
    const j = (i + this.rng.int(1, this.accounts.length - 1)) % this.accounts.length;
    return this.accounts[j]!;
  }

  /** keyOf is the key pair of a funded account's address (undefined for any other). */
  keyOf(address: string): KeyPair | undefined {
    return this.#byAddress.get(address);
  }
}

/** OracleQuery is what a maker picks for an OracleQueryTx: its sender and nonce, the oracle, the question, the TTLs. */
export interface OracleQuery {
  readonly sender: KeyPair;
  readonly nonce: number;
  readonly oracleId: string;
  readonly query: string;
  readonly queryFee: number | bigint;
  readonly queryTtl: number;
  readonly responseTtl: number;
  readonly fee: number;
}

/** oracleQueryTx is the OracleQueryTx `q` describes (relative TTLs), signed by its sender. */
export function oracleQueryTx(q: OracleQuery): BuiltTx {
  return {
    tx: {
      type: 'OracleQueryTx',
      version: 1,
      sender_id: q.sender.address,
      nonce: q.nonce,
      oracle_id: q.oracleId,
      query: q.query,
      query_fee: q.queryFee,
      query_ttl: { type: 'delta', value: q.queryTtl },
      response_ttl: { type: 'delta', value: q.responseTtl },
      fee: q.fee,
    },
    signers: [q.sender],
  };
}
