/** @module The shapes between fetch, transform and write: a fetched generation and its table rows. */
import type { NamePointer } from '../../chain/aens.ts';
import type { ChannelState, ChannelTx } from '../../chain/channel-state.ts';
import type { Json } from '../../chain/json.ts';
import type { StoredTxColumns } from '../../chain/stored-tx.ts';
import type { Replayed } from '../../node/dry-run-events.ts';
import type { Lasting, PRUNED } from '../../node/dry-run.ts';
import type { NameReference } from '../../chain/tx-fields.ts';
import type { AexnRows } from '../../db/writes/token-rows.ts';

export type JsonObject = { [key: string]: Json };

/** A micro block as fetched: its header and its signed txs in block order. */
export interface FetchedMicroBlock {
  readonly header: JsonObject;
  readonly transactions: readonly JsonObject[];
}

/** DecodedCall is what contract decoding produced for one tx (or why it could not). */
export interface DecodedCall {
  readonly function: string | null;
  readonly arguments: Json | null;
  readonly result: Json | null;
  readonly decodeError: string | null;
}

/**
 * AexnFindings is what the detector found in one generation (I/O done before the transform): its AEX-N rows but the
 * AEX-9 logs, which the transform reads from the generation's emitted logs (aexn-rows.ts).
 */
export type AexnFindings = Omit<AexnRows, 'aex9Logs'>;

/** Everything the node says about one height, fetched before any database work. */
export interface FetchedGeneration {
  readonly height: number;
  readonly keyBlock: JsonObject;
  /**
   * Set when the generation is stored already up to this micro index and `microBlocks` are the
   * ones the node added after it: the key block is not written again. Undefined: the whole generation.
   */
  readonly continuesAt?: number;
  /** with continuesAt: the hash of the micro block before the first fetched one, as the node lists the generation */
  readonly previousMicroHash?: string;
  readonly microBlocks: readonly FetchedMicroBlock[];
  /** `call_info` (or `ga_info`) per contract tx hash. */
  readonly callInfos: ReadonlyMap<string, JsonObject>;
  /** the node's own JSON text of a call info, where it was kept (stored as it is, not written out again) */
  readonly callInfoTexts?: ReadonlyMap<string, string>;
  /**
   * the whole info of each GA transaction whose info the fetch asked (every GAAttachTx and GAMetaTx, and a
   * PayingForTx paying for a GAMetaTx): the ga area reads the GA's own call from it instead of asking the node again,
   * and the transform whether a GAMetaTx's inner transaction took effect (ga-outcome.ts)
   */
  readonly gaInfos?: ReadonlyMap<string, JsonObject>;
  /** contract txs whose call info every node had garbage-collected (410): stored without it, marked so */
  readonly prunedCallInfos?: ReadonlySet<string>;
  /** the gas each force progress's call used (its info's), by the hash of its transaction (or of its wrapper) */
  readonly forceProgressGas?: ReadonlyMap<string, bigint>;
  /**
   * the replays the fetch asked for call infos (sync/fetch-replays.ts), answered, by their call's `microIndex:txIndex`:
   * the batch's internal calls take them instead of asking them again
   */
  readonly replays?: ReadonlyMap<string, FetchedReplay>;
  /** decoded calls per contract tx hash (filled outside the database transaction). */
  readonly decodedCalls: ReadonlyMap<string, DecodedCall>;
  /** AEX-N contracts found in the generation (filled outside the database transaction, aexn-detector.ts) */
  readonly aexn?: AexnFindings;
}

/**
 * A replay the fetch asked (its request: the block's transactions up to the call, on `top`) and its outcome: the
 * answer, or a failure that lasts (dry-run.ts PRUNED, CRASHED, OVER_TIME_LIMIT), which the batch stores as its gap.
 */
export interface FetchedReplay {
  readonly top: string;
  readonly txs: readonly string[];
  readonly outcome: Replayed | typeof PRUNED | Lasting;
}

/** Position of a tx in the chain: the keyset order every list uses. */
export interface TxPosition {
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly txHash: string;
}

export interface KeyBlockRow {
  height: number;
  hash: string;
  prevHash: string;
  prevKeyHash: string;
  beneficiary: string;
  miner: string;
  timeMs: bigint;
  data: JsonObject;
}
export interface MicroBlockRow {
  hash: string;
  height: number;
  microIndex: number;
  timeMs: bigint;
  txCount: number;
  header: JsonObject;
  /** the generation's key block hash (the header's prev_key_hash) */
  keyHash: string;
  /** the block before it (the header's prev_hash): the key block, or the micro block before, when in this fetch */
  prevHash: string | undefined;
}
export interface TransactionRow extends TxPosition {
  microTimeMs: bigint;
  txType: string;
  fee: string;
  /** the node's tx object (not written: `stored` holds it) */
  tx: JsonObject;
  /** the signed transaction's stored form and the columns read from it (chain/stored-tx.ts) */
  stored: StoredTxColumns;
  /** the id it creates as ae_mdw shows it (chain/tx-fields.ts shownCreatedId) */
  createdId: string | null;
}
export interface AccountTxRow extends TxPosition {
  account: string;
  txType: string;
  fields: string[];
}
/** A transaction from one id to another (migration 1077; ids, not yet numbers). */
export interface AccountPairRow extends TxPosition {
  readonly sender: string;
  readonly recipient: string;
}
/** A name a tx sends to: the account, oracle or contract behind it is known at write time. */
export type NameReferenceRow = TxPosition & NameReference & { txType: string };
export interface ContractRow {
  contractId: string;
  height: number;
  createTxHash: string;
  ownerId: string;
  vmVersion: string;
  abiVersion: string;
}
export interface ContractCallRow extends TxPosition {
  contractId: string;
  callerId: string;
  function: string | null;
  arguments: Json | null;
  callInfo: JsonObject | null;
  /** callInfo's JSON text as the node sent it, when kept (else the writer writes callInfo out) */
  callInfoText?: string;
  /** true when the node had garbage-collected the call info (then callInfo is null) */
  callInfoPruned: boolean;
  result: Json | null;
  decodeError: string | null;
}
/** A contract that emitted an event of another's call (migration 1003): the call's position. */
export interface RemoteCallRow {
  readonly contractId: string;
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
}
export interface ChannelEventRow extends TxPosition {
  channelId: string;
  txType: string;
  closes: boolean;
  /** a ChannelDepositTx's or ChannelWithdrawTx's amount, wrapped too (movedAmount; migration 1147 for the stored) */
  amount: string | null;
  /** a ChannelForceProgressTx's: the gas its call used, which its payer paid (null: not known, or another type) */
  gasUsed: string | null;
  /** the channel transaction (unwrapped) and its micro block's height, which the state after it follows from */
  update: ChannelTx;
  /**
   * the channel's state after it, set at write time from the stored state before the batch (resolveRows); null while
   * the state before is not known (the channels area pending, migration 1051)
   */
  state?: ChannelState | null;
}
export interface NamePointerRow extends TxPosition {
  nameHash: string;
  key: string;
  id: string;
}
export interface OracleQueryRow extends TxPosition {
  queryId: string;
  oracleId: string;
  senderId: string;
  senderNonce: string;
  query: string;
  fee: string;
  expiresAt: number;
  responseTtl: Json;
}
/**
 * A query sent to a name (nm_): its oracle is the name's `oracle_pubkey` pointer at that moment,
 * known at write time, and so is its query id. `txType` (the outer tx's) and `queryField` (`query_id`,
 * `tx.query_id` inside a GAMetaTx or PayingForTx) make the query id's account row.
 */
export type NameOracleQuery = Omit<OracleQueryRow, 'queryId' | 'oracleId'> & {
  nameHash: string;
  txType: string;
  queryField: string;
};
export interface OracleResponseRow extends TxPosition {
  queryId: string;
  response: string;
}

/** Where a name or oracle transaction is, with what the node counts the heights it sets from. */
export interface ActionPosition extends TxPosition {
  /**
   * the height of the micro block holding it (aetx_env:height): the generation's own, but the next on a hyperchain,
   * whose micro blocks of a height come before its key block
   */
  blockHeight: number;
}

/** A name transaction before the name's prior state is known (see chain-state.ts). */
export type NameAction = ActionPosition & { protocol: number; nameHash: string; account: string } & (
    | { kind: 'claim'; name: string; nameFee: string | null; salt: bigint }
    // a null TTL keeps the expiry (a contract's AENS.update without one)
    | { kind: 'update'; nameTtl: number | null; pointers: NamePointer[] }
    | { kind: 'transfer'; recipient: string }
    | { kind: 'revoke' }
  );

export interface NameEventRow extends TxPosition {
  nameHash: string;
  name: string | null;
  kind: string;
  owner: string;
  expiresAt: number | null;
  auctionEnd: number | null;
  nameFee: string | null;
  pointers: Json;
}

/** An oracle transaction before the oracle's prior expiry is known. */
export type OracleAction = ActionPosition & { oracleId: string } & (
    | {
        kind: 'register';
        ttl: { type: string; value: number };
        queryFee: string;
        queryFormat: string;
        responseFormat: string;
        abiVersion: string;
      }
    | { kind: 'extend'; ttl: { type: string; value: number } }
  );

export interface OracleEventRow extends TxPosition {
  oracleId: string;
  kind: string;
  expiresAt: number;
  queryFee: string | null;
  queryFormat: string | null;
  responseFormat: string | null;
  abiVersion: string | null;
}

/** Rows every table takes as they come from the transform. */
interface DirectRows {
  readonly microBlocks: MicroBlockRow[];
  readonly transactions: TransactionRow[];
  readonly accountTxs: AccountTxRow[];
  readonly contracts: ContractRow[];
  readonly contractCalls: ContractCallRow[];
  readonly channelEvents: ChannelEventRow[];
  readonly namePointers: NamePointerRow[];
  readonly oracleQueries: OracleQueryRow[];
  readonly oracleResponses: OracleResponseRow[];
}

/** Rows of one generation; name and oracle events are resolved at write time against prior state. */
export interface GenerationRows extends DirectRows {
  readonly keyBlock: KeyBlockRow;
  /** the rows continue a stored generation from this micro index on (FetchedGeneration.continuesAt) */
  readonly continuesAt: number | undefined;
  readonly nameActions: NameAction[];
  readonly oracleActions: OracleAction[];
  readonly nameOracleQueries: NameOracleQuery[];
  readonly nameReferences: NameReferenceRow[];
  /** AEX-N contracts and AEX-9 events (written by db/writes/aexn.ts) */
  readonly aexn: AexnRows;
}

/** Rows of a batch once name and oracle events are resolved: everything the writer inserts. */
export interface ResolvedRows extends DirectRows {
  readonly keyBlocks: KeyBlockRow[];
  /** the accounts, oracles and contracts txs reached through names (nameReferences resolved) */
  readonly nameAccountTxs: AccountTxRow[];
  /** each transaction's senders and recipients among the account rows (migration 1077) */
  readonly accountPairs: AccountPairRow[];
  readonly nameEvents: NameEventRow[];
  readonly oracleEvents: OracleEventRow[];
}
