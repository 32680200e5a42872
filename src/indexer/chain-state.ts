/**
 * @module Name and oracle state as events: each action plus the state before it gives the state
 * after it. Pure; the writer supplies the prior state from the database.
 */
import type { Json } from '../chain/json.ts';
import { auctionEndAfterBid, auctionTimeout, claimMaxExpiration } from '../chain/aens.ts';
import type { NameAction, NameEventRow, OracleAction, OracleEventRow } from './rows.ts';

/** NameState is a name after its latest event. */
export interface NameState {
  readonly name: string | null;
  readonly kind: string;
  readonly owner: string;
  readonly expiresAt: number | null;
  readonly auctionEnd: number | null;
  readonly nameFee: string | null;
  readonly pointers: Json;
}

/** OracleState is what a later extension needs: the current expiry. */
export interface OracleState {
  readonly expiresAt: number;
}

function nextNameState(prev: NameState | undefined, a: NameAction): NameState {
  switch (a.kind) {
    case 'claim': {
      const running = prev && (prev.kind === 'claim' || prev.kind === 'bid') && prev.auctionEnd !== null && prev.auctionEnd > a.height;
      if (running && a.salt === 0n) {
        const auctionEnd = auctionEndAfterBid(a.name, a.protocol, a.height, prev.auctionEnd!);
        return { name: prev.name ?? a.name, kind: 'bid', owner: a.account, auctionEnd, expiresAt: auctionEnd + claimMaxExpiration(a.protocol), nameFee: a.nameFee, pointers: [] };
      }
      const timeout = auctionTimeout(a.name, a.protocol);
      const auctionEnd = timeout > 0 ? a.height + timeout : null;
      const expiresAt = (auctionEnd ?? a.height) + claimMaxExpiration(a.protocol);
      return { name: a.name.toLowerCase(), kind: 'claim', owner: a.account, auctionEnd, expiresAt, nameFee: a.nameFee, pointers: [] };
    }
    case 'update':
      return { ...base(prev, a), kind: 'update', owner: a.account, expiresAt: a.height + a.nameTtl, pointers: a.pointers };
    case 'transfer':
      return { ...base(prev, a), kind: 'transfer', owner: a.recipient };
    case 'revoke':
      return { ...base(prev, a), kind: 'revoke', owner: a.account, expiresAt: a.height, pointers: [] };
  }
}

/** For events on a name claimed before the stored heights: what is known without the claim. */
function base(prev: NameState | undefined, a: NameAction): NameState {
  return prev ?? { name: null, kind: 'unknown', owner: a.account, expiresAt: null, auctionEnd: null, nameFee: null, pointers: [] };
}

/**
 * foldNameActions applies actions in chain order, starting from `prior` (latest state per name
 * hash before the first action), and returns one event row per action. `prior` is not modified.
 */
export function foldNameActions(prior: ReadonlyMap<string, NameState>, actions: readonly NameAction[]): NameEventRow[] {
  const state = new Map(prior);
  return actions.map((a) => {
    const next = nextNameState(state.get(a.nameHash), a);
    state.set(a.nameHash, next);
    return {
      height: a.height, microIndex: a.microIndex, txIndex: a.txIndex, txHash: a.txHash, nameHash: a.nameHash, name: next.name,
      kind: next.kind, owner: next.owner, expiresAt: next.expiresAt, auctionEnd: next.auctionEnd, nameFee: next.nameFee, pointers: next.pointers,
    };
  });
}

/** foldOracleActions computes the expiry after each register (delta or absolute) and extend (delta on the current expiry). */
export function foldOracleActions(prior: ReadonlyMap<string, OracleState>, actions: readonly OracleAction[]): OracleEventRow[] {
  const state = new Map(prior);
  return actions.map((a) => {
    const from = a.kind === 'extend' ? state.get(a.oracleId)?.expiresAt ?? a.height : a.height;
    const expiresAt = a.ttl.type === 'block' ? a.ttl.value : from + a.ttl.value;
    state.set(a.oracleId, { expiresAt });
    const register = a.kind === 'register' ? a : undefined;
    return {
      height: a.height, microIndex: a.microIndex, txIndex: a.txIndex, txHash: a.txHash, oracleId: a.oracleId, kind: a.kind, expiresAt,
      queryFee: register?.queryFee ?? null, queryFormat: register?.queryFormat ?? null,
      responseFormat: register?.responseFormat ?? null, abiVersion: register?.abiVersion ?? null,
    };
  });
}
