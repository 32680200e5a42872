/**
 * @module The generator's naming traffic: preclaims and claims of long names, Ceres claims without
 * a preclaim, short names that go to auction and the bids that outbid them, then updates,
 * transfers and revokes of the names the chain says are claimed.
 */
import { auctionTimeout, minimumNameFee } from '../../chain/aens.ts';
import { PROTOCOL_VERSION } from '../store/blocks.ts';
import { commitmentId, nameHash } from '../ids.ts';
import type { KeyPair } from '../keys.ts';
import { nameStatus } from '../rules/common.ts';
import { jsonInt, type BuiltTx, type TxFields } from '../tx-codec.ts';
import type { TrafficKit, WeightedMaker } from './kit.ts';

interface Preclaim {
  readonly name: string;
  readonly salt: bigint;
  readonly owner: KeyPair;
  readonly height: number;
}

/** NameTraffic keeps the preclaims, auctions and names the generator made. */
export class NameTraffic {
  readonly #kit: TrafficKit;
  #preclaims: Preclaim[] = [];
  #auctions: string[] = [];
  readonly #names: string[] = [];
  #counter = 0;

  constructor(kit: TrafficKit) {
    this.#kit = kit;
  }

  /** makers are this traffic's weighted makers. */
  makers(oracleOf: (k: KeyPair) => string): WeightedMaker[] {
    return [
      [6, (h) => this.#preclaim(h)],
      [5, (h) => this.#claim(h)],
      [2, () => this.#claimWithoutPreclaim()],
      [3, (h) => this.#bid(h)],
      [6, (h) => this.#update(h, oracleOf)],
      [3, (h) => this.#transfer(h)],
      [1, (h) => this.#revoke(h)],
    ];
  }

  /** #newName is a fresh name: mostly long (claimed at once), 15 % of 9 or 6 characters (an auction of 480 or 960 blocks). */
  #newName(): string {
    const n = (this.#counter++).toString(36);
    const roll = this.#kit.rng.int(1, 20);
    if (roll <= 2) return `au${n.padStart(7, '0')}.chain`;
    if (roll === 3) return `b${n.padStart(5, '0')}.chain`;
    return `gen${n.padStart(4, '0')}x${this.#kit.rng.uint32().toString(36).padStart(7, '0')}.chain`;
  }

  /**
   * #signedBy is a transaction `owner` pays and signs, with its next nonce and a varied fee. The fee is drawn after
   * the caller's fields, the order the random stream has always been drawn in (the same seed makes the same chain).
   */
  #signedBy(owner: KeyPair, type: string, version: number, fields: TxFields): BuiltTx {
    const tx = { type, version, account_id: owner.address, nonce: this.#kit.nonce(owner), ...fields };
    return { tx: { ...tx, fee: this.#kit.fee() }, signers: [owner] };
  }

  #claimTx(owner: KeyPair, name: string, salt: bigint, nameFee: bigint): BuiltTx {
    const id = nameHash(name);
    if (auctionTimeout(name, PROTOCOL_VERSION) > 0) this.#auctions.push(id);
    else this.#names.push(id);
    return this.#signedBy(owner, 'NameClaimTx', 2, {
      name,
      name_salt: jsonInt(salt),
      name_fee: jsonInt(nameFee),
    });
  }

  #preclaim(height: number): BuiltTx {
    const owner = this.#kit.account();
    const name = this.#newName();
    const salt = this.#kit.rng.bigint(128) + 1n;
    this.#preclaims.push({ name, salt, owner, height });
    return this.#signedBy(owner, 'NamePreclaimTx', 1, {
      commitment_id: commitmentId(name, salt),
    });
  }

  #claim(height: number): BuiltTx | undefined {
    this.#preclaims = this.#preclaims.filter((p) => p.height + 250 > height);
    const index = this.#preclaims.findIndex((p) => p.height < height);
    if (index < 0) return undefined;
    const [p] = this.#preclaims.splice(index, 1);
    return this.#claimTx(p!.owner, p!.name, p!.salt, minimumNameFee(p!.name));
  }

  /** #claimWithoutPreclaim is a Ceres claim with salt 0: a long name is claimed, a short one goes to auction. */
  #claimWithoutPreclaim(): BuiltTx {
    const name = this.#newName();
    return this.#claimTx(this.#kit.account(), name, 0n, minimumNameFee(name));
  }

  /** #bid outbids a running auction by 5 to 15 %. */
  #bid(height: number): BuiltTx | undefined {
    const auctions = this.#kit.chain.pending.auctions;
    this.#auctions = this.#auctions.filter((id) => {
      const a = auctions.get(id);
      if (a && a.ends >= height) return true;
      if (nameStatus(this.#kit.chain.pending.names.get(id), height) === 'claimed') this.#names.push(id);
      return false;
    });
    if (this.#auctions.length === 0) return undefined;
    const auction = auctions.get(this.#kit.rng.pick(this.#auctions))!;
    const bidder = this.#kit.account();
    const fee = (auction.bid * BigInt(105 + this.#kit.rng.int(0, 10)) + 99n) / 100n;
    return this.#signedBy(bidder, 'NameClaimTx', 2, {
      name: auction.name,
      name_salt: 0,
      name_fee: jsonInt(fee),
    });
  }

  /** owned picks a claimed name and its owner's key (forgetting names no longer claimed). */
  owned(height: number): { id: string; owner: KeyPair } | undefined {
    while (this.#names.length > 0) {
      const index = this.#kit.rng.int(0, this.#names.length - 1);
      const id = this.#names[index]!;
      const entry = this.#kit.chain.pending.names.get(id);
      const owner = entry && this.#kit.keyOf(entry.owner);
      if (entry && owner && nameStatus(entry, height + 1) === 'claimed') return { id, owner };
      this.#names[index] = this.#names[this.#names.length - 1]!;
      this.#names.pop();
    }
    return undefined;
  }

  #update(height: number, oracleOf: (k: KeyPair) => string): BuiltTx | undefined {
    const n = this.owned(height);
    if (!n) return undefined;
    const pointers = [{ key: 'account_pubkey', id: n.owner.address }];
    if (this.#kit.rng.chance(0.3)) pointers.push({ key: 'oracle_pubkey', id: oracleOf(n.owner) });
    return this.#signedBy(n.owner, 'NameUpdateTx', 1, {
      name_id: n.id,
      name_ttl: this.#kit.rng.int(10_000, 180_000),
      pointers,
      client_ttl: 3600,
    });
  }

  #transfer(height: number): BuiltTx | undefined {
    const n = this.owned(height);
    if (!n) return undefined;
    return this.#signedBy(n.owner, 'NameTransferTx', 1, {
      name_id: n.id,
      recipient_id: this.#kit.other(n.owner).address,
    });
  }

  #revoke(height: number): BuiltTx | undefined {
    const n = this.owned(height);
    if (!n) return undefined;
    this.#names.splice(this.#names.indexOf(n.id), 1);
    return this.#signedBy(n.owner, 'NameRevokeTx', 1, {
      name_id: n.id,
    });
  }
}
