/** @module A small chain written straight into the schema (every table, real encodings, integers beyond 2^53) for API tests. */
import { createHash } from 'node:crypto';
import { txTypeCode } from '../../../src/chain/id-key.ts';
import { encode, type Prefix } from '../../../src/chain/encoding.ts';
import { stringifyJson, type Json } from '../../../src/chain/json.ts';
import { channelId, contractId, nameId, oracleId, oracleQueryId } from '../../../src/chain/derived-ids.ts';
import { referencedIds } from '../../../src/chain/tx-fields.ts';
import type { Queryable } from '../../../src/db/connection/pool.ts';
import { addTxTypeTotals } from '../../../src/db/writes/tx-type-totals.ts';
import { accountPairs } from '../../../src/indexer/rows/account-pairs.ts';
import { deriveStoredSpends } from '../../../src/indexer/derived/spend-days.ts';
import { accountNumber } from '../../support/account-numbers.ts';
import { STORED_TX_COLUMNS, storedTxValues } from '../../support/stored-tx.ts';

type TxObject = { [key: string]: Json };

/** id makes a deterministic, valid id of a kind from a label. */
export function id(prefix: Prefix, label: string): string {
  return encode(prefix, createHash('sha256').update(`${prefix}:${label}`).digest());
}

/** Big integers that a lossy JSON path would corrupt. */
export const BIG = {
  nonce: 15041902164601590529n,
  amount: 123456789012345678901234567890n,
  fee: 20000000000000000001n,
  nameFee: 500000000000000000007n,
  salt: 2n ** 255n + 12345n,
} as const;

export const ALICE = id('ak', 'alice');
export const BOB = id('ak', 'bob');
export const CAROL = id('ak', 'carol');
export const DAVE = id('ak', 'dave');
export const CONTRACT = contractId(ALICE, 3n);
export const ORACLE = oracleId(ALICE);
export const QUERY_ANSWERED = oracleQueryId(BOB, 5n, ORACLE);
export const QUERY_OPEN = oracleQueryId(BOB, 6n, ORACLE);
export const CHANNEL_CLOSED = channelId(ALICE, 7n, BOB);
export const CHANNEL_OPEN = channelId(ALICE, 8n, BOB);
export const NAME = 'alice.chain';
export const NAME_HASH = nameId(NAME);
/** TOP is the highest height; 0..TOP are stored, heights 10..TOP-1 carry one spend alice → carol each. */
export const TOP = 60;
/** EMPTY_HEIGHT has no micro block. */
export const EMPTY_HEIGHT = 20;
const T0 = 1_600_000_000_000;
const GENERATION_MS = 180_000;

interface Tx {
  height: number;
  micro: number;
  index: number;
  hash: string;
  tx: TxObject;
  signatures: string[] | null;
}

/** ChainFixture describes what it wrote, so tests can compare answers with the objects themselves. */
export class ChainFixture {
  readonly keyBlocks = new Map<number, TxObject>();
  readonly microBlocks = new Map<number, TxObject>();
  readonly txs: Tx[] = [];

  keyHash(height: number): string {
    return String(this.keyBlocks.get(height)!.hash);
  }
  microHash(height: number): string {
    return String(this.microBlocks.get(height)!.hash);
  }
  tx(label: string): Tx {
    return this.txs.find((t) => t.hash === id('th', label))!;
  }
  timeOf(height: number): number {
    return T0 + height * GENERATION_MS;
  }
}

/** buildFixture writes the chain into the current schema of `db` and returns what it wrote. */
export async function buildFixture(
  db: Queryable,
  opts: { top?: number; heartbeatAgeMs?: number; newestBlockAgeMs?: number } = {},
): Promise<ChainFixture> {
  const top = opts.top ?? TOP;
  const f = new ChainFixture();
  const timeOf = (h: number): number =>
    opts.newestBlockAgeMs === undefined ? f.timeOf(h) : Date.now() - opts.newestBlockAgeMs - (top - h) * GENERATION_MS;
  const txsAt = new Map<number, { label: string; tx: TxObject; signatures?: string[] | null }[]>();
  const add = (h: number, label: string, tx: TxObject, signatures?: string[] | null): void => {
    txsAt.set(h, [...(txsAt.get(h) ?? []), { label, tx, ...(signatures === undefined ? {} : { signatures }) }]);
  };
  add(1, 'spend-1', {
    type: 'SpendTx',
    version: 1,
    sender_id: ALICE,
    recipient_id: BOB,
    amount: BIG.amount,
    fee: BIG.fee,
    nonce: 1,
    payload: 'ba_Xfbg4g==',
  });
  add(2, 'spend-2', {
    type: 'SpendTx',
    version: 1,
    sender_id: BOB,
    recipient_id: ALICE,
    amount: 5,
    fee: 20000,
    nonce: 1,
    ttl: 500,
    payload: 'ba_Xfbg4g==',
  });
  add(2, 'create', {
    type: 'ContractCreateTx',
    version: 1,
    owner_id: ALICE,
    nonce: 3,
    code: 'cb_+GYGAaCzGe2',
    vm_version: 5,
    abi_version: 3,
    deposit: 0,
    amount: 0,
    gas: 1000,
    gas_price: 1000000000,
    fee: 90000,
    call_data: 'cb_KxFE1kQfP4oEp9E=',
  });
  add(3, 'call', {
    type: 'ContractCallTx',
    version: 1,
    caller_id: BOB,
    contract_id: CONTRACT,
    nonce: 2,
    abi_version: 3,
    amount: 0,
    gas: 1000,
    gas_price: 1000000000,
    fee: 180000,
    call_data: 'cb_KxHrbbKLGwKgEFrhQw==',
  });
  add(4, 'register', {
    type: 'OracleRegisterTx',
    version: 1,
    account_id: ALICE,
    nonce: 4,
    query_format: 'string',
    response_format: 'string',
    query_fee: BIG.fee,
    oracle_ttl: { type: 'delta', value: 500 },
    fee: 16000,
    abi_version: 0,
  });
  add(4, 'query-1', {
    type: 'OracleQueryTx',
    version: 1,
    sender_id: BOB,
    nonce: 5,
    oracle_id: ORACLE,
    query: 'how much?',
    query_fee: BIG.fee,
    query_ttl: { type: 'delta', value: 10 },
    response_ttl: { type: 'delta', value: 10 },
    fee: 17000,
  });
  add(4, 'query-2', {
    type: 'OracleQueryTx',
    version: 1,
    sender_id: BOB,
    nonce: 6,
    oracle_id: ORACLE,
    query: 'and now?',
    query_fee: BIG.fee,
    query_ttl: { type: 'delta', value: 10 },
    response_ttl: { type: 'delta', value: 10 },
    fee: 17000,
  });
  add(5, 'respond', {
    type: 'OracleRespondTx',
    version: 1,
    oracle_id: ORACLE,
    nonce: 9,
    query_id: QUERY_ANSWERED,
    response: '42',
    response_ttl: { type: 'delta', value: 10 },
    fee: 17000,
  });
  add(6, 'claim', {
    type: 'NameClaimTx',
    version: 2,
    account_id: ALICE,
    nonce: 10,
    name: NAME,
    name_salt: BIG.salt,
    name_fee: BIG.nameFee,
    fee: 16000,
  });
  add(7, 'update', {
    type: 'NameUpdateTx',
    version: 1,
    account_id: ALICE,
    nonce: 11,
    name_id: NAME_HASH,
    name_ttl: 50000,
    client_ttl: 3600,
    // as a node 7.x sends a pointer: its key's bytes as encoded_key too
    pointers: [{ encoded_key: 'ba_YWNjb3VudF9wdWJrZXn8jckR', id: BOB, key: 'account_pubkey' }],
    fee: 17000,
  });
  add(8, 'channel-1', {
    type: 'ChannelCreateTx',
    version: 1,
    initiator_id: ALICE,
    responder_id: BOB,
    initiator_amount: 10,
    responder_amount: 10,
    channel_reserve: 2,
    lock_period: 10,
    nonce: 7,
    delegate_ids: [],
    state_hash: 'st_AkEG+wvKWZdW9R+Zzz+7HHTTR3KWcTNrQNpGMr/VmR3DqtiC',
    fee: 20000,
  });
  add(8, 'channel-2', {
    type: 'ChannelCreateTx',
    version: 1,
    initiator_id: ALICE,
    responder_id: BOB,
    initiator_amount: 10,
    responder_amount: 10,
    channel_reserve: 2,
    lock_period: 10,
    nonce: 8,
    delegate_ids: [],
    state_hash: 'st_AkEG+wvKWZdW9R+Zzz+7HHTTR3KWcTNrQNpGMr/VmR3DqtiC',
    fee: 20000,
  });
  add(9, 'channel-close', {
    type: 'ChannelCloseMutualTx',
    version: 1,
    channel_id: CHANNEL_CLOSED,
    from_id: ALICE,
    initiator_amount_final: 10,
    responder_amount_final: 10,
    fee: 20000,
    nonce: 9,
  });
  add(11, 'paying-for', {
    type: 'PayingForTx',
    version: 1,
    payer_id: ALICE,
    nonce: 12,
    fee: 30000,
    tx: {
      signatures: [id('sg', 'inner')],
      tx: {
        type: 'SpendTx',
        version: 1,
        sender_id: DAVE,
        recipient_id: BOB,
        amount: 1,
        fee: 0,
        nonce: 1,
        payload: 'ba_Xfbg4g==',
      },
    },
  });
  add(
    12,
    'ga-meta',
    {
      type: 'GAMetaTx',
      version: 2,
      ga_id: DAVE,
      auth_data: 'cb_KxFE1kQfP4oEp9E=',
      abi_version: 3,
      fee: 50000,
      gas: 100,
      gas_price: 1000000000,
      tx: {
        signatures: [],
        tx: {
          type: 'SpendTx',
          version: 1,
          sender_id: DAVE,
          recipient_id: CAROL,
          amount: 2,
          fee: 0,
          nonce: 0,
          payload: 'ba_Xfbg4g==',
        },
      },
    },
    null,
  );
  for (let h = 10; h < top; h++) {
    if (h !== EMPTY_HEIGHT)
      add(h, `spend-carol-${h}`, {
        type: 'SpendTx',
        version: 1,
        sender_id: ALICE,
        recipient_id: CAROL,
        amount: 1000 + h,
        fee: 19320000000000,
        nonce: 100 + h,
        payload: 'ba_Xfbg4g==',
      });
  }

  for (let h = 0; h <= top; h++) {
    const kb: TxObject = {
      hash: id('kh', `k${h}`),
      height: h,
      prev_hash: h === 0 ? id('kh', 'genesis-prev') : txsAt.has(h - 1) ? id('mh', `m${h - 1}`) : id('kh', `k${h - 1}`),
      prev_key_hash: h === 0 ? id('kh', 'genesis-prev') : id('kh', `k${h - 1}`),
      state_hash: id('bs', `s${h}`),
      miner: id('ak', `miner${h % 3}`),
      beneficiary: id('ak', `beneficiary${h % 2}`),
      target: 522133279,
      pow: Array.from({ length: 42 }, (_, i) => 1000 * h + i),
      nonce: BIG.nonce + BigInt(h),
      time: timeOf(h),
      version: 5,
      info: 'cb_AAACHMKhFJo=',
    };
    f.keyBlocks.set(h, kb);
    await db.query(
      'INSERT INTO key_blocks (height, hash, prev_hash, prev_key_hash, beneficiary, miner, time_ms, data) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)',
      [h, kb.hash, kb.prev_hash, kb.prev_key_hash, kb.beneficiary, kb.miner, kb.time, stringifyJson(kb)],
    );
    const entries = txsAt.get(h);
    if (!entries) continue;
    const mh: TxObject = {
      hash: id('mh', `m${h}`),
      height: h,
      pof_hash: 'no_fraud',
      prev_hash: id('kh', `k${h}`),
      prev_key_hash: id('kh', `k${h}`),
      state_hash: id('bs', `ms${h}`),
      txs_hash: id('bx', `x${h}`),
      signature: id('sg', `ms${h}`),
      time: Number(kb.time) + 3000,
      version: 5,
    };
    f.microBlocks.set(h, mh);
    await db.query(
      'INSERT INTO micro_blocks (hash, height, micro_index, time_ms, tx_count, header) VALUES ($1, $2, 0, $3, $4, $5)',
      [mh.hash, h, mh.time, entries.length, stringifyJson(mh)],
    );
    for (const [index, e] of entries.entries()) {
      const t: Tx = {
        height: h,
        micro: 0,
        index,
        hash: id('th', e.label),
        tx: e.tx,
        signatures: e.signatures === undefined ? [id('sg', e.label)] : e.signatures,
      };
      f.txs.push(t);
      await insertTx(db, t, Number(mh.time));
    }
  }
  // the spends per day (migration 1061) as the populator's `spends` area derives stored heights
  await deriveStoredSpends(db, 0, top);
  await db.query(
    'UPDATE sync_state SET top_height = $1, top_hash = $2, node_height = $3, heartbeat_at = now() - make_interval(secs => $4), status = $5',
    [top, f.keyHash(top), top + 1, (opts.heartbeatAgeMs ?? 0) / 1000, 'following'],
  );
  return f;
}

async function insertTx(db: Queryable, t: Tx, microTime: number): Promise<void> {
  const pos = [t.height, t.micro, t.index];
  const type = String(t.tx.type);
  const size = stringifyJson(t.tx).length;
  await db.query(
    `INSERT INTO transactions (hash, height, micro_index, tx_index, micro_time_ms, tx_type, fee, ${STORED_TX_COLUMNS})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      t.hash,
      t.height,
      t.micro,
      t.index,
      microTime,
      txTypeCode(type),
      String(t.tx.fee),
      ...storedTxValues(t.tx, t.signatures, size),
    ],
  );
  // as the writer adds its transactions to their type's totals (migration 1154)
  await addTxTypeTotals(db, [{ code: txTypeCode(type), n: 1, size }]);
  const accountRows = [...referencedIds(t.tx)].map(([account, fields]) => ({
    height: t.height,
    microIndex: t.micro,
    txIndex: t.index,
    txHash: t.hash,
    account,
    txType: type,
    fields,
  }));
  for (const row of accountRows)
    await db.query(
      'INSERT INTO account_transactions (account, height, micro_index, tx_index, tx_type, fields) VALUES ($1, $2, $3, $4, $5, $6)',
      [await accountNumber(db, row.account), ...pos, txTypeCode(type), row.fields.join(' ')],
    );
  // the senders and recipients the writer pairs beside them (migration 1077)
  for (const pair of accountPairs(accountRows, []))
    await db.query(
      'INSERT INTO account_pairs (sender, recipient, height, micro_index, tx_index) VALUES ($1, $2, $3, $4, $5)',
      [await accountNumber(db, pair.sender), await accountNumber(db, pair.recipient), ...pos],
    );
  const tx = t.tx;
  const at = (sql: string, values: unknown[]): Promise<unknown> => db.query(sql, values);
  switch (type) {
    case 'ContractCreateTx':
      await at(
        'INSERT INTO contracts (contract_id, height, create_tx_hash, owner_id, vm_version, abi_version) VALUES ($1, $2, $3, $4, $5, $6)',
        [CONTRACT, t.height, t.hash, tx.owner_id, String(tx.vm_version), String(tx.abi_version)],
      );
      await at(
        `INSERT INTO contract_calls (tx_hash, height, micro_index, tx_index, contract_id, caller_id, function, arguments, call_info, result)
                VALUES ($1, $2, $3, $4, $5, $6, 'init', '[]', $7, '{"type":"unit","value":""}')`,
        [
          t.hash,
          ...pos,
          CONTRACT,
          tx.owner_id,
          stringifyJson({ return_type: 'ok', return_value: 'cb_Xfbg4g==', gas_used: 100, log: [] }),
        ],
      );
      break;
    case 'ContractCallTx':
      await at(
        `INSERT INTO contract_calls (tx_hash, height, micro_index, tx_index, contract_id, caller_id, function, arguments, call_info, result)
                VALUES ($1, $2, $3, $4, $5, $6, 'payout', $7, $8, $9)`,
        [
          t.hash,
          ...pos,
          CONTRACT,
          tx.caller_id,
          stringifyJson([{ type: 'int', value: BIG.amount }]),
          stringifyJson({
            return_type: 'ok',
            return_value: 'cb_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAADfhHWADzMnYB',
            gas_used: 22150,
            log: [],
          }),
          stringifyJson({ type: 'int', value: BIG.amount }),
        ],
      );
      break;
    case 'OracleRegisterTx':
      await at(
        `INSERT INTO oracle_events (oracle_id, height, micro_index, tx_index, tx_hash, kind, expires_at, query_fee, query_format, response_format, abi_version)
                VALUES ($1, $2, $3, $4, $5, 'register', $6, $7, 'string', 'string', '0')`,
        [ORACLE, ...pos, t.hash, t.height + 500, String(tx.query_fee)],
      );
      break;
    case 'OracleQueryTx': {
      const queryId = oracleQueryId(String(tx.sender_id), BigInt(String(tx.nonce)), ORACLE);
      await at(
        `INSERT INTO oracle_queries (query_id, oracle_id, height, micro_index, tx_index, tx_hash, sender_id, sender_nonce, query, fee, expires_at, response_ttl)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [
          queryId,
          ORACLE,
          ...pos,
          t.hash,
          tx.sender_id,
          String(tx.nonce),
          tx.query,
          String(tx.query_fee),
          t.height + 10,
          stringifyJson(tx.response_ttl),
        ],
      );
      break;
    }
    case 'OracleRespondTx':
      await at(
        'INSERT INTO oracle_responses (query_id, height, micro_index, tx_index, tx_hash, response) VALUES ($1, $2, $3, $4, $5, $6)',
        [tx.query_id, ...pos, t.hash, tx.response],
      );
      break;
    case 'NameClaimTx':
      await at(
        `INSERT INTO name_events (name_hash, name, height, micro_index, tx_index, tx_hash, kind, owner, expires_at, auction_end, name_fee)
                VALUES ($1, $2, $3, $4, $5, $6, 'claim', $7, $8, NULL, $9)`,
        [NAME_HASH, NAME, ...pos, t.hash, tx.account_id, t.height + 180000, String(tx.name_fee)],
      );
      break;
    case 'NameUpdateTx':
      await at(
        `INSERT INTO name_events (name_hash, name, height, micro_index, tx_index, tx_hash, kind, owner, expires_at, pointers)
                VALUES ($1, $2, $3, $4, $5, $6, 'update', $7, $8, $9)`,
        [NAME_HASH, NAME, ...pos, t.hash, tx.account_id, t.height + 50000, stringifyJson(tx.pointers)],
      );
      await at(
        'INSERT INTO name_pointers (name_hash, height, micro_index, tx_index, key, id) VALUES ($1, $2, $3, $4, $5, $6)',
        [NAME_HASH, ...pos, 'account_pubkey', BOB],
      );
      break;
    case 'ChannelCreateTx':
    case 'ChannelCloseMutualTx': {
      const channel =
        type === 'ChannelCreateTx'
          ? channelId(String(tx.initiator_id), BigInt(String(tx.nonce)), String(tx.responder_id))
          : String(tx.channel_id);
      await at(
        'INSERT INTO channel_events (channel_id, height, micro_index, tx_index, tx_hash, tx_type, closes) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [channel, ...pos, t.hash, type, type !== 'ChannelCreateTx'],
      );
      break;
    }
    default:
      break;
  }
}
