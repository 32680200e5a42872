/** @module The generator's transaction mix: one valid transaction of a random type, signed, from the current state. */
import { getMinimumNameFee } from '@aeternity/aepp-sdk';
import { encode, reprefix } from '../chain/encoding.ts';
import type { Chain } from './chain.ts';
import { contractCallData, DEVNODE_CONTRACT_BYTECODE, FATE_ABI_VERSION, FATE_VM_VERSION } from './fate-contract.ts';
import { ttlFee } from './fees.ts';
import { channelId, commitmentId, contractId, nameHash, oracleQueryId } from './ids.ts';
import type { KeyPair } from './keys.ts';
import type { Random } from './random.ts';
import { jsonInt, type TxFields } from './tx-codec.ts';

/** BuiltTx is a transaction and the key pairs that must sign it. */
export interface BuiltTx {
  readonly tx: TxFields;
  readonly signers: readonly KeyPair[];
}

interface Preclaim {
  readonly name: string;
  readonly salt: bigint;
  readonly owner: KeyPair;
  readonly height: number;
}
interface OwnedName {
  readonly id: string;
  owner: KeyPair;
}
interface OpenQuery {
  readonly id: string;
  readonly oracle: KeyPair;
  readonly responseTtl: number;
}
interface OpenChannel {
  readonly id: string;
  readonly initiator: KeyPair;
  readonly responder: KeyPair;
  readonly total: bigint;
}

type Maker = (height: number) => BuiltTx | undefined;

/** Traffic keeps what the generator has put on chain (oracles, queries, names, contracts, channels) to build follow-ups. */
export class Traffic {
  readonly #chain: Chain;
  readonly #rng: Random;
  readonly #accounts: readonly KeyPair[];
  readonly #oracles: KeyPair[] = [];
  #queries: OpenQuery[] = [];
  #preclaims: Preclaim[] = [];
  readonly #names: OwnedName[] = [];
  readonly #contracts: string[] = [];
  #channels: OpenChannel[] = [];
  #nameCounter = 0;
  readonly #oracleIds = new Map<KeyPair, string>();
  readonly #makers: readonly [number, Maker][];
  /** call data is encoded once (FATE encoding is slow) and drawn from this pool */
  readonly #callData: readonly string[];

  constructor(chain: Chain, rng: Random, accounts: readonly KeyPair[]) {
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
    this.#makers = [
      [30, (h) => this.#spend(h)],
      [3, (h) => this.#oracleRegister(h)],
      [3, (h) => this.#oracleExtend(h)],
      [10, (h) => this.#oracleQuery(h)],
      [9, (h) => this.#oracleRespond(h)],
      [8, (h) => this.#namePreclaim(h)],
      [7, (h) => this.#nameClaim(h)],
      [6, (h) => this.#nameUpdate(h)],
      [3, (h) => this.#nameTransfer(h)],
      [2, (h) => this.#nameRevoke(h)],
      [3, () => this.#contractCreate()],
      [8, () => this.#contractCall()],
      [3, () => this.#channelCreate()],
      [2, () => this.#channelClose()],
    ];
  }

  /**
   * next builds one transaction valid at `height` (a spend when the chosen type has nothing to
   * act on); about a third carry a `ttl` (tx expiry height), as wallets set one.
   */
  next(height: number): BuiltTx {
    const built = this.#choose(height);
    if (this.#rng.chance(0.3)) built.tx.ttl = height + this.#rng.int(10, 500);
    return built;
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
    if (this.#rng.chance(0.3)) built.tx.ttl = height + this.#rng.int(10, 500);
    return built;
  }

  #choose(height: number): BuiltTx {
    const total = this.#makers.reduce((s, [w]) => s + w, 0);
    let roll = this.#rng.int(1, total);
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
    return (this.#chain.pending.accounts.get(k.address)?.nonce ?? 0) + 1;
  }

  #fee(): number {
    return 20_000 + this.#rng.int(0, 5000);
  }

  #amount(): number | bigint {
    return this.#rng.chance(0.2) ? jsonInt(this.#rng.bigint(72)) : this.#rng.int(1, 1_000_000_000);
  }

  #spend(height: number): BuiltTx {
    const sender = this.#rng.pick(this.#accounts);
    let recipient = this.#rng.pick(this.#accounts).address;
    const named = this.#rng.chance(0.1) ? this.#ownedName(height) : undefined;
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
      (k) => (this.#chain.pending.oracles.get(this.#oracleId(k))?.expires ?? 0) <= height,
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
    return {
      tx: {
        type: 'OracleQueryTx',
        version: 1,
        sender_id: sender.address,
        nonce,
        oracle_id: okId,
        query: `question ${this.#rng.uint32()}`,
        query_fee: jsonInt(this.#chain.pending.oracles.get(okId)!.queryFee + BigInt(this.#rng.int(0, 100))),
        query_ttl: { type: 'delta', value: qttl },
        response_ttl: { type: 'delta', value: rttl },
        fee: Number(ttlFee(qttl)) + this.#fee(),
      },
      signers: [sender],
    };
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

  #namePreclaim(height: number): BuiltTx {
    const owner = this.#rng.pick(this.#accounts);
    const name = `gen${this.#nameCounter++}x${this.#rng.uint32().toString(36)}.chain`;
    const salt = this.#rng.bigint(128);
    this.#preclaims.push({ name, salt, owner, height });
    return {
      tx: {
        type: 'NamePreclaimTx',
        version: 1,
        account_id: owner.address,
        nonce: this.#nonce(owner),
        commitment_id: commitmentId(name, salt),
        fee: this.#fee(),
      },
      signers: [owner],
    };
  }

  #nameClaim(height: number): BuiltTx | undefined {
    this.#preclaims = this.#preclaims.filter((p) => p.height + 250 > height);
    const index = this.#preclaims.findIndex((p) => p.height < height);
    if (index < 0) return undefined;
    const [p] = this.#preclaims.splice(index, 1);
    this.#names.push({ id: nameHash(p!.name), owner: p!.owner });
    return {
      tx: {
        type: 'NameClaimTx',
        version: 2,
        account_id: p!.owner.address,
        nonce: this.#nonce(p!.owner),
        name: p!.name,
        name_salt: jsonInt(p!.salt),
        name_fee: jsonInt(BigInt(getMinimumNameFee(p!.name as `${string}.chain`).toString())),
        fee: this.#fee(),
      },
      signers: [p!.owner],
    };
  }

  #ownedName(height: number): OwnedName | undefined {
    while (this.#names.length > 0) {
      const index = this.#rng.int(0, this.#names.length - 1);
      const n = this.#names[index]!;
      const e = this.#chain.pending.names.get(n.id);
      if (e !== undefined && e.revokedAt === undefined && e.expires > height + 1) return n;
      this.#names[index] = this.#names[this.#names.length - 1]!;
      this.#names.pop();
    }
    return undefined;
  }

  #nameUpdate(height: number): BuiltTx | undefined {
    const n = this.#ownedName(height);
    if (!n) return undefined;
    const pointers = [{ key: 'account_pubkey', id: n.owner.address }];
    if (this.#rng.chance(0.3)) pointers.push({ key: 'oracle_pubkey', id: this.#oracleId(n.owner) });
    return {
      tx: {
        type: 'NameUpdateTx',
        version: 1,
        account_id: n.owner.address,
        nonce: this.#nonce(n.owner),
        name_id: n.id,
        name_ttl: this.#rng.int(10_000, 50_000),
        pointers,
        client_ttl: 3600,
        fee: this.#fee(),
      },
      signers: [n.owner],
    };
  }

  #nameTransfer(height: number): BuiltTx | undefined {
    const n = this.#ownedName(height);
    if (!n) return undefined;
    const owner = n.owner;
    n.owner = this.#rng.pick(this.#accounts);
    return {
      tx: {
        type: 'NameTransferTx',
        version: 1,
        account_id: owner.address,
        nonce: this.#nonce(owner),
        name_id: n.id,
        recipient_id: n.owner.address,
        fee: this.#fee(),
      },
      signers: [owner],
    };
  }

  #nameRevoke(height: number): BuiltTx | undefined {
    const n = this.#ownedName(height);
    if (!n) return undefined;
    const index = this.#names.indexOf(n);
    this.#names[index] = this.#names[this.#names.length - 1]!;
    this.#names.pop();
    return {
      tx: {
        type: 'NameRevokeTx',
        version: 1,
        account_id: n.owner.address,
        nonce: this.#nonce(n.owner),
        name_id: n.id,
        fee: this.#fee(),
      },
      signers: [n.owner],
    };
  }

  #contractCreate(): BuiltTx {
    const owner = this.#rng.pick(this.#accounts);
    const nonce = this.#nonce(owner);
    this.#contracts.push(contractId(owner.address, nonce));
    return {
      tx: {
        type: 'ContractCreateTx',
        version: 1,
        owner_id: owner.address,
        nonce,
        code: DEVNODE_CONTRACT_BYTECODE,
        vm_version: FATE_VM_VERSION,
        abi_version: FATE_ABI_VERSION,
        deposit: 0,
        amount: this.#rng.int(0, 1000),
        gas: 10_000,
        gas_price: 1_000_000_000,
        fee: 80_000 + this.#fee(),
        call_data: contractCallData('init', []),
      },
      signers: [owner],
    };
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

  #channelCreate(): BuiltTx | undefined {
    const initiator = this.#rng.pick(this.#accounts);
    const responder = this.#rng.pick(this.#accounts);
    if (initiator === responder) return undefined;
    const nonce = this.#nonce(initiator);
    const ia = BigInt(this.#rng.int(100_000, 1_000_000_000));
    const ra = BigInt(this.#rng.int(100_000, 1_000_000_000));
    this.#channels.push({
      id: channelId(initiator.address, nonce, responder.address),
      initiator,
      responder,
      total: ia + ra,
    });
    return {
      tx: {
        type: 'ChannelCreateTx',
        version: 1,
        initiator_id: initiator.address,
        initiator_amount: Number(ia),
        responder_id: responder.address,
        responder_amount: Number(ra),
        channel_reserve: 500,
        lock_period: 10,
        fee: this.#fee(),
        delegate_ids: [],
        state_hash: encode('st', this.#rng.bytes(32)),
        nonce,
      },
      signers: [initiator, responder],
    };
  }

  #channelClose(): BuiltTx | undefined {
    const channel = this.#channels.shift();
    if (!channel) return undefined;
    const fee = BigInt(this.#fee());
    const initiatorFinal = (channel.total - fee) / 2n;
    return {
      tx: {
        type: 'ChannelCloseMutualTx',
        version: 1,
        channel_id: channel.id,
        from_id: channel.initiator.address,
        initiator_amount_final: Number(initiatorFinal),
        responder_amount_final: Number(channel.total - fee - initiatorFinal),
        fee: Number(fee),
        nonce: this.#nonce(channel.initiator),
      },
      signers: [channel.initiator, channel.responder],
    };
  }
}
