/**
 * @module The devnode's packed store of sealed transactions reads an info back as it was sealed, though the packing
 * refers to the transaction's fields (tx-store.ts's infoContext): the fields a caller seals with may differ in form
 * from those read from the signed bytes (a builder's key order, a number where the codec gives a bigint), and the
 * references must follow the bytes, not the caller's object.
 */
import { expect } from 'chai';
import { MemoryAccount, Encoding, encode as sdkEncode } from '@aeternity/aepp-sdk';
import type { Json } from '../../src/chain/json.ts';
import { generateChain } from '../../src/devnode/index.ts';
import { TxStore, type SealedBlock, type TxRecord } from '../../src/devnode/store/tx-store.ts';
import type { TxFields } from '../../src/devnode/tx-codec.ts';

/** the same fields in another form: keys reversed, integers as the other of number and bigint */
function otherForm(tx: TxFields): TxFields {
  const flip = (v: Json): Json => (typeof v === 'number' ? BigInt(v) : typeof v === 'bigint' ? Number(v) : v);
  return Object.fromEntries(
    Object.entries(tx)
      .toReversed()
      .map(([k, v]) => [k, flip(v)]),
  ) as TxFields;
}

describe('devnode: the packed store of sealed transactions', () => {
  const { chain } = generateChain({ generations: 20, seed: 'tx-store' });
  const calls = [...chain.txs.values()].filter((r) => r.tx.type === 'ContractCallTx');

  it("reads back each info as sealed, its references resolved against the signed bytes, not the caller's fields", () => {
    expect(calls.length).to.be.greaterThan(10);
    const store = new TxStore();
    const other = MemoryAccount.generate().address;
    const sealed = calls.map((r, i) => {
      const block: SealedBlock = { hash: `mh_${i}`, height: 1_000 + i };
      const info: Json = {
        caller_id: r.tx.caller_id!,
        // the nonce twice: as the codec reads it, and as the other type (written out, its type kept)
        caller_nonce: r.tx.nonce!,
        nonce_other: typeof r.tx.nonce === 'bigint' ? Number(r.tx.nonce) : BigInt(r.tx.nonce as number),
        height: block.height,
        contract_id: r.tx.contract_id!,
        gas_price: r.tx.gas_price!,
        log: [
          {
            address: r.tx.contract_id!,
            topics: [2n ** 255n + BigInt(i)],
            data: sdkEncode(Buffer.from([i]), Encoding.ContractBytearray),
          },
          { address: other, topics: [], data: r.tx.call_data! },
        ],
        return_type: 'ok',
      };
      const record: TxRecord = {
        hash: r.hash,
        hashBytes: r.hashBytes,
        signedBytes: r.signedBytes,
        tx: otherForm(r.tx),
        blockHash: undefined,
        blockHeight: -1,
        callInfo: info as { [k: string]: Json },
      };
      store.append(record, block);
      return info;
    });
    sealed.forEach((info, i) => {
      const read = store.record(i);
      expect(read.callInfo, `call ${i}`).to.deep.equal(info);
      expect(read.tx, 'the fields are read from the bytes').to.deep.equal(calls[i]!.tx);
    });
  });
});
