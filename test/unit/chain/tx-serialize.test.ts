/**
 * @module The shared tx serialiser, signedTxSize and the stored form rendered back (chain/stored-tx.ts), checked against
 * @aeternity/aepp-sdk, the devnode's JSON and real mainnet transactions.
 */
import { expect } from 'chai';
import {
  EntryTag,
  MemoryAccount,
  Tag,
  buildTx,
  buildTxHash,
  decode as sdkDecode,
  encode as sdkEncode,
  Encoding,
  packEntry,
} from '@aeternity/aepp-sdk';
import { encode } from '../../../src/chain/encoding.ts';
import { parseJson, stringifyJson, type Json } from '../../../src/chain/json.ts';
import { encodeTx, signedTxBytes, txHash, txLength, TxCodecError } from '../../../src/chain/tx-serialize.ts';
import { onSizeFallback, signedTxSize, sizeFallbackCounts } from '../../../src/chain/tx-size.ts';
import { DEVNODE_CONTRACT_BYTECODE, contractCallData } from '../../../src/devnode/contracts/fate-contract.ts';
import { encodedStoredTx, isBinary, renderStoredTx, storedTxColumns } from '../../../src/chain/stored-tx.ts';
import { generateChain } from '../../../src/devnode/index.ts';
import { txJson } from '../../../src/devnode/api/views.ts';

type JsonObject = { [key: string]: Json };
type SdkParams = Parameters<typeof buildTx>[0];

const a = MemoryAccount.generate();
const b = MemoryAccount.generate();
const ok = a.address.replace('ak_', 'ok_') as `ok_${string}`;
const nm = encode('nm', Buffer.alloc(32, 3)) as `nm_${string}`;
const ct = encode('ct', Buffer.alloc(32, 4)) as `ct_${string}`;
const ch = encode('ch', Buffer.alloc(32, 5)) as `ch_${string}`;
const st = sdkEncode(Buffer.alloc(32, 7), Encoding.State);
const BIG = 123456789012345678901234n;
/** an empty proof of inclusion, as the sdk packs it (the sdk unpacks poi fields to price them) */
const poi = packEntry({
  tag: EntryTag.TreesPoi,
  accounts: [],
  calls: [],
  channels: [],
  contracts: [],
  ns: [],
  oracles: [],
} as Parameters<typeof packEntry>[0]);
const SIG_A = Buffer.alloc(64, 0xa1);
const SIG_B = Buffer.alloc(64, 0x0b);
const sg = (bytes: Uint8Array): string => encode('sg', bytes);
const callData = contractCallData('set', [BIG]);
const innerSpend = {
  json: {
    type: 'SpendTx',
    version: 1,
    sender_id: b.address,
    recipient_id: a.address,
    amount: 77,
    fee: 10n ** 15n + 9n,
    nonce: 41,
    payload: encode('ba', Buffer.from('inner')),
  },
  sdk: {
    tag: Tag.SpendTx,
    senderId: b.address,
    recipientId: a.address,
    amount: 77,
    fee: 10n ** 15n + 9n,
    nonce: 41,
    payload: encode('ba', Buffer.from('inner')),
  },
};
const sdkSigned = (params: SdkParams, sigs: Uint8Array[]): `tx_${string}` =>
  buildTx({ tag: Tag.SignedTx, encodedTx: buildTx(params), signatures: sigs } as SdkParams);

/**
 * The same transaction twice: as the node prints it (JSON, written by hand) and as sdk build
 * parameters, with a distinct value in every integer field so that a swapped field order shows.
 */
const CASES: Record<string, { json: JsonObject; sdk: Record<string, unknown> }> = {
  SpendTx: {
    json: {
      type: 'SpendTx',
      version: 1,
      sender_id: a.address,
      recipient_id: nm,
      amount: BIG,
      fee: 10n ** 15n,
      ttl: 500,
      nonce: 3,
      payload: encode('ba', Buffer.from('hi')),
    },
    sdk: {
      tag: Tag.SpendTx,
      senderId: a.address,
      recipientId: nm,
      amount: BIG,
      fee: 10n ** 15n,
      ttl: 500,
      nonce: 3,
      payload: encode('ba', Buffer.from('hi')),
    },
  },
  'SpendTx (node < 3.0 raw payload)': {
    json: {
      type: 'SpendTx',
      version: 1,
      sender_id: a.address,
      recipient_id: b.address,
      amount: 5,
      fee: 10n ** 15n + 23n,
      nonce: 1,
      payload: 'Hans donates',
    },
    sdk: {
      tag: Tag.SpendTx,
      senderId: a.address,
      recipientId: b.address,
      amount: 5,
      fee: 10n ** 15n + 23n,
      nonce: 1,
      payload: encode('ba', Buffer.from('Hans donates')),
    },
  },
  OracleRegisterTx: {
    json: {
      type: 'OracleRegisterTx',
      version: 1,
      account_id: a.address,
      nonce: 1,
      query_format: 'q?',
      response_format: 'r!',
      query_fee: BIG,
      oracle_ttl: { type: 'block', value: 5000 },
      fee: 10n ** 15n,
      ttl: 300,
      abi_version: 3,
    },
    sdk: {
      tag: Tag.OracleRegisterTx,
      accountId: a.address,
      nonce: 1,
      queryFormat: 'q?',
      responseFormat: 'r!',
      queryFee: BIG,
      oracleTtlType: 1,
      oracleTtlValue: 5000,
      fee: 10n ** 15n,
      ttl: 300,
      abiVersion: 3,
    },
  },
  OracleExtendTx: {
    json: {
      type: 'OracleExtendTx',
      version: 1,
      oracle_id: ok,
      nonce: 2,
      oracle_ttl: { type: 'delta', value: 100 },
      fee: 10n ** 15n + 1n,
      ttl: 9,
    },
    sdk: {
      tag: Tag.OracleExtendTx,
      oracleId: ok,
      nonce: 2,
      oracleTtlType: 0,
      oracleTtlValue: 100,
      fee: 10n ** 15n + 1n,
      ttl: 9,
    },
  },
  OracleQueryTx: {
    json: {
      type: 'OracleQueryTx',
      version: 1,
      sender_id: b.address,
      nonce: 4,
      oracle_id: ok,
      query: 'what?',
      query_fee: 30,
      query_ttl: { type: 'block', value: 900 },
      response_ttl: { type: 'delta', value: 20 },
      fee: 10n ** 15n + 2n,
      ttl: 11,
    },
    sdk: {
      tag: Tag.OracleQueryTx,
      senderId: b.address,
      nonce: 4,
      oracleId: ok,
      query: 'what?',
      queryFee: 30,
      queryTtlType: 1,
      queryTtlValue: 900,
      responseTtlType: 0,
      responseTtlValue: 20,
      fee: 10n ** 15n + 2n,
      ttl: 11,
    },
  },
  OracleRespondTx: {
    json: {
      type: 'OracleRespondTx',
      version: 1,
      oracle_id: ok,
      nonce: 5,
      query_id: encode('oq', Buffer.alloc(32, 1)),
      response: 'yes',
      response_ttl: { type: 'delta', value: 21 },
      fee: 10n ** 15n + 3n,
      ttl: 12,
    },
    sdk: {
      tag: Tag.OracleRespondTx,
      oracleId: ok,
      nonce: 5,
      queryId: encode('oq', Buffer.alloc(32, 1)),
      response: 'yes',
      responseTtlType: 0,
      responseTtlValue: 21,
      fee: 10n ** 15n + 3n,
      ttl: 12,
    },
  },
  NamePreclaimTx: {
    json: {
      type: 'NamePreclaimTx',
      version: 1,
      account_id: a.address,
      nonce: 6,
      commitment_id: encode('cm', Buffer.alloc(32, 2)),
      fee: 10n ** 15n + 4n,
      ttl: 13,
    },
    sdk: {
      tag: Tag.NamePreclaimTx,
      accountId: a.address,
      nonce: 6,
      commitmentId: encode('cm', Buffer.alloc(32, 2)),
      fee: 10n ** 15n + 4n,
      ttl: 13,
    },
  },
  NameClaimTx: {
    json: {
      type: 'NameClaimTx',
      version: 2,
      account_id: a.address,
      nonce: 7,
      name: 'devnodetest.chain',
      name_salt: 2n ** 200n + 5n,
      name_fee: 10n ** 20n,
      fee: 10n ** 15n + 5n,
      ttl: 14,
    },
    sdk: {
      tag: Tag.NameClaimTx,
      accountId: a.address,
      nonce: 7,
      name: 'devnodetest.chain',
      nameSalt: 2n ** 200n + 5n,
      nameFee: 10n ** 20n,
      fee: 10n ** 15n + 5n,
      ttl: 14,
    },
  },
  NameUpdateTx: {
    json: {
      type: 'NameUpdateTx',
      version: 1,
      account_id: a.address,
      nonce: 8,
      name_id: nm,
      name_ttl: 40000,
      // as a node 7.x prints them: the key's bytes as `encoded_key` too (the values a real 7.2.2 printed)
      pointers: [
        { encoded_key: 'ba_YWNjb3VudF9wdWJrZXn8jckR', key: 'account_pubkey', id: b.address },
        { encoded_key: 'ba_b3JhY2xlX3B1YmtleV2vKNs=', key: 'oracle_pubkey', id: ok },
      ],
      client_ttl: 60,
      fee: 10n ** 15n + 6n,
      ttl: 15,
    },
    sdk: {
      tag: Tag.NameUpdateTx,
      version: 1,
      accountId: a.address,
      nonce: 8,
      nameId: nm,
      nameTtl: 40000,
      pointers: [
        { key: 'account_pubkey', id: b.address },
        { key: 'oracle_pubkey', id: ok },
      ],
      clientTtl: 60,
      fee: 10n ** 15n + 6n,
      ttl: 15,
    },
  },
  'NameUpdateTx (node < 7: pointers without encoded_key)': {
    json: {
      type: 'NameUpdateTx',
      version: 1,
      account_id: a.address,
      nonce: 8,
      name_id: nm,
      name_ttl: 40000,
      pointers: [
        { key: 'account_pubkey', id: b.address },
        { key: 'oracle_pubkey', id: ok },
      ],
      client_ttl: 60,
      fee: 10n ** 15n + 6n,
      ttl: 15,
    },
    sdk: {
      tag: Tag.NameUpdateTx,
      version: 1,
      accountId: a.address,
      nonce: 8,
      nameId: nm,
      nameTtl: 40000,
      pointers: [
        { key: 'account_pubkey', id: b.address },
        { key: 'oracle_pubkey', id: ok },
      ],
      clientTtl: 60,
      fee: 10n ** 15n + 6n,
      ttl: 15,
    },
  },
  NameTransferTx: {
    json: {
      type: 'NameTransferTx',
      version: 1,
      account_id: a.address,
      nonce: 9,
      name_id: nm,
      recipient_id: b.address,
      fee: 10n ** 15n + 7n,
      ttl: 16,
    },
    sdk: {
      tag: Tag.NameTransferTx,
      accountId: a.address,
      nonce: 9,
      nameId: nm,
      recipientId: b.address,
      fee: 10n ** 15n + 7n,
      ttl: 16,
    },
  },
  NameRevokeTx: {
    json: {
      type: 'NameRevokeTx',
      version: 1,
      account_id: a.address,
      nonce: 10,
      name_id: nm,
      fee: 10n ** 15n + 8n,
      ttl: 17,
    },
    sdk: { tag: Tag.NameRevokeTx, accountId: a.address, nonce: 10, nameId: nm, fee: 10n ** 15n + 8n, ttl: 17 },
  },
  ContractCreateTx: {
    json: {
      type: 'ContractCreateTx',
      version: 1,
      owner_id: a.address,
      nonce: 11,
      code: DEVNODE_CONTRACT_BYTECODE,
      vm_version: 7,
      abi_version: 3,
      fee: 10n ** 15n + 10n,
      ttl: 18,
      deposit: 0,
      amount: BIG,
      gas: 10000,
      gas_price: 1000000001,
      call_data: contractCallData('init', []),
    },
    sdk: {
      tag: Tag.ContractCreateTx,
      ownerId: a.address,
      nonce: 11,
      code: DEVNODE_CONTRACT_BYTECODE,
      ctVersion: { vmVersion: 7, abiVersion: 3 },
      fee: 10n ** 15n + 10n,
      ttl: 18,
      deposit: 0,
      amount: BIG,
      gasLimit: 10000,
      gasPrice: 1000000001n,
      callData: contractCallData('init', []),
    },
  },
  'ContractCreateTx (node < 4.0 hex versions)': {
    json: {
      type: 'ContractCreateTx',
      version: 1,
      owner_id: a.address,
      nonce: 12,
      code: DEVNODE_CONTRACT_BYTECODE,
      vm_version: '0x0004',
      abi_version: '0x0001',
      fee: 10n ** 15n,
      deposit: 0,
      amount: 1,
      gas: 9000,
      gas_price: 1000000000,
      call_data: callData,
    },
    sdk: {
      tag: Tag.ContractCreateTx,
      ownerId: a.address,
      nonce: 12,
      code: DEVNODE_CONTRACT_BYTECODE,
      ctVersion: { vmVersion: 4, abiVersion: 1 },
      fee: 10n ** 15n,
      deposit: 0,
      amount: 1,
      gasLimit: 9000,
      gasPrice: 1000000000n,
      callData,
    },
  },
  ContractCallTx: {
    json: {
      type: 'ContractCallTx',
      version: 1,
      caller_id: b.address,
      nonce: 13,
      contract_id: ct,
      abi_version: 3,
      fee: 10n ** 15n + 11n,
      ttl: 19,
      amount: 5,
      gas: 5000,
      gas_price: 1000000002,
      call_data: callData,
    },
    sdk: {
      tag: Tag.ContractCallTx,
      callerId: b.address,
      nonce: 13,
      contractId: ct,
      abiVersion: 3,
      fee: 10n ** 15n + 11n,
      ttl: 19,
      amount: 5n,
      gasLimit: 5000,
      gasPrice: 1000000002n,
      callData,
    },
  },
  ChannelCreateTx: {
    json: {
      type: 'ChannelCreateTx',
      version: 2,
      initiator_id: a.address,
      initiator_amount: 1000,
      responder_id: b.address,
      responder_amount: 2000,
      channel_reserve: 100,
      lock_period: 10,
      ttl: 20,
      fee: 10n ** 15n + 12n,
      delegate_ids: { initiator: [b.address], responder: [] },
      state_hash: st,
      nonce: 14,
    },
    sdk: {
      tag: Tag.ChannelCreateTx,
      initiator: a.address,
      initiatorAmount: 1000n,
      responder: b.address,
      responderAmount: 2000n,
      channelReserve: 100n,
      lockPeriod: 10,
      ttl: 20,
      fee: 10n ** 15n + 12n,
      initiatorDelegateIds: [b.address],
      responderDelegateIds: [],
      stateHash: st,
      nonce: 14,
    },
  },
  ChannelDepositTx: {
    json: {
      type: 'ChannelDepositTx',
      version: 1,
      channel_id: ch,
      from_id: a.address,
      amount: 300,
      ttl: 21,
      fee: 10n ** 15n + 13n,
      state_hash: st,
      round: 4,
      nonce: 15,
    },
    sdk: {
      tag: Tag.ChannelDepositTx,
      channelId: ch,
      fromId: a.address,
      amount: 300,
      ttl: 21,
      fee: 10n ** 15n + 13n,
      stateHash: st,
      round: 4,
      nonce: 15,
    },
  },
  ChannelWithdrawTx: {
    json: {
      type: 'ChannelWithdrawTx',
      version: 1,
      channel_id: ch,
      to_id: b.address,
      amount: 301,
      ttl: 22,
      fee: 10n ** 15n + 14n,
      state_hash: st,
      round: 5,
      nonce: 16,
    },
    sdk: {
      tag: Tag.ChannelWithdrawTx,
      channelId: ch,
      toId: b.address,
      amount: 301,
      ttl: 22,
      fee: 10n ** 15n + 14n,
      stateHash: st,
      round: 5,
      nonce: 16,
    },
  },
  ChannelCloseMutualTx: {
    json: {
      type: 'ChannelCloseMutualTx',
      version: 1,
      channel_id: ch,
      from_id: a.address,
      initiator_amount_final: 900,
      responder_amount_final: 2000,
      ttl: 23,
      fee: 10n ** 15n + 15n,
      nonce: 17,
    },
    sdk: {
      tag: Tag.ChannelCloseMutualTx,
      channelId: ch,
      fromId: a.address,
      initiatorAmountFinal: 900n,
      responderAmountFinal: 2000n,
      ttl: 23,
      fee: 10n ** 15n + 15n,
      nonce: 17,
    },
  },
  ChannelCloseSoloTx: {
    json: {
      type: 'ChannelCloseSoloTx',
      version: 1,
      channel_id: ch,
      from_id: a.address,
      payload: encode('tx', Buffer.from('offchain')),
      poi,
      ttl: 24,
      fee: 10n ** 15n + 16n,
      nonce: 18,
    },
    sdk: {
      tag: Tag.ChannelCloseSoloTx,
      channelId: ch,
      fromId: a.address,
      payload: encode('tx', Buffer.from('offchain')),
      poi: sdkDecode(poi),
      ttl: 24,
      fee: 10n ** 15n + 16n,
      nonce: 18,
    },
  },
  ChannelSlashTx: {
    json: {
      type: 'ChannelSlashTx',
      version: 1,
      channel_id: ch,
      from_id: b.address,
      payload: encode('tx', Buffer.from('newer')),
      poi,
      ttl: 25,
      fee: 10n ** 15n + 17n,
      nonce: 19,
    },
    sdk: {
      tag: Tag.ChannelSlashTx,
      channelId: ch,
      fromId: b.address,
      payload: encode('tx', Buffer.from('newer')),
      poi: sdkDecode(poi),
      ttl: 25,
      fee: 10n ** 15n + 17n,
      nonce: 19,
    },
  },
  ChannelSettleTx: {
    json: {
      type: 'ChannelSettleTx',
      version: 1,
      channel_id: ch,
      from_id: a.address,
      initiator_amount_final: 901,
      responder_amount_final: 2001,
      ttl: 26,
      fee: 10n ** 15n + 18n,
      nonce: 20,
    },
    sdk: {
      tag: Tag.ChannelSettleTx,
      channelId: ch,
      fromId: a.address,
      initiatorAmountFinal: 901n,
      responderAmountFinal: 2001n,
      ttl: 26,
      fee: 10n ** 15n + 18n,
      nonce: 20,
    },
  },
  ChannelSnapshotSoloTx: {
    json: {
      type: 'ChannelSnapshotSoloTx',
      version: 1,
      channel_id: ch,
      from_id: a.address,
      payload: encode('tx', Buffer.from('snap')),
      ttl: 27,
      fee: 10n ** 15n + 19n,
      nonce: 21,
    },
    sdk: {
      tag: Tag.ChannelSnapshotSoloTx,
      channelId: ch,
      fromId: a.address,
      payload: encode('tx', Buffer.from('snap')),
      ttl: 27,
      fee: 10n ** 15n + 19n,
      nonce: 21,
    },
  },
  GAAttachTx: {
    json: {
      type: 'GAAttachTx',
      version: 1,
      owner_id: a.address,
      nonce: 1,
      code: DEVNODE_CONTRACT_BYTECODE,
      auth_fun: '0x01020304',
      vm_version: 7,
      abi_version: 3,
      fee: 10n ** 15n + 20n,
      ttl: 28,
      gas: 7000,
      gas_price: 1000000003,
      call_data: contractCallData('init', []),
    },
    sdk: {
      tag: Tag.GaAttachTx,
      ownerId: a.address,
      nonce: 1,
      code: DEVNODE_CONTRACT_BYTECODE,
      authFun: Buffer.from([1, 2, 3, 4]),
      ctVersion: { vmVersion: 7, abiVersion: 3 },
      fee: 10n ** 15n + 20n,
      ttl: 28,
      gasLimit: 7000,
      gasPrice: 1000000003n,
      callData: contractCallData('init', []),
    },
  },
  GAMetaTx: {
    json: {
      type: 'GAMetaTx',
      version: 2,
      ga_id: a.address,
      auth_data: callData,
      abi_version: 3,
      fee: 10n ** 15n + 21n,
      gas: 6000,
      gas_price: 1000000004,
      tx: { tx: innerSpend.json, signatures: [] },
    },
    sdk: {
      tag: Tag.GaMetaTx,
      gaId: a.address,
      authData: callData,
      abiVersion: 3,
      fee: 10n ** 15n + 21n,
      gasLimit: 6000,
      gasPrice: 1000000004n,
      tx: sdkSigned(innerSpend.sdk as SdkParams, []),
    },
  },
  PayingForTx: {
    json: {
      type: 'PayingForTx',
      version: 1,
      payer_id: a.address,
      nonce: 23,
      fee: 10n ** 15n + 22n,
      tx: { tx: innerSpend.json, signatures: [sg(SIG_B)] },
    },
    sdk: {
      tag: Tag.PayingForTx,
      payerId: a.address,
      nonce: 23,
      fee: 10n ** 15n + 22n,
      tx: sdkSigned(innerSpend.sdk as SdkParams, [SIG_B]),
    },
  },
};

/**
 * Real mainnet transactions (GET /v2/transactions/{hash} as the node printed them) of eras and
 * layouts the devnode never makes: a pre-Lima NameClaimTx v1, a node < 4.0 ContractCallTx with a hex
 * abi_version, a two-signature ChannelWithdrawTx. Their `hash` is the node's.
 */
const MAINNET = [
  '{"hash":"th_24BwirgsY9d979KZJ5wxaNfah2UCyzhvRYqe9RmNB9FWmoTgdz","signatures":["sg_LdDz6aAr1QWpamG6yxgn9xLco4DnXKxFzFeAbZkjGUQe9N971H7kn9EFF6tXErkbGBCyx2Q8zwMkSZLijMjCdWWuD6LYu"],"tx":{"account_id":"ak_R7cQfVN15F5ek1wBSYaMRjW2XbMRKx7VDQQmbtwxspjZQvmPM","fee":20000,"name":"philipp.test","name_salt":123,"nonce":2,"ttl":1000,"type":"NameClaimTx","version":1}}',
  '{"hash":"th_NVCNN7txvnDJwT9S8Qb13ffX3E6GcfmfBLhXco8AwLLDZgpHm","signatures":["sg_HTFBtCKZoQDmwAYnnJSfe4x2yAeGc67ua6seZ3dKpsFEWLqBhBE9AvTk7wWNdMsa9DDt2FkkvE9qJqqRD6RKjYiBAwqm7"],"tx":{"abi_version":"0x0001","amount":60000000000,"call_data":"cb_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAACCqYUJSKKA5FnT27avn7jtxGKlIFtu3yo/nBRTlecvBaAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAIAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAwP//////////////////////////////////////////ISH55Kvb3fVQMHE6sZ4ggE/hws0iDLouYXBoCtN3D+4AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAN+EdYAKZBmxk=","caller_id":"ak_2vx4yNy2FUi7Fe2ZjKbKvpnabDTJE8RijtfAhQHNjY5zfj1We6","contract_id":"ct_AhMbfHYPBK8Qu1DkqXwQHcMKZoZAUndyYTNZDnyS1AdWh7X9U","fee":458800000000000,"gas":458800,"gas_price":1000000000,"nonce":2,"type":"ContractCallTx","version":1}}',
  '{"hash":"th_meBfq6EWuUXExBRkbi618RVkQ8nFMz7uo26HkxFXwko9NjF9L","signatures":["sg_GnbScdeBzkXhj9DR1GQcb2LFxHmuL1eNYrScRCPVp2XKt26BoinsrAbdMBWZimqrY36sF5PzAiA4Vqfx6yfGtRtMGXPuQ","sg_VoH1jw5de6wtpzdDsZnA1ATgqV22Rkq2YN2SsphiwqCbY9nipjm3CcwkbKWhAkrud6MnY9biJHVDAzu5UjMf8c691fEcA"],"tx":{"amount":10,"channel_id":"ch_22usvXSjYaDPdhecyhub7tZnYpHeCEZdscEEyhb2M4rHb58RyD","fee":17240,"nonce":16,"round":5,"state_hash":"st_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAACr8s/aY","to_id":"ak_ozzwBYeatmuN818LjDDDwRSiBSvrqt4WU7WvbGsZGVre72LTS","type":"ChannelWithdrawTx","version":1}}',
].map((text) => parseJson(text) as JsonObject);

describe('tx serialiser (chain/tx-serialize) and signed tx size', () => {
  for (const [name, { json, sdk }] of Object.entries(CASES)) {
    it(`serialises a ${name} as the sdk does: same size, same th_ hash`, () => {
      const signed = { tx: json, signatures: [sg(SIG_A), sg(SIG_B)] };
      const oracle = sdkSigned(sdk as SdkParams, [SIG_B, SIG_A]);
      const fallbacks = sizeFallbackCounts().get(String(json.type)) ?? 0;
      expect(signedTxSize(signed, stringifyJson(json))).to.equal(sdkDecode(oracle).length);
      expect(sizeFallbackCounts().get(String(json.type)) ?? 0, 'fell back to the JSON length').to.equal(fallbacks);
      expect(encode('tx', signedTxBytes(signed))).to.equal(oracle);
      expect(txHash(signedTxBytes(signed))).to.equal(buildTxHash(oracle));
    });
  }

  it('measures without serialising: every payload length, one-byte payloads by their value, raw text', () => {
    const spend = CASES.SpendTx!.json;
    const payloads = [
      undefined,
      '',
      'plain text of node < 3.0',
      'é',
      'x',
      encode('ba', Uint8Array.of(0x7f)),
      encode('ba', Uint8Array.of(0x80)),
      ...[0, 2, 3, 4, 55, 56, 57, 255, 256, 70_000].map((n) => encode('ba', Buffer.alloc(n, 0xab))),
    ];
    for (const payload of payloads) {
      const tx = { ...spend, payload: payload ?? null };
      if (payload === undefined) delete (tx as { payload?: Json }).payload;
      expect(txLength(tx), String(payload).slice(0, 20)).to.equal(encodeTx(tx).length);
    }
    const call = CASES.ContractCallTx!.json;
    for (const calldata of [
      encode('cb', Uint8Array.of(1)),
      encode('cb', Buffer.alloc(2)),
      encode('cb', Buffer.alloc(100_000, 7)),
    ]) {
      expect(txLength({ ...call, call_data: calldata })).to.equal(encodeTx({ ...call, call_data: calldata }).length);
    }
  });

  it('hashes real mainnet transactions of older eras to the hash the node gave them', () => {
    for (const signed of MAINNET) {
      const bytes = signedTxBytes(signed);
      expect(txHash(bytes), String((signed.tx as JsonObject).type)).to.equal(signed.hash);
      expect(signedTxSize(signed, stringifyJson(signed.tx!))).to.equal(bytes.length);
    }
  });

  it('sizes a signed tx without signatures (an outer GAMetaTx) as the sdk does', () => {
    const { json, sdk } = CASES.GAMetaTx!;
    expect(signedTxSize({ tx: json }, stringifyJson(json))).to.equal(sdkDecode(sdkSigned(sdk as SdkParams, [])).length);
  });

  it('measures by encoded_tx when the node sends it', () => {
    const signed = { tx: CASES.SpendTx!.json, signatures: [], encoded_tx: encode('tx', Buffer.alloc(321)) };
    expect(signedTxSize(signed, '{}')).to.equal(321);
  });

  it('falls back to the JSON length only for a layout it does not know, counting and reporting each type once', () => {
    const heard: string[] = [];
    const quit = onSizeFallback((type) => heard.push(type));
    try {
      const tx = {
        type: 'ChannelForceProgressTx',
        version: 1,
        channel_id: ch,
        from_id: a.address,
        update: { op: 'OffChainNewContract' },
      };
      const before = sizeFallbackCounts().get('ChannelForceProgressTx') ?? 0;
      for (let i = 0; i < 3; i++)
        expect(signedTxSize({ tx, signatures: [] }, stringifyJson(tx))).to.equal(Buffer.byteLength(stringifyJson(tx)));
      expect(sizeFallbackCounts().get('ChannelForceProgressTx')).to.equal(before + 3);
      expect(heard).to.deep.equal(before === 0 ? ['ChannelForceProgressTx'] : []);
    } finally {
      quit();
    }
  });

  it('refuses malformed fields with a TxCodecError', () => {
    expect(() => signedTxBytes({ tx: { ...CASES.SpendTx!.json, amount: -1 } })).to.throw(TxCodecError, /amount/);
    expect(() => signedTxBytes({ tx: { ...CASES.SpendTx!.json, sender_id: 'xx_1' } })).to.throw(
      TxCodecError,
      /sender_id/,
    );
    expect(() => signedTxBytes({ tx: CASES.SpendTx!.json, signatures: 'sg_1' })).to.throw(TxCodecError, /signatures/);
    expect(() => signedTxBytes({ tx: { ...CASES.GAAttachTx!.json, auth_fun: 'zz' } })).to.throw(
      TxCodecError,
      /auth_fun/,
    );
  });
});

describe('stored transactions (chain/stored-tx): the binary form renders as the node prints it', () => {
  // as the populator reads the node's JSON: integers as numbers where they are safe
  const columns = (signed: JsonObject) => storedTxColumns(parseJson(stringifyJson(signed)) as JsonObject);
  const rendersBack = (signed: JsonObject): void => {
    const stored = columns(signed).signed;
    const expected = parseJson(
      stringifyJson({ signatures: Array.isArray(signed.signatures) ? signed.signatures : null, tx: signed.tx }),
    );
    expect(renderStoredTx(stored), String((signed.tx as JsonObject).type)).to.deep.equal(expected);
  };

  for (const [name, { json, sdk }] of Object.entries(CASES)) {
    it(`stores a ${name} as the sdk builds it and renders it digit for digit`, () => {
      // the node keeps (and prints) the signatures sorted by their bytes; a GAMetaTx has none and prints none
      const signed: JsonObject = name === 'GAMetaTx' ? { tx: json } : { tx: json, signatures: [sg(SIG_B), sg(SIG_A)] };
      const stored = columns(signed);
      rendersBack(signed);
      // JSON of older nodes (raw text payload, hex versions) would render differently from its bytes: kept as JSON
      if (name.includes('(node <')) return expect(isBinary(stored.signed)).to.equal(false);
      expect(isBinary(stored.signed)).to.equal(true);
      expect(Buffer.from(stored.signed)).to.deep.equal(
        Buffer.from(sdkDecode(sdkSigned(sdk as SdkParams, name === 'GAMetaTx' ? [] : [SIG_B, SIG_A]))),
      );
      expect(stored.size).to.equal(stored.signed.length);
      expect(encodedStoredTx(stored.signed)).to.equal(
        sdkSigned(sdk as SdkParams, name === 'GAMetaTx' ? [] : [SIG_B, SIG_A]),
      );
    });
  }

  it('extracts the gas, the wrapped type and a channel transaction’s coins', () => {
    const of = (name: string) => columns({ tx: CASES[name]!.json, signatures: [] });
    expect(of('ContractCallTx').gas).to.equal(String(CASES.ContractCallTx!.json.gas));
    expect(of('SpendTx').gas).to.equal(null);
    expect(of('GAMetaTx').innerType).to.equal('SpendTx');
    expect(of('PayingForTx').innerType).to.equal('SpendTx');
    expect(of('SpendTx').innerType).to.equal(null);
    const create = CASES.ChannelCreateTx!.json;
    expect(of('ChannelCreateTx').channelAmount).to.equal(
      String(BigInt(create.initiator_amount as number) + BigInt(create.responder_amount as number)),
    );
    expect(of('ChannelDepositTx').channelAmount).to.equal(String(CASES.ChannelDepositTx!.json.amount));
    expect(of('SpendTx').channelAmount).to.equal(null);
  });

  it('keeps what the binary form would render differently as the node’s JSON: older eras, raw payloads, unknown layouts', () => {
    for (const signed of MAINNET) rendersBack({ signatures: signed.signatures!, tx: signed.tx! });
    // a node < 4.0 printed abi_version as hex: rendered from bytes it would be a number
    const hexAbi = MAINNET.find((s) => (s.tx as JsonObject).abi_version === '0x0001')!;
    expect(isBinary(columns(hexAbi).signed)).to.equal(false);
    const raw = { tx: { ...CASES.SpendTx!.json, payload: 'plain text of node < 3.0' }, signatures: [sg(SIG_A)] };
    expect(isBinary(columns(raw).signed)).to.equal(false);
    rendersBack(raw);
    const unknown = {
      tx: { type: 'ChannelForceProgressTx', version: 1, channel_id: ch, update: { op: 'OffChainNewContract' } },
      signatures: [],
    };
    expect(isBinary(columns(unknown).signed)).to.equal(false);
    rendersBack(unknown);
    // signatures in another order than the node keeps them: the JSON as given
    const unsorted = { tx: CASES.SpendTx!.json, signatures: [sg(SIG_A), sg(SIG_B)] };
    expect(isBinary(columns(unsorted).signed)).to.equal(false);
    rendersBack(unsorted);
  });

  it('stores every transaction of a devnode chain in binary form (but its GAMetaTx) and renders the devnode’s JSON', () => {
    // 200 generations hold every type the devnode generates, the channels' last ones included (asserted below)
    const { chain } = generateChain({ generations: 200, seed: 'stored-tx', hcVotes: true });
    const types = new Set<string>();
    for (const record of chain.txs.values()) {
      const signed = parseJson(txJson(record)) as JsonObject;
      const stored = columns(signed);
      const type = String((signed.tx as JsonObject).type);
      rendersBack(signed);
      // the devnode prints an outer GAMetaTx with `"signatures": []`, where the node prints none
      // (reference/node-api.md): the JSON is kept as it came
      if (type === 'GAMetaTx') continue;
      // the node's JSON of an HCVoteTx does not show its vote type: without the encoded_tx a 7.x node sends with it
      // (and the devnode), it is kept as it came (tx-serialize-new-types)
      if (type === 'HCVoteTx') {
        const { encoded_tx: _, ...json } = signed;
        expect(isBinary(columns(json).signed), type).to.equal(false);
        expect(isBinary(stored.signed), type).to.equal(true);
        continue;
      }
      expect(isBinary(stored.signed), type).to.equal(true);
      expect(stored.size).to.equal(sdkDecode(encodedStoredTx(stored.signed) as `tx_${string}`).length);
      types.add(type);
    }
    // all 26 but the two kept as JSON
    expect(types.size).to.be.at.least(24);
  });
});
