/** @module What every transaction rule shares: the rejection error, field readers, balances and name resolution. Pure. */
import { withPrefix } from '../../chain/id-cache.ts';
import { toBigInt, type Json } from '../../chain/json.ts';
import type { TxFields } from '../tx-codec.ts';
import type { Account, NameEntry, WorldState } from '../store/state.ts';
import { NAME_REVOKE_PROTECTION } from './fees.ts';
import type { InternalEvent } from '../contracts/frame.ts';

/**
 * TxRejected carries the reason the node gives for refusing a transaction, and its atom for it where the devnode
 * knows the node's (`account_not_found`, `tx_nonce_too_high_for_account`: what its dry-run answers).
 */
export class TxRejected extends Error {
  override readonly name = 'TxRejected';
  readonly atom: string | undefined;

  constructor(message: string, atom?: string) {
    super(message);
    this.atom = atom;
  }
}

/** TxKnown refuses a transaction the devnode holds already, mined or pending (the node's `already_accepted`). */
export class TxKnown extends TxRejected {}

/** ApplyContext is where a transaction lands: its micro block's height and generation, and the tx hash. */
export interface ApplyContext {
  /**
   * the micro block's height (aetx_env:height), from which a transaction's relative heights count and against which
   * its ttl is checked: the generation's own, but the next on a hyperchain, whose micro blocks come before that key block
   */
  readonly height: number;
  /** the height of the key block the micro block follows, whose prune decides what still exists (isHeld) */
  readonly generation: number;
  readonly txHash: string;
  /**
   * the account paying for the transaction, inside a PayingForTx (aetx_env:payer): a mutual close's fee is then its,
   * not the channel's
   */
  readonly payer?: string;
}

/**
 * TxEffect is what inclusion produced besides state: the call record of contract transactions and their internal
 * calls (AE moved by Chain.spend or sent with a remote call, names a contract acted on).
 */
export interface TxEffect {
  readonly callInfo?: { [k: string]: Json };
  readonly events?: readonly InternalEvent[];
  readonly gaInfo?: { [k: string]: Json };
  readonly query?: { readonly id: string; readonly expires: number };
}

export const int = (v: Json | undefined): bigint => (v === undefined ? 0n : toBigInt(v));
export const num = (v: Json | undefined): number => Number(int(v));
export const str = (v: Json | undefined): string => (typeof v === 'string' ? v : '');
export const ttlValue = (v: Json | undefined): number =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? num(v.value) : 0;
export const ttlIsBlock = (v: Json | undefined): boolean =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && v.type === 'block';
/**
 * flatGasUsed is the gas the devnode charges a call it does not run (another contract's code, a GA's authentication,
 * a force progress's off-chain call): a flat 1000, at most the gas limit `gas`.
 */
export const flatGasUsed = (gas: Json | undefined): bigint => BigInt(Math.min(num(gas), 1000));
export const asAccount = (id: string): string => withPrefix(id, 'ak');

export function credit(state: WorldState, id: string, amount: bigint): void {
  const account = state.accounts.get(id) ?? { balance: 0n, nonce: 0 };
  state.accounts.set(id, { ...account, balance: account.balance + amount });
}

export function debit(state: WorldState, id: string, amount: bigint): Account {
  const account = state.accounts.get(id);
  if (!account || account.balance < amount) {
    throw new TxRejected(`insufficient balance: ${id} has ${account?.balance ?? 0n}, needs ${amount}`);
  }
  const next = { ...account, balance: account.balance - amount };
  state.accounts.set(id, next);
  return next;
}

/**
 * isHeld tells whether what ends at `ttl` (a name, an oracle, a query, a commitment) is still in the node's state
 * trees in generation `generation`. The node never compares such a ttl with a transaction's height: it removes what
 * ended at E when it applies key block E + 1 (aeo_state_tree:prune and aens_state_tree:prune with Height − 1), so
 * what ends at E serves the transactions of generation E, which on a hyperchain carry height E + 1.
 */
export const isHeld = (ttl: number, generation: number): boolean => ttl >= generation;

/** NameStatus is the node's view of a name entry in a generation: claimed, revoked (protected), or gone. */
export type NameStatus = 'claimed' | 'revoked' | 'gone';

/**
 * nameStatus follows the node's expiry: a name is claimed through the generation of its `ttl`; key block ttl + 1
 * revokes it (as a NameRevokeTx does) for the protection period, and the key block after that period removes it.
 */
export function nameStatus(entry: NameEntry | undefined, generation: number): NameStatus {
  if (!entry) return 'gone';
  if (entry.revokedAt === undefined && isHeld(entry.expires, generation)) return 'claimed';
  const revokedAt = entry.revokedAt ?? entry.expires;
  return isHeld(revokedAt + NAME_REVOKE_PROTECTION, generation) ? 'revoked' : 'gone';
}

/** resolveName gives the id a `nm_` points at under `key` (any other id as it is) in generation `generation`. */
export function resolveName(state: WorldState, id: string, key: string, generation: number): string {
  if (!id.startsWith('nm_')) return id;
  const entry = state.names.get(id);
  if (nameStatus(entry, generation) !== 'claimed') throw new TxRejected(`name ${id} not found`);
  const pointer = entry!.pointers.find((p) => p.key === key);
  if (!pointer) throw new TxRejected(`name ${id} has no ${key} pointer`);
  return pointer.id;
}

/** Apply is the effect of one transaction type on a state layer. */
export type Apply = (state: WorldState, tx: TxFields, ctx: ApplyContext) => TxEffect | void;
