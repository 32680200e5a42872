/**
 * @module The int_calls area's pure parts: which requests re-run a micro block's calls (each call one request, the
 * block's transactions up to it; the gaps the node cannot re-run), and how a call's tx_events become rows.
 */
import { expect } from 'chai';
import { buildTx, decode, encode, Encoding, MemoryAccount, Tag } from '@aeternity/aepp-sdk';
import { decode as rlpDecode } from 'rlp';
import {
  GAP,
  internalCallRows,
  planReplays,
  quietCalls,
  readInternalCalls,
  type ReplayReader,
} from '../../../src/indexer/derived/internal-calls.ts';
import { BYTECODE } from '../../../src/devnode/contracts/standards.ts';
import { CRASHED, OVER_TIME_LIMIT, PRUNED, REFUSED } from '../../../src/node/dry-run.ts';
import type { ReplayableTx } from '../../../src/db/writes/internal-calls.ts';
import { readReplay } from '../../../src/node/dry-run-events.ts';
import type { Json } from '../../../src/chain/json.ts';

const alice = MemoryAccount.generate().address;
const contract = encode(Buffer.alloc(32, 7), Encoding.ContractAddress);

/** signed wraps an unsigned transaction with one signature of zeros (the SDK's builder: an independent encoder). */
const signed = (tx: `tx_${string}`): Uint8Array =>
  decode(buildTx({ tag: Tag.SignedTx, encodedTx: tx, signatures: [Buffer.alloc(64)] }));
const spend = (nonce: number): `tx_${string}` =>
  buildTx({
    tag: Tag.SpendTx,
    senderId: alice,
    recipientId: alice,
    amount: 1,
    fee: 10n ** 15n,
    nonce,
    payload: 'ba_Xfbg4g==',
  });
const call = (nonce: number, gas = 50_000): `tx_${string}` =>
  buildTx({
    tag: Tag.ContractCallTx,
    callerId: alice,
    contractId: contract as `ct_${string}`,
    nonce,
    abiVersion: 3,
    amount: 0,
    gas,
    gasPrice: 10n ** 9n,
    fee: 10n ** 15n,
    callData: 'cb_KxFE1kQfP4oEp9E=',
  });

/** inner is the unsigned transaction a signed one carries (read with the rlp package). */
const inner = (bytes: Uint8Array): string => {
  const [, , , txBytes] = rlpDecode(bytes) as Uint8Array[];
  return encode(Buffer.from(txBytes!), Encoding.Transaction);
};

function row(
  microIndex: number,
  txIndex: number,
  tx: `tx_${string}` | null,
  type: string,
  inner: string | null = null,
  outcome: { contractId?: string; returnType?: string | null } = {},
): ReplayableTx {
  const bytes = tx === null ? Buffer.from('{"tx":{}}') : signed(tx);
  const isCall = type === 'ContractCallTx';
  return {
    height: 10,
    microIndex,
    txIndex,
    txType: type,
    innerType: inner,
    gas: type === 'ContractCallTx' ? '50000' : null,
    size: bytes.length,
    signed: bytes,
    prevHash: `mh_prev${microIndex}`,
    contractId: isCall ? (outcome.contractId ?? contract) : null,
    returnType: isCall ? (outcome.returnType === undefined ? 'ok' : outcome.returnType) : null,
  };
}

describe('int_calls: planReplays', () => {
  it('asks each call with the transactions of its micro block up to it, on top of the block before it', () => {
    const txs = [
      row(0, 0, spend(1), 'SpendTx'),
      row(0, 1, call(2), 'ContractCallTx'),
      row(0, 2, call(3), 'ContractCallTx'),
      row(1, 0, call(4), 'ContractCallTx'),
    ];
    const { replays, gaps } = planReplays(txs);
    expect(gaps).to.deep.equal([]);
    expect(replays).to.deep.equal([
      {
        call: { height: 10, microIndex: 0, txIndex: 1 },
        top: 'mh_prev0',
        txs: [0, 1].map((i) => inner(txs[i]!.signed)),
      },
      {
        call: { height: 10, microIndex: 0, txIndex: 2 },
        top: 'mh_prev0',
        txs: [0, 1, 2].map((i) => inner(txs[i]!.signed)),
      },
      { call: { height: 10, microIndex: 1, txIndex: 0 }, top: 'mh_prev1', txs: [inner(txs[3]!.signed)] },
    ]);
  });

  it('marks what the node cannot re-run: calls in and after a wrapper, after a JSON-stored one, over the gas cap', () => {
    const txs = [
      row(0, 0, call(1), 'ContractCallTx'),
      row(0, 1, null, 'PayingForTx', 'ContractCallTx'),
      row(0, 2, call(3), 'ContractCallTx'),
      row(1, 0, null, 'SpendTx'),
      row(1, 1, call(5), 'ContractCallTx'),
      row(2, 0, call(6), 'ContractCallTx'),
    ];
    const { replays, gaps } = planReplays(txs);
    expect(replays.map((r) => r.call)).to.deep.equal([
      { height: 10, microIndex: 0, txIndex: 0 },
      { height: 10, microIndex: 2, txIndex: 0 },
    ]);
    expect(gaps).to.deep.equal([
      { height: 10, microIndex: 0, txIndex: 1, reason: GAP.wrapped },
      { height: 10, microIndex: 0, txIndex: 2, reason: GAP.afterWrapped },
      { height: 10, microIndex: 1, txIndex: 1, reason: GAP.unencoded },
    ]);
    // a cap a call's own gas passes: its request is not asked
    const capped = planReplays([row(0, 0, call(1), 'ContractCallTx')], new Set(), 100_000n);
    expect(capped).to.deep.equal({ replays: [], gaps: [{ height: 10, microIndex: 0, txIndex: 0, reason: GAP.gas }] });
  });

  it('asks no request for a quiet call, whose transaction still runs before the calls after it', () => {
    const txs = [row(0, 0, call(1), 'ContractCallTx'), row(0, 1, call(2), 'ContractCallTx')];
    const { replays, gaps } = planReplays(txs, new Set([txs[0]!]));
    expect(gaps).to.deep.equal([]);
    expect(replays).to.deep.equal([
      { call: { height: 10, microIndex: 0, txIndex: 1 }, top: 'mh_prev0', txs: txs.map((t) => inner(t.signed)) },
    ]);
  });
});

describe('int_calls: quietCalls', () => {
  const token = encode(Buffer.alloc(32, 1), Encoding.ContractAddress);
  const wrappedAe = encode(Buffer.alloc(32, 2), Encoding.ContractAddress);
  const unknown = encode(Buffer.alloc(32, 3), Encoding.ContractAddress);
  const codes = new Map<string, string>([
    [token, BYTECODE.aex9],
    [wrappedAe, BYTECODE.wae],
  ]);
  const txs = [
    row(0, 0, spend(1), 'SpendTx'),
    row(0, 1, call(2), 'ContractCallTx', null, { contractId: token }),
    row(0, 2, call(3), 'ContractCallTx', null, { contractId: wrappedAe }),
    row(0, 3, call(4), 'ContractCallTx', null, { contractId: wrappedAe, returnType: 'revert' }),
    row(0, 4, call(5), 'ContractCallTx', null, { contractId: unknown }),
    row(0, 5, call(6), 'ContractCallTx', null, { contractId: token, returnType: null }),
  ];

  it('leaves out failed calls and calls of code without an operation that makes one; asks the rest', async () => {
    const read: string[] = [];
    const quiet = await quietCalls(txs, (id) => (read.push(id), Promise.resolve(codes.get(id))));
    expect([...quiet].map((t) => t.txIndex)).to.deep.equal([1, 3, 5]);
    // each contract's code is read once; a failed call's is not read at all
    expect(read.sort()).to.deep.equal([token, wrappedAe, unknown].sort());
  });

  it('without the code, leaves out the failed calls only', async () => {
    expect([...(await quietCalls(txs))].map((t) => t.txIndex)).to.deep.equal([3]);
  });

  it('asks the node only for the calls that are not quiet', async () => {
    const asked: number[] = [];
    const node: ReplayReader = {
      replay: (_top, prefix) => (asked.push(prefix.length), Promise.resolve({ ran: true, events: [] })),
    };
    await readInternalCalls(node, txs, { codeOf: (id) => Promise.resolve(codes.get(id)) });
    // the wrapped AE call (3 transactions up to it) and the unknown contract's (5)
    expect(asked.sort()).to.deep.equal([3, 5]);
  });
});

describe('int_calls: the node answer to rows', () => {
  const event = (key: string, amount: number) => ({
    kind: 'internal_call_tx',
    key,
    type: 'contract_call_tx',
    tx_hash: 'th_x',
    info: { sender_id: alice, recipient_id: alice, amount, fee: 0, ttl: 0, nonce: 0, payload: 'ba_Xfbg4g==' },
  });

  it("reads the last item's result and its internal_call_tx events in order, not the channel events", () => {
    const answer: Json = {
      results: [
        { type: 'spend', result: 'ok' },
        { type: 'contract_call', result: 'ok', call_obj: {} },
      ],
      tx_events: [
        event('Call.amount', 5),
        { kind: 'channel', key: 'ch_x', type: 'x', tx_hash: 'th_x' },
        event('Chain.spend', 3),
      ],
    };
    const replayed = readReplay(answer, 2);
    expect(replayed.ran).to.equal(true);
    expect(replayed.events.map((e) => e.key)).to.deep.equal(['Call.amount', 'Chain.spend']);
    // each item's call_obj, the contract transactions' call infos (fetch-replays.ts)
    expect(replayed.callObjects).to.deep.equal([undefined, {}]);
    expect(readReplay({ results: [{ type: 'contract_call', result: 'error', reason: 'x' }] }, 1)).to.deep.equal({
      ran: false,
      events: [],
      callObjects: [undefined],
    });
    expect(() => readReplay({ results: [] }, 1)).to.throw(/no results/);
  });

  it("numbers a call's events (local_idx) and names the transaction each amounts to, as ae_mdw's internal_tx", () => {
    const rows = internalCallRows(
      { height: 3, microIndex: 1, txIndex: 2 },
      readReplay({ results: [{ result: 'ok' }], tx_events: [event('Call.amount', 5), event('Chain.spend', 3)] }, 1)
        .events,
    );
    expect(
      rows.map((r) => [r.localIdx, r.function, r.internalTx.type, r.internalTx.version, r.internalTx.amount]),
    ).to.deep.equal([
      [0, 'Call.amount', 'SpendTx', 1, 5],
      [1, 'Chain.spend', 'SpendTx', 1, 3],
    ]);
  });
});

describe('int_calls: readInternalCalls', () => {
  const txs = [0, 1, 2].map((i) => row(i, 0, call(i + 1), 'ContractCallTx'));
  /** a node answering each micro block's replay as `outcomes` says, by its top */
  const node = (outcomes: Record<string, Awaited<ReturnType<ReplayReader['replay']>>>): ReplayReader => ({
    replay: (top) => Promise.resolve(outcomes[top]!),
  });
  const spent = { key: 'Chain.spend', info: { amount: 5 } };

  it('stores a call every node crashed on (one that creates a contract) and a pruned one as gaps, the others as rows', async () => {
    const found = await readInternalCalls(
      node({ mh_prev0: CRASHED, mh_prev1: { ran: true, events: [spent] }, mh_prev2: PRUNED }),
      txs,
    );
    expect(found.calls.map((c) => [c.microIndex, c.function])).to.deep.equal([[1, 'Chain.spend']]);
    expect(found.gaps).to.deep.equal([
      { height: 10, microIndex: 0, txIndex: 0, reason: GAP.crashed },
      { height: 10, microIndex: 2, txIndex: 0, reason: GAP.pruned },
    ]);
  });

  it('stores a call whose replay every node gave up at its time limit as a gap of that reason, not as none', async () => {
    const found = await readInternalCalls(
      node({
        mh_prev0: { ran: true, events: [spent] },
        mh_prev1: OVER_TIME_LIMIT,
        mh_prev2: { ran: true, events: [] },
      }),
      txs,
    );
    expect(found.calls.map((c) => [c.microIndex, c.function])).to.deep.equal([[0, 'Chain.spend']]);
    expect(found.gaps).to.deep.equal([{ height: 10, microIndex: 1, txIndex: 0, reason: GAP.timeLimit }]);
  });

  it('fails the whole when every node refused a request', async () => {
    const refused = readInternalCalls(node({ mh_prev0: REFUSED, mh_prev1: CRASHED, mh_prev2: CRASHED }), txs);
    expect(await refused.catch((e: unknown) => String(e))).to.match(
      /every node refused the dry-run on top of mh_prev0/,
    );
  });
});
