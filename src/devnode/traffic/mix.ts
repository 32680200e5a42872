/**
 * @module The generator's transaction mix: one valid transaction of a random type from the current
 * state. Spends, oracles and contracts here; names, channels and wrapped (GA, PayingFor) transactions
 * in traffic-*.ts; more makers can be added (`extraMakers`), e.g. by the token traffic.
 */
import { encode, reprefix } from '../../chain/encoding.ts';
import type { Chain } from '../chain.ts';
import { contractCallData, DEVNODE_CONTRACT_BYTECODE, FATE_ABI_VERSION } from '../contracts/fate-contract.ts';
import { contractCreateTx } from '../contracts/txs.ts';
import { ttlFee } from '../rules/fees.ts';
import { contractId, oracleQueryId } from '../ids.ts';
import type { KeyPair } from '../keys.ts';
import type { Random } from '../random.ts';
import { jsonInt, type BuiltTx, type TxFields } from '../tx-codec.ts';
import { schemaFor } from '../../chain/tx-schema.ts';
import { oracleQueryTx, type TrafficKit, type WeightedMaker } from './kit.ts';
import { NameTraffic } from './names.ts';
import { isHeld } from '../rules/common.ts';
import { ChannelTraffic } from './channels.ts';
import { WrappedTraffic } from './wrapped.ts';

export type { Maker, WeightedMaker } from './kit.ts';

/** hasTtl: whether the transaction's layout has a `ttl` field (GAMetaTx v2 and PayingForTx have none). */
const hasTtl = (tx: TxFields): boolean =>
  schemaFor(String(tx.type), Number(tx.version))?.fields.some(([name]) => name === 'ttl') ?? false;

interface OpenQuery {
  readonly id: string;
  readonly oracle: KeyPair;
  readonly responseTtl: number;
}

/** Traffic keeps what the generator has put on chain (oracles, queries, contracts; names, channels and GAs in their traffic) to build follow-ups. */
export class Traffic {
  readonly #kit: TrafficKit;
  readonly #chain: Chain;
  readonly #rng: Random;
  readonly #accounts: readonly KeyPair[];
  readonly #oracles: KeyPair[] = [];
  #queries: OpenQuery[] = [];
  readonly #contracts: string[] = [];
  readonly #names: NameTraffic;
  readonly #oracleIds = new Map<KeyPair, string>();
  readonly #makers: readonly WeightedMaker[];
  readonly #totalWeight: number;
  /** call data is encoded once (FATE encoding is slow) and drawn from this pool */
  readonly #callData: readonly string[];

  constructor(kit: TrafficKit, extraMakers: readonly WeightedMaker[] = []) {
    const { chain, rng, accounts } = kit;
    this.#kit = kit;
    this.#chain = chain;
    this.#rng = rng;
    this.#accounts = accounts;
    for (const k of accounts) this.#oracleIds.set(k, reprefix(k.address, 'ok'));
    this.#callData = Array.from({ length: 64 }, (_, i) =>
      i % 4 === 0
        ? contractCallData('get', [])
        : i % 4 === 1
          ? contractCallData('note', [`note ${rng.uint32()}`])
          : contractCallData('set', [rng.bigint(80)]),
    );
    const contract = (): string | undefined =>
      this.#contracts.length > 0 ? this.#rng.pick(this.#contracts) : undefined;
    this.#names = new NameTraffic(this.#kit);
    this.#makers = [
      [30, (h) => this.#spend(h)],
      [3, (h) => this.#oracleRegister(h)],
      [3, (h) => this.#oracleExtend(h)],
      [10, (h) => this.#oracleQuery(h)],
      [9, (h) => this.#oracleRespond(h)],
      ...this.#names.makers((k) => this.#oracleId(k)),
      [3, () => this.#contractCreate()],
      [8, () => this.#contractCall()],
      ...new ChannelTraffic(this.#kit, contract).makers(),
      ...new WrappedTraffic(this.#kit, contract).makers(),
      ...extraMakers,
    ];
    this.#totalWeight = this.#makers.reduce((sum, [w]) => sum + w, 0);
  }

  /**
   * next builds one transaction valid at `height` (a spend when the chosen type has nothing to
   * act on); about a third of those with a `ttl` field carry one (tx expiry height), as wallets set one.
   */
  next(height: number): BuiltTx {
    return this.#withTtl(this.#choose(height), height);
  }

  /** spend builds a SpendTx (for a profile that weighs the mix towards spends), with a ttl as `next` sets them. */
  spend(height: number): BuiltTx {
    return this.#withTtl(this.#spend(height), height);
  }

  /** contractCall builds a ContractCallTx, or nothing before the first contract is created. */
  contractCall(height: number): BuiltTx | undefined {
    const built = this.#contractCall();
    return built && this.#withTtl(built, height);
  }

  #withTtl(built: BuiltTx, height: number): BuiltTx {
    if (hasTtl(built.tx) && this.#rng.chance(0.3)) built.tx.ttl = height + this.#rng.int(10, 500);
    return built;
  }

  #choose(height: number): BuiltTx {
    let roll = this.#rng.int(1, this.#totalWeight);
    for (const [weight, make] of this.#makers) {
      roll -= weight;
      if (roll <= 0) return make(height) ?? this.#spend(height);
    }
    return this.#spend(height);
  }

  #oracleId(k: KeyPair): string {
    return this.#oracleIds.get(k)!;
  }

  #nonce(k: KeyPair): number {
    return this.#kit.nonce(k);
  }

  #fee(): number {
    return this.#kit.fee();
  }

  #amount(): number | bigint {
    return this.#rng.chance(0.2) ? jsonInt(this.#rng.bigint(72)) : this.#rng.int(1, 1_000_000_000);
  }

  #spend(height: number): BuiltTx {
    const sender = this.#rng.pick(this.#accounts);
    let recipient = this.#rng.pick(this.#accounts).address;
    const named = this.#rng.chance(0.1) ? this.#names.owned(height) : undefined;
    if (named && this.#chain.pending.names.get(named.id)?.pointers.some((p) => p.key === 'account_pubkey'))
      recipient = named.id;
    const payload = this.#rng.chance(0.3) ? `payment ${this.#rng.uint32()}` : '';
    return {
      tx: {
        type: 'SpendTx',
        version: 1,
        sender_id: sender.address,
        recipient_id: recipient,
        amount: this.#amount(),
        fee: this.#fee(),
        nonce: this.#nonce(sender),
        payload: encode('ba', Buffer.from(payload)),
      },
      signers: [sender],
    };
  }

  #liveOracle(height: number, minLife: number): KeyPair | undefined {
    const live = this.#oracles.filter(
      (k) => (this.#chain.pending.oracles.get(this.#oracleId(k))?.expires ?? 0) > height + minLife,
    );
    return live.length > 0 ? this.#rng.pick(live) : undefined;
  }

  #oracleRegister(height: number): BuiltTx | undefined {
    const candidates = this.#accounts.filter(
      (k) => !isHeld(this.#chain.pending.oracles.get(this.#oracleId(k))?.expires ?? 0, height),
    );
    if (candidates.length === 0) return undefined;
    const owner = this.#rng.pick(candidates);
    const ttl = this.#rng.int(500, 5000);
    if (!this.#oracles.includes(owner)) this.#oracles.push(owner);
    return {
      tx: {
        type: 'OracleRegisterTx',
        version: 1,
        account_id: owner.address,
        nonce: this.#nonce(owner),
        query_format: 'string',
        response_format: 'string',
        query_fee: this.#rng.int(0, 1000),
        oracle_ttl: { type: 'delta', value: ttl },
        fee: Number(ttlFee(ttl)) + this.#fee(),
        abi_version: 0,
      },
      signers: [owner],
    };
  }

  #oracleExtend(height: number): BuiltTx | undefined {
    const oracle = this.#liveOracle(height, 1);
    if (!oracle) return undefined;
    return {
      tx: {
        type: 'OracleExtendTx',
        version: 1,
        oracle_id: this.#oracleId(oracle),
        nonce: this.#nonce(oracle),
        oracle_ttl: { type: 'delta', value: this.#rng.int(100, 1000) },
        fee: this.#fee(),
      },
      signers: [oracle],
    };
  }

  #oracleQuery(height: number): BuiltTx | undefined {
    const oracle = this.#liveOracle(height, 120);
    if (!oracle) return undefined;
    const okId = this.#oracleId(oracle);
    const sender = this.#rng.pick(this.#accounts);
    const qttl = this.#rng.int(5, 50);
    const rttl = this.#rng.int(5, 50);
    const nonce = this.#nonce(sender);
    this.#queries.push({ id: oracleQueryId(sender.address, nonce, okId), oracle, responseTtl: rttl });
    return oracleQueryTx({
      sender,
      nonce,
      oracleId: okId,
      query: `question ${this.#rng.uint32()}`,
      queryFee: jsonInt(this.#chain.pending.oracles.get(okId)!.queryFee + BigInt(this.#rng.int(0, 100))),
      queryTtl: qttl,
      responseTtl: rttl,
      fee: Number(ttlFee(qttl)) + this.#fee(),
    });
  }

  #oracleRespond(height: number): BuiltTx | undefined {
    this.#queries = this.#queries.filter((q) => {
      const state = this.#chain.pending.queries.get(q.id);
      return state !== undefined && state.response === undefined && state.expires >= height;
    });
    const query = this.#queries.shift();
    if (!query) return undefined;
    return {
      tx: {
        type: 'OracleRespondTx',
        version: 1,
        oracle_id: this.#oracleId(query.oracle),
        nonce: this.#nonce(query.oracle),
        query_id: query.id,
        response: `answer ${this.#rng.uint32()}`,
        response_ttl: { type: 'delta', value: query.responseTtl },
        fee: Number(ttlFee(query.responseTtl)) + this.#fee(),
      },
      signers: [query.oracle],
    };
  }

  #contractCreate(): BuiltTx {
    const owner = this.#rng.pick(this.#accounts);
    const nonce = this.#nonce(owner);
    this.#contracts.push(contractId(owner.address, nonce));
    return contractCreateTx(owner, nonce, DEVNODE_CONTRACT_BYTECODE, {
      amount: this.#rng.int(0, 1000),
      gas: 10_000,
      gasPrice: 1_000_000_000,
      fee: 80_000 + this.#fee(),
      callData: contractCallData('init', []),
    });
  }

  #contractCall(): BuiltTx | undefined {
    if (this.#contracts.length === 0) return undefined;
    const caller = this.#rng.pick(this.#accounts);
    const callData = this.#rng.pick(this.#callData);
    return {
      tx: {
        type: 'ContractCallTx',
        version: 1,
        caller_id: caller.address,
        nonce: this.#nonce(caller),
        contract_id: this.#rng.pick(this.#contracts),
        abi_version: FATE_ABI_VERSION,
        amount: this.#rng.int(0, 100),
        gas: 5000,
        gas_price: 1_000_000_000,
        fee: 200_000 + this.#fee(),
        call_data: callData,
      },
      signers: [caller],
    };
  }
}
