/**
 * @module ChannelSetDelegatesTx (since Iris) and HCVoteTx (node 7.3) against the node's serialisation templates
 * (aesc_set_delegates_tx.erl, aec_hc_vote_tx.erl), built here with the `rlp` package and the sdk's id encoding as
 * independent oracles: the sdk has no builder for either (issue 39).
 */
import { expect } from 'chai';
import { encode as rlpEncode } from 'rlp';
import { buildTxHash, decode as sdkDecode, encode as sdkEncode, Encoding, MemoryAccount } from '@aeternity/aepp-sdk';
import { parseJson, stringifyJson, type Json } from '../../../src/chain/json.ts';
import { decodeTx } from '../../../src/chain/tx-parse.ts';
import { encodeSignedTx, encodeTx, signedTxLength, txHash, TxCodecError } from '../../../src/chain/tx-serialize.ts';
import { isBinary, renderStoredTx, storedTxColumns } from '../../../src/chain/stored-tx.ts';

type JsonObject = { [key: string]: Json };

const a = MemoryAccount.generate();
const b = MemoryAccount.generate();
const c = MemoryAccount.generate();
const ch = sdkEncode(Buffer.alloc(32, 5), Encoding.Channel);
const st = sdkEncode(Buffer.alloc(32, 7), Encoding.State);
const payload = sdkEncode(Buffer.from('off-chain state'), Encoding.Transaction);
const SIG = Buffer.alloc(64, 9);

/** id is the node's binary id: its tag (account 1, channel 6), then its 32 bytes. */
const id = (tag: number, text: string): Buffer =>
  Buffer.concat([Buffer.of(tag), Buffer.from(sdkDecode(text as never))]);

const delegates: JsonObject = {
  type: 'ChannelSetDelegatesTx',
  version: 1,
  channel_id: ch,
  from_id: a.address,
  initiator_delegate_ids: [b.address, c.address],
  responder_delegate_ids: [],
  payload,
  state_hash: st,
  round: 4,
  ttl: 100,
  fee: 10n ** 18n + 1n,
  nonce: 3,
};
const delegatesRlp = (): Uint8Array =>
  rlpEncode([
    501,
    1,
    id(6, ch),
    id(1, a.address),
    [id(1, b.address), id(1, c.address)],
    [],
    sdkDecode(payload),
    sdkDecode(st),
    4,
    100,
    10n ** 18n + 1n,
    3,
  ]);

const vote: JsonObject = {
  type: 'HCVoteTx',
  version: 1,
  voter_id: a.address,
  epoch: 12,
  data: { key2: 'value2', key1: 'value1' },
};
const voteRlp = (): Uint8Array =>
  rlpEncode([
    83,
    1,
    id(1, a.address),
    12,
    4,
    [
      [Buffer.from('key1'), Buffer.from('value1')],
      [Buffer.from('key2'), Buffer.from('value2')],
    ],
  ]);

describe('ChannelSetDelegatesTx and HCVoteTx (chain/tx-serialize, tx-parse, stored-tx)', () => {
  it('serialises a ChannelSetDelegatesTx as the node’s template, parses it back and stores it in binary form', () => {
    const bytes = encodeTx(delegates);
    expect(Buffer.from(bytes)).to.deep.equal(Buffer.from(delegatesRlp()));
    expect(decodeTx(bytes)).to.deep.equal(delegates);
    const signed = encodeSignedTx([SIG], bytes);
    expect(txHash(signed)).to.equal(buildTxHash(sdkEncode(signed, Encoding.Transaction)));
    const json = { tx: delegates, signatures: [sdkEncode(SIG, Encoding.Signature)] };
    expect(signedTxLength(json)).to.equal(signed.length);
    const stored = storedTxColumns(parseJson(stringifyJson(json)) as JsonObject);
    expect(isBinary(stored.signed)).to.equal(true);
    expect(Buffer.from(stored.signed)).to.deep.equal(Buffer.from(signed));
    expect(renderStoredTx(stored.signed).tx).to.deep.equal(delegates);
  });

  it('parses an HCVoteTx as the node prints it (no vote type: the JSON’s `type` overwrites it), data in key order', () => {
    const parsed = decodeTx(voteRlp());
    expect(parsed).to.deep.equal(vote);
    expect(Object.keys(parsed.data as JsonObject)).to.deep.equal(['key1', 'key2']);
  });

  it('serialises an HCVoteTx from a builder that names its vote type, and refuses the node’s JSON, which cannot', () => {
    expect(Buffer.from(encodeTx({ ...vote, vote_type: 4 }))).to.deep.equal(Buffer.from(voteRlp()));
    expect(() => encodeTx(vote)).to.throw(TxCodecError, /vote_type/);
  });

  it('measures an HCVoteTx the node printed (no vote type) as its bytes, for each vote type the node casts', () => {
    const json = { tx: vote, signatures: [sdkEncode(SIG, Encoding.Signature)] };
    // the node's fork (2) and length (5) votes, and the bounds of a one-byte RLP integer
    for (const voteType of [0, 2, 5, 127])
      expect(signedTxLength(json), `vote type ${voteType}`).to.equal(
        encodeSignedTx([SIG], encodeTx({ ...vote, vote_type: voteType })).length,
      );
  });

  it('stores an HCVoteTx the node printed as its JSON, or as the bytes of the encoded_tx it sent', () => {
    const json = { tx: vote, signatures: [sdkEncode(SIG, Encoding.Signature)] };
    const asJson = storedTxColumns(parseJson(stringifyJson(json)) as JsonObject);
    expect(isBinary(asJson.signed)).to.equal(false);
    expect(renderStoredTx(asJson.signed).tx).to.deep.equal(vote);
    const signed = encodeSignedTx([SIG], voteRlp());
    const encoded = storedTxColumns({ ...json, encoded_tx: sdkEncode(signed, Encoding.Transaction) });
    expect(Buffer.from(encoded.signed)).to.deep.equal(Buffer.from(signed));
    expect(renderStoredTx(encoded.signed).tx).to.deep.equal(vote);
  });

  it('keeps a data key named __proto__ as data', () => {
    const bytes = rlpEncode([83, 1, id(1, a.address), 1, 0, [[Buffer.from('__proto__'), Buffer.from('x')]]]);
    const data = decodeTx(bytes).data as JsonObject;
    expect(Object.getPrototypeOf(data)).to.equal(Object.prototype);
    expect(Object.keys(data)).to.deep.equal(['__proto__']);
  });
});
