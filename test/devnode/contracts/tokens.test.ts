/**
 * @module AEX-9 tokens, the DEX and AEX-141 collections run by the devnode: call records and logs
 * decode with the standards' event signatures and the bytecode (aepp-calldata), balances move,
 * reverts change nothing, and dry-run answers equal the ledger.
 */
import { expect } from 'chai';
import { BytecodeContractCallEncoder, ContractByteArrayEncoder } from '@aeternity/aepp-calldata';
import { decode } from '../../../src/chain/encoding.ts';
import { parseJson } from '../../../src/chain/json.ts';
import { withPrefix } from '../../../src/chain/id-cache.ts';
import { dryRun } from '../../../src/devnode/api/dry-run.ts';
import { metadataMap } from '../../../src/devnode/contracts/aex141.ts';
import { address, NONE, some, type FateValue } from '../../../src/chain/fate.ts';
import { callData } from '../../../src/devnode/contracts/txs.ts';
import { BYTECODE, type ContractKind } from '../../../src/devnode/contracts/standards.ts';
import { AEX9_EVENTS, eventDecoder, World, type CallInfo } from './world.ts';

const aex9Event = eventDecoder(AEX9_EVENTS);
const encoders = new Map<string, BytecodeContractCallEncoder>();
/** result decodes a call's return value with the function's type from the bytecode. */
function result(kind: ContractKind, fn: string, info: CallInfo): unknown {
  let encoder = encoders.get(kind);
  if (!encoder) encoders.set(kind, (encoder = new BytecodeContractCallEncoder(BYTECODE[kind] as `cb_${string}`)));
  expect(info.return_type, `${fn}: ${info.return_value}`).to.equal('ok');
  return encoder.decodeResult(fn, info.return_value as `cb_${string}`);
}

/** option reads aepp-calldata's option from bytecode types (`{1: [x]}` or `{0: []}`) as x or undefined. */
function option(value: unknown): unknown {
  const v = value as Record<string, unknown[]>;
  return v['1'] ? v['1'][0] : (expect(v).to.deep.equal({ 0: [] }), undefined);
}

/** dry runs a read-only call through the dry-run endpoint's logic and decodes its result. */
function dry(w: World, kind: ContractKind, contract: string, fn: string, args: FateValue[], top?: string): unknown {
  const call_req = { contract, calldata: callData(fn, args), abi_version: 3 };
  const body = { txs: [{ call_req }], ...(top ? { top } : {}) };
  const reply = parseJson(dryRun(w.chain, body).body) as { results: { result: string; call_obj: CallInfo }[] };
  expect(reply.results[0]!.result).to.equal('ok');
  return result(kind, fn, reply.results[0]!.call_obj);
}

describe('devnode native contracts', function () {
  this.timeout(20_000);

  describe('AEX-9 token', () => {
    const w = new World();
    const [owner, alice, bob] = w.keys as [(typeof w.keys)[0], (typeof w.keys)[0], (typeof w.keys)[0]];
    const { id: token, info: created } = w.deploy(owner, 'aex9', ['Test Gold', 18n, 'TGLD', some(10n ** 24n)]);

    it('mints the initial supply to the creator at creation, logged as Mint', () => {
      expect(created.return_type).to.equal('ok');
      expect(created.log.map(aex9Event)).to.deep.equal([{ Mint: [owner.address, 10n ** 24n] }]);
      expect(created.log[0]!.address).to.equal(token);
    });

    it('transfers with a Transfer log, charges the fee and the gas used, and returns unit', () => {
      const before = w.chain.pending.accounts.get(owner.address)!.balance;
      const info = w.call(owner, token, 'transfer', [address(alice.address), 5000n]);
      expect(result('aex9', 'transfer', info)).to.deep.equal([]);
      expect(info.log.map(aex9Event)).to.deep.equal([{ Transfer: [owner.address, alice.address, 5000n] }]);
      expect(info.gas_used).to.be.greaterThan(0).and.lessThan(50_000);
      const after = w.chain.pending.accounts.get(owner.address)!.balance;
      expect(before - after).to.equal(200_000n + BigInt(info.gas_used) * 1_000_000_000n);
    });

    it('logs Allowance on create/transfer_allowance and moves the tokens of the allowing account', () => {
      const created = w.call(alice, token, 'create_allowance', [address(bob.address), 3000n]);
      expect(created.log.map(aex9Event)).to.deep.equal([{ Allowance: [alice.address, bob.address, 3000n] }]);
      const moved = w.call(bob, token, 'transfer_allowance', [address(alice.address), address(bob.address), 1000n]);
      expect(moved.log.map(aex9Event), 'newest first, as the node lists them').to.deep.equal([
        { Transfer: [alice.address, bob.address, 1000n] },
        { Allowance: [alice.address, bob.address, 2000n] },
      ]);
      expect(w.call(alice, token, 'change_allowance', [address(bob.address), -500n]).log.map(aex9Event)).to.deep.equal([
        { Allowance: [alice.address, bob.address, 1500n] },
      ]);
    });

    it('burns with a Burn log and mints (owner only) with a Mint log', () => {
      expect(w.call(bob, token, 'burn', [400n]).log.map(aex9Event)).to.deep.equal([{ Burn: [bob.address, 400n] }]);
      expect(w.call(owner, token, 'mint', [address(bob.address), 7n]).log.map(aex9Event)).to.deep.equal([
        { Mint: [bob.address, 7n] },
      ]);
    });

    it('reverts a forbidden call with the reason as a FATE string, no log and no state change', () => {
      const before = w.chain.pending.accounts.get(alice.address)!.balance;
      const info = w.call(alice, token, 'mint', [address(alice.address), 10n ** 30n]);
      expect(info.return_type).to.equal('revert');
      expect(info.log).to.deep.equal([]);
      expect(
        new ContractByteArrayEncoder().decodeWithType(info.return_value as `cb_${string}`, { name: 'string' }),
      ).to.equal('ONLY_OWNER_CALL_ALLOWED');
      const spent = before - w.chain.pending.accounts.get(alice.address)!.balance;
      expect(spent, 'fee and gas only').to.equal(200_000n + BigInt(info.gas_used) * 1_000_000_000n);
      const tooMuch = w.call(bob, token, 'transfer', [address(alice.address), 10n ** 30n]);
      expect(tooMuch.return_type).to.equal('revert');
    });

    it('fails AE sent to a function that is not payable with an error that uses all the gas and returns the AE', () => {
      const before = w.chain.pending.accounts.get(alice.address)!.balance;
      const info = w.call(alice, token, 'transfer', [address(bob.address), 1n], 123n);
      expect(info.return_type).to.equal('error');
      expect(info.gas_used).to.equal(50_000);
      expect(Buffer.from(decode(info.return_value).bytes).toString()).to.equal('Function transfer is not payable');
      const spent = before - w.chain.pending.accounts.get(alice.address)!.balance;
      expect(spent).to.equal(200_000n + 50_000n * 1_000_000_000n);
      expect(w.chain.pending.accounts.get(withPrefix(token, 'ak'))?.balance ?? 0n).to.equal(0n);
    });

    it('answers dry-runs of meta_info, total_supply, owner, balance and balances from the ledger, at the top and below', () => {
      const mined = w.chain.mineMicroBlock()!;
      expect(dry(w, 'aex9', token, 'meta_info', [])).to.deep.equal(['Test Gold', 'TGLD', 18n]);
      expect(dry(w, 'aex9', token, 'owner', [])).to.equal(owner.address);
      const balances = new Map([
        [owner.address, 10n ** 24n - 5000n],
        [alice.address, 4000n],
        [bob.address, 1000n - 400n + 7n],
      ]);
      expect(dry(w, 'aex9', token, 'balances', [])).to.deep.equal(balances);
      for (const [account, balance] of balances)
        expect(option(dry(w, 'aex9', token, 'balance', [address(account)]))).to.equal(balance);
      expect(dry(w, 'aex9', token, 'total_supply', [])).to.equal(10n ** 24n - 400n + 7n);
      w.call(alice, token, 'transfer', [address(bob.address), 4000n]);
      w.chain.mineMicroBlock();
      expect(option(dry(w, 'aex9', token, 'balance', [address(alice.address)]))).to.equal(0n);
      expect(option(dry(w, 'aex9', token, 'balance', [address(alice.address)], mined.hash)), 'below the top').to.equal(
        4000n,
      );
      expect(option(dry(w, 'aex9', token, 'balance', [address(w.keys[3]!.address)]))).to.equal(undefined);
    });
  });

  describe('DEX', () => {
    const w = new World('dex-test');
    const [trader, other] = w.keys as [(typeof w.keys)[0], (typeof w.keys)[0]];
    const a = w.deploy(trader, 'aex9', ['Token A', 18n, 'TA', some(10n ** 24n)]).id;
    const b = w.deploy(trader, 'aex9', ['Token B', 6n, 'TB', some(10n ** 18n)]).id;
    const wae = w.deploy(trader, 'wae', []).id;
    const model = w.deploy(trader, 'pair', [address(wae), address(a), address(b), NONE, NONE]).id;
    const factory = w.deploy(trader, 'factory', [address(trader.address), address(model), NONE]).id;
    const router = w.deploy(trader, 'router', [address(factory), address(wae), address(wae)]).id;
    for (const token of [a, b, wae])
      w.call(trader, token, 'create_allowance', [address(withPrefix(router, 'ak')), 10n ** 40n]);
    const topics = eventDecoder([
      ...AEX9_EVENTS,
      { PairCreated: ['address', 'address', 'address', 'string'] },
      { PairMint: ['address', 'int', 'int'] },
      { LockLiquidity: ['int'] },
      { Sync: ['int', 'int'] },
      { SwapTokens: ['address', 'address', 'string'] },
      { Deposit: ['address', 'int'] },
    ]);
    let pair = '';

    it('adds liquidity through the router: the factory clones a pair (PairCreated), tokens move by allowance, the pair mints', () => {
      const args = [address(a), address(b), 10n ** 21n, 10n ** 15n, 0n, 0n, address(trader.address), NONE, 0n];
      const info = w.call(trader, router, 'add_liquidity', args);
      const [amountA, amountB, liquidity] = result('router', 'add_liquidity', info) as bigint[];
      expect([amountA, amountB]).to.deep.equal([10n ** 21n, 10n ** 15n]);
      const created = info.log.find((l) => l.address === factory)!;
      const [token0, token1, pairAccount, count] = (topics(created) as { PairCreated: string[] }).PairCreated;
      expect([token0, token1].sort()).to.deep.equal([withPrefix(a, 'ak'), withPrefix(b, 'ak')].sort());
      expect(count).to.equal('1');
      pair = withPrefix(pairAccount!, 'ct');
      expect(w.chain.pending.contracts.get(pair)?.code).to.equal(BYTECODE.pair);
      expect(new Set(info.log.map((l) => l.address))).to.deep.equal(new Set([a, b, factory, pair]));
      const pairEvents = info.log.filter((l) => l.address === pair).map(topics);
      expect(pairEvents).to.deep.include({ Mint: [trader.address, liquidity] });
      const [amount0, amount1] = token0 === withPrefix(a, 'ak') ? [amountA, amountB] : [amountB, amountA];
      expect(pairEvents).to.deep.include({ PairMint: [withPrefix(router, 'ak'), amount0, amount1] });
      expect(pairEvents).to.deep.include({ Sync: [amount0, amount1] });
      w.chain.mineMicroBlock();
      expect(dry(w, 'pair', pair, 'get_reserves', [])).to.deep.equal([amount0, amount1, 0n]);
    });

    it('swaps through the router: the pair pays out, logs SwapTokens "in0|in1|out0|out1" and the constant product holds', () => {
      const before = option(dry(w, 'aex9', b, 'balance', [address(other.address)]));
      const path = [address(a), address(b)];
      const info = w.call(trader, router, 'swap_exact_tokens_for_tokens', [
        10n ** 18n,
        1n,
        path,
        address(other.address),
        0n,
        NONE,
      ]);
      const [amountIn, amountOut] = result('router', 'swap_exact_tokens_for_tokens', info) as bigint[];
      expect(amountIn).to.equal(10n ** 18n);
      expect(before).to.equal(undefined);
      w.chain.mineMicroBlock();
      expect(option(dry(w, 'aex9', b, 'balance', [address(other.address)]))).to.equal(amountOut);
      const swap = info.log
        .filter((l) => l.address === pair)
        .map(topics)
        .find((e) => 'SwapTokens' in (e as object)) as {
        SwapTokens: [string, string, string];
      };
      expect(swap.SwapTokens[0]).to.equal(withPrefix(router, 'ak'));
      expect(swap.SwapTokens[1]).to.equal(other.address);
      const amounts = swap.SwapTokens[2].split('|').map(BigInt);
      expect(amounts).to.have.length(4);
      expect(amounts.filter((x) => x === amountIn)).to.have.length(1);
      expect(amounts.filter((x) => x === amountOut)).to.have.length(1);
    });

    it('wraps AE sent to the router (Deposit from the wrapped-AE contract) to swap it', () => {
      const args = [address(wae), address(a), 10n ** 20n, 10n ** 20n, 0n, 0n, address(trader.address), NONE, 0n];
      w.call(trader, wae, 'deposit', [], 10n ** 21n);
      expect(w.call(trader, router, 'add_liquidity', args).return_type).to.equal('ok');
      const info = w.call(
        other,
        router,
        'swap_exact_ae_for_tokens',
        [0n, [address(wae), address(a)], address(other.address), 0n, NONE],
        10n ** 15n,
      );
      expect(info.return_type).to.equal('ok');
      expect(info.log.filter((l) => l.address === wae).map(topics)).to.deep.include({
        Deposit: [withPrefix(router, 'ak'), 10n ** 15n],
      });
      expect(w.chain.pending.accounts.get(withPrefix(wae, 'ak'))!.balance).to.equal(10n ** 21n + 10n ** 15n);
    });
  });

  describe('AEX-141 collection', () => {
    const w = new World('nft-test');
    const [owner, alice, bob] = w.keys as [(typeof w.keys)[0], (typeof w.keys)[0], (typeof w.keys)[0]];
    const { id: nft } = w.deploy(owner, 'aex141', ['Test Cats', 'TCAT', 2n]);
    const events = eventDecoder([
      { Transfer: ['address', 'address', 'int'] },
      { Mint: ['address', 'int'] },
      { Burn: ['address', 'int'] },
      { TemplateCreation: ['int'] },
      { TemplateMint: ['address', 'int', 'int', 'string'] },
      { EditionLimit: ['int', 'int'] },
    ]);

    it('creates a template with an edition limit, mints editions with TemplateMint and refuses one beyond the limit', () => {
      const template = w.call(owner, nft, 'create_template', [metadataMap({ name: 'cat' }), some(1n)]);
      expect(result('aex141', 'create_template', template)).to.equal(0n);
      expect(template.log.map(events)).to.deep.equal([{ TemplateCreation: [0n] }, { EditionLimit: [0n, 1n] }]);
      const minted = w.call(owner, nft, 'template_mint', [address(alice.address), 0n, NONE]);
      expect(result('aex141', 'template_mint', minted)).to.equal(0n);
      expect(minted.log.map(events)).to.deep.equal([{ TemplateMint: [alice.address, 0n, 0n, '1'] }]);
      expect(w.call(owner, nft, 'template_mint', [address(bob.address), 0n, NONE]).return_type).to.equal('revert');
    });

    it('mints, transfers and burns tokens with their events; owner, balance and metadata answer dry-runs', () => {
      const minted = w.call(owner, nft, 'mint', [address(bob.address), some(metadataMap({ name: 'x' })), NONE]);
      expect(minted.log.map(events)).to.deep.equal([{ Mint: [bob.address, 1n] }]);
      const moved = w.call(alice, nft, 'transfer', [address(bob.address), 0n, NONE]);
      expect(moved.log.map(events)).to.deep.equal([{ Transfer: [alice.address, bob.address, 0n] }]);
      expect(w.call(alice, nft, 'transfer', [address(alice.address), 1n, NONE]).return_type, 'not hers').to.equal(
        'revert',
      );
      expect(w.call(bob, nft, 'burn', [1n]).log.map(events)).to.deep.equal([{ Burn: [bob.address, 1n] }]);
      w.chain.mineMicroBlock();
      expect(option(dry(w, 'aex141', nft, 'owner', [0n]))).to.equal(bob.address);
      expect(option(dry(w, 'aex141', nft, 'owner', [1n]))).to.equal(undefined);
      expect(option(dry(w, 'aex141', nft, 'balance', [address(bob.address)]))).to.equal(1n);
      expect(dry(w, 'aex141', nft, 'total_supply', [])).to.equal(1n);
      expect(option(dry(w, 'aex141', nft, 'metadata', [0n]))).to.deep.equal({
        1: [
          new Map([
            ['template_id', '0'],
            ['edition_serial', '1'],
          ]),
        ],
      });
    });
  });
});
