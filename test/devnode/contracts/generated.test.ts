/**
 * @module A generated chain's tokens, NFTs and swaps: every holder balance recomputed from the call
 * logs (decoded with the standards' event signatures) equals the dry-run `balances()` and the total
 * supply; NFT owners from the logs equal `owner(token)`; the chain has token, NFT and DEX activity.
 */
import { expect } from 'chai';
import { BytecodeContractCallEncoder } from '@aeternity/aepp-calldata';
import { parseJson } from '../../../src/chain/json.ts';
import { withPrefix } from '../../../src/chain/id-cache.ts';
import { generateChain } from '../../../src/devnode/generator.ts';
import { dryRun } from '../../../src/devnode/api/dry-run.ts';
import { callData } from '../../../src/devnode/contracts/txs.ts';
import { BYTECODE, type ContractKind } from '../../../src/devnode/contracts/standards.ts';
import { AEX9_EVENTS, eventDecoder, type CallInfo } from './world.ts';

/** PAIR_EVENTS are a DEX pair's own events (besides AEX-9's). */
const PAIR_EVENTS: Record<string, string[]>[] = [
  { PairMint: ['address', 'int', 'int'] },
  { LockLiquidity: ['int'] },
  { Sync: ['int', 'int'] },
  { SwapTokens: ['address', 'address', 'string'] },
];

describe('devnode generated token traffic', function () {
  this.timeout(60_000);
  // 200 generations hold every kind checked below with room (300 did no more): 7 pairs, 14 calls logging from three
  // contracts, 21 NFTs (150 hold 10, one short), 6 announced pairs and 8 swaps, 78 holders (74 below block 130)
  const { chain } = generateChain({ generations: 200, seed: 'generated-tokens' });
  /** okLogs are the logs of the successful calls among these transactions (default: every one on chain). */
  const okLogs = (records = [...chain.txs.values()]): CallInfo['log'] =>
    records
      .map((r) => r.callInfo as CallInfo | undefined)
      .filter((info) => info?.return_type === 'ok')
      .flatMap((info) => info!.log);
  const logs = okLogs();
  const contractsOf = (kind: ContractKind): string[] =>
    [...chain.state.contracts.entries()].filter(([, c]) => c.code === BYTECODE[kind]).map(([id]) => id);

  function dry(
    kind: ContractKind,
    contract: string,
    fn: string,
    args: Parameters<typeof callData>[1],
    top?: string,
  ): unknown {
    const call_req = { contract, calldata: callData(fn, args), abi_version: 3 };
    const body = { txs: [{ call_req }], ...(top ? { top } : {}) };
    const reply = parseJson(dryRun(chain, body).body) as { results: { call_obj: CallInfo }[] };
    const encoder = new BytecodeContractCallEncoder(BYTECODE[kind] as `cb_${string}`);
    return encoder.decodeResult(fn, reply.results[0]!.call_obj.return_value as `cb_${string}`);
  }

  it('deploys tokens, wrapped AE, a DEX and collections and calls them, several contracts logging in one call', () => {
    expect(contractsOf('aex9')).to.have.length(4);
    expect(contractsOf('wae')).to.have.length(1);
    expect(contractsOf('aex141')).to.have.length(2);
    expect(contractsOf('pair').length, 'the model and the pairs the factory cloned').to.be.greaterThan(3);
    const multi = [...chain.txs.values()].filter(
      (r) => new Set((r.callInfo as CallInfo | undefined)?.log.map((l) => l.address)).size > 2,
    );
    expect(multi.length, 'router calls log from tokens, pairs and the factory').to.be.greaterThan(3);
  });

  /** checkAex9 compares every token's holders, recomputed from `events`, with its dry-run answers at `top`. */
  function checkAex9(events: CallInfo['log'], top?: string): number {
    const decode = eventDecoder([
      ...AEX9_EVENTS,
      ...PAIR_EVENTS,
      { Deposit: ['address', 'int'] },
      { Withdrawal: ['address', 'int'] },
      { PairCreated: ['address', 'address', 'address', 'string'] },
    ]);
    const tokens = [...contractsOf('aex9'), ...contractsOf('wae'), ...contractsOf('pair')];
    let checked = 0;
    for (const token of tokens) {
      const kind = chain.state.contracts.get(token)!.code === BYTECODE.aex9 ? 'aex9' : 'pair';
      const balances = new Map<string, bigint>();
      const add = (account: string, amount: bigint): void => {
        balances.set(account, (balances.get(account) ?? 0n) + amount);
      };
      for (const log of events.filter((l) => l.address === token)) {
        const event = decode(log) as Record<string, [string, string | bigint, bigint?]>;
        const [name, args] = Object.entries(event)[0]!;
        if (name === 'Transfer') {
          add(args[0], -args[2]!);
          add(args[1] as string, args[2]!);
        } else if (name === 'Mint' || name === 'Deposit') add(args[0], args[1] as bigint);
        else if (name === 'Burn' || name === 'Withdrawal') add(args[0], -(args[1] as bigint));
      }
      const nonZero = (m: Map<string, bigint>): [string, bigint][] => [...m].filter(([, v]) => v !== 0n).sort();
      if (balances.size === 0) continue; // created after `top`
      const answered = dry(kind, token, 'balances', [], top) as Map<string, bigint>;
      expect(nonZero(answered), token).to.deep.equal(nonZero(balances));
      const supply = [...balances.values()].reduce((a, b) => a + b, 0n);
      expect(dry(kind, token, 'total_supply', [], top), token).to.equal(supply);
      checked += answered.size;
    }
    return checked;
  }

  it('keeps every AEX-9 balance equal to the sum of its Transfer/Mint/Burn (Deposit/Withdrawal for WAE) logs', () => {
    expect(checkAex9(logs), 'holders checked').to.be.greaterThan(30);
  });

  it('answers dry-runs below the top from the state at that block', () => {
    const middle = chain.keyBlocks[130]!.micro[0]!;
    const upto = chain.keyBlocks.slice(0, 130).flatMap((kb) => kb.micro.flatMap((mb) => mb.txs));
    expect(checkAex9(okLogs([...upto, ...middle.txs]), middle.hash)).to.be.greaterThan(20);
  });

  it('keeps every NFT owner equal to its Mint/TemplateMint/Transfer/Burn logs', () => {
    const decode = eventDecoder([
      { Transfer: ['address', 'address', 'int'] },
      { Mint: ['address', 'int'] },
      { Burn: ['address', 'int'] },
      { TemplateMint: ['address', 'int', 'int', 'string'] },
      { TemplateCreation: ['int'] },
      { TemplateLimit: ['int'] },
      { EditionLimit: ['int', 'int'] },
      { Approval: ['address', 'address', 'int', 'string'] },
    ]);
    let tokens = 0;
    for (const collection of contractsOf('aex141')) {
      const owners = new Map<bigint, string | undefined>();
      for (const log of logs.filter((l) => l.address === collection)) {
        const [name, args] = Object.entries(decode(log) as Record<string, (string | bigint)[]>)[0]!;
        if (name === 'Mint') owners.set(args[1] as bigint, args[0] as string);
        if (name === 'TemplateMint') owners.set(args[2] as bigint, args[0] as string);
        if (name === 'Transfer') owners.set(args[2] as bigint, args[1] as string);
        if (name === 'Burn') owners.set(args[1] as bigint, undefined);
      }
      for (const [token, owner] of owners) {
        const answer = dry('aex141', collection, 'owner', [token]) as Record<string, string[]>;
        expect(answer[1]?.[0], `${collection} token ${token}`).to.equal(owner);
      }
      tokens += owners.size;
      const supply = [...owners.values()].filter((o) => o !== undefined).length;
      expect(dry('aex141', collection, 'total_supply', [])).to.equal(BigInt(supply));
    }
    expect(tokens).to.be.greaterThan(10);
  });

  it('logs swaps as ae_mdw reads them: SwapTokens from a pair the factory announced, amounts as "a|b|c|d"', () => {
    const factory = contractsOf('factory')[0]!;
    const created = eventDecoder([{ PairCreated: ['address', 'address', 'address', 'string'] }]);
    const pairs = new Set(
      logs
        .filter((l) => l.address === factory)
        .map((l) => withPrefix((created(l) as { PairCreated: string[] }).PairCreated[2]!, 'ct')),
    );
    expect(pairs.size).to.be.greaterThan(2);
    const decode = eventDecoder([...AEX9_EVENTS, ...PAIR_EVENTS]);
    const swaps = logs
      .filter((l) => pairs.has(l.address))
      .map((l) => decode(l) as { SwapTokens?: [string, string, string] })
      .filter((e) => e.SwapTokens !== undefined);
    expect(swaps.length).to.be.greaterThan(3);
    for (const swap of swaps) expect(swap.SwapTokens![2]).to.match(/^\d+\|\d+\|\d+\|\d+$/);
  });

  it('keeps balances equal to the logs after a fork replaces the top 40 generations', () => {
    chain.fork(40);
    expect(checkAex9(okLogs())).to.be.greaterThan(30);
  });
});
