/**
 * @module The chain's internal calls as the devnode's own dry-run tells them, the oracle of /v3/contracts/calls: each
 * contract call's micro block's transactions up to it (their bytes from the devnode, read with the rlp package), on
 * top of the block before it, with `tx_events`. A call in or after a GAMetaTx or PayingForTx, which the node does not
 * dry-run, is a gap; so is a call that created a contract, whose replay the devnode answers 500 as the node does, and
 * a call whose replay the devnode gives up at its time limit (400 `dry-run exceeded time limit`: Devnode.overTimeLimit).
 */
import { expect } from 'chai';
import { decode as rlpDecode } from 'rlp';
import { encode, Encoding } from '@aeternity/aepp-sdk';
import { parseJson, stringifyJson, type Json } from '../../src/chain/json.ts';
import type { Devnode } from '../../src/devnode/index.ts';

type Obj = { [key: string]: Json };

/** A mined transaction with its place (the v3 harness's ChainTx). */
interface PlacedTx {
  readonly hash: string;
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly blockHash: string;
  readonly signed: Obj;
}

/** An internal call: its call's place and hash, its index among the call's, the function and the transaction. */
export interface TrueInternalCall {
  readonly height: number;
  readonly microIndex: number;
  readonly txIndex: number;
  readonly callTxHash: string;
  readonly blockHash: string;
  readonly localIdx: number;
  readonly function: string;
  readonly internalTx: Obj;
}

/** The chain's internal calls and its gaps (`height-micro-tx` of each call the node cannot re-run). */
export interface InternalCallsTruth {
  readonly calls: TrueInternalCall[];
  readonly gaps: string[];
  /** the gaps whose replay the node answered 500 `Internal server error` (a call that created a contract) */
  readonly crashed: string[];
  /** the gaps whose replay the node gave up at its time limit, 400 `Bad request: dry-run exceeded time limit` */
  readonly timeLimited: string[];
}

/** The node's answers a replay may get besides 200: its handler's crash, its time limit. */
const UNTOLD: Readonly<Record<string, { status: number; reason: string }>> = {
  crashed: { status: 500, reason: 'Internal server error' },
  timeLimited: { status: 400, reason: 'Bad request: dry-run exceeded time limit' },
};

const CALL_TYPES = new Set(['ContractCallTx', 'ContractCreateTx']);

/** The type and version ae_mdw gives each event's transaction (the node's serialisation versions). */
const TX_OF: Readonly<Record<string, Obj>> = {
  'Chain.spend': { type: 'SpendTx', version: 1 },
  'Call.amount': { type: 'SpendTx', version: 1 },
  'AENS.claim': { type: 'NameClaimTx', version: 2 },
  'AENS.update': { type: 'NameUpdateTx', version: 1 },
  'AENS.transfer': { type: 'NameTransferTx', version: 1 },
  'AENS.revoke': { type: 'NameRevokeTx', version: 1 },
};
const WRAPPERS = new Set(['GAMetaTx', 'PayingForTx']);

/** callType is a transaction's type, or the type it wraps (a GAMetaTx's or PayingForTx's inner one). */
function callType(tx: Obj): string {
  const inner = (tx.tx as Obj | undefined)?.tx as Obj | undefined;
  return WRAPPERS.has(String(tx.type)) && inner ? String(inner.type) : String(tx.type);
}

/** internalCallsTruth asks the devnode for the internal calls of `transactions` (the chain's, in chain order). */
export async function internalCallsTruth(
  devnode: Devnode,
  transactions: readonly PlacedTx[],
): Promise<InternalCallsTruth> {
  const unsigned = (hash: string): string => {
    const [, , , inner] = rlpDecode(devnode.chain.txs.get(hash)!.signedBytes) as Uint8Array[];
    return encode(Buffer.from(inner!), Encoding.Transaction);
  };
  /** node asks the devnode, which must answer 200; for a replay (`untold`) the name of an UNTOLD answer instead */
  async function node(path: string, body?: Obj): Promise<Obj>;
  async function node(path: string, body: Obj, untold: true): Promise<Obj | string>;
  async function node(path: string, body?: Obj, untold = false): Promise<Obj | string> {
    const res = await fetch(`${devnode.externalUrl}${path}`, {
      ...(body ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: stringifyJson(body) } : {}),
    });
    const answer = parseJson(await res.text()) as Obj;
    const which = Object.entries(UNTOLD).find(([, a]) => a.status === res.status && a.reason === answer.reason);
    if (untold && which) return which[0];
    expect(res.status, `${path}: ${String(answer.reason)}`).to.equal(200);
    return answer;
  }
  const calls: TrueInternalCall[] = [];
  const gaps: string[] = [];
  const apart: Record<string, string[]> = { crashed: [], timeLimited: [] };
  const blocks = new Map<string, PlacedTx[]>();
  for (const t of transactions) blocks.set(t.blockHash, [...(blocks.get(t.blockHash) ?? []), t]);
  for (const [blockHash, txs] of blocks) {
    if (!txs.some((t) => CALL_TYPES.has(callType(t.signed.tx as Obj)))) continue;
    const header = await node(`/v3/micro-blocks/hash/${blockHash}/header`);
    for (const [i, t] of txs.entries()) {
      if (!CALL_TYPES.has(callType(t.signed.tx as Obj))) continue;
      if (txs.slice(0, i + 1).some((x) => WRAPPERS.has(String((x.signed.tx as Obj).type)))) {
        gaps.push(`${t.height}-${t.microIndex}-${t.txIndex}`);
        continue;
      }
      const prefix = txs.slice(0, i + 1).map((x) => ({ tx: unsigned(x.hash) }));
      const answer = await node('/v3/dry-run', { top: header.prev_hash!, txs: prefix, tx_events: true }, true);
      if (typeof answer === 'string') {
        gaps.push(`${t.height}-${t.microIndex}-${t.txIndex}`);
        apart[answer]!.push(`${t.height}-${t.microIndex}-${t.txIndex}`);
        continue;
      }
      expect(
        (answer.results as Obj[]).every((r) => r.result === 'ok'),
        `${t.hash} re-runs`,
      ).to.equal(true);
      (answer.tx_events as Obj[]).forEach((e, localIdx) =>
        calls.push({
          height: t.height,
          microIndex: t.microIndex,
          txIndex: t.txIndex,
          callTxHash: t.hash,
          blockHash,
          localIdx,
          function: String(e.key),
          internalTx: { ...(e.info as Obj), ...TX_OF[String(e.key)]! },
        }),
      );
    }
  }
  return { calls, gaps, crashed: apart.crashed!, timeLimited: apart.timeLimited! };
}
