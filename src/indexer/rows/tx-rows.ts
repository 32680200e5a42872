/**
 * @module Per-type row handlers: the rows one effective transaction (itself, or one wrapped inside a GAMetaTx or
 * PayingForTx) adds besides its transaction and account rows, one handler per transaction type. Pure.
 */
import { namePointer } from '../../chain/aens.ts';
import { isJsonObject, toBigInt, toSafeNumber, type Json } from '../../chain/json.ts';
import type { ActionPosition, FetchedGeneration, GenerationRows, JsonObject, NameAction, TxPosition } from './rows.ts';

/** Channel txs that end a channel's life. */
const CLOSING_CHANNEL_TXS = new Set(['ChannelCloseMutualTx', 'ChannelSettleTx']);
/** the channel transactions whose `amount` a channel's amount adds (deposits) or takes (withdrawals) */
const MOVING_CHANNEL_TXS = new Set(['ChannelDepositTx', 'ChannelWithdrawTx']);

/**
 * movedAmount is what a channel transaction (unwrapped) moves in or out of its channel's amount: a deposit's or
 * withdrawal's `amount`, wrapped in a PayingForTx or GAMetaTx too; null for another.
 */
export function movedAmount(tx: JsonObject): string | null {
  return MOVING_CHANNEL_TXS.has(String(tx.type)) ? intText(tx.amount) : null;
}

export function str(value: Json | undefined): string {
  if (typeof value !== 'string') throw new TypeError(`expected a string, got ${typeof value}`);
  return value;
}

export function intText(value: Json | undefined): string {
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

/** EffectiveTx is one effective tx, `depth` wrappers inside the signed tx at `pos` whose type is `outerType`. */
export interface EffectiveTx {
  readonly gen: FetchedGeneration;
  readonly pos: TxPosition;
  readonly outerType: string;
  readonly depth: number;
  readonly tx: JsonObject;
  /** createdIds of `tx` (a missing one means a malformed field: no row) */
  readonly created: Record<string, string>;
  /** the key block's protocol version (name rules change with it) */
  readonly protocol: number;
  /**
   * the height of the micro block holding the tx, from which the node counts its relative TTLs: the generation's
   * own, but the next on a hyperchain, whose micro blocks of a height come before its key block
   */
  readonly blockHeight: number;
}

/** A RowHandler adds the rows of one effective tx of its type to the generation's rows. */
type RowHandler = (rows: GenerationRows, t: EffectiveTx) => void;

/** addCall adds the contract call of a ContractCreateTx or ContractCallTx with its call info and decoding. */
function addCall(rows: GenerationRows, { gen, pos }: EffectiveTx, contractId: string, callerId: string): void {
  const decoded = gen.decodedCalls.get(pos.txHash);
  rows.contractCalls.push({
    ...pos,
    contractId,
    callerId,
    callInfo: gen.callInfos.get(pos.txHash) ?? null,
    callInfoText: gen.callInfoTexts?.get(pos.txHash),
    callInfoPruned: gen.prunedCallInfos?.has(pos.txHash) ?? false,
    function: decoded?.function ?? null,
    arguments: decoded?.arguments ?? null,
    result: decoded?.result ?? null,
    decodeError: decoded?.decodeError ?? (decoded ? null : 'not decoded'),
  });
}

/** A contract created (a GA attaches one too); a ContractCreateTx also calls its init. */
const contractRows: RowHandler = (rows, t) => {
  const { tx, pos, created } = t;
  const id = created.contract_id;
  if (id === undefined) return;
  rows.contracts.push({
    contractId: id,
    height: pos.height,
    createTxHash: pos.txHash,
    ownerId: str(tx.owner_id),
    vmVersion: String(tx.vm_version),
    abiVersion: String(tx.abi_version),
  });
  if (tx.type === 'ContractCreateTx') addCall(rows, t, id, str(tx.owner_id));
};

const nameClaimRows: RowHandler = (rows, t) => {
  if (t.created.name_id === undefined) return;
  rows.nameActions.push(
    nameTxAction(t.tx, { ...t.pos, blockHeight: t.blockHeight, protocol: t.protocol }, t.created.name_id)!,
  );
};

/** What every name action says: which name, whose tx, and where. */
type NameActionHead = ActionPosition & { protocol: number; nameHash: string; account: string };

/**
 * nameTxAction is the action of a name transaction (unwrapped) at `at`: undefined for another type. A claim's name hash
 * is the id it creates (`claimedId`), another's its `name_id`. The writer's and the int_calls area's, which folds the
 * name transactions again after a contract's AENS call before them (contract-names.ts).
 */
export function nameTxAction(
  tx: JsonObject,
  at: ActionPosition & { protocol: number },
  claimedId: string,
): NameAction | undefined {
  if (tx.type === 'NameClaimTx') {
    const nameFee = tx.name_fee === undefined ? null : intText(tx.name_fee);
    const name = str(tx.name);
    const head = { ...at, nameHash: claimedId, account: str(tx.account_id) };
    return { ...head, kind: 'claim', name, nameFee, salt: toBigInt(tx.name_salt) };
  }
  const head: NameActionHead = { ...at, nameHash: str(tx.name_id), account: str(tx.account_id) };
  switch (tx.type) {
    case 'NameUpdateTx': {
      const pointers = (Array.isArray(tx.pointers) ? tx.pointers : []).filter(isJsonObject).map(namePointer);
      return { ...head, kind: 'update', nameTtl: toSafeNumber(tx.name_ttl), pointers };
    }
    case 'NameTransferTx':
      return { ...head, kind: 'transfer', recipient: str(tx.recipient_id) };
    case 'NameRevokeTx':
      return { ...head, kind: 'revoke' };
    default:
      return undefined;
  }
}

/** nameActionRows adds the action of a name transaction but a claim. */
const nameActionRows: RowHandler = (rows, { tx, pos, protocol, blockHeight }) => {
  rows.nameActions.push(nameTxAction(tx, { ...pos, blockHeight, protocol }, '')!);
};

const nameUpdateRows: RowHandler = (rows, t) => {
  nameActionRows(rows, t);
  const action = rows.nameActions.at(-1) as Extract<NameAction, { kind: 'update' }>;
  // a key repeated in one update keeps its last id, as the node does
  const byKey = new Map(action.pointers.map((p) => [p.key, p.id]));
  for (const [key, id] of byKey) rows.namePointers.push({ ...t.pos, nameHash: action.nameHash, key, id });
};

const oracleQueryRows: RowHandler = (rows, { tx, pos, created, outerType, depth, blockHeight }) => {
  const oracle = str(tx.oracle_id);
  const query = {
    ...pos,
    senderId: str(tx.sender_id),
    senderNonce: intText(tx.nonce),
    query: String(tx.query ?? ''),
    fee: intText(tx.query_fee),
    // the node prunes (and refunds) an unanswered query at the key block after this height
    expiresAt: ttlHeight(tx.query_ttl, blockHeight),
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
};

const oracleResponseRows: RowHandler = (rows, { tx, pos }) => {
  rows.oracleResponses.push({ ...pos, queryId: str(tx.query_id), response: String(tx.response ?? '') });
};

/** Every channel tx is an event of its channel (a ChannelCreateTx's channel is the id it creates). */
const channelRows: RowHandler = (rows, { gen, tx, pos, created, blockHeight }) => {
  const type = String(tx.type);
  const channel = type === 'ChannelCreateTx' ? created.channel_id : tx.channel_id;
  if (typeof channel === 'string')
    rows.channelEvents.push({
      ...pos,
      channelId: channel,
      txType: type,
      closes: CLOSING_CHANNEL_TXS.has(type),
      amount: movedAmount(tx),
      gasUsed: type === 'ChannelForceProgressTx' ? (gen.forceProgressGas?.get(pos.txHash)?.toString() ?? null) : null,
      update: { tx, height: blockHeight },
    });
};

/** The handler of each type that adds rows of its own; the others add none (channel txs: by their prefix). */
const ROW_HANDLERS: ReadonlyMap<string, RowHandler> = new Map<string, RowHandler>([
  ['ContractCreateTx', contractRows],
  ['GAAttachTx', contractRows],
  ['ContractCallTx', (rows, t) => addCall(rows, t, str(t.tx.contract_id), str(t.tx.caller_id))],
  ['NameClaimTx', nameClaimRows],
  ['NameUpdateTx', nameUpdateRows],
  ['NameTransferTx', nameActionRows],
  ['NameRevokeTx', nameActionRows],
  [
    'OracleRegisterTx',
    (rows, { tx, pos, created, blockHeight }) =>
      rows.oracleActions.push({
        ...pos,
        blockHeight,
        oracleId: created.oracle_id ?? str(tx.account_id),
        kind: 'register',
        ttl: ttlObject(tx.oracle_ttl),
        queryFee: intText(tx.query_fee),
        queryFormat: String(tx.query_format ?? ''),
        responseFormat: String(tx.response_format ?? ''),
        // node 1.x printed vm_version here; keep whichever the node sent
        abiVersion: String(tx.abi_version ?? tx.vm_version ?? 0),
      }),
  ],
  [
    'OracleExtendTx',
    (rows, { tx, pos, blockHeight }) =>
      rows.oracleActions.push({
        ...pos,
        blockHeight,
        oracleId: str(tx.oracle_id),
        kind: 'extend',
        ttl: ttlObject(tx.oracle_ttl),
      }),
  ],
  ['OracleQueryTx', oracleQueryRows],
  ['OracleRespondTx', oracleResponseRows],
  ['OracleResponseTx', oracleResponseRows],
]);

/** addTxRows adds the rows the effective tx's type calls for (none for a type without a handler). */
export function addTxRows(rows: GenerationRows, t: EffectiveTx): void {
  const type = String(t.tx.type);
  const handler = ROW_HANDLERS.get(type) ?? (type.startsWith('Channel') ? channelRows : undefined);
  handler?.(rows, t);
}
