/** @module Transaction serialisation checked against @aeternity/aepp-sdk (an independent implementation). */
import { expect } from 'chai';
import {
  MemoryAccount,
  Tag,
  buildTx,
  buildTxHash,
  unpackTx,
  decode as sdkDecode,
  encode as sdkEncode,
  Encoding,
} from '@aeternity/aepp-sdk';
import { encode } from '../../src/chain/encoding.ts';
import { decodeSignedTx, decodeTx, encodeTx, txHash, TxCodecError } from '../../src/devnode/tx-codec.ts';
import { RlpError, rlpDecode, rlpEncode, intToBytes } from '../../src/chain/rlp.ts';
import { DEVNODE_CONTRACT_BYTECODE, contractCallData } from '../../src/devnode/contracts/fate-contract.ts';

const a = MemoryAccount.generate();
const b = MemoryAccount.generate();
const FEE = 10n ** 15n;
const BIG = 123456789012345678901234n;
const okId = a.address.replace('ak_', 'ok_') as `ok_${string}`;
const stateHash = sdkEncode(Buffer.alloc(32, 7), Encoding.State);

/** One sdk build parameter set per type the devnode supports. */
const CASES: Record<string, Record<string, unknown>> = {
  SpendTx: {
    tag: Tag.SpendTx,
    senderId: a.address,
    recipientId: b.address,
    amount: BIG,
    fee: FEE,
    nonce: 3,
    ttl: 500,
    payload: encode('ba', Buffer.from('hi')),
  },
  OracleRegisterTx: {
    tag: Tag.OracleRegisterTx,
    accountId: a.address,
    nonce: 1,
    queryFormat: 'q?',
    responseFormat: 'r!',
    queryFee: BIG,
    oracleTtlType: 0,
    oracleTtlValue: 500,
    fee: FEE,
    abiVersion: 0,
  },
  OracleExtendTx: {
    tag: Tag.OracleExtendTx,
    oracleId: okId,
    nonce: 2,
    oracleTtlType: 0,
    oracleTtlValue: 100,
    fee: FEE,
  },
  OracleQueryTx: {
    tag: Tag.OracleQueryTx,
    senderId: b.address,
    nonce: 1,
    oracleId: okId,
    query: 'what?',
    queryFee: 30n,
    queryTtlType: 1,
    queryTtlValue: 900,
    responseTtlType: 0,
    responseTtlValue: 20,
    fee: FEE,
  },
  OracleRespondTx: {
    tag: Tag.OracleRespondTx,
    oracleId: okId,
    nonce: 3,
    queryId: encode('oq', Buffer.alloc(32, 1)),
    response: 'yes',
    responseTtlType: 0,
    responseTtlValue: 20,
    fee: FEE,
  },
  NamePreclaimTx: {
    tag: Tag.NamePreclaimTx,
    accountId: a.address,
    nonce: 1,
    commitmentId: encode('cm', Buffer.alloc(32, 2)),
    fee: FEE,
  },
  NameClaimTx: {
    tag: Tag.NameClaimTx,
    accountId: a.address,
    nonce: 2,
    name: 'devnodetest.chain',
    nameSalt: 2n ** 200n + 5n,
    nameFee: 10n ** 20n,
    fee: FEE,
  },
  NameUpdateTx: {
    tag: Tag.NameUpdateTx,
    version: 1,
    accountId: a.address,
    nonce: 3,
    nameId: encode('nm', Buffer.alloc(32, 3)),
    nameTtl: 40000,
    pointers: [
      { key: 'account_pubkey', id: b.address },
      { key: 'oracle_pubkey', id: okId },
    ],
    clientTtl: 60,
    fee: FEE,
  },
  NameTransferTx: {
    tag: Tag.NameTransferTx,
    accountId: a.address,
    nonce: 4,
    nameId: encode('nm', Buffer.alloc(32, 3)),
    recipientId: b.address,
    fee: FEE,
  },
  NameRevokeTx: {
    tag: Tag.NameRevokeTx,
    accountId: a.address,
    nonce: 5,
    nameId: encode('nm', Buffer.alloc(32, 3)),
    fee: FEE,
  },
  ContractCreateTx: {
    tag: Tag.ContractCreateTx,
    ownerId: a.address,
    nonce: 6,
    code: DEVNODE_CONTRACT_BYTECODE,
    ctVersion: { vmVersion: 7, abiVersion: 3 },
    fee: FEE,
    deposit: 0,
    amount: BIG,
    gasLimit: 10000,
    gasPrice: 1000000000n,
    callData: contractCallData('init', []),
  },
  ContractCallTx: {
    tag: Tag.ContractCallTx,
    callerId: b.address,
    nonce: 2,
    contractId: encode('ct', Buffer.alloc(32, 4)),
    abiVersion: 3,
    fee: FEE,
    amount: 5n,
    gasLimit: 5000,
    gasPrice: 1000000000n,
    callData: contractCallData('set', [BIG]),
  },
  ChannelCreateTx: {
    tag: Tag.ChannelCreateTx,
    initiator: a.address,
    initiatorAmount: 1000n,
    responder: b.address,
    responderAmount: 2000n,
    channelReserve: 100n,
    lockPeriod: 10,
    fee: FEE,
    initiatorDelegateIds: [],
    responderDelegateIds: [],
    stateHash,
    nonce: 7,
  },
  ChannelCloseMutualTx: {
    tag: Tag.ChannelCloseMutualTx,
    channelId: encode('ch', Buffer.alloc(32, 5)),
    fromId: a.address,
    initiatorAmountFinal: 900n,
    responderAmountFinal: 2000n,
    fee: FEE,
    nonce: 8,
  },
};

describe('devnode transaction codec', () => {
  for (const [type, params] of Object.entries(CASES)) {
    it(`decodes and re-encodes a ${type} built by the sdk byte for byte`, () => {
      const sdkTx = buildTx(params as Parameters<typeof buildTx>[0]);
      const fields = decodeTx(sdkDecode(sdkTx));
      expect(fields.type).to.equal(type);
      expect(encode('tx', encodeTx(fields))).to.equal(sdkTx);
    });
  }

  it('shows integers beyond 2^53 as exact bigints and omits ttl 0', () => {
    const fields = decodeTx(sdkDecode(buildTx(CASES.OracleRegisterTx as Parameters<typeof buildTx>[0])));
    expect(fields.query_fee).to.equal(BIG);
    expect(fields).not.to.have.property('ttl');
    expect(fields.oracle_ttl).to.deep.equal({ type: 'delta', value: 500 });
  });

  it('shows a name update as the node does (pointers with their encoded_key, relative name_ttl)', () => {
    const fields = decodeTx(sdkDecode(buildTx(CASES.NameUpdateTx as Parameters<typeof buildTx>[0])));
    // the encoded keys as a real node 7.2.2 printed them (test/fixtures/real-node, a NameUpdateTx's pointers)
    expect(fields.pointers).to.deep.equal([
      { encoded_key: 'ba_YWNjb3VudF9wdWJrZXn8jckR', key: 'account_pubkey', id: b.address },
      { encoded_key: 'ba_b3JhY2xlX3B1YmtleV2vKNs=', key: 'oracle_pubkey', id: okId },
    ]);
    expect(fields.name_ttl).to.equal(40000);
  });

  it('gives contract create vm and abi versions from ct_version', () => {
    const fields = decodeTx(sdkDecode(buildTx(CASES.ContractCreateTx as Parameters<typeof buildTx>[0])));
    expect([fields.vm_version, fields.abi_version]).to.deep.equal([7, 3]);
  });

  it('unwraps a signed transaction and hashes it as the sdk does', async () => {
    const signed = await a.signTransaction(buildTx(CASES.SpendTx as Parameters<typeof buildTx>[0]), {
      networkId: 'ae_devnet',
    });
    const bytes = sdkDecode(signed);
    const { signatures, txBytes } = decodeSignedTx(bytes);
    expect(signatures).to.have.length(1);
    expect(decodeTx(txBytes).type).to.equal('SpendTx');
    expect(txHash(bytes)).to.equal(buildTxHash(signed));
  });

  it('produces transactions the sdk can unpack', () => {
    const tx = encode(
      'tx',
      encodeTx({
        type: 'SpendTx',
        version: 1,
        sender_id: a.address,
        recipient_id: b.address,
        amount: BIG,
        fee: 1,
        nonce: 1,
        payload: encode('ba', new Uint8Array(0)),
      }),
    ) as `tx_${string}`;
    const unpacked = unpackTx(tx, Tag.SpendTx) as unknown as { amount: string; fee: string };
    expect(unpacked.amount).to.equal(BIG.toString());
    expect(unpacked.fee).to.equal('1');
  });

  it('rejects garbage with codec errors, not crashes', () => {
    expect(() => decodeTx(Uint8Array.of(1, 2, 3))).to.throw(RlpError);
    expect(() => decodeTx(rlpEncode([intToBytes(99), intToBytes(1)]))).to.throw(TxCodecError, /unsupported/);
    expect(() => decodeSignedTx(rlpEncode([intToBytes(12)]))).to.throw(TxCodecError);
    expect(() => rlpDecode(Uint8Array.of(0x83, 1))).to.throw(RlpError);
  });
});
