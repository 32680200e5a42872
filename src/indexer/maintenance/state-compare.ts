/**
 * @module The comparisons of `mdw -v --full`'s check against the chain's state (verify-state.ts): what the database
 * says of a token, a name, an oracle, a channel or an account at the verified top against what the chain's own state
 * says (a contract's dry-run, the node's object), each difference a line naming both sides. Pure.
 */
import { isJsonObject, toBigInt, type Json } from '../../chain/json.ts';
import type { StoredName, StoredOracle, StoredQuery } from '../../db/queries/chain-state-check.ts';

/** differs is one difference: what, and both sides (`db` the database's, `node` the chain's). */
export function differs(subject: string, field: string, db: unknown, node: unknown): string {
  return `${subject}: ${field} differs: db ${shown(db)} node ${shown(node)}`;
}

/** int reads an integer field of the node's answer; undefined when it is not one. */
function int(v: Json | undefined): bigint | undefined {
  try {
    return toBigInt(v);
  } catch {
    return undefined;
  }
}

function shown(v: unknown): string {
  if (v === undefined || v === null) return '(none)';
  return typeof v === 'string' || typeof v === 'bigint' || typeof v === 'number' ? String(v) : JSON.stringify(v);
}

/** Differences of one entry, at most `shown` written out and the rest counted in one more line. */
export function capped(lines: readonly string[], subject: string, most: number): string[] {
  if (lines.length <= most) return [...lines];
  return [...lines.slice(0, most), `${subject}: ${lines.length - most} more difference(s)`];
}

/**
 * aex9Differences compares a token's stored balances (account → aettos as text, zeros left out) with its contract's
 * `balances()` (account → amount): an account absent from one side holds 0 there.
 */
export function aex9Differences(
  contractId: string,
  db: ReadonlyMap<string, string>,
  chain: ReadonlyMap<string, bigint>,
): string[] {
  const out: string[] = [];
  for (const account of [...new Set([...db.keys(), ...chain.keys()])].sort()) {
    const stored = BigInt(db.get(account) ?? 0);
    const held = chain.get(account) ?? 0n;
    if (stored !== held) out.push(differs(`aex9 ${contractId}`, `balance of ${account}`, stored, held));
  }
  return out;
}

/** aex141Differences compares a collection's stored owner of each token with its contract's `owner(token)`. */
export function aex141Differences(
  contractId: string,
  db: ReadonlyMap<string, string>,
  chain: ReadonlyMap<string, string | undefined>,
): string[] {
  return [...db].flatMap(([token, owner]) =>
    chain.get(token) === owner
      ? []
      : [differs(`aex141 ${contractId}`, `owner of token ${token}`, owner, chain.get(token))],
  );
}

/**
 * nameActive says whether the node holds a stored name at height `top`: claimed (its auction, if any, over), not
 * revoked, not expired; as /mdw/v3/names counts it active.
 */
export function nameActive(n: StoredName, top: number): boolean {
  const inAuction = n.auctionEnd > n.createdAt && n.auctionEnd >= top && (n.kind === 'claim' || n.kind === 'bid');
  return !inAuction && n.kind !== 'revoke' && n.expiresAt !== null && n.expiresAt >= top;
}

/** pointerList is a list of name pointers as `key=id`, in order (the node keeps an update's order). */
function pointerList(pointers: Json | undefined): string[] {
  return (Array.isArray(pointers) ? pointers : []).map((p) =>
    isJsonObject(p) ? `${String(p.key)}=${String(p.id)}` : JSON.stringify(p),
  );
}

/** nameDifferences compares a stored name with the node's NameEntry (undefined: the node has none, a 404). */
export function nameDifferences(n: StoredName, node: { [k: string]: Json } | undefined, top: number): string[] {
  const subject = `name ${n.name}`;
  const active = nameActive(n, top);
  if (!active || !node)
    return active === (node !== undefined)
      ? []
      : [
          differs(
            subject,
            'registration',
            active ? `active (${n.kind})` : `inactive (${n.kind})`,
            node ? 'active' : 'none',
          ),
        ];
  const out: string[] = [];
  if (n.owner !== node.owner) out.push(differs(subject, 'owner', n.owner, node.owner));
  if (n.expiresAt !== Number(node.ttl)) out.push(differs(subject, 'expiry', n.expiresAt, node.ttl));
  const [stored, held] = [pointerList(n.pointers), pointerList(node.pointers)];
  if (stored.join(' ') !== held.join(' ')) out.push(differs(subject, 'pointers', stored.join(' '), held.join(' ')));
  return out;
}

/** oracleDifferences compares a stored oracle (active while its expiry is above `top`) with the node's. */
export function oracleDifferences(o: StoredOracle, node: { [k: string]: Json } | undefined, top: number): string[] {
  const subject = `oracle ${o.oracleId}`;
  const active = o.expiresAt > top;
  if (!active || !node)
    return active === (node !== undefined)
      ? []
      : [differs(subject, 'registration', active ? 'active' : 'expired', node ? 'active' : 'none')];
  const fields: [string, unknown, unknown][] = [
    ['expiry', o.expiresAt, Number(node.ttl)],
    ['query fee', o.queryFee === null ? null : BigInt(o.queryFee), int(node.query_fee)],
    ['query format', o.queryFormat, node.query_format],
    ['response format', o.responseFormat, node.response_format],
    ['abi version', o.abiVersion === null ? null : Number(o.abiVersion), Number(node.abi_version)],
  ];
  return fields.flatMap(([field, db, held]) => (db === held ? [] : [differs(subject, field, db, held)]));
}

/**
 * queryDifferences compares an active oracle's stored queries that have no response and have not expired at `top`
 * with the node's open ones (OracleQuery objects).
 */
export function queryDifferences(
  oracleId: string,
  stored: readonly StoredQuery[],
  node: readonly { [k: string]: Json }[],
  top: number,
): string[] {
  const subject = `oracle ${oracleId}`;
  const open = new Map(stored.filter((q) => q.expiresAt > top).map((q) => [q.queryId, q]));
  // a query past its ttl is no longer open, whether or not the node has pruned it from its state yet
  const held = new Map(node.filter((q) => Number(q.ttl) > top).map((q) => [String(q.id), q]));
  const out: string[] = [];
  for (const id of [...new Set([...open.keys(), ...held.keys()])].sort()) {
    const [q, n] = [open.get(id), held.get(id)];
    if (!q || !n) {
      out.push(differs(subject, `open query ${id}`, q ? 'open' : 'none', n ? 'open' : 'none'));
      continue;
    }
    if (q.senderId !== n.sender_id) out.push(differs(subject, `sender of query ${id}`, q.senderId, n.sender_id));
    if (BigInt(q.fee) !== int(n.fee)) out.push(differs(subject, `fee of query ${id}`, q.fee, n.fee));
    if (q.expiresAt !== Number(n.ttl)) out.push(differs(subject, `expiry of query ${id}`, q.expiresAt, n.ttl));
  }
  return out;
}

/** What the database says of a channel, in the node's Channel fields (the API's channel object). */
export interface StoredChannel {
  readonly id: string;
  readonly active: boolean;
  readonly initiator: Json;
  readonly responder: Json;
  readonly amount: bigint;
  readonly channelReserve: bigint;
  readonly lockPeriod: Json;
  readonly round: bigint;
  readonly soloRound: bigint;
  readonly stateHash: string | null;
  readonly initiatorAmount: bigint;
  readonly responderAmount: bigint;
}

/** channelDifferences compares a stored channel with the node's Channel (undefined: closed, a 404). */
export function channelDifferences(c: StoredChannel, node: { [k: string]: Json } | undefined): string[] {
  const subject = `channel ${c.id}`;
  if (!c.active || !node)
    return c.active === (node !== undefined)
      ? []
      : [differs(subject, 'state', c.active ? 'open' : 'closed', node ? 'open' : 'none')];
  const fields: [string, unknown, unknown][] = [
    ['initiator', c.initiator, node.initiator_id],
    ['responder', c.responder, node.responder_id],
    ['amount', c.amount, int(node.channel_amount)],
    ['channel reserve', c.channelReserve, int(node.channel_reserve)],
    ['lock period', Number(c.lockPeriod), Number(node.lock_period)],
    ['round', c.round, int(node.round)],
    ['solo round', c.soloRound, int(node.solo_round)],
    ['state hash', c.stateHash, node.state_hash],
    ['initiator amount', c.initiatorAmount, int(node.initiator_amount)],
    ['responder amount', c.responderAmount, int(node.responder_amount)],
  ];
  return fields.flatMap(([field, db, held]) => (db === held ? [] : [differs(subject, field, db, held)]));
}

/** balanceDifference compares an account's stored AE balance with the node's (undefined: no such account, 0). */
export function balanceDifference(account: string, stored: string, node: bigint | undefined): string[] {
  return BigInt(stored) === (node ?? 0n) ? [] : [differs(`account ${account}`, 'balance', stored, node ?? '(none)')];
}
