/** @module Derived ids (checked against the sdk) and block header hashes (checked against real mainnet blocks). */
import { expect } from 'chai';
import {
  MemoryAccount,
  buildContractId,
  commitmentHash,
  oracleQueryId as sdkQueryId,
  produceNameId,
} from '@aeternity/aepp-sdk';
import { BytecodeContractCallEncoder } from '@aeternity/aepp-calldata';
import { keyBlockHash, microBlockHash, keyBlockJson } from '../../src/devnode/store/blocks.ts';
import { commitmentId, contractId, nameHash, nameValidationError, oracleQueryId } from '../../src/devnode/ids.ts';
import { DEVNODE_CONTRACT_BYTECODE, contractCallData, devnodeCallResult } from '../../src/devnode/contracts/fate-contract.ts';
import { parseSecretKey, signBytes, verifySignature } from '../../src/devnode/keys.ts';
import { decode } from '../../src/chain/encoding.ts';

/** Mainnet key block 38263 (its nonce is beyond 2^63), as the node served it. */
const KEY_BLOCK_38263 = {
  hash: 'kh_rTQLY9ymNL9MSop3RJtySjxPreuowhejHJYu4KSPBfSSZTerh',
  height: 38263,
  miner: 'ak_bCCis9P7hTGCjfhDPZh3KQUSDXd5V7thyxYAznFcsr1iLn1Uv',
  beneficiary: 'ak_nv5B93FPzRHrGNmMdTDfGdd5xGZvep3MVSpJqzcQmMp59bBCv',
  nonce: 15041902164601590529n,
  pow: [
    11019073, 17901996, 22830222, 28569083, 49447859, 49462425, 49519772, 87145865, 99866878, 102237553, 123920118,
    132218818, 155018387, 180362216, 198154991, 201321139, 222409093, 280306327, 281351614, 283186475, 285893935,
    287852747, 323975163, 324943621, 371752985, 397769028, 399438380, 400871099, 414481284, 419637507, 437183279,
    446297926, 458204825, 460525976, 468647042, 479097364, 479884030, 491013280, 503534491, 505981207, 522008475,
    527020581,
  ],
  prev_hash: 'kh_dxbyza4hSY3Ly5U7HJnfn748Po5pJ1rv3dSgisrexcQ5Nna6p',
  prev_key_hash: 'kh_dxbyza4hSY3Ly5U7HJnfn748Po5pJ1rv3dSgisrexcQ5Nna6p',
  state_hash: 'bs_2mnjZYzxN23QpUx7MT2f5RRx8sXcZqvEq7GtqE28LCowq91k4u',
  target: 503824559,
  time: 1550244690796,
  version: 1,
  info: 'cb_Xfbg4g==',
};

/** Mainnet micro block header at height 654915. */
const MICRO_654915 = {
  hash: 'mh_HqJKqWdJ1vaPcr82zYNue99GXcKfjpYbmrEcZ7kmUHAzQoeZv',
  height: 654915,
  prev_hash: 'mh_G2gtKvDAkoi3HZDe5TmWYzGX2pD2AL2DrFXACTch57QEWi1Bo',
  prev_key_hash: 'kh_2HvzkfTvRjfwbim8YZ2q2ETKLhuYK125JGpisr1Cc9m2VSa5iC',
  signature: 'sg_Eyv2nWKwMbxga4XDHH2oCtnSCWhtD87qUjvFLqKvzt9kq2yVPMkcHSv51kr9fmHQk6TGxBHjRjm74pVZtNuHpZkvybsXX',
  state_hash: 'bs_2WNN8aZ15a7pd68wWDZkTqpGUTPezUV6KTN2ra5m3v1x5vVJGC',
  time: 1662950429203,
  txs_hash: 'bx_AK5hwnJdG3KAEHEvzs4gwjkRDZP5sw5sbtqgHsgJT2fp1PJka',
  version: 5,
};

describe('devnode ids, keys and block hashes', () => {
  const owner = MemoryAccount.generate();
  const other = MemoryAccount.generate();

  it('derives oracle query ids as the sdk does', () => {
    const ok = owner.address.replace('ak_', 'ok_');
    expect(oracleQueryId(other.address, 17, ok)).to.equal(sdkQueryId(other.address, 17, ok as `ok_${string}`));
  });

  it('derives contract ids as the sdk does (minimal nonce bytes)', () => {
    for (const nonce of [1, 255, 256, 70000])
      expect(contractId(owner.address, nonce)).to.equal(buildContractId(owner.address, nonce));
  });

  it('derives name hashes and commitments as the sdk does', () => {
    expect(nameHash('Devnode.chain')).to.equal(produceNameId('devnode.chain'));
    expect(commitmentId('devnode.chain', 123456789)).to.equal(commitmentHash('devnode.chain', 123456789));
  });

  it('rejects names the registrar does not know with the node reason atoms', () => {
    expect(nameValidationError('foo.chain')).to.equal(undefined);
    expect(nameValidationError('foo.test')).to.equal('registrar_unknown');
    expect(nameValidationError('foo')).to.equal('no_registrar');
    expect(nameValidationError('a.b.chain')).to.equal('multiple_namespaces');
  });

  it('reads sk_ and hex secrets to the same key and signs verifiably', () => {
    const pair = parseSecretKey(owner.secretKey);
    expect(pair.address).to.equal(owner.address);
    const hex = Buffer.from(decode(owner.secretKey).bytes).toString('hex');
    expect(parseSecretKey(hex).address).to.equal(owner.address);
    const sig = signBytes(pair, Buffer.from('msg'));
    expect(verifySignature(pair.publicKey, Buffer.from('msg'), sig)).to.equal(true);
    expect(verifySignature(pair.publicKey, Buffer.from('other'), sig)).to.equal(false);
    expect(() => parseSecretKey('nope')).to.throw(/secret key/);
  });

  it('hashes a real mainnet key block header to its kh_ (nonce beyond 2^63)', () => {
    const k = KEY_BLOCK_38263;
    const header = {
      height: k.height,
      prevHash: k.prev_hash,
      prevKeyHash: k.prev_key_hash,
      stateHash: k.state_hash,
      miner: k.miner,
      beneficiary: k.beneficiary,
      target: k.target,
      pow: k.pow,
      nonce: k.nonce,
      time: k.time,
      version: k.version,
      info: k.info,
    };
    expect(keyBlockHash(header)).to.equal(k.hash);
    expect(keyBlockJson(header, k.hash).nonce).to.equal(k.nonce);
  });

  it('hashes a real mainnet micro block header to its mh_', () => {
    const m = MICRO_654915;
    expect(
      microBlockHash({
        height: m.height,
        prevHash: m.prev_hash,
        prevKeyHash: m.prev_key_hash,
        stateHash: m.state_hash,
        txsHash: m.txs_hash,
        time: m.time,
        version: m.version,
        signature: m.signature,
      }),
    ).to.equal(m.hash);
  });

  it('serialises a FATE contract whose calldata aepp-calldata decodes by function name', () => {
    const encoder = new BytecodeContractCallEncoder(DEVNODE_CONTRACT_BYTECODE);
    const decodeCall = (data: `cb_${string}`) => encoder.decodeCall(data) as { functionName: string; args: unknown[] };
    expect(decodeCall(contractCallData('set', [2n ** 70n])))
      .to.include({ functionName: 'set' })
      .and.to.have.deep.property('args', [2n ** 70n]);
    expect(decodeCall(contractCallData('note', ['hello'])).args).to.deep.equal(['hello']);
    expect(decodeCall(contractCallData('init', [])).functionName).to.equal('init');
  });

  it('records the devnode contract results so aepp-calldata decodes them', () => {
    const encoder = new BytecodeContractCallEncoder(DEVNODE_CONTRACT_BYTECODE);
    const set = devnodeCallResult(contractCallData('set', [2n ** 70n])) as `cb_${string}`;
    expect(encoder.decodeResult('set', set)).to.equal(2n ** 70n);
    expect(encoder.decodeResult('get', devnodeCallResult(contractCallData('get', [])) as `cb_${string}`)).to.equal(42n);
    expect(devnodeCallResult('cb_Xfbg4g==')).to.equal(undefined);
  });
});
