/** @module ae_mdw's Contract, ContractCall and ContractLog objects: creation, calls, and logs with base32hex event hashes and decoded data. Pure. */
import { decode, encode, hash } from '../../chain/encoding.ts';
import type { Json } from '../../chain/json.ts';
import { innerTx } from '../../chain/tx-fields.ts';
import type { CallRow } from '../../db/queries/contract-calls.ts';
import type { ContractCreationRow, LogRow } from '../../db/queries/contracts.ts';
import { callFields } from './call-values.ts';
import { sourceTxFields, txBody } from './render-source-tx.ts';
import type { ShapeValue } from '../shape-table.ts';
import type { CONTRACT, CONTRACT_CALL, CONTRACT_CALL_TX, CONTRACT_LOG } from './shapes-contracts.ts';
import type { InternalCallRow } from '../../db/queries/internal-calls.ts';

const BASE32HEX = '0123456789ABCDEFGHIJKLMNOPQRSTUV';

/** base32hex is RFC 4648's base32hex, upper case and `=`-padded (ae_mdw's `event_hash`). */
export function base32hex(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32HEX[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32HEX[(value << (5 - bits)) & 31];
  return out.padEnd(Math.ceil(out.length / 8) * 8, '=');
}

/** The standard events ae_mdw names, keyed by their topic 0 (blake2b of the name) in base32hex. */
const EVENT_NAMES: ReadonlyMap<string, string> = new Map(
  [
    'Allowance',
    'Approval',
    'ApprovalForAll',
    'Burn',
    'Deposit',
    'Mint',
    'Swap',
    'Transfer',
    'Withdrawal',
    'EditionLimit',
    'EditionLimitDecrease',
    'TemplateCreation',
    'TemplateDeletion',
    'TemplateMint',
    'TemplateLimit',
    'TemplateLimitDecrease',
    'TokenLimit',
    'TokenLimitDecrease',
    'PairCreated',
    'SwapTokens',
  ].map((name) => [base32hex(hash(Buffer.from(name))), name]),
);

/** topicBytes is a topic (unsigned 256-bit integer) as 32 big-endian bytes. */
export function topicBytes(topic: Json): Buffer {
  return Buffer.from(BigInt(String(topic)).toString(16).padStart(64, '0'), 'hex');
}

/** logData is the log's payload as UTF-8 text when it is printable text, else base64. */
export function logData(data: Json | undefined): string {
  let bytes: Buffer;
  try {
    bytes = decode(String(data ?? ''), ['cb']).bytes;
  } catch {
    return '';
  }
  const text = bytes.toString('utf8');
  // eslint-disable-next-line no-control-regex -- control characters mean the payload is not text
  return Buffer.from(text, 'utf8').equals(bytes) && !/[\u0000-\u0008\u000e-\u001f]/.test(text)
    ? text
    : bytes.toString('base64');
}

/**
 * The arguments of the AEX-9/AEX-141 (and DEX) events ae_mdw decodes with `aexn-args=true`, by event name: an
 * account, a contract or an integer per topic. An event whose topics do not match its entry stays in decimals.
 */
const AEXN_ARGS: ReadonlyMap<string, readonly ('ak' | 'ct' | 'int')[]> = new Map([
  ['Allowance', ['ak', 'ak', 'int']],
  ['Burn', ['ak', 'int']],
  ['Mint', ['ak', 'int']],
  ['Swap', ['ak', 'int']],
  ['PairCreated', ['ct', 'ct', 'ct']],
  ['Transfer', ['ak', 'ak', 'int']],
  ['TemplateMint', ['ak', 'int', 'int']],
] as const);

/** logArgs are a log's topics after the event's: decimals, or with `aexnArgs` a standard event's ids and integers. */
export function logArgs(eventName: string | null, args: readonly Json[], aexnArgs: boolean): Json[] {
  const kinds = aexnArgs && eventName !== null ? AEXN_ARGS.get(eventName) : undefined;
  if (kinds === undefined || kinds.length !== args.length) return args.map((t) => BigInt(String(t)).toString());
  return args.map((t, i) => (kinds[i] === 'int' ? BigInt(String(t)) : encode(kinds[i]!, topicBytes(t))));
}

/** contractLogObject is ae_mdw's ContractLog (`aexnArgs`: standard events' arguments decoded, see logArgs). */
export function contractLogObject(l: LogRow, aexnArgs = false): Record<string, Json> {
  const topics = Array.isArray(l.log.topics) ? l.log.topics : [];
  const eventHash = topics.length > 0 ? base32hex(topicBytes(topics[0]!)) : null;
  const eventName = eventHash === null ? null : (EVENT_NAMES.get(eventHash) ?? null);
  const emitter = String(l.log.address ?? l.calledContract);
  const external = emitter !== l.calledContract;
  return {
    contract_id: emitter,
    contract_tx_hash: l.contractTxHash,
    call_tx_hash: l.callTxHash,
    args: logArgs(eventName, topics.slice(1), aexnArgs),
    data: logData(l.log.data),
    event_hash: eventHash,
    event_name: eventName,
    ext_caller_contract_id: external ? l.calledContract : null,
    ext_caller_contract_tx_hash: external ? l.calledContractTxHash : null,
    parent_contract_id: null,
    height: l.height,
    micro_index: l.microIndex,
    block_hash: l.blockHash,
    block_time: Number(l.blockTime),
    log_idx: l.logIdx,
  } satisfies ShapeValue<typeof CONTRACT_LOG>;
}

/** contractObject is ae_mdw's Contract: the creating transaction (without type and version) and where it is. */
export function contractObject(c: ContractCreationRow): Record<string, Json> {
  return {
    contract: c.contractId,
    ...sourceTxFields(c),
    aexn_type: c.aexnType,
    create_tx: txBody(c.tx),
  } satisfies ShapeValue<typeof CONTRACT>;
}

const CALL_TXS = new Set(['ContractCallTx', 'ContractCreateTx']);

/**
 * contractCallObject is ae_mdw's ContractCall for a call the chain holds as a transaction:
 * `function` is the entrypoint (`init` for a constructor), `internal_tx` the call transaction
 * itself (inside a GAMetaTx or PayingForTx, the inner one) with the decoded `arguments`, the `result` and `return`
 * (call-values.ts), `return_type`, `gas_used` and `log`; `local_idx` is 0, the call itself.
 */
export function contractCallObject(c: CallRow): Record<string, Json> {
  let tx: { [key: string]: Json } | undefined = c.tx;
  while (tx && !CALL_TXS.has(String(tx.type))) tx = innerTx(tx);
  const info = c.callInfo ?? {};
  return {
    block_hash: c.blockHash,
    call_tx_hash: c.txHash,
    contract_id: c.contractId,
    contract_tx_hash: c.contractTxHash,
    function: c.function,
    height: c.height,
    internal_tx: {
      ...(tx ?? c.tx),
      function: c.function,
      ...callFields(info.return_type ?? null, c.arguments, c.result),
      return_type: info.return_type ?? null,
      gas_used: info.gas_used ?? null,
      log: info.log ?? [],
    },
    local_idx: 0,
    micro_index: c.microIndex,
  } satisfies ShapeValue<typeof CONTRACT_CALL_TX>;
}

/** internalCallObject is ae_mdw's ContractCall: an internal call with its call's transaction, contract and block. */
export function internalCallObject(c: InternalCallRow): Record<string, Json> {
  return {
    block_hash: c.blockHash,
    call_tx_hash: c.callTxHash,
    contract_id: c.contractId,
    contract_tx_hash: c.contractTxHash,
    function: c.function,
    height: c.height,
    internal_tx: c.internalTx,
    local_idx: c.logIdx,
    micro_index: c.microIndex,
  } satisfies ShapeValue<typeof CONTRACT_CALL>;
}
