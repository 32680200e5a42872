/** @module The chain generator: deterministic, valid, every transaction type, big integers, decodable contract calls. */
import { expect } from 'chai';
import { BytecodeContractCallEncoder } from '@aeternity/aepp-calldata';
import { Tag, unpackTx } from '@aeternity/aepp-sdk';
import { decode, encode, hash } from '../../src/chain/encoding.ts';
import { generateChain, DEVNODE_CONTRACT_BYTECODE, type Chain, type GeneratedChain } from '../../src/devnode/index.ts';
import { decodeSignedTx, decodeTx } from '../../src/devnode/tx-codec.ts';
import { verifySignature } from '../../src/devnode/keys.ts';
import { signers } from '../../src/devnode/rules/apply.ts';
import { BYTECODE } from '../../src/devnode/contracts/standards.ts';
import { MADE_UP_TX_TYPE } from '../../src/devnode/rules/made-up-tx.ts';

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
/** ALL_TYPES: every transaction type a micro block of the node can hold (test/fixtures/node-tx-types.json). */
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
  'GAAttachTx',
  'GAMetaTx',
  'PayingForTx',
  'ChannelCreateTx',
  'ChannelDepositTx',
  'ChannelWithdrawTx',
  'ChannelSnapshotSoloTx',
  'ChannelForceProgressTx',
  'ChannelCloseMutualTx',
  'ChannelCloseSoloTx',
  'ChannelSlashTx',
  'ChannelSettleTx',
  'ChannelSetDelegatesTx',
];
/** NOT_IN_SDK: the types the sdk has no tag for (tx-serialize-new-types.test.ts checks them against the node's RLP). */
const NOT_IN_SDK = new Set(['ChannelSetDelegatesTx', 'HCVoteTx']);
/** SDK_TAGS: the sdk's tag of each type (its names differ for GA transactions). */
const SDK_TAG: Record<string, string> = { GAAttachTx: 'GaAttachTx', GAMetaTx: 'GaMetaTx' };

describe('devnode chain generator', () => {
  let generated: GeneratedChain;
  let chain: Chain;
  // 150 generations hold every transaction type (asserted below); the generator is prefix-stable, so 300 only made
  // each case over the chain twice as long
  before(() => {
    generated = generateChain({ generations: 150, seed: 'generator-test' });
    chain = generated.chain;
  });

  it('is deterministic: the same seed gives the same hashes, another seed different ones', () => {
    // a shorter chain of the same seed is the longer one's first generations (a generation does not depend on how
    // many follow): the same hashes, block by block and transaction by transaction
    const again = generateChain({ generations: 50, seed: 'generator-test' }).chain;
    expect(again.keyBlocks.map((k) => k.hash)).to.deep.equal(chain.keyBlocks.slice(0, 51).map((k) => k.hash));
    const first = [...chain.txs.values()].filter((r) => r.blockHeight <= 50).map((r) => r.hash);
    expect(first).to.have.length(500);
    expect([...again.txs.keys()]).to.deep.equal(first);
    // another seed's chain, of a few generations: its top is not this chain's key block of its height, and no
    // transaction is this chain's
    const other = generateChain({ generations: 20, seed: 'another seed' }).chain;
    expect(other.top.hash).to.not.equal(chain.keyBlocks[20]!.hash);
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
      const g = generateChain({ generations: 100, microBlocksPerGeneration: 3, txsPerMicroBlock: 4, seed });
      expect(g.rejected, seed).to.equal(0);
      expect(g.chain.txs.size).to.equal(1200);
      // every type made and checked in this shape too
      expect(Object.keys(g.txTypes).sort(), seed).to.deep.equal([...ALL_TYPES].sort());
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

  it('mixes every transaction type in 150 generations, inner ones included, and counts them per type', () => {
    const types = new Set([...chain.txs.values()].map((r) => r.tx.type));
    expect([...types].sort()).to.deep.equal([...ALL_TYPES].sort());
    const counted = Object.values(generated.txTypes).reduce((a, b) => a + b, 0);
    const inner = [...chain.txs.values()].filter((r) => r.tx.type === 'GAMetaTx' || r.tx.type === 'PayingForTx');
    expect(counted).to.equal(chain.txs.size + inner.length);
    expect(Object.keys(generated.txTypes).sort()).to.deep.equal([...ALL_TYPES].sort());
  });

  it('with madeUpTxs, also emits a type no node has, which the shared codec refuses, valid and signed (tests only)', () => {
    const g = generateChain({ generations: 60, seed: 'made-up', madeUpTxs: true });
    expect(g.rejected).to.equal(0);
    const made = [...g.chain.txs.values()].filter((r) => r.tx.type === MADE_UP_TX_TYPE);
    expect(made.length).to.be.greaterThan(0);
    expect(g.txTypes[MADE_UP_TX_TYPE]).to.equal(made.length);
    for (const r of made) {
      const { signatures, txBytes } = decodeSignedTx(r.signedBytes);
      expect(() => decodeTx(txBytes)).to.throw();
      const owner = decode(r.tx.owner_id as string).bytes;
      const message = Buffer.concat([Buffer.from('ae_devnet'), txBytes]);
      expect(signatures.some((s) => verifySignature(owner, message, s))).to.equal(true);
      expect((r.tx.amount as bigint) > SAFE).to.equal(true);
    }
    expect(generated.txTypes[MADE_UP_TX_TYPE], 'not without the flag').to.equal(undefined);
  });

  it("with hcVotes, also emits a hyperchain's epoch votes, valid and signed by the voter; a main chain none", () => {
    const g = generateChain({ generations: 60, seed: 'hc-votes', hcVotes: true });
    expect(g.rejected).to.equal(0);
    const votes = [...g.chain.txs.values()].filter((r) => r.tx.type === 'HCVoteTx');
    expect(votes.length).to.be.greaterThan(0);
    expect(g.txTypes.HCVoteTx).to.equal(votes.length);
    for (const r of votes) {
      const { signatures, txBytes } = decodeSignedTx(r.signedBytes);
      const voter = decode(r.tx.voter_id as string).bytes;
      const message = Buffer.concat([Buffer.from('ae_devnet'), txBytes]);
      expect(signatures.some((s) => verifySignature(voter, message, s))).to.equal(true);
    }
    expect(generated.txTypes.HCVoteTx, 'not without the flag').to.equal(undefined);
  });

  it('with registrarBids, the registrar outbids accounts in their auctions and accounts outbid it; without, it bids in none', () => {
    /** bidders lists each name's successful claims and bids in chain order: `contract` for the registrar's calls */
    const bidders = (g: GeneratedChain): Map<string, string[]> => {
      const out = new Map<string, string[]>();
      const add = (name: string, who: string): void => void out.set(name, [...(out.get(name) ?? []), who]);
      for (const r of g.chain.txs.values()) {
        if (r.tx.type === 'NameClaimTx') add(String(r.tx.name), 'account');
        if (r.tx.type !== 'ContractCallTx' || r.callInfo?.return_type !== 'ok') continue;
        const code = g.chain.state.contracts.get(r.tx.contract_id as string)!.code as `cb_${string}`;
        if (code !== BYTECODE.registrar) continue;
        const call = new BytecodeContractCallEncoder(code).decodeCall(r.tx.call_data as `cb_${string}`) as {
          functionName: string;
          args: unknown[];
        };
        if (call.functionName === 'claim') add(String(call.args[0]), 'contract');
      }
      return out;
    };
    const follows = (g: GeneratedChain, first: string, then: string): boolean =>
      [...bidders(g).values()].some((seq) => seq.some((who, i) => who === first && seq[i + 1] === then));
    const shape = { generations: 40, txsPerMicroBlock: 8, tokenShare: 0.5, registrar: true };
    const bidding = generateChain({ ...shape, seed: 'balances-registrar-bids', registrarBids: true });
    expect(bidding.rejected).to.equal(0);
    expect(follows(bidding, 'account', 'contract'), 'an account outbid by the contract').to.equal(true);
    expect(follows(bidding, 'contract', 'account'), 'the contract outbid by an account').to.equal(true);
    const claiming = generateChain({ ...shape, seed: 'balances-registrar-bids' });
    expect(follows(claiming, 'account', 'contract'), 'not without the flag').to.equal(false);
  });

  it('has key block nonces and amounts beyond 2^53', () => {
    expect(chain.keyBlocks.some((k) => (k.header.nonce ?? 0n) > SAFE)).to.equal(true);
    expect([...chain.txs.values()].some((r) => typeof r.tx.amount === 'bigint' && r.tx.amount > SAFE)).to.equal(true);
    expect([...chain.txs.values()].some((r) => typeof r.tx.name_salt === 'bigint')).to.equal(true);
  });

  it('stores real signed transactions: JSON equals the decoded bytes, signatures verify, the sdk unpacks every one', () => {
    const network = Buffer.from('ae_devnet');
    for (const r of chain.txs.values()) {
      const { signatures, txBytes } = decodeSignedTx(r.signedBytes);
      expect(decodeTx(txBytes)).to.deep.equal(r.tx);
      expect(r.hash).to.equal(encode('th', hash(r.signedBytes)));
      if (!NOT_IN_SDK.has(String(r.tx.type))) {
        const unpacked = unpackTx(encode('tx', r.signedBytes) as `tx_${string}`) as {
          tag: number;
          encodedTx: { tag: number };
        };
        expect(Tag[unpacked.encodedTx.tag], r.hash).to.equal(SDK_TAG[String(r.tx.type)] ?? r.tx.type);
      }
      // (a closed channel's mutual close lists its from_id only: the channel is gone from the final state)
      const expected = signers(r.tx, chain.state);
      if (r.tx.type === 'GAMetaTx') expect(signatures, 'a GAMetaTx is authorised by its contract').to.deep.equal([]);
      for (const signer of expected) {
        const key = decode(signer).bytes;
        expect(
          signatures.some((s) => verifySignature(key, Buffer.concat([network, txBytes]), s)),
          r.hash,
        ).to.equal(true);
      }
    }
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
      // the info's own copies of its transaction's fields, read back from the packed store as the node shows them
      expect(r.callInfo, r.hash).to.include({
        caller_id: r.tx.caller_id,
        caller_nonce: Number(r.tx.nonce),
        height: r.blockHeight,
        contract_id: r.tx.contract_id,
      });
      expect(BigInt(r.callInfo!.gas_price as number), r.hash).to.equal(BigInt(r.tx.gas_price as number));
      for (const log of r.callInfo!.log as { address: string }[]) expect(log.address, r.hash).to.match(/^ct_/);
      if (r.callInfo!.return_type === 'ok') {
        expect(encoder.decodeResult(decoded.functionName, r.callInfo!.return_value as `cb_${string}`)).to.not.equal(
          undefined,
        );
      }
    }
  });
  it('crosses Ceres → Arcus when its schedule says so, with transactions on both sides of the fork', () => {
    const crossing = generateChain({
      generations: 12,
      seed: 'generator-arcus',
      hardForks: [
        { version: 6, height: 0 },
        { version: 7, height: 6 },
      ],
    });
    expect(crossing.rejected).to.equal(0);
    const versions = crossing.chain.keyBlocks.map((k) => k.header.version);
    expect(versions).to.deep.equal([...Array(6).fill(6), ...Array(7).fill(7)]);
    const micros = (height: number): { header: { version: number }; txs: readonly unknown[] }[] =>
      crossing.chain.keyBlocks[height]!.micro;
    expect(micros(5).every((m) => m.header.version === 6 && m.txs.length > 0)).to.equal(true);
    expect(micros(6).every((m) => m.header.version === 7 && m.txs.length > 0)).to.equal(true);
    // transactions start at height 1: a schedule below Ceres there is refused
    expect(() =>
      generateChain({
        generations: 2,
        seed: 'x',
        hardForks: [
          { version: 5, height: 0 },
          { version: 6, height: 2 },
        ],
      }),
    ).to.throw(/height 1 must be 6 or later/);
  });

  describe('token share', () => {
    const tokenCodes = new Set(Object.values(BYTECODE));
    /** tokenTxsOn recounts from the chain: creations of token, NFT and DEX contracts, and calls to them */
    const tokenTxsOn = (c: Chain): number =>
      [...c.txs.values()].filter(
        (r) =>
          (r.tx.type === 'ContractCreateTx' && tokenCodes.has(r.tx.code as string)) ||
          (r.tx.type === 'ContractCallTx' && tokenCodes.has(c.state.contracts.get(r.tx.contract_id as string)!.code)),
      ).length;

    it('makes a chain without tokens at 0', () => {
      const none = generateChain({ generations: 80, seed: 'token-share', tokenShare: 0 });
      expect(none.rejected).to.equal(0);
      expect(none.tokenTxs).to.equal(0);
      expect(tokenTxsOn(none.chain)).to.equal(0);
      expect(none.txTypes.ContractCallTx, 'plain contract calls remain').to.be.greaterThan(0);
    });

    it('makes the given share of transactions token, NFT and DEX transactions, all valid', () => {
      for (const share of [0.35, 0.7]) {
        const heavy = generateChain({ generations: 80, seed: 'token-share', tokenShare: share });
        expect(heavy.rejected).to.equal(0);
        const counted = tokenTxsOn(heavy.chain);
        expect(heavy.tokenTxs).to.equal(counted);
        const measured = counted / heavy.chain.txs.size;
        expect(measured, `share ${share}`).to.be.within(share - 0.06, share + 0.06);
      }
    });

    it('refuses a share outside 0–1', () => {
      expect(() => generateChain({ generations: 1, seed: 'token-share', tokenShare: 1.5 })).to.throw(RangeError);
    });
  });
});
