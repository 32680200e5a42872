/** @module The chain generator: deterministic, valid, every transaction type, big integers, decodable contract calls. */
import { expect } from 'chai';
import { BytecodeContractCallEncoder } from '@aeternity/aepp-calldata';
import { unpackTx } from '@aeternity/aepp-sdk';
import { decode, encode, hash } from '../../src/chain/encoding.ts';
import { generateChain, DEVNODE_CONTRACT_BYTECODE, type Chain, type GeneratedChain } from '../../src/devnode/index.ts';
import { decodeSignedTx, decodeTx } from '../../src/devnode/tx-codec.ts';
import { verifySignature } from '../../src/devnode/keys.ts';

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const ALL_TYPES = [
  'SpendTx',
  'OracleRegisterTx',
  'OracleExtendTx',
  'OracleQueryTx',
  'OracleRespondTx',
  'NamePreclaimTx',
  'NameClaimTx',
  'NameUpdateTx',
  'NameTransferTx',
  'NameRevokeTx',
  'ContractCreateTx',
  'ContractCallTx',
  'ChannelCreateTx',
  'ChannelCloseMutualTx',
];

describe('devnode chain generator', () => {
  let generated: GeneratedChain;
  let chain: Chain;
  before(() => {
    generated = generateChain({ generations: 150, seed: 'generator-test' });
    chain = generated.chain;
  });

  it('is deterministic: the same seed gives the same hashes, another seed different ones', () => {
    const again = generateChain({ generations: 150, seed: 'generator-test' }).chain;
    expect(again.keyBlocks.map((k) => k.hash)).to.deep.equal(chain.keyBlocks.map((k) => k.hash));
    expect([...again.txs.keys()]).to.deep.equal([...chain.txs.keys()]);
    const other = generateChain({ generations: 150, seed: 'another seed' }).chain;
    expect(other.top.hash).to.not.equal(chain.top.hash);
    expect([...other.txs.keys()].filter((h) => chain.txs.has(h))).to.deep.equal([]);
  });

  it('builds N generations of M micro blocks of valid transactions', () => {
    expect(chain.height).to.equal(150);
    expect(generated.rejected).to.equal(0);
    expect(
      chain.keyBlocks.slice(1).every((k) => k.micro.length === 2 && k.micro.every((m) => m.txs.length === 5)),
    ).to.equal(true);
    expect(chain.txs.size).to.equal(1500);
  });

  it('refuses none of its own transactions for other seeds and shapes either', () => {
    for (const seed of ['a', 'b']) {
      const g = generateChain({ generations: 300, microBlocksPerGeneration: 3, txsPerMicroBlock: 4, seed });
      expect(g.rejected, seed).to.equal(0);
      expect(g.chain.txs.size).to.equal(3600);
    }
  });

  it('links blocks: prev_hash is the previous block, prev_key_hash the generation key block', () => {
    for (let h = 1; h <= chain.height; h++) {
      const kb = chain.keyBlocks[h]!;
      const prev = chain.keyBlocks[h - 1]!;
      expect(kb.header.prevHash).to.equal(prev.micro.at(-1)?.hash ?? prev.hash);
      expect(kb.header.prevKeyHash).to.equal(prev.hash);
      kb.micro.forEach((m, i) => expect(m.header.prevHash).to.equal(i === 0 ? kb.hash : kb.micro[i - 1]!.hash));
    }
  });

  it('mixes every transaction type', () => {
    const types = new Set([...chain.txs.values()].map((r) => r.tx.type));
    expect([...types].sort()).to.deep.equal([...ALL_TYPES].sort());
  });

  it('has key block nonces and amounts beyond 2^53', () => {
    expect(chain.keyBlocks.some((k) => (k.header.nonce ?? 0n) > SAFE)).to.equal(true);
    expect([...chain.txs.values()].some((r) => typeof r.tx.amount === 'bigint' && r.tx.amount > SAFE)).to.equal(true);
    expect([...chain.txs.values()].some((r) => typeof r.tx.name_salt === 'bigint')).to.equal(true);
  });

  it('stores real signed transactions: JSON equals the decoded bytes, signatures verify, the sdk unpacks them', () => {
    const network = Buffer.from('ae_devnet');
    for (const r of chain.txs.values()) {
      const { signatures, txBytes } = decodeSignedTx(r.signedBytes);
      expect(decodeTx(txBytes)).to.deep.equal(r.tx);
      expect(r.hash).to.equal(encode('th', hash(r.signedBytes)));
      const signer = String(
        r.tx.sender_id ??
          r.tx.account_id ??
          r.tx.owner_id ??
          r.tx.caller_id ??
          r.tx.initiator_id ??
          r.tx.from_id ??
          r.tx.oracle_id,
      );
      const key = decode(signer).bytes;
      expect(
        signatures.some((s) => verifySignature(key, Buffer.concat([network, txBytes]), s)),
        r.hash,
      ).to.equal(true);
    }
    const someCall = [...chain.txs.values()].find((r) => r.tx.type === 'ContractCallTx')!;
    expect(unpackTx(encode('tx', someCall.signedBytes) as `tx_${string}`)).to.have.property('tag');
  });

  it('makes contract calls aepp-calldata decodes with the created bytecode, and records call results', () => {
    const calls = [...chain.txs.values()].filter((r) => r.tx.type === 'ContractCallTx');
    expect(calls.length).to.be.greaterThan(10);
    for (const r of calls) {
      const code = chain.state.contracts.get(r.tx.contract_id as string)!.code as `cb_${string}`;
      const encoder = new BytecodeContractCallEncoder(code);
      const decoded = encoder.decodeCall(r.tx.call_data as `cb_${string}`) as { functionName: string };
      if (code === DEVNODE_CONTRACT_BYTECODE) {
        expect(['set', 'get', 'note']).to.include(decoded.functionName);
        expect(r.callInfo).to.include({ return_type: 'ok' });
      }
      if (r.callInfo!.return_type === 'ok') {
        expect(encoder.decodeResult(decoded.functionName, r.callInfo!.return_value as `cb_${string}`)).to.not.equal(
          undefined,
        );
      }
    }
  });
});
