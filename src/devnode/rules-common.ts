/** @module What every transaction rule shares: the rejection error, field readers, balances and name resolution. Pure. */
import { withPrefix } from '../chain/id-cache.ts';
import { toBigInt, type Json } from '../chain/json.ts';
import type { TxFields } from './tx-codec.ts';
import type { Account, NameEntry, WorldState } from './state.ts';
import { NAME_REVOKE_PROTECTION } from './fees.ts';

/** TxRejected carries the reason the node gives for refusing a transaction. */
export class TxRejected extends Error {
  override readonly name = 'TxRejected';
}

/** ApplyContext is where a transaction lands: the generation height and the tx hash. */
export interface ApplyContext {
  readonly height: number;
  readonly txHash: string;
}

/** TxEffect is what inclusion produced besides state: the call record of contract transactions. */
export interface TxEffect {
  readonly callInfo?: { [k: string]: Json };
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

/** NameStatus is the node's view of a name entry at a height: claimed, revoked (protected), or gone. */
export type NameStatus = 'claimed' | 'revoked' | 'gone';

/**
 * nameStatus follows the node's expiry: a name is claimed through its `ttl` height; at ttl + 1 it
 * becomes revoked (as a NameRevokeTx makes it) and stays so for the protection period, then is gone.
 */
export function nameStatus(entry: NameEntry | undefined, height: number): NameStatus {
  if (!entry) return 'gone';
  if (entry.revokedAt === undefined && height <= entry.expires) return 'claimed';
  const revokedAt = entry.revokedAt ?? entry.expires;
  return height <= revokedAt + NAME_REVOKE_PROTECTION ? 'revoked' : 'gone';
}

/** resolveName gives the id a `nm_` points at under `key` (any other id as it is). */
export function resolveName(state: WorldState, id: string, key: string, height: number): string {
  if (!id.startsWith('nm_')) return id;
  const entry = state.names.get(id);
  if (nameStatus(entry, height) !== 'claimed') throw new TxRejected(`name ${id} not found`);
  const pointer = entry!.pointers.find((p) => p.key === key);
  if (!pointer) throw new TxRejected(`name ${id} has no ${key} pointer`);
  return pointer.id;
}

/** Apply is the effect of one transaction type on a state layer. */
export type Apply = (state: WorldState, tx: TxFields, ctx: ApplyContext) => TxEffect | void;
