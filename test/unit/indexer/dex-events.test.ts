/** @module The DEX's events read from call logs: log order, PairCreated and SwapTokens decoding, swap amounts, action. */
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { encode, Encoding, hash } from '@aeternity/aepp-sdk';
import { callEvents, eventTopic, topicId } from '../../../src/indexer/rows/call-events.ts';
import { parseSwapAmounts, readPairCreated, readSwapTokens } from '../../../src/indexer/derived/dex-events.ts';
import { swapAction } from '../../../src/shapes/v3/render-dex.ts';
import { dexRows } from '../../../src/indexer/derived/dex-tables.ts';
import type { ContractCallRow } from '../../../src/indexer/rows/rows.ts';

const key = (): Buffer => randomBytes(32);
const int = (bytes: Uint8Array): bigint => BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
const ct = (bytes: Uint8Array): string => encode(bytes, Encoding.ContractAddress);
const ak = (bytes: Uint8Array): string => encode(bytes, Encoding.AccountAddress);
const cb = (text: string): string => encode(Buffer.from(text), Encoding.ContractBytearray);
const topic0 = (name: string): bigint => int(hash(name));

describe('call events', () => {
  it('takes topic 0 as the blake2b of the event name', () => {
    expect(eventTopic('SwapTokens')).to.equal(topic0('SwapTokens'));
  });

  it('numbers a call log in emission order (the node lists it newest first) and skips malformed entries', () => {
    const [a, b] = [key(), key()];
    const events = callEvents({
      log: [
        { address: ct(b), topics: [topic0('Second')], data: cb('2') },
        { address: 'junk', topics: 'no' },
        { address: ct(a), topics: [topic0('First'), 7], data: cb('') },
      ],
    });
    expect(events.map((e) => [e.logIdx, e.address, e.topics[0]])).to.deep.equal([
      [0, ct(a), topic0('First')],
      [2, ct(b), topic0('Second')],
    ]);
    expect(events[1]!.data.toString()).to.equal('2');
    expect(callEvents(null)).to.deep.equal([]);
  });

  it('reads an address topic as the id of its public key, and refuses a topic beyond 256 bits', () => {
    const k = key();
    expect(topicId(int(k), 'ak')).to.equal(ak(k));
    expect(topicId(1n << 256n, 'ak')).to.equal(undefined);
  });
});

describe('DEX events', () => {
  const [factory, pair, token0, token1, sender, to] = [key(), key(), key(), key(), key(), key()];

  it('reads PairCreated as [token0, token1, pair] (AedexV2Factory) from its emitter', () => {
    const event = {
      logIdx: 0,
      address: ct(factory),
      topics: [topic0('PairCreated'), int(token0), int(token1), int(pair)],
      data: Buffer.from('3'),
    };
    expect(readPairCreated(event)).to.deep.equal({
      factory: ct(factory),
      pair: ct(pair),
      token0: ct(token0),
      token1: ct(token1),
    });
    expect(readPairCreated({ ...event, topics: event.topics.slice(0, 3) })).to.equal(undefined);
    expect(readPairCreated({ ...event, topics: [topic0('Transfer'), ...event.topics.slice(1)] })).to.equal(undefined);
  });

  it('parses swap amounts exactly, beyond 2^53, and refuses anything but four non-negative integers', () => {
    const big = '115792089237316195423570985008687907853269984665640564039457584007913129639935';
    expect(parseSwapAmounts(`0|${big}|12|0`)).to.deep.equal({
      amount0In: '0',
      amount1In: big,
      amount0Out: '12',
      amount1Out: '0',
    });
    for (const bad of ['1|2|3', '1|2|3|4|5', '1|-2|3|4', '1|2|x|4', '1|2|3|', '1.5|2|3|4', ''])
      expect(parseSwapAmounts(bad), bad).to.equal(undefined);
  });

  it('reads SwapTokens [sender, to] with its amounts from a pair', () => {
    const event = {
      logIdx: 1,
      address: ct(pair),
      topics: [topic0('SwapTokens'), int(sender), int(to)],
      data: Buffer.from('5|0|0|9'),
    };
    expect(readSwapTokens(event)).to.deep.equal({
      pair: ct(pair),
      caller: ak(sender),
      to: ak(to),
      amount0In: '5',
      amount1In: '0',
      amount0Out: '0',
      amount1Out: '9',
    });
    expect(readSwapTokens({ ...event, data: Buffer.from('not amounts') })).to.equal(undefined);
  });

  it('names the action from where wrapped AE is in the pair', () => {
    expect(swapAction(true, false)).to.equal('BUY');
    expect(swapAction(false, true)).to.equal('SELL');
    expect(swapAction(false, false)).to.equal('SWAP');
  });

  it('finds the pairs and swaps of calls with their positions, skipping calls without call info', () => {
    const call = (txHash: string, log: unknown[] | null): ContractCallRow => ({
      height: 7,
      microIndex: 1,
      txIndex: 2,
      txHash,
      contractId: 'ct_router',
      callerId: ak(sender),
      function: null,
      arguments: null,
      callInfo: log === null ? null : ({ log } as ContractCallRow['callInfo']),
      callInfoPruned: log === null,
      result: null,
      decodeError: null,
    });
    const calls = [
      call('th_1', [
        { address: ct(pair), topics: [topic0('SwapTokens'), int(sender), int(to)], data: cb('1|0|0|2') },
        { address: ct(factory), topics: [topic0('PairCreated'), int(token0), int(token1), int(pair)], data: cb('1') },
      ]),
      call('th_2', null),
    ];
    const rows = dexRows(calls, new Set([ct(factory)]));
    expect(rows.pairs.map((p) => [p.txHash, p.logIdx, p.pair, p.factoryByCode])).to.deep.equal([
      ['th_1', 0, ct(pair), true],
    ]);
    // an announcer whose code is no factory's: its pair is kept, unmarked (only DEX_FACTORY can name it)
    expect(dexRows(calls, new Set()).pairs.map((p) => p.factoryByCode)).to.deep.equal([false]);
    expect(rows.swaps.map((s) => [s.txHash, s.logIdx, s.contractId, s.amount1Out])).to.deep.equal([
      ['th_1', 1, 'ct_router', '2'],
    ]);
  });
});
