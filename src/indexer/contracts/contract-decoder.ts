/**
 * @module Contract call decoding: function, arguments and return value of ContractCreateTx and
 * ContractCallTx, through the compiler's HTTP API when configured, else in-process for FATE.
 * The decoder finds a called contract's bytecode itself: created in the same batch, else stored
 * (db/queries/contracts.ts), else asked from the node. A failure is recorded on the call; it never
 * aborts a block. Runs outside any database transaction.
 */
import { BytecodeContractCallEncoder } from '@aeternity/aepp-calldata';
import { isJsonObject, toBigInt, type Json } from '../../chain/json.ts';
import { effectiveTxs } from '../../chain/ga-outcome.ts';
import { contractId } from '../../chain/derived-ids.ts';
import { mayMakeInternalCalls } from '../../chain/internal-call-ops.ts';
import { LRUCache } from 'lru-cache';
import { withNativeChecksums } from './calldata-checksums.ts';
import { typedCallData, typedValue } from './typed-values.ts';
import type { Queryable } from '../../db/connection/pool.ts';
import { contractCreateTxs } from '../../db/queries/contracts.ts';
import { AppError, ErrorCode, errorMessage } from '../../base/errors.ts';
import type { NodeClient } from '../../node/client.ts';
import { createCompilerClient, type CompilerClient } from '../../node/compiler.ts';
import type { OutboundMetrics } from '../../node/outbound-metrics.ts';
import type { DecodedCall, FetchedGeneration, JsonObject } from '../rows/rows.ts';

export interface DecoderOptions {
  readonly compilerUrl?: string;
  readonly timeoutMs: number;
  /** where a deployed contract's create transaction is stored */
  readonly db: Queryable;
  /** asked for the code of a contract not stored (created in a batch not yet committed) */
  readonly node: Pick<NodeClient, 'contractCode'>;
  /** counts the requests to the compiler */
  readonly metrics?: OutboundMetrics;
}

/** ABI 3 is FATE; older eras print the version as a hex string, which Number() reads too. */
function isFate(abiVersion: Json | undefined): boolean {
  return Number(abiVersion) === 3;
}

/** A call's decode error when its contract's code is at hand nowhere (neither stored nor given by a node). */
export const CODE_UNKNOWN = 'contract bytecode unknown';
/** How a decode error begins when the compiler did not answer (unreachable, timed out, a 5xx). */
const COMPILER_AWAY = 'compiler unavailable: ';
const RESULT_FAILED = 'return value: ';

/**
 * The beginnings of the decode errors that say nothing of the call itself, only that what decodes it was not at hand:
 * such a call is decoded again once it is (derived/redecode-calls.ts). A bad calldata's error is none of them.
 */
const TRANSIENT_DECODE_ERRORS: readonly string[] = [CODE_UNKNOWN, COMPILER_AWAY, RESULT_FAILED + COMPILER_AWAY];

/** isTransientDecodeError is true for a decode error TRANSIENT_DECODE_ERRORS begins. Pure. */
export function isTransientDecodeError(decodeError: string | null): boolean {
  return decodeError !== null && TRANSIENT_DECODE_ERRORS.some((start) => decodeError.startsWith(start));
}

/** message is a failure as a call's decode error: a compiler that did not answer is named so (transient). */
function message(err: unknown): string {
  const text = errorMessage(err);
  const away = err instanceof AppError && err.code === ErrorCode.COMPILER_UNAVAILABLE;
  return ((away ? COMPILER_AWAY : '') + text).slice(0, 500);
}

/**
 * The contract tx a signed tx carries (itself, or inside GAMetaTx/PayingForTx) and that took effect: none inside a
 * GAMetaTx whose `gaInfo` (the transaction's info, where asked) says its inner transaction failed (ga-outcome.ts).
 */
export function contractTx(tx: JsonObject, gaInfo?: JsonObject): JsonObject | undefined {
  // most transactions wrap none: asked a dozen times a transaction, their chain of one was an array each time
  if (tx.type !== 'GAMetaTx' && tx.type !== 'PayingForTx') return isContractType(tx) ? tx : undefined;
  return effectiveTxs(tx, gaInfo).find(isContractType);
}

const isContractType = (t: JsonObject): boolean => t.type === 'ContractCallTx' || t.type === 'ContractCreateTx';

/** The encoder's methods used here, with plain string parameters. */
export interface BytecodeEncoder {
  encodeCall(funName: string, args: unknown[]): string;
  decodeCall(data: string): { functionName: string; args: unknown[] };
  decodeResult(funName: string, data: string, resultType: string): unknown;
}

/** The internals of aepp-calldata's BytecodeContractCallEncoder (version 1.9) that name a function by its id. */
interface ResolverInternals {
  _internalEncoder?: { _typeResolver?: { getFunctionName?(id: string): string } };
}

/**
 * functionName is the name the code gives the called function: its type resolver's answer, or (a later library
 * without it) the function of the library's own decoding of the call data.
 */
function functionName(encoder: BytecodeEncoder, functionId: string, calldata: string): string {
  const resolver = (encoder as ResolverInternals)._internalEncoder?._typeResolver;
  if (typeof resolver?.getFunctionName !== 'function') return encoder.decodeCall(calldata).functionName;
  return resolver.getFunctionName(functionId);
}

/** Bytecode remembered by contract id, in characters: the contracts a busy era calls, in a few MiB. */
const CODE_CACHE_CHARS = 8 * 2 ** 20;
/** Encoders kept, by the characters of their bytecode (an encoder holds its code parsed, a few times larger). */
const ENCODER_CACHE_CHARS = 4 * 2 ** 20;

/** The contracts whose verdict (ContractDecoder.mayCall) is kept: a few hundred bytes each. */
const VERDICTS = 10_000;

/** A cache whose bound counts the characters of the bytecode each entry stands for, least recently used out first. */
function weightedCache<V extends object | string>(maxChars: number): LRUCache<string, V> {
  // (an entry larger than the whole bound is not kept; a contract's code is far below it)
  return new LRUCache<string, V>({ maxSize: maxChars });
}

/**
 * ContractDecoder decodes calls, remembering each called contract's bytecode (so a call costs no
 * lookup) and one in-process encoder per bytecode.
 */
export class ContractDecoder {
  readonly #opts: DecoderOptions;
  readonly #encoders = weightedCache<BytecodeEncoder>(ENCODER_CACHE_CHARS);
  readonly #codeById = weightedCache<string>(CODE_CACHE_CHARS);
  /**
   * the lookups under way by contract id: a batch's generations decode at once, and the calls of a contract not yet
   * known each started a lookup of their own (45 database queries and node requests for one contract, at a
   * hyperchain's first batch)
   */
  readonly #lookingUp = new Map<string, Promise<string | undefined>>();
  /**
   * mayMakeInternalCalls' verdict on each remembered code, by contract id with the code it was told of: a look-up by
   * the code's text hashed and compared its hundreds of characters, 4 µs a contract call the fetch replays
   */
  readonly #verdicts = new Map<string, { readonly code: string; readonly may: boolean }>();
  readonly #compiler: CompilerClient | undefined;

  constructor(opts: DecoderOptions) {
    this.#opts = opts;
    this.#compiler = opts.compilerUrl
      ? createCompilerClient(opts.compilerUrl, opts.timeoutMs, opts.metrics)
      : undefined;
  }

  /**
   * decodeCalls fills `decodedCalls` of each generation (outside the database transaction);
   * `batchCodes` is the code of the contracts created in the batch, which calls in it may need.
   */
  decodeCalls(
    gens: readonly FetchedGeneration[],
    batchCodes: ReadonlyMap<string, string> = new Map(),
  ): Promise<FetchedGeneration[]> {
    this.#lookUpCalled(gens, batchCodes);
    return Promise.all(
      gens.map(async (gen) => {
        const decoded = new Map<string, DecodedCall>();
        for (const mb of gen.microBlocks) {
          for (const signed of mb.transactions) {
            const hash = String(signed.hash);
            const tx = isJsonObject(signed.tx) ? contractTx(signed.tx, gen.gaInfos?.get(hash)) : undefined;
            if (!tx) continue;
            const info = gen.callInfos.get(hash);
            // the usual call, its contract's code at hand, decodes without a turn of the event loop
            decoded.set(hash, this.#decodeKnown(tx, info, batchCodes) ?? (await this.decode(tx, info, batchCodes)));
          }
        }
        return { ...gen, decodedCalls: decoded };
      }),
    );
  }

  /**
   * decode turns every failure of the decoding into `decodeError`; a failed read of the stored code (the database's
   * outage, a pool's connect timeout) is thrown: it says nothing of the call, and stored as its decode error it was
   * kept for good (the batch is retried instead, the calls area's derivation fails and is retried).
   */
  async decode(
    tx: JsonObject,
    callInfo: JsonObject | undefined,
    batchCodes: ReadonlyMap<string, string> = new Map(),
  ): Promise<DecodedCall> {
    const code =
      tx.type === 'ContractCreateTx' ? String(tx.code) : await this.#code(String(tx.contract_id), batchCodes);
    try {
      if (!code) return { function: null, arguments: null, result: null, decodeError: CODE_UNKNOWN };
      const calldata = String(tx.call_data);
      if (this.#compiler) {
        try {
          return await this.#viaCompiler(this.#compiler, code, calldata, tx.abi_version, callInfo);
        } catch (err) {
          // a FATE call the compiler cannot decode (it sent no function, or failed): the in-process decoder may
          if (!isFate(tx.abi_version)) throw err;
          return this.#inProcessAfter(err, code, calldata, callInfo);
        }
      }
      if (!isFate(tx.abi_version))
        return { function: null, arguments: null, result: null, decodeError: 'AEVM calls need COMPILER_URL' };
      return this.#inProcess(code, calldata, callInfo);
    } catch (err) {
      return { function: null, arguments: null, result: null, decodeError: message(err) };
    }
  }

  /**
   * #decodeKnown is `decode` of a FATE call decoded in-process whose code is at hand (created by the call, remembered
   * or created in the batch), undefined for every other call (`decode` then looks the code up or asks the compiler).
   */
  #decodeKnown(
    tx: JsonObject,
    callInfo: JsonObject | undefined,
    batchCodes: ReadonlyMap<string, string>,
  ): DecodedCall | undefined {
    if (this.#compiler || !isFate(tx.abi_version)) return undefined;
    const code =
      tx.type === 'ContractCreateTx'
        ? String(tx.code)
        : (this.#codeById.get(String(tx.contract_id)) ?? batchCodes.get(String(tx.contract_id)));
    if (!code) return undefined;
    try {
      return this.#inProcess(code, String(tx.call_data), callInfo);
    } catch (err) {
      return { function: null, arguments: null, result: null, decodeError: message(err) };
    }
  }

  /**
   * rememberCode keeps the code of contracts whose creation is committed, so their first call
   * costs no lookup.
   */
  rememberCode(codes: ReadonlyMap<string, string>): void {
    for (const [id, code] of codes) this.#codeById.set(id, code, { size: code.length });
  }

  /**
   * forgetCode drops the remembered bytecode. Call it when heights are deleted: a fork may create
   * a different contract under the same id (same owner and nonce).
   */
  forgetCode(): void {
    this.#codeById.clear();
    this.#lookingUp.clear();
    this.#verdicts.clear();
  }

  /** code is a deployed contract's bytecode (created in the batch, remembered, stored, or asked from the node). */
  code(id: string, batchCodes: ReadonlyMap<string, string> = new Map()): Promise<string | undefined> {
    return this.#code(id, batchCodes);
  }

  /**
   * mayCall tells whether a contract's remembered code may make internal calls (chain/internal-call-ops.ts), undefined
   * where the decoder holds no code of it: no lookup, no request.
   */
  mayCall(id: string): boolean | undefined {
    const code = this.#codeById.get(id);
    if (code === undefined) return undefined;
    const known = this.#verdicts.get(id);
    // the same text as a rule: the code remembered once is the one told of
    if (known !== undefined && known.code === code) return known.may;
    if (this.#verdicts.size >= VERDICTS) this.#verdicts.clear();
    const may = mayMakeInternalCalls(code);
    this.#verdicts.set(id, { code, may });
    return may;
  }

  /** encoder is the in-process encoder of FATE code, kept in the decoder's cache (AEX-N dry-runs use it too). */
  encoder(code: string): BytecodeEncoder {
    let encoder = this.#encoders.get(code);
    if (!encoder) {
      encoder = withNativeChecksums(
        new BytecodeContractCallEncoder(code as `cb_${string}`),
      ) as unknown as BytecodeEncoder;
      this.#encoders.set(code, encoder, { size: code.length });
    }
    return encoder;
  }

  /**
   * #code keeps (#lookUpCode) the code it looked up, not the batch's own: the loader remembers that once the batch is
   * committed (rememberCode), since a batch prepared but never written (a fork came first) must teach the decoder
   * nothing. Kept here by the batch's internal calls (their quiet calls' code), it decoded the next batch's calls to the
   * batch's contracts, prepared before their creation was stored, where a node that withholds their code leaves them
   * undecoded.
   */
  async #code(id: string, batchCodes: ReadonlyMap<string, string>): Promise<string | undefined> {
    return this.#codeById.get(id) ?? batchCodes.get(id) ?? (await this.#lookUp(id));
  }

  /** #lookUp is #lookUpCode, one at a time per contract: the calls that need it meanwhile wait for the same one. */
  #lookUp(id: string): Promise<string | undefined> {
    let lookup = this.#lookingUp.get(id);
    if (!lookup) {
      lookup = this.#lookUpCode(id).finally(() => this.#lookingUp.delete(id));
      this.#lookingUp.set(id, lookup);
    }
    return lookup;
  }

  /**
   * #lookUpCalled starts the lookups of the contracts the generations call whose code is not at hand, their stored
   * creations read in one statement (decodeCalls' calls then wait for them).
   */
  #lookUpCalled(gens: readonly FetchedGeneration[], batchCodes: ReadonlyMap<string, string>): void {
    const ids = new Set<string>();
    for (const gen of gens)
      for (const mb of gen.microBlocks)
        for (const signed of mb.transactions) {
          const tx = isJsonObject(signed.tx) ? contractTx(signed.tx, gen.gaInfos?.get(String(signed.hash))) : undefined;
          if (!tx || tx.type === 'ContractCreateTx') continue;
          const id = String(tx.contract_id);
          if (!this.#codeById.has(id) && !batchCodes.has(id) && !this.#lookingUp.has(id)) ids.add(id);
        }
    if (ids.size === 0) return;
    const stored = contractCreateTxs(this.#opts.db, [...ids]);
    for (const id of ids) {
      const lookup = this.#lookUpCode(id, stored).finally(() => this.#lookingUp.delete(id));
      // a failed read reaches the calls that wait for it (decode records it), not the process
      lookup.catch(() => {});
      this.#lookingUp.set(id, lookup);
    }
  }

  /**
   * #lookUpCode finds deployed bytecode and keeps it: stored (in `stored`, the creations read for several contracts at
   * once), else asked from the node (undefined when neither knows it). Kept here, not by the call that waited for it:
   * a lookup #lookUpCalled started may end before its generation's decoding reaches the call.
   */
  async #lookUpCode(
    id: string,
    stored: Promise<ReadonlyMap<string, Json>> = contractCreateTxs(this.#opts.db, [id]),
  ): Promise<string | undefined> {
    const created = (await stored).get(id);
    const create = isJsonObject(created) ? contractTx(created) : undefined;
    const code =
      create && typeof create.code === 'string'
        ? create.code
        : await this.#opts.node.contractCode(id).catch(() => undefined);
    if (code !== undefined) this.#codeById.set(id, code, { size: code.length });
    return code;
  }

  /** #inProcessAfter decodes in-process after the compiler failed; when both fail, the error names both. */
  #inProcessAfter(
    compilerError: unknown,
    code: string,
    calldata: string,
    callInfo: JsonObject | undefined,
  ): DecodedCall {
    try {
      return this.#inProcess(code, calldata, callInfo);
    } catch (err) {
      throw new Error(`${message(compilerError)}; in-process: ${message(err)}`, { cause: err });
    }
  }

  /**
   * #inProcess decodes in ae_mdw's typed form (typed-values.ts): the arguments, and the value an `ok` call returns or
   * the reason a `revert` gives (a FATE string), each read by its own tags; an `error` has no value.
   */
  #inProcess(code: string, calldata: string, callInfo: JsonObject | undefined): DecodedCall {
    const call = typedCallData(calldata);
    const name = functionName(this.encoder(code), call.functionId, calldata);
    let result: Json = null;
    let decodeError: string | null = null;
    const returnValue = callInfo?.return_value;
    if (typeof returnValue === 'string' && callInfo?.return_type !== 'error') {
      try {
        result = typedValue(returnValue);
      } catch (err) {
        decodeError = RESULT_FAILED + message(err);
      }
    }
    return { function: name, arguments: call.args, result, decodeError };
  }

  async #viaCompiler(
    compiler: CompilerClient,
    code: string,
    calldata: string,
    abiVersion: Json | undefined,
    callInfo: JsonObject | undefined,
  ): Promise<DecodedCall> {
    const backend = isFate(abiVersion) ? 'fate' : 'aevm';
    const decoded = await compiler.decode('/decode-calldata/bytecode', { calldata, bytecode: code, backend });
    if (!isJsonObject(decoded) || typeof decoded.function !== 'string') throw new Error('compiler sent no function');
    let result: Json = null;
    let decodeError: string | null = null;
    if (callInfo?.return_type === 'ok' && typeof callInfo.return_value === 'string') {
      try {
        const r = await compiler.decode('/decode-call-result/bytecode', {
          bytecode: code,
          function: decoded.function,
          'call-result': 'ok',
          'call-value': callInfo.return_value,
          backend,
        });
        result = isJsonObject(r) && 'result' in r ? r.result! : r;
      } catch (err) {
        decodeError = RESULT_FAILED + message(err);
      }
    }
    return { function: decoded.function, arguments: decoded.arguments ?? null, result, decodeError };
  }
}

/** createdContractCode maps contracts created by these txs to their code (calls in the same batch need it). */
export function createdContractCode(txs: readonly JsonObject[]): Map<string, string> {
  const codes = new Map<string, string>();
  for (const signed of txs) {
    const tx = isJsonObject(signed.tx) ? contractTx(signed.tx) : undefined;
    if (tx?.type === 'ContractCreateTx' && typeof tx.code === 'string') {
      try {
        codes.set(contractId(String(tx.owner_id), toBigInt(tx.nonce)), tx.code);
      } catch {
        // malformed owner or nonce: the call decoder will say the code is unknown
      }
    }
  }
  return codes;
}
