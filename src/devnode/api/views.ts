/**
 * @module The node's JSON bodies for the devnode's chain objects, serialised once and cached where they cannot
 * change, their keys sorted as the node writes them (a recorded 7.2.2 sorts every object's keys).
 */
import { encode } from '../../chain/encoding.ts';
import { stringifyJson, withSortedKeys, type Json } from '../../chain/json.ts';
import { keyBlockJson, microHeaderJson } from '../store/blocks.ts';
import type { KeyBlock, MicroBlock, TxRecord } from '../chain.ts';
import { decodeSignedTx } from '../tx-codec.ts';
import type {
  Account,
  ChannelEntry,
  ContractEntry,
  NameAuction,
  NameEntry,
  Oracle,
  OracleQuery,
} from '../store/state.ts';
import { jsonInt } from '../tx-codec.ts';
import { codePayable } from '../contracts/bytecode.ts';

const EMPTY_OR = encode('or', new Uint8Array(0));

/** encodedKey is a name pointer's key as the node adds it beside the text (`encoded_key`, a `ba_`). */
const encodedKey = (key: string): string => encode('ba', Buffer.from(key, 'utf8'));

/**
 * renderTx prints a GenericSignedTx as a 7.x node does: every object's keys in code unit order (the node's JSON
 * objects are Erlang maps), `encoded_tx` the whole signed transaction (SignedTx RLP, `tx_…`) beside its `signatures`
 * and `tx`, whose name pointers carry their `encoded_key` as the decoded transaction has them (chain/tx-parse.ts).
 */
function renderTx(r: TxRecord): string {
  const body: Record<string, Json> = {
    block_hash: r.blockHash ?? 'none',
    block_height: r.blockHeight,
    encoded_tx: encode('tx', r.signedBytes),
    hash: r.hash,
  };
  // the node prints a GAMetaTx without `signatures` (its authorisation is the GA's call, not a signature)
  if (r.tx.type !== 'GAMetaTx') body.signatures = decodeSignedTx(r.signedBytes).signatures.map((s) => encode('sg', s));
  body.tx = r.tx;
  return stringifyJson(withSortedKeys(body));
}

/** txJson is a GenericSignedTx (`block_hash` "none" and `block_height` −1 while pending), cached on the record. */
export function txJson(r: TxRecord): string {
  r.json ??= renderTx(r);
  return r.json;
}

/** txListJson is a GenericTxs body. */
export function txListJson(txs: readonly TxRecord[]): string {
  return `{"transactions":[${txs.map((r) => r.json ?? renderTx(r)).join(',')}]}`;
}

/*
 * A block's bodies are rendered at each request, not cached on the block: a chain of a tenth of mainnet has a million
 * blocks, which a middleware reads once each, and their bodies cached were gigabytes.
 */

/** keyBlockBody is a KeyBlock body. */
export function keyBlockBody(kb: KeyBlock): string {
  return stringifyJson(keyBlockJson(kb.header, kb.hash));
}

/** generationBody is a Generation body: the key block and its micro block hashes. */
export function generationBody(kb: KeyBlock): string {
  return `{"key_block":${keyBlockBody(kb)},"micro_blocks":${JSON.stringify(kb.micro.map((m) => m.hash))}}`;
}

/** microHeaderBody is a MicroBlockHeader body. */
export function microHeaderBody(mb: MicroBlock): string {
  return stringifyJson(microHeaderJson(mb.header, mb.hash));
}

/** microTxsBody is the transactions of a micro block. */
export function microTxsBody(mb: MicroBlock): string {
  return txListJson(mb.txs);
}

/**
 * infoBodies holds each call or GA info's body, by the info object: a transaction gets a new one each time it is
 * applied (mined, or mined again after a fork), so a cached body never outlives the info it was rendered from.
 */
const infoBodies = new WeakMap<object, string>();

/** txInfoBody is a TxInfoObject (`{ga_info}` or `{call_info}`) of a transaction that has one, rendered once. */
export function txInfoBody(r: TxRecord): string {
  const [key, info] = r.gaInfo ? ['ga_info', r.gaInfo] : ['call_info', r.callInfo!];
  let body = infoBodies.get(info);
  if (body === undefined) {
    body = stringifyJson(withSortedKeys({ [key]: info }));
    infoBodies.set(info, body);
  }
  return body;
}

/**
 * accountJson is an Account object; the account of a contract (`contract`) is payable as its code says (the node's
 * account flags, set at creation from the code's `payable`).
 */
export function accountJson(id: string, a: Account, contract?: ContractEntry): { [k: string]: Json } {
  const payable = contract === undefined || codePayable(contract.code);
  const json = { id, balance: jsonInt(a.balance), nonce: a.nonce, payable, kind: a.ga ? 'generalized' : 'basic' };
  return a.ga ? { ...json, auth_fun: a.ga.authFun, contract_id: a.ga.contractId } : json;
}

/** oracleJson is a RegisteredOracle. */
export function oracleJson(o: Oracle): { [k: string]: Json } {
  return {
    id: o.id,
    query_format: o.queryFormat,
    response_format: o.responseFormat,
    query_fee: jsonInt(o.queryFee),
    ttl: o.expires,
    abi_version: o.abiVersion,
  };
}

/** queryJson is an OracleQuery. */
export function queryJson(q: OracleQuery): { [k: string]: Json } {
  return {
    id: q.id,
    sender_id: q.senderId,
    sender_nonce: q.senderNonce,
    oracle_id: q.oracleId,
    query: encode('ov', Buffer.from(q.query, 'utf8')),
    response: q.response === undefined ? EMPTY_OR : encode('or', Buffer.from(q.response, 'utf8')),
    ttl: q.expires,
    response_ttl: { type: 'delta', value: q.responseTtl },
    fee: jsonInt(q.fee),
  };
}

/** nameJson is a NameEntry (with the v5.11+ `owner`), its pointers with their `encoded_key` under /v2 and /v3 alike. */
export function nameJson(n: NameEntry): { [k: string]: Json } {
  const pointers = n.pointers.map((p) => ({ key: p.key, encoded_key: encodedKey(p.key), id: p.id }));
  return { id: n.id, ttl: n.expires, owner: n.owner, pointers };
}

/** auctionJson is an AuctionEntry: the name's hash, the last bid's height, bidder and fee, and the end height. */
export function auctionJson(a: NameAuction): { [k: string]: Json } {
  return { id: a.id, started_at: a.started, ends_at: a.ends, highest_bidder: a.bidder, highest_bid: jsonInt(a.bid) };
}

/** contractJson is a ContractObject. */
export function contractJson(c: ContractEntry): { [k: string]: Json } {
  return {
    id: c.id,
    owner_id: c.ownerId,
    vm_version: c.vmVersion,
    abi_version: c.abiVersion,
    active: true,
    referrer_ids: [],
    deposit: jsonInt(c.deposit),
  };
}

/** channelJson is a Channel object. */
export function channelJson(c: ChannelEntry): { [k: string]: Json } {
  return {
    id: c.id,
    initiator_id: c.initiatorId,
    responder_id: c.responderId,
    channel_amount: jsonInt(c.amount),
    initiator_amount: jsonInt(c.initiatorAmount),
    responder_amount: jsonInt(c.responderAmount),
    channel_reserve: jsonInt(c.channelReserve),
    delegate_ids: [...c.delegateIds],
    state_hash: c.stateHash,
    round: c.round,
    solo_round: c.soloRound,
    lock_period: c.lockPeriod,
    locked_until: c.lockedUntil,
  };
}
