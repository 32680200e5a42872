/**
 * @module The replays a fetch asks for its call infos (fetch-replays.ts): which calls of a fetched micro block it runs
 * again (those whose code may make internal calls, as the batch would), the call infos their answers hold, and which
 * of the batch's replays an answer stands for (the very same request only).
 */
import { expect } from 'chai';
import { buildTx, encode, Encoding, MemoryAccount, Tag, unpackTx } from '@aeternity/aepp-sdk';
import {
  answeredReplay,
  blockReplays,
  replayedInfos,
  replayKey,
  type FetchReplays,
} from '../../../src/indexer/sync/fetch-replays.ts';
import type { Replay } from '../../../src/indexer/derived/internal-calls.ts';
import type { FetchedReplay, JsonObject } from '../../../src/indexer/rows/rows.ts';

const alice = MemoryAccount.generate().address;
const contract = (byte: number): `ct_${string}` =>
  encode(Buffer.alloc(32, byte), Encoding.ContractAddress) as `ct_${string}`;
const [noisy, quiet, other] = [contract(7), contract(8), contract(9)];

/** a signed transaction as the node lists it: `tx` as JSON, `encoded_tx` its signed bytes (the SDK's builder) */
function signed(tx: `tx_${string}`, n: number): JsonObject {
  const fields = unpackTx(tx) as unknown as { tag: Tag; contractId?: string };
  const type =
    fields.tag === Tag.ContractCallTx ? 'ContractCallTx' : fields.tag === Tag.GaMetaTx ? 'GAMetaTx' : 'SpendTx';
  return {
    hash: `th_${n}`,
    encoded_tx: buildTx({ tag: Tag.SignedTx, encodedTx: tx, signatures: [Buffer.alloc(64)] }),
    tx: { type, gas: 50_000, ...(fields.contractId ? { contract_id: fields.contractId } : {}) },
  };
}
const spend = (nonce: number): `tx_${string}` =>
  buildTx({ tag: Tag.SpendTx, senderId: alice, recipientId: alice, amount: 1, fee: 10n ** 15n, nonce });
const call = (contractId: `ct_${string}`, nonce: number): `tx_${string}` =>
  buildTx({
    tag: Tag.ContractCallTx,
    callerId: alice,
    contractId,
    nonce,
    abiVersion: 3,
    amount: 0,
    gas: 50_000,
    gasPrice: 10n ** 9n,
    fee: 10n ** 15n,
    callData: 'cb_KxFE1kQfP4oEp9E=',
  });
/** the noisy contract's code may make internal calls, the quiet one's cannot; any other's is not at hand */
const replays: FetchReplays = {
  mayCall: (tx) => (tx.contract_id === noisy ? true : tx.contract_id === quiet ? false : undefined),
};
const place = { height: 5, microIndex: 2, prevHash: 'mh_prev' };

describe('fetch-replays: the replays a fetch asks for its call infos', () => {
  it('runs again each call whose code may make internal calls, the block up to it, as the batch plans it', () => {
    const txs = [spend(1), call(quiet, 2), call(noisy, 3), call(noisy, 4), spend(5)];
    const planned = blockReplays(
      place,
      txs.map((t, i) => signed(t, i)),
      replays,
    );
    expect(planned.map((r) => r.call)).to.deep.equal([
      { height: 5, microIndex: 2, txIndex: 2 },
      { height: 5, microIndex: 2, txIndex: 3 },
    ]);
    expect(planned[1]!.top).to.equal('mh_prev');
    // each request carries the unsigned transactions, in order
    expect(planned[1]!.txs).to.deep.equal(txs.slice(0, 4));
  });

  it('asks none for a block of one contract transaction whose code is quiet or not at hand', () => {
    for (const c of [quiet, other])
      expect(blockReplays(place, [spend(1), call(c, 2), spend(3)].map(signed), replays)).to.deep.equal([]);
  });

  it('asks one more up to the last of two or more contract transactions no other replay runs: one for their infos', () => {
    // after the noisy call: two calls, quiet and unknown, whose infos one request holds
    const txs = [call(noisy, 1), spend(2), call(quiet, 3), call(other, 4), spend(5)];
    const planned = blockReplays(place, txs.map(signed), replays);
    expect(planned.map((r) => r.call.txIndex)).to.deep.equal([0, 3]);
    expect(planned[1]!.txs).to.deep.equal(txs.slice(0, 4));
    // a block of quiet calls alone: the one up to the last
    expect(
      blockReplays(place, [call(quiet, 1), call(quiet, 2)].map(signed), replays).map((r) => r.call.txIndex),
    ).to.deep.equal([1]);
    // one contract transaction after the last noisy call: its own info is one request either way
    expect(
      blockReplays(place, [call(noisy, 1), call(quiet, 2)].map(signed), replays).map((r) => r.call.txIndex),
    ).to.deep.equal([0]);
  });

  it('asks none past a transaction without its bytes (planReplays: unencoded)', () => {
    const txs = [spend(1), call(noisy, 2)].map(signed);
    delete (txs[0] as { encoded_tx?: string }).encoded_tx;
    expect(blockReplays(place, txs, replays)).to.deep.equal([]);
    // nor with an encoded_tx that is no signed transaction: the fetch asks the infos, the batch plans its replays
    const garbled = [spend(1), call(noisy, 2)].map(signed);
    (garbled[0] as { encoded_tx: string }).encoded_tx = `tx_${Buffer.alloc(12, 1).toString('base64')}`;
    expect(blockReplays(place, garbled, replays)).to.deep.equal([]);
  });

  it('takes the call info of every contract transaction an answer ran, and of no other', () => {
    const txs = [spend(1), call(quiet, 2), call(noisy, 3)].map((t, i) => signed(t, i));
    const info = (n: number): JsonObject => ({ return_type: 'ok', gas_used: n });
    const infos = replayedInfos(txs, [
      { ran: true, events: [], callObjects: [undefined, info(1), info(2)] },
      // an answer that ran only the first two: the quiet call's info again
      { ran: true, events: [], callObjects: [undefined, info(1)] },
    ]);
    expect([...infos]).to.deep.equal([
      ['th_1', info(1)],
      ['th_2', info(2)],
    ]);
  });

  it("stands an answer for the batch's replay only where the request is the very same", () => {
    const txs = [spend(1), call(noisy, 2)];
    const outcome = { ran: true, events: [] };
    const fetched: FetchedReplay = { top: 'mh_prev', txs, outcome };
    const held = new Map([[5, new Map([[replayKey(2, 1), fetched]])]]);
    const replay = (r: Partial<Replay>): Replay => ({
      call: { height: 5, microIndex: 2, txIndex: 1 },
      top: 'mh_prev',
      txs,
      ...r,
    });
    expect(answeredReplay(held, replay({}))).to.equal(outcome);
    expect(answeredReplay(held, replay({ txs: [...txs] })), 'equal transactions').to.equal(outcome);
    expect(answeredReplay(held, replay({ top: 'mh_other' }))).to.equal(undefined);
    expect(answeredReplay(held, replay({ txs: [txs[1]!] }))).to.equal(undefined);
    expect(answeredReplay(held, replay({ txs: [spend(9), txs[1]!] }))).to.equal(undefined);
    expect(answeredReplay(held, replay({ call: { height: 5, microIndex: 2, txIndex: 0 } }))).to.equal(undefined);
    expect(answeredReplay(held, replay({ call: { height: 6, microIndex: 2, txIndex: 1 } }))).to.equal(undefined);
  });
});
