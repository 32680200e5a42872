/** @module Transform: one fetched generation → the rows of every table. Pure; shared by -p, -H and -v. */
import { isJsonObject, toBigInt, toSafeNumber, type Json } from '../../chain/json.ts';
import { createdIds, innerTx, nameReferences, referencedIds } from '../../chain/tx-fields.ts';
import { storedTxColumns } from '../../chain/stored-tx.ts';
import type { FetchedGeneration, GenerationRows, JsonObject, TxPosition } from './rows.ts';
import { aexnRows } from '../aexn-rows.ts';

/** Channel txs that end a channel's life. */
const CLOSING_CHANNEL_TXS = new Set(['ChannelCloseMutualTx', 'ChannelSettleTx']);

function str(value: Json | undefined): string {
  if (typeof value !== 'string') throw new TypeError(`expected a string, got ${typeof value}`);
  return value;
}

function intText(value: Json | undefined): string {
  if (value === undefined || value === null) return '0';
  // a fee is a safe integer: its digits need no bigint
  return typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : toBigInt(value).toString();
}

/** ttlHeight turns a TTL object into an absolute height: delta counts from `height`. */
function ttlHeight(ttl: Json | undefined, height: number): number {
  if (!isJsonObject(ttl)) return height;
  const value = toSafeNumber(ttl.value);
  return ttl.type === 'block' ? value : height + value;
}

function ttlObject(ttl: Json | undefined): { type: string; value: number } {
  return isJsonObject(ttl) ? { type: String(ttl.type), value: toSafeNumber(ttl.value) } : { type: 'delta', value: 0 };
}

/** The tx itself, then each inner tx it wraps (GAMetaTx, PayingForTx): all of them take effect. */
function effectiveTxs(tx: JsonObject): JsonObject[] {
  const chain = [tx];
  for (let inner = innerTx(tx); inner; inner = innerTx(inner)) chain.push(inner);
  return chain;
}

/** transformGeneration builds every row of one height from the node's objects. */
export function transformGeneration(gen: FetchedGeneration): GenerationRows {
  const kb = gen.keyBlock;
  const height = gen.height;
  const protocol = typeof kb.version === 'number' ? kb.version : 1;
  const rows: GenerationRows = {
    keyBlock: {
      height,
      hash: str(kb.hash),
      prevHash: str(kb.prev_hash),
      prevKeyHash: str(kb.prev_key_hash),
      beneficiary: str(kb.beneficiary),
      miner: str(kb.miner),
      timeMs: toBigInt(kb.time),
      data: kb,
    },
    continuesAt: gen.continuesAt,
    microBlocks: [],
    transactions: [],
    accountTxs: [],
    contracts: [],
    contractCalls: [],
    channelEvents: [],
    nameActions: [],
    namePointers: [],
    oracleActions: [],
    oracleQueries: [],
    oracleResponses: [],
    nameOracleQueries: [],
    nameReferences: [],
    aexn: aexnRows(gen),
  };
  const keyHash = str(gen.keyBlock.hash);
  gen.microBlocks.forEach((mb, i) => {
    const microIndex = (gen.continuesAt ?? 0) + i;
    const mbHash = str(mb.header.hash);
    const microTimeMs = toBigInt(mb.header.time);
    rows.microBlocks.push({
      hash: mbHash,
      height,
      microIndex,
      timeMs: microTimeMs,
      txCount: mb.transactions.length,
      header: mb.header,
      keyHash,
      prevHash: i > 0 ? str(gen.microBlocks[i - 1]!.header.hash) : gen.continuesAt ? gen.previousMicroHash : keyHash,
    });
    mb.transactions.forEach((signed, txIndex) => {
      const tx = signed.tx;
      if (!isJsonObject(tx)) throw new TypeError(`transaction ${String(signed.hash)} has no tx object`);
      const pos: TxPosition = { height, microIndex, txIndex, txHash: str(signed.hash) };
      const txType = str(tx.type);
      rows.transactions.push({
        ...pos,
        microTimeMs,
        txType,
        fee: intText(tx.fee),
        tx,
        stored: storedTxColumns(signed),
      });
      // derived ids (hashes of decoded ids) are computed once for the account rows and the domain rows
      const effective = effectiveTxs(tx);
      const created = effective.map(createdIds);
      const createdOf = (t: JsonObject): Record<string, string> => created[effective.indexOf(t)] ?? createdIds(t);
      for (const [account, fields] of referencedIds(tx, createdOf))
        rows.accountTxs.push({ ...pos, account, txType, fields });
      for (const ref of nameReferences(tx)) rows.nameReferences.push({ ...pos, ...ref, txType });
      for (let depth = 0; depth < effective.length; depth++)
        addDomainRows(rows, gen, pos, txType, depth, effective[depth]!, created[depth]!, protocol);
    });
  });
  return rows;
}

/**
 * addDomainRows adds the rows of one effective tx, `depth` wrappers inside the tx at `pos` of type `outerType`;
 * `created` is its createdIds (a missing one means a malformed field: no row).
 */
function addDomainRows(
  rows: GenerationRows,
  gen: FetchedGeneration,
  pos: TxPosition,
  outerType: string,
  depth: number,
  tx: JsonObject,
  created: Record<string, string>,
  protocol: number,
): void {
  const type = String(tx.type);
  const height = pos.height;
  const callInfo = gen.callInfos.get(pos.txHash) ?? null;
  const decoded = gen.decodedCalls.get(pos.txHash);
  const call = (contract: string, caller: string): void => {
    rows.contractCalls.push({
      ...pos,
      contractId: contract,
      callerId: caller,
      callInfo,
      callInfoText: gen.callInfoTexts?.get(pos.txHash),
      callInfoPruned: gen.prunedCallInfos?.has(pos.txHash) ?? false,
      function: decoded?.function ?? null,
      arguments: decoded?.arguments ?? null,
      result: decoded?.result ?? null,
      decodeError: decoded?.decodeError ?? (decoded ? null : 'not decoded'),
    });
  };
  switch (type) {
    case 'ContractCreateTx':
    case 'GAAttachTx': {
      const id = created.contract_id;
      if (id === undefined) break;
      rows.contracts.push({
        contractId: id,
        height,
        createTxHash: pos.txHash,
        ownerId: str(tx.owner_id),
        vmVersion: String(tx.vm_version),
        abiVersion: String(tx.abi_version),
      });
      if (type === 'ContractCreateTx') call(id, str(tx.owner_id));
      break;
    }
    case 'ContractCallTx':
      call(str(tx.contract_id), str(tx.caller_id));
      break;
    case 'NameClaimTx': {
      const name = str(tx.name);
      const nameFee = tx.name_fee === undefined ? null : intText(tx.name_fee);
      if (created.name_id === undefined) break;
      rows.nameActions.push({
        ...pos,
        protocol,
        nameHash: created.name_id,
        account: str(tx.account_id),
        kind: 'claim',
        name,
        nameFee,
        salt: toBigInt(tx.name_salt),
      });
      break;
    }
    case 'NameUpdateTx': {
      const pointers = (Array.isArray(tx.pointers) ? tx.pointers : [])
        .filter(isJsonObject)
        .map((p) => ({ key: String(p.key), id: String(p.id) }));
      const nameHash = str(tx.name_id);
      rows.nameActions.push({
        ...pos,
        protocol,
        nameHash,
        account: str(tx.account_id),
        kind: 'update',
        nameTtl: toSafeNumber(tx.name_ttl),
        pointers,
      });
      // a key repeated in one update keeps its last id, as the node does
      const byKey = new Map(pointers.map((p) => [p.key, p.id]));
      for (const [key, id] of byKey) rows.namePointers.push({ ...pos, nameHash, key, id });
      break;
    }
    case 'NameTransferTx':
      rows.nameActions.push({
        ...pos,
        protocol,
        nameHash: str(tx.name_id),
        account: str(tx.account_id),
        kind: 'transfer',
        recipient: str(tx.recipient_id),
      });
      break;
    case 'NameRevokeTx':
      rows.nameActions.push({
        ...pos,
        protocol,
        nameHash: str(tx.name_id),
        account: str(tx.account_id),
        kind: 'revoke',
      });
      break;
    case 'OracleRegisterTx':
      rows.oracleActions.push({
        ...pos,
        oracleId: created.oracle_id ?? str(tx.account_id),
        kind: 'register',
        ttl: ttlObject(tx.oracle_ttl),
        queryFee: intText(tx.query_fee),
        queryFormat: String(tx.query_format ?? ''),
        responseFormat: String(tx.response_format ?? ''),
        // node 1.x printed vm_version here; keep whichever the node sent
        abiVersion: String(tx.abi_version ?? tx.vm_version ?? 0),
      });
      break;
    case 'OracleExtendTx':
      rows.oracleActions.push({ ...pos, oracleId: str(tx.oracle_id), kind: 'extend', ttl: ttlObject(tx.oracle_ttl) });
      break;
    case 'OracleQueryTx': {
      const oracle = str(tx.oracle_id);
      const query = {
        ...pos,
        senderId: str(tx.sender_id),
        senderNonce: intText(tx.nonce),
        query: String(tx.query ?? ''),
        fee: intText(tx.query_fee),
        expiresAt: ttlHeight(tx.query_ttl, height),
        responseTtl: tx.response_ttl ?? null,
      };
      // a query to a name reaches the oracle the name points at, which the writer resolves
      if (oracle.startsWith('nm_'))
        rows.nameOracleQueries.push({
          ...query,
          nameHash: oracle,
          txType: outerType,
          queryField: `${'tx.'.repeat(depth)}query_id`,
        });
      else if (created.query_id !== undefined)
        rows.oracleQueries.push({ ...query, queryId: created.query_id, oracleId: oracle });
      break;
    }
    case 'OracleRespondTx':
    case 'OracleResponseTx':
      rows.oracleResponses.push({ ...pos, queryId: str(tx.query_id), response: String(tx.response ?? '') });
      break;
    default:
      if (type.startsWith('Channel')) {
        const channel = type === 'ChannelCreateTx' ? created.channel_id : tx.channel_id;
        if (typeof channel === 'string')
          rows.channelEvents.push({ ...pos, channelId: channel, txType: type, closes: CLOSING_CHANNEL_TXS.has(type) });
      }
  }
}
