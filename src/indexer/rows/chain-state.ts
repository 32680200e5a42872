/**
 * @module Name and oracle state as events: each action plus the state before it gives the state
 * after it; and what a name pointed at when a transaction was sent to it. Pure; the writer
 * supplies the prior state from the database.
 */
import { withPrefix } from '../../chain/id-cache.ts';
import { oracleQueryId } from '../../chain/derived-ids.ts';
import { isJsonObject } from '../../chain/json.ts';
import { channelTerms, nextChannelState, NO_CHANNEL_STATE, type ChannelState } from '../../chain/channel-state.ts';
import { auctionEndAfterBid, auctionTimeout, claimMaxExpiration } from '../../chain/aens.ts';
import type { NameEventState, OracleEventState, PriorChannel } from '../../db/queries/state-events.ts';
import type {
  AccountTxRow,
  ChannelEventRow,
  NameAction,
  NameEventRow,
  NameOracleQuery,
  NameReferenceRow,
  OracleAction,
  OracleEventRow,
  OracleQueryRow,
  TxPosition,
} from './rows.ts';

/** NameState is a name after its latest event: what a name_events row records. */
export type NameState = NameEventState;

/** OracleState is what a later extension needs: the current expiry. */
export type OracleState = OracleEventState;

/**
 * nextNameState is the name after action `a`. The heights `a` sets count from its micro block's height
 * (`a.blockHeight`, aetx_env:height in aeprimop and aens_auctions), which on a hyperchain is the generation's + 1;
 * whether a name or auction still lives is the generation's: the node prunes what ended at E with key block E + 1.
 */
export function nextNameState(prev: NameState | undefined, a: NameAction): NameState {
  switch (a.kind) {
    case 'claim': {
      const running =
        prev &&
        (prev.kind === 'claim' || prev.kind === 'bid') &&
        prev.auctionEnd !== null &&
        // an auction ending at E still takes bids at E: the node hands the name over with key block E + 1
        prev.auctionEnd >= a.height;
      if (running && a.salt === 0n) {
        const auctionEnd = auctionEndAfterBid(a.name, a.protocol, a.blockHeight, prev.auctionEnd!);
        return {
          name: prev.name ?? a.name,
          kind: 'bid',
          owner: a.account,
          auctionEnd,
          expiresAt: auctionEnd + claimMaxExpiration(a.protocol),
          nameFee: a.nameFee,
          pointers: [],
        };
      }
      const timeout = auctionTimeout(a.name, a.protocol);
      const auctionEnd = timeout > 0 ? a.blockHeight + timeout : null;
      const expiresAt = (auctionEnd ?? a.blockHeight) + claimMaxExpiration(a.protocol);
      return {
        name: a.name.toLowerCase(),
        kind: 'claim',
        owner: a.account,
        auctionEnd,
        expiresAt,
        nameFee: a.nameFee,
        pointers: [],
      };
    }
    case 'update':
      return {
        ...base(prev, a),
        kind: 'update',
        owner: a.account,
        expiresAt: a.nameTtl === null ? base(prev, a).expiresAt : a.blockHeight + a.nameTtl,
        pointers: a.pointers,
      };
    case 'transfer':
      return { ...base(prev, a), kind: 'transfer', owner: a.recipient };
    case 'revoke':
      // no TTL: the generation that revoked it, as its other heights (ae_mdw's expire height of a revoked name)
      return { ...base(prev, a), kind: 'revoke', owner: a.account, expiresAt: a.height, pointers: [] };
  }
}

/** For events on a name claimed before the stored heights: what is known without the claim. */
function base(prev: NameState | undefined, a: NameAction): NameState {
  return (
    prev ?? {
      name: null,
      kind: 'unknown',
      owner: a.account,
      expiresAt: null,
      auctionEnd: null,
      nameFee: null,
      pointers: [],
    }
  );
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
      height: a.height,
      microIndex: a.microIndex,
      txIndex: a.txIndex,
      txHash: a.txHash,
      nameHash: a.nameHash,
      name: next.name,
      kind: next.kind,
      owner: next.owner,
      expiresAt: next.expiresAt,
      auctionEnd: next.auctionEnd,
      nameFee: next.nameFee,
      pointers: next.pointers,
    };
  });
}

/**
 * foldOracleActions computes the expiry after each register (delta from its micro block's height, or absolute) and
 * extend (delta on the current expiry).
 */
export function foldOracleActions(
  prior: ReadonlyMap<string, OracleState>,
  actions: readonly OracleAction[],
): OracleEventRow[] {
  const state = new Map(prior);
  return actions.map((a) => {
    const from = a.kind === 'extend' ? (state.get(a.oracleId)?.expiresAt ?? a.blockHeight) : a.blockHeight;
    const expiresAt = a.ttl.type === 'block' ? a.ttl.value : from + a.ttl.value;
    state.set(a.oracleId, { expiresAt });
    const register = a.kind === 'register' ? a : undefined;
    return {
      height: a.height,
      microIndex: a.microIndex,
      txIndex: a.txIndex,
      txHash: a.txHash,
      oracleId: a.oracleId,
      kind: a.kind,
      expiresAt,
      queryFee: register?.queryFee ?? null,
      queryFormat: register?.queryFormat ?? null,
      responseFormat: register?.responseFormat ?? null,
      abiVersion: register?.abiVersion ?? null,
    };
  });
}

/**
 * foldChannelEvents sets each channel transaction's state after it (ascending), from its channel's stored state before
 * the batch: none for a channel the batch creates, null (unknown, and so after it) while that is not derived yet. A
 * channel's terms are its prior's, or its creation's in the batch.
 */
export function foldChannelEvents<E extends Pick<ChannelEventRow, 'channelId' | 'update'>>(
  prior: ReadonlyMap<string, PriorChannel>,
  events: readonly E[],
): (E & { state: ChannelState | null })[] {
  const channels = new Map(prior);
  return events.map((e) => {
    const before = channels.get(e.channelId) ?? { state: NO_CHANNEL_STATE, terms: undefined };
    const terms = before.terms ?? channelTerms(e.update.tx);
    const state = before.state === null ? null : nextChannelState(before.state, e.update, terms);
    channels.set(e.channelId, { state, terms });
    return { ...e, state };
  });
}

function isBefore(a: TxPosition, b: TxPosition): boolean {
  return a.height !== b.height
    ? a.height < b.height
    : a.microIndex !== b.microIndex
      ? a.microIndex < b.microIndex
      : a.txIndex < b.txIndex;
}

/**
 * pointerAt is the id a name pointed at under `key` just before `at`: after the name's latest event
 * before it among `events` (chain order), else in `prior`.
 */
function pointerAt(
  prior: ReadonlyMap<string, NameState>,
  events: readonly NameEventRow[],
  nameHash: string,
  at: TxPosition,
  key: string,
): string | undefined {
  const latest = events.findLast((e) => e.nameHash === nameHash && isBefore(e, at));
  const pointers = latest ? latest.pointers : prior.get(nameHash)?.pointers;
  const pointer = Array.isArray(pointers) ? pointers.find((p) => isJsonObject(p) && p.key === key) : undefined;
  return isJsonObject(pointer) && typeof pointer.id === 'string' ? pointer.id : undefined;
}

/**
 * resolveNameQueries turns queries sent to a name into oracle queries, as the node does: the oracle
 * is the name's `oracle_pubkey` pointer after the name's latest event before the query (`events`,
 * in chain order, else `prior`). A name without that pointer yields no query (the node refuses one).
 * Each query comes with the account row of its query id.
 */
export function resolveNameQueries(
  prior: ReadonlyMap<string, NameState>,
  events: readonly NameEventRow[],
  queries: readonly NameOracleQuery[],
): { queries: OracleQueryRow[]; accountTxs: AccountTxRow[] } {
  const resolved = { queries: [] as OracleQueryRow[], accountTxs: [] as AccountTxRow[] };
  for (const { nameHash, txType, queryField, ...query } of queries) {
    const pointed = pointerAt(prior, events, nameHash, query, 'oracle_pubkey');
    if (!pointed) continue;
    const oracleId = withPrefix(pointed, 'ok');
    const queryId = oracleQueryId(query.senderId, BigInt(query.senderNonce), oracleId);
    resolved.queries.push({ ...query, oracleId, queryId });
    // the query id is listed like the one of a query sent to an oracle directly (createdIds)
    resolved.accountTxs.push({
      height: query.height,
      microIndex: query.microIndex,
      txIndex: query.txIndex,
      txHash: query.txHash,
      account: queryId,
      txType,
      fields: [queryField],
    });
  }
  return resolved;
}

/**
 * resolveNameReferences lists each tx under the account, oracle or contract its names (nm_)
 * pointed at when it was made, as the node resolved them; a name without the pointer adds nothing.
 */
export function resolveNameReferences(
  prior: ReadonlyMap<string, NameState>,
  events: readonly NameEventRow[],
  refs: readonly NameReferenceRow[],
): AccountTxRow[] {
  const rows = new Map<string, AccountTxRow>();
  for (const ref of refs) {
    const pointed = pointerAt(prior, events, ref.nameHash, ref, ref.key);
    if (!pointed) continue;
    const account = withPrefix(pointed, ref.prefix);
    const key = `${account} ${ref.txHash}`;
    const row = rows.get(key);
    if (row) row.fields.push(ref.field);
    else
      rows.set(key, {
        height: ref.height,
        microIndex: ref.microIndex,
        txIndex: ref.txIndex,
        txHash: ref.txHash,
        account,
        txType: ref.txType,
        fields: [ref.field],
      });
  }
  return [...rows.values()];
}
