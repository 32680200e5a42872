/**
 * @module The generator's wrapped transactions: generalized accounts (fund a fresh key, attach the
 * devnode's GA contract with nonce 1, then GAMetaTx with an inner tx of nonce 0) and PayingForTx,
 * whose payer signs the outer tx and whose inner tx is signed over `network-inner_tx`.
 */
import { encode } from '../../chain/encoding.ts';
import { keyPairFromSeed, signBytes, type KeyPair } from '../keys.ts';
import {
  FATE_ABI_VERSION,
  FATE_VM_VERSION,
  GA_AUTH_FUN,
  GA_CONTRACT_BYTECODE,
  contractCallData,
  gaAuthData,
} from '../contracts/fate-contract.ts';
import { encodeTx, type BuiltTx, type TxFields } from '../tx-codec.ts';
import type { TrafficKit, WeightedMaker } from './kit.ts';

/** GA_FUNDING is what a fresh key gets before it becomes a generalized account. */
const GA_FUNDING = 10n ** 21n;

/** MAX_GA_ACCOUNTS bounds the generalized accounts made (the rest of the chain's GAMetaTx reuse them). */
const MAX_GA_ACCOUNTS = 40;

/** WrappedTraffic keeps the fresh keys and the generalized accounts the generator made. */
export class WrappedTraffic {
  readonly #kit: TrafficKit;
  readonly #contractOf: () => string | undefined;
  readonly #fresh: KeyPair[] = [];
  readonly #gas: KeyPair[] = [];
  #authCounter = 0n;

  constructor(kit: TrafficKit, contractOf: () => string | undefined) {
    this.#kit = kit;
    this.#contractOf = contractOf;
  }

  makers(): WeightedMaker[] {
    return [
      [1, () => (this.#gas.length < MAX_GA_ACCOUNTS ? this.#attach() : undefined)],
      [3, () => this.#meta()],
      [3, () => this.#payingFor()],
    ];
  }

  /** #inner is a spend or, when a contract exists, sometimes a contract call by `sender` with `nonce`. */
  #inner(sender: KeyPair, nonce: number): TxFields {
    const contract = this.#contractOf();
    if (contract && this.#kit.rng.chance(0.3)) {
      return {
        type: 'ContractCallTx',
        version: 1,
        caller_id: sender.address,
        nonce,
        contract_id: contract,
        abi_version: FATE_ABI_VERSION,
        amount: 0,
        gas: 5000,
        gas_price: 1_000_000_000,
        fee: 200_000 + this.#kit.fee(),
        call_data: contractCallData('get', []),
      };
    }
    return {
      type: 'SpendTx',
      version: 1,
      sender_id: sender.address,
      recipient_id: this.#kit.account().address,
      amount: this.#kit.rng.int(1, 1_000_000),
      fee: this.#kit.fee(),
      nonce,
      payload: encode('ba', Buffer.from('inner')),
    };
  }

  /** #attach funds a fresh key (a spend) or, once it has funds, makes it a generalized account. */
  #attach(): BuiltTx {
    const funded = this.#fresh.findIndex((k) => (this.#kit.chain.pending.accounts.get(k.address)?.balance ?? 0n) > 0n);
    if (funded < 0) {
      const key = keyPairFromSeed(this.#kit.rng.bytes(32));
      this.#fresh.push(key);
      const sender = this.#kit.account();
      const tx = {
        type: 'SpendTx',
        version: 1,
        sender_id: sender.address,
        recipient_id: key.address,
        amount: GA_FUNDING,
        fee: this.#kit.fee(),
        nonce: this.#kit.nonce(sender),
        payload: encode('ba', new Uint8Array(0)),
      };
      return { tx, signers: [sender] };
    }
    const [owner] = this.#fresh.splice(funded, 1);
    this.#gas.push(owner!);
    return {
      tx: {
        type: 'GAAttachTx',
        version: 1,
        owner_id: owner!.address,
        nonce: 1,
        code: GA_CONTRACT_BYTECODE,
        auth_fun: GA_AUTH_FUN,
        vm_version: FATE_VM_VERSION,
        abi_version: FATE_ABI_VERSION,
        fee: 80_000 + this.#kit.fee(),
        gas: 10_000,
        gas_price: 1_000_000_000,
        call_data: contractCallData('init', []),
      },
      signers: [owner!],
    };
  }

  #meta(): BuiltTx | undefined {
    const ga = this.#gas.filter((k) => this.#kit.chain.pending.accounts.get(k.address)?.ga !== undefined);
    if (ga.length === 0) return undefined;
    const account = this.#kit.rng.pick(ga);
    const inner = this.#inner(account, 0);
    if (inner.type === 'SpendTx') inner.amount = this.#kit.rng.int(1, 1000);
    return {
      tx: {
        type: 'GAMetaTx',
        version: 2,
        ga_id: account.address,
        auth_data: gaAuthData(this.#authCounter++),
        abi_version: FATE_ABI_VERSION,
        fee: 100_000 + this.#kit.fee(),
        gas: 5000,
        gas_price: 1_000_000_000,
        tx: { tx: inner, signatures: [] },
      },
      signers: [],
    };
  }

  #payingFor(): BuiltTx {
    const payer = this.#kit.account();
    const sender = this.#kit.other(payer);
    const inner = this.#inner(sender, this.#kit.nonce(sender));
    const message = Buffer.concat([Buffer.from(`${this.#kit.chain.options.networkId}-inner_tx`), encodeTx(inner)]);
    const signature = encode('sg', signBytes(sender, message));
    return {
      tx: {
        type: 'PayingForTx',
        version: 1,
        payer_id: payer.address,
        nonce: this.#kit.nonce(payer),
        fee: this.#kit.fee(),
        tx: { tx: inner, signatures: [signature] },
      },
      signers: [payer],
    };
  }
}
